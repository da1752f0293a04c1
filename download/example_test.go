package download_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/download"
)

// A Fetcher saves many URLs at once, each through its .part file,
// retried and resumed where a transfer stopped; Events tells of each
// file as it is saved.
func ExampleFetcher() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "the page at %s\n", r.URL.Path)
	})}}
	srv.Start()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	var jobs []download.Job
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		u, err := rfc1738.Parse(srv.URL + "/" + name)
		if err != nil {
			fmt.Println(err)
			return
		}
		jobs = append(jobs, download.Job{URL: u, Path: filepath.Join(dir, name)})
	}
	f := &download.Fetcher{
		Client:     access.NewClient(),
		Parallel:   2,
		Resume:     true,
		Retries:    3,
		RetryDelay: 100 * time.Millisecond,
		Events: func(ev download.Event) {
			if ev.Kind == download.Failed {
				fmt.Println(ev.Err) // not in this example's output: nothing fails
			}
		},
	}
	st := f.Run(context.Background(), jobs)
	fmt.Printf("%d saved, %d failed, %d bytes\n", st.Saved, st.Failed, st.Bytes)
	b, _ := os.ReadFile(filepath.Join(dir, "b.txt"))
	fmt.Print(string(b))
	// Output:
	// 3 saved, 0 failed, 57 bytes
	// the page at /b.txt
}
