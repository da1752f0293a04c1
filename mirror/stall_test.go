package mirror

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMirrorStalledFTP: one file's data connection stops after 2 bytes,
// another's end reply (226, RFC 959 §4.2) never comes on the control
// connection. Past the idle limit the run gives up on each, reports it,
// keeps no file under its real name and no manifest line for it, and
// fetches the rest.
func TestMirrorStalledFTP(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: faultFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch line {
			case "LIST":
				fakeList(s)
				return true
			case "RETR b.txt": // stalls on the data connection
				dc, err := s.AcceptData()
				if err != nil {
					return false
				}
				s.Reply("150 Opening BINARY mode data connection for b.txt (5 bytes).")
				dc.Write([]byte("bb"))
				<-s.Done()
				dc.Close()
				return true
			case "RETR c.txt": // stalls on the control connection
				dc, err := s.AcceptData()
				if err != nil {
					return false
				}
				s.Reply("150 Opening BINARY mode data connection for c.txt (3 bytes).")
				dc.Write([]byte("cc\n"))
				dc.Close()
				<-s.Done()
				return true
			}
			return false
		},
	})
	dir := t.TempDir()
	var log bytes.Buffer
	start := time.Now()
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", dir, Options{Log: &log, Parallel: 1, IdleTimeout: 300 * time.Millisecond})
	if err != nil || st.Fetched != 1 || st.Failed != 2 {
		t.Fatalf("Mirror = %+v, %v; want a.txt fetched, b.txt and sub/c.txt failed\n%s", st, err, log.String())
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("took %v", el)
	}
	for _, u := range []string{"b.txt", "sub/c.txt"} {
		want := fmt.Sprintf("fetch ftp://%s/top/%s: nothing arrived for 300ms", fake.Addr, u)
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
		if _, err := os.Stat(filepath.Join(dir, u)); !os.IsNotExist(err) {
			t.Errorf("%s exists after a stalled transfer: %v", u, err)
		}
	}
	recs := readManifest(t, dir)
	if len(recs) != 1 || recs["a.txt"].Size != 2 {
		t.Errorf("manifest %+v, want a.txt only", recs)
	}
	// What came is kept for a resume, under the partial name only.
	if b, err := os.ReadFile(filepath.Join(dir, partialName("b.txt"))); err != nil || string(b) != "bb" {
		t.Errorf("partial b.txt = %q, %v", b, err)
	}
}

// gopherMenu is a menu of items on the server at addr.
func gopherMenu(addr string, items ...string) []byte {
	host, port, _ := strings.Cut(addr, ":")
	var b strings.Builder
	for _, it := range items {
		typ, sel, _ := strings.Cut(it, " ")
		fmt.Fprintf(&b, "%s%s\t%s\t%s\t%s\r\n", typ, sel, sel, host, port)
	}
	b.WriteString(".\r\n")
	return []byte(b.String())
}

// TestMirrorStalledGopher: a gopher server that stops in the middle of
// an item; past the idle limit the run gives up on it, reports it, keeps
// no file and no manifest line of it, and fetches the other item.
func TestMirrorStalledGopher(t *testing.T) {
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		switch string(req) {
		case "/menu\r\n":
			return testserver.GopherReply{Reply: gopherMenu(addr, "9 /one", "9 /two")}
		case "/one\r\n":
			return testserver.GopherReply{Reply: []byte("partial"), Hold: true}
		}
		return testserver.GopherReply{Reply: []byte("whole item")}
	})
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1/menu", dir, Options{Log: &log, Parallel: 1, IdleTimeout: 300 * time.Millisecond})
	if err != nil || st.Fetched != 2 || st.Failed != 1 {
		t.Fatalf("Mirror = %+v, %v; want the menu and two fetched, one failed\n%s", st, err, log.String())
	}
	if want := "fetch gopher://" + fake.Addr + "/9/one: nothing arrived for 300ms"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, log.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "two")); string(b) != "whole item" {
		t.Errorf("two = %q, %v", b, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), "one") {
			t.Errorf("%s left by the stalled item", e.Name())
		}
	}
	if recs := readManifest(t, dir); len(recs) != 2 || recs["two"].Size != 10 {
		t.Errorf("manifest %+v, want the menu and two", recs)
	}
}
