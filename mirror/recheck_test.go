package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMirrorGopherRecheck: a plain gopher menu gives no size or time, so
// a document rewritten with the same length is not seen by a second run:
// it counts it as not rechecked, not as unchanged. --recheck fetches it
// again and replaces it when its SHA-256 differs, and leaves an identical
// copy as it was (its time included).
func TestMirrorGopherRecheck(t *testing.T) {
	var body atomic.Value
	body.Store("version 1\r\n")
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if string(req) == "/menu\r\n" {
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /doc")}
		}
		return testserver.GopherReply{Reply: []byte(body.Load().(string))}
	})
	dir := t.TempDir()
	url := "gopher://" + fake.Addr + "/1/menu"
	doc := filepath.Join(dir, "doc")
	run := func(opt Options) (Stats, string) {
		t.Helper()
		var log bytes.Buffer
		opt.Log = &log
		st, err := Mirror(context.Background(), url, dir, opt)
		if err != nil || st.Failed != 0 {
			t.Fatalf("Mirror = %+v, %v\n%s", st, err, log.String())
		}
		return st, log.String()
	}
	run(Options{})
	body.Store("version 2\r\n") // the same length
	if st, _ := run(Options{}); st.NotRechecked != 1 || st.Unchanged != 0 || st.Fetched != 1 {
		t.Errorf("second run %+v; want doc not rechecked, only the menu fetched", st)
	}
	if b, _ := os.ReadFile(doc); string(b) != "version 1\r\n" {
		t.Errorf("doc = %q without --recheck", b)
	}
	st, log := run(Options{Recheck: true})
	if st.NotRechecked != 0 || st.Unchanged != 0 || st.Fetched != 2 || !strings.Contains(log, "changed gopher://"+fake.Addr+"/0/doc: its SHA-256 differs") {
		t.Errorf("--recheck %+v; want doc fetched again and replaced\n%s", st, log)
	}
	if b, _ := os.ReadFile(doc); string(b) != "version 2\r\n" {
		t.Errorf("doc = %q after --recheck", b)
	}
	if rec := readManifest(t, dir)["doc"]; rec.Size != 11 || rec.SHA256 != fmt.Sprintf("%x", sha256.Sum256([]byte("version 2\r\n"))) {
		t.Errorf("manifest line of doc %+v", rec)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(doc, old, old)
	if st, _ := run(Options{Recheck: true}); st.Unchanged != 1 || st.NotRechecked != 0 || st.Fetched != 1 {
		t.Errorf("--recheck of the same bytes %+v; want doc verified unchanged", st)
	}
	if fi, err := os.Stat(doc); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("the identical copy was replaced: %v, %v", fi.ModTime(), err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("%s left behind", e.Name())
		}
	}
}

// TestMirrorGopherOneName: a menu reached as "/1" (selector "") and as
// "/1/" (selector "/"), and a menu "/docs" and "/docs/", have one local
// name each: each is fetched and saved once.
func TestMirrorGopherOneName(t *testing.T) {
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		host, port, _ := strings.Cut(addr, ":")
		switch string(req) {
		case "\r\n", "/\r\n":
			return testserver.GopherReply{Reply: []byte(fmt.Sprintf("1Top again\t/\t%s\t%s\r\n1Docs\t/docs\t%[1]s\t%[2]s\r\n1Docs again\t/docs/\t%[1]s\t%[2]s\r\n.\r\n", host, port))}
		case "/docs\r\n", "/docs/\r\n":
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /docs/a.txt", "0 /docs//a.txt")}
		}
		return testserver.GopherReply{Reply: []byte("a\r\n")}
	})
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1", dir, Options{Log: &log, Verbose: true})
	if err != nil || st.Failed != 0 || st.Dirs != 2 || st.Fetched != 3 {
		t.Errorf("Mirror = %+v, %v; want two menus and one document\n%s", st, err, log.String())
	}
	if n := len(fake.Requests()); n != 3 {
		t.Errorf("%d requests, want 3: %q", n, fake.Requests())
	}
	if recs := readManifest(t, dir); len(recs) != 3 {
		t.Errorf("manifest %v", recs)
	}
}
