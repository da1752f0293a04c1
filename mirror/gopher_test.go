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
	"sync/atomic"
	"testing"

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
	// and no document: gophernicus gives no size or time, so none is
	// verified, each counted as not rechecked.
	log.Reset()
	st2, err := Mirror(context.Background(), url, dir, Options{Log: &log, Verbose: true})
	if err != nil || st2.Fetched != st2.Dirs || st2.Planned != 0 || st2.NotRechecked == 0 || st2.Unchanged != 0 {
		t.Errorf("second run %+v (first %+v), %v; want only the menus fetched\n%s", st2, st, err, log.String())
	}
}

func TestGopherSegment(t *testing.T) {
	for in, want := range map[string]string{
		"a b;c#d":   "a b;c#d",
		"100%":      "100%",
		"%25":       "%2525",
		"..":        "%2E%2E",
		".":         "%2E",
		"tab\there": "tab%09here",
		"東京":        "東京",
	} {
		if got := localSegment(in); got != want {
			t.Errorf("localSegment(%q) = %q, want %q", in, got, want)
		}
	}
	s := &gopherSite{host: "h:70"}
	for _, tt := range []struct {
		it   gopherItem
		want string
	}{
		{gopherItem{Type: '1', Selector: "", Host: "h", Port: 70}, GopherMenuName},
		{gopherItem{Type: '1', Selector: "/a/../b/", Host: "h", Port: 70}, "a/%2E%2E/b/" + GopherMenuName},
		{gopherItem{Type: '0', Selector: "/.rfc1738-mirror.jsonl", Host: "h", Port: 70}, "%2Erfc1738-mirror.jsonl"},
		{gopherItem{Type: '0', Selector: "/x", Host: "other", Port: 7070}, "%other:7070/x"},
		// Remote names that would read as the mirror's own: a menu's
		// file, a root, another server's folder, Gopher+ attributes.
		{gopherItem{Type: '0', Selector: "/%gophermap", Host: "h", Port: 70}, "%25gophermap"},
		{gopherItem{Type: '0', Selector: "/%other:7070/x", Host: "h", Port: 70}, "%25other:7070/x"},
		{gopherItem{Type: '0', Selector: "/a%gopher+", Host: "h", Port: 70}, "a%25gopher+"},
		{gopherItem{Type: '0', Selector: "/%root", Host: "other", Port: 7070}, "%other:7070/%25root"},
		{gopherItem{Type: '0', Selector: "/100%/pct%dir", Host: "h", Port: 70}, "100%/pct%dir"},
	} {
		if got := s.localPath(tt.it); got != tt.want {
			t.Errorf("localPath(%+v) = %q, want %q", tt.it, got, tt.want)
		}
	}
}

// TestMirrorGopherDelete changes gophernicus's tree between two runs
// with Delete: an item gone from a menu read whole (hello.txt from the
// root's gophermap, docs/readme.txt from the generated docs menu) is
// removed with its record; what the menus still name stays.
func TestMirrorGopherDelete(t *testing.T) {
	g := testserver.Gophernicus(t)
	url := fmt.Sprintf("gopher://%s:%d/1/", g.Host, g.Port)
	dir := t.TempDir()
	var log bytes.Buffer
	if st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true}); err != nil || st.Failed > 0 || st.Deleted != 0 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	for _, rel := range []string{"hello.txt", "docs/readme.txt", "docs/with space.txt"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			t.Fatalf("first run: %v", err)
		}
	}
	gm, _ := os.ReadFile(filepath.Join(g.Root, "gophermap"))
	gm = bytes.Replace(gm, []byte("0Hello text\t/hello.txt\n"), nil, 1)
	if err := os.WriteFile(filepath.Join(g.Root, "gophermap"), gm, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(g.Root, "docs", "readme.txt")); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true})
	if err != nil || st.Failed > 0 || st.Deleted != 2 {
		t.Fatalf("second run %+v, %v; want 2 deleted\n%s", st, err, log.String())
	}
	for rel, gone := range map[string]bool{"hello.txt": true, "docs/readme.txt": true, "docs/with space.txt": false, "docs/blob.bin": false, GopherMenuName: false, ManifestName: false} {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel)))
		if gone != os.IsNotExist(err) {
			t.Errorf("%s: %v; want gone %v\n%s", rel, err, gone, log.String())
		}
	}
	recs := readManifest(t, dir)
	if _, ok := recs["hello.txt"]; ok {
		t.Errorf("manifest still names hello.txt")
	}
	if _, ok := recs["docs/readme.txt"]; ok {
		t.Errorf("manifest still names docs/readme.txt")
	}
}

// TestMirrorGopherDeleteByMenu: an item is deleted when the menu that
// listed it was read whole and no menu names it now; one whose menu
// could not be read stays (selectors put items anywhere, so only its
// own menu can say it is gone), and so does a file that no run made.
// The items here live outside their menu's folder (/menu lists /a).
func TestMirrorGopherDeleteByMenu(t *testing.T) {
	var step atomic.Int32
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		switch string(req) {
		case "/menu\r\n":
			switch step.Load() {
			case 1, 2:
				return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a", "1 /sub")}
			case 3:
				return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a")}
			}
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a", "0 /b", "1 /sub")}
		case "/sub\r\n":
			switch step.Load() {
			case 1:
				return testserver.GopherReply{Reply: []byte("3no menu now\terror\terror.host\t1\r\n.\r\n")}
			case 2:
				return testserver.GopherReply{Reply: gopherMenu(addr, "1 /sub/deeper")}
			}
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /sub/c", "1 /sub/deeper")}
		case "/sub/deeper\r\n":
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /sub/deeper/d")}
		}
		return testserver.GopherReply{Reply: []byte("text\r\n.\r\n")}
	})
	url := "gopher://" + fake.Addr + "/1/menu"
	dir := t.TempDir()
	if st, err := Mirror(context.Background(), url, dir, Options{Delete: true}); err != nil || st.Failed > 0 || st.Fetched != 7 {
		t.Fatalf("first run %+v, %v", st, err)
	}
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("no run made me"), 0o644)
	exists := func(when string, want map[string]bool) {
		t.Helper()
		for rel, there := range want {
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(rel))); there != (err == nil) {
				t.Errorf("%s: %s: %v; want there %v", when, rel, err, there)
			}
		}
	}
	step.Store(1) // /menu drops /b; /sub cannot be read
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true})
	if err != nil || st.Failed != 1 || st.Deleted != 1 {
		t.Errorf("run with a broken menu %+v, %v; want b deleted\n%s", st, err, log.String())
	}
	exists("broken /sub", map[string]bool{"b": false, "a": true, "sub/c": true, "sub/deeper/d": true, "mine.txt": true})

	step.Store(2) // /sub drops c
	log.Reset()
	st, err = Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true})
	if err != nil || st.Deleted != 1 {
		t.Errorf("whole run %+v, %v; want sub/c deleted\n%s", st, err, log.String())
	}
	exists("/sub without c", map[string]bool{"sub/c": false, "sub/deeper/d": true, "mine.txt": true})

	step.Store(1) // /sub broken again: nothing of it goes
	Mirror(context.Background(), url, dir, Options{Delete: true})
	exists("broken again", map[string]bool{"sub/deeper/d": true, "sub/deeper/" + GopherMenuName: true})
	if _, ok := readManifest(t, dir)["sub/c"]; ok {
		t.Error("the manifest still names sub/c")
	}

	step.Store(3) // /menu drops /sub: all it listed goes, down the tree
	log.Reset()
	st, err = Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true})
	if err != nil || st.Deleted != 3 {
		t.Errorf("/sub gone: %+v, %v; want its menu, deeper's and d deleted\n%s", st, err, log.String())
	}
	exists("/sub gone", map[string]bool{"sub": false, "a": true, "mine.txt": true, GopherMenuName: false, "menu/" + GopherMenuName: true})
	for p := range readManifest(t, dir) {
		if strings.HasPrefix(p, "sub/") {
			t.Errorf("the manifest still names %s", p)
		}
	}
}
