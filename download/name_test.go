package download

import (
	"errors"
	"testing"

	"github.com/rfc1738/rfc1738"
)

func TestNameFromURL(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://host.dom/%2Fetc/motd;type=a":    "motd",          // §3.2.2
		"ftp://h/pub/a%20b.tar.gz":             "a b.tar.gz",    // §2.2 decoded
		"http://h/dir/file.html?q=1":           "file.html",     // the search is not the name
		"gopher://h/0/docs/hello.txt":          "hello.txt",     // the selector's last part
		"file:///usr/share/doc/rfc1738.txt":    "rfc1738.txt",   // §3.10
		"http://h/%E6%9D%B1%E4%BA%AC.txt":      "東京.txt",        // 8-bit bytes decoded
		"prospero://h:1525/misc/ietf;type=bin": "ietf;type=bin", // generic: the segment
	} {
		u, err := rfc1738.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := NameFromURL(u); err != nil || got != want {
			t.Errorf("NameFromURL(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	// Nothing a URL decodes to may leave the folder or hide there.
	for _, in := range []string{"ftp://h/pub/", "http://h/", "http://h", "ftp://h/a%2F..%2Fb", "http://h/..", "ftp://h/x%0Ay", "gopher://h/1/"} {
		u, err := rfc1738.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := NameFromURL(u); !errors.Is(err, ErrNoName) {
			t.Errorf("NameFromURL(%s) = %q, %v; want ErrNoName", in, got, err)
		}
	}
}

func TestReserve(t *testing.T) {
	taken := map[string]bool{}
	var got []string
	for _, p := range []string{"d/million", "d/million", "d/other", "d/million", "d/million.1"} {
		got = append(got, Reserve(taken, p))
	}
	want := []string{"d/million", "d/million.1", "d/other", "d/million.2", "d/million.1.1"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("names %q, want %q", got, want)
			break
		}
	}
}
