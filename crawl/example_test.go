package crawl_test

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/crawl"
)

// A frontier visits each distinct URL once: an equivalent spelling under
// RFC 1738 §2.2 ("%61" for "a", "%7e" for "%7E", an upper-case host, the default port) is
// the same URL, and a visit may add what it finds.
func ExampleFrontier() {
	var (
		mu      sync.Mutex
		visited []string
	)
	f := &crawl.Frontier{PerHost: 1}
	f.Visit = func(ctx context.Context, t crawl.Task) {
		mu.Lock()
		visited = append(visited, fmt.Sprintf("%d %s", t.Depth, t.Key))
		mu.Unlock()
		if t.Depth == 0 {
			// What a visit of the page found: one new URL, one already seen.
			for _, s := range []string{"http://example.org/b", "http://EXAMPLE.org:80/%61"} {
				u, _ := rfc1738.Parse(s)
				f.Add(u, t.Depth+1)
			}
		}
	}
	for _, s := range []string{"http://example.org/a", "ftp://ftp.example.org/pub/%7efile"} {
		u, _ := rfc1738.Parse(s)
		f.Add(u, 0)
	}
	u, _ := rfc1738.Parse("ftp://FTP.example.org:21/pub/%7Efile")
	_, added := f.Add(u, 0)
	fmt.Println("added again:", added)
	if err := f.Run(context.Background()); err != nil {
		fmt.Println(err)
	}
	sort.Strings(visited)
	for _, v := range visited {
		fmt.Println(v)
	}
	// Output:
	// added again: false
	// 0 ftp://ftp.example.org/pub/%7Efile
	// 0 http://example.org/a
	// 1 http://example.org/b
}
