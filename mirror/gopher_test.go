package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

func TestMirrorGophernicus(t *testing.T) {
	g := testserver.Gophernicus(t)
	// Names with spaces, ";", "%", "#" and non-ASCII, and a nested menu.
	extra := map[string]string{
		"names/semi;colon.txt": "semi\r\n",
		"names/100%.txt":       "percent\r\n",
		"names/東京.txt":         "tokyo\r\n",
	}
	for rel, body := range extra {
		p := filepath.Join(g.Root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.Chmod(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gm, _ := os.ReadFile(filepath.Join(g.Root, "gophermap"))
	gm = bytes.Replace(gm, []byte("\n.\n"), []byte("\n1More names\t/names/\n0Tokyo\t/names/東京.txt\n.\n"), 1)
	os.WriteFile(filepath.Join(g.Root, "gophermap"), gm, 0o644)

	url := fmt.Sprintf("gopher://%s:%d/1/", g.Host, g.Port)
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Verbose: true})
	if err != nil || st.Failed > 0 {
		t.Fatalf("%+v, %v\n%s", st, err, log.String())
	}
	// Gophernicus sends text items (type 0) with CRLF line ends.
	want := map[string]string{
		"hello.txt":            "Hello from gopher.\r\nSecond line.\r\n",
		"docs/with space.txt":  "space name\r\n",
		"docs/blob.bin":        string(testserver.GopherBlob()),
		"names/semi;colon.txt": "semi\r\n",
		"names/東京.txt":         "tokyo\r\n",
	}
	for rel, body := range want {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || string(b) != body {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, body)
		}
	}
	if t.Failed() {
		t.Log(log.String())
	}
	menu, err := os.ReadFile(filepath.Join(dir, GopherMenuName))
	if err != nil || !strings.Contains(string(menu), "/names/") {
		t.Errorf("top menu not saved: %v\n%s", err, menu)
	}
	if st.Recorded == 0 {
		t.Errorf("no search or other-host item recorded: %+v\n%s", st, log.String())
	}
	recs := readManifest(t, dir)
	// Gophernicus's own menus write a byte outside its set as "#" and
	// octal digits; whatever the selectors, each record names a file
	// that is there whole.
	for p, r := range recs {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if sum := sha256.Sum256(b); err != nil || int64(len(b)) != r.Size || hex.EncodeToString(sum[:]) != r.SHA256 || !strings.HasPrefix(r.URL, "gopher://") {
			t.Errorf("record %+v: file %d bytes, %v", r, len(b), err)
		}
	}
	if len(recs) != st.Fetched {
		t.Errorf("%d records, %d fetched", len(recs), st.Fetched)
	}

	// A second run fetches the menus again (they say no size or time)
	// and no document.
	log.Reset()
	st2, err := Mirror(context.Background(), url, dir, Options{Log: &log, Verbose: true})
	if err != nil || st2.Fetched != st2.Dirs || st2.Planned != 0 || st2.Unchanged == 0 {
		t.Errorf("second run %+v (first %+v), %v; want only the menus fetched\n%s", st2, st, err, log.String())
	}
}

func TestGopherSegment(t *testing.T) {
	for in, want := range map[string]string{
		"a b;c#d":   "a b;c#d",
		"100%":      "100%25",
		"%25":       "%2525",
		"..":        "%2E%2E",
		".":         "%2E",
		"tab\there": "tab%09here",
		"東京":        "東京",
	} {
		if got := gopherSegment(in); got != want {
			t.Errorf("gopherSegment(%q) = %q, want %q", in, got, want)
		}
	}
	s := &gopherSite{host: "h:70"}
	for _, tt := range []struct {
		it   gopher.Item
		want string
	}{
		{gopher.Item{Type: '1', Selector: "", Host: "h", Port: 70}, GopherMenuName},
		{gopher.Item{Type: '1', Selector: "/a/../b/", Host: "h", Port: 70}, "a/%2E%2E/b/" + GopherMenuName},
		{gopher.Item{Type: '0', Selector: "/.rfc1738-mirror.jsonl", Host: "h", Port: 70}, "%2Erfc1738-mirror.jsonl"},
		{gopher.Item{Type: '0', Selector: "/x", Host: "other", Port: 7070}, "%other:7070/x"},
	} {
		if got := s.localPath(tt.it); got != tt.want {
			t.Errorf("localPath(%+v) = %q, want %q", tt.it, got, tt.want)
		}
	}
}
