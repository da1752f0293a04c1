package access

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
)

// fileTestURL returns the file URL of a local absolute path (§3.10).
func fileTestURL(path string) string {
	segs := strings.Split(filepath.ToSlash(path), "/")
	for i, s := range segs {
		segs[i] = rfc1738.Escape(s, rfc1738.FSegment)
	}
	return "file://" + strings.Join(segs, "/")
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a b.txt"), []byte("spaced\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	c := NewClient()
	get := func(url string) (*Response, string) {
		t.Helper()
		resp, err := c.Get(context.Background(), mustParse(t, url))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp, string(b)
	}

	fu := fileTestURL(filepath.Join(dir, "a b.txt"))
	p, err := c.Plan(mustParse(t, fu))
	if err != nil || len(p.Lines()) != 1 || p.Lines()[0] != "open "+filepath.Join(dir, "a b.txt") || p.Connect != "" {
		t.Fatalf("plan %q %q, %v", p.Lines(), p.Connect, err)
	}
	resp, body := get(fu)
	if body != "spaced\n" || resp.Size != 7 {
		t.Errorf("file: %q, size %d", body, resp.Size)
	}
	// "localhost" is this machine too (§3.10).
	if _, body := get(strings.Replace(fu, "file://", "file://localhost", 1)); body != "spaced\n" {
		t.Errorf("localhost: %q", body)
	}

	du := fileTestURL(dir) + "/"
	_, body = get(du)
	want := "a b.txt  " + du + "a%20b.txt\nsub/  " + du + "sub/\n"
	if !fileSameLines(body, want) {
		t.Errorf("listing:\n%s\nwant\n%s", body, want)
	}
	c.Listing = ListingJSON
	resp, body = get(fileTestURL(dir)) // without the final "/"
	if !strings.Contains(body, `{"name":"a b.txt","url":"`+du+`a%20b.txt","kind":"file","size":7,"modified":"`) ||
		!strings.Contains(body, `{"name":"sub/","url":"`+du+`sub/","kind":"directory","modified":"`) || resp.Type != "application/jsonl" {
		t.Errorf("json listing (%s):\n%s", resp.Type, body)
	}
	c.Listing = ListingRaw
	if _, body = get(du); !fileSameLines(body, "a b.txt\nsub/\n") {
		t.Errorf("raw listing: %q", body)
	}

	_, err = c.Get(context.Background(), mustParse(t, fileTestURL(filepath.Join(dir, "missing"))))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestFileOtherHost: §3.10 gives no access to another machine's files;
// the error is immediate and nothing is dialled (no Connect).
func TestFileOtherHost(t *testing.T) {
	c := NewClient()
	u := mustParse(t, "file://vms.host.edu/disk$user/my/notes/note12345.txt")
	_, err := c.Plan(u)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), `"vms.host.edu"`) {
		t.Errorf("Plan = %v", err)
	}
	if _, err := c.Get(context.Background(), u); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Get = %v", err)
	}
	// A segment that decodes to "/" or NUL cannot be a local path.
	for _, in := range []string{"file:///etc%2Fpasswd", "file:///tmp/a%00b"} {
		if _, err := c.Plan(mustParse(t, in)); err == nil {
			t.Errorf("Plan(%q) passed", in)
		}
	}
}

func TestFileCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	os.WriteFile(path, []byte("data"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	c := NewClient()
	resp, err := c.Get(ctx, mustParse(t, fileTestURL(path)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	cancel()
	if _, err := io.ReadAll(resp.Body); !errors.Is(err, context.Canceled) {
		t.Errorf("read after cancel: %v", err)
	}
}

// fileSameLines compares two listings as sets of lines: ReadDir's order is
// the file system's.
func fileSameLines(a, b string) bool {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	if len(x) != len(y) {
		return false
	}
	seen := map[string]int{}
	for _, l := range x {
		seen[l]++
	}
	for _, l := range y {
		seen[l]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}
