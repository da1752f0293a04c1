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
	// The message is get's: how far the body came, then why it stopped.
	for _, u := range []string{"b.txt 2 of 5", "sub/c.txt 3 of 3"} {
		u, counts, _ := strings.Cut(u, " ")
		want := fmt.Sprintf("fetch ftp://%s/top/%s: receiving the body, after %s bytes: nothing arrived for 300ms", fake.Addr, u, counts)
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
	fake := stalledGopher(t)
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1/menu", dir, Options{Log: &log, Parallel: 1, IdleTimeout: 300 * time.Millisecond})
	if err != nil || st.Fetched != 2 || st.Failed != 1 {
		t.Fatalf("Mirror = %+v, %v; want the menu and two fetched, one failed\n%s", st, err, log.String())
	}
	// The message is get's: how far the body came, then why it stopped.
	if want := "fetch gopher://" + fake.Addr + "/9/one: receiving the body, after 7 bytes: nothing arrived for 300ms"; !strings.Contains(log.String(), want) {
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

// TestMirrorGopherPortGuard: with SpanHosts, a menu item aimed at
// another protocol's port (§6: smtp's 25, nntp's 119) is refused with
// get's message, reported and counted, and the run goes on; an item on
// another port that no line protocol owns is followed. A URL typed with
// such a port is refused before anything is sent.
func TestMirrorGopherPortGuard(t *testing.T) {
	other := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		return testserver.GopherReply{Reply: []byte("from the other server")}
	})
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if string(req) == "/menu\r\n" {
			m := string(gopherMenu(addr, "0 /here"))
			m = strings.TrimSuffix(m, ".\r\n") +
				"0mail\tHELO x\t127.0.0.1\t25\r\n" +
				"1news\t/\t127.0.0.1\t119\r\n" +
				string(gopherMenu(other.Addr, "9 /there"))
			return testserver.GopherReply{Reply: []byte(m)}
		}
		return testserver.GopherReply{Reply: []byte("here")}
	})
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1/menu", dir, Options{Log: &log, SpanHosts: true})
	if err != nil || st.Refused != 2 || st.Failed != 0 || st.Fetched != 3 {
		t.Fatalf("Mirror = %+v, %v; want 2 refused, the menu, here and there fetched\n%s", st, err, log.String())
	}
	for _, want := range []string{
		"refused gopher://127.0.0.1:25/0HELO%20x: refused (§6): offset 19: port 25 belongs to smtp, not gopher",
		"refused gopher://127.0.0.1:119/1/: refused (§6): offset 19: port 119 belongs to nntp, not gopher",
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "%"+other.Addr, "there")); string(b) != "from the other server" {
		t.Errorf("the other server's item = %q, %v", b, err)
	}
	if n := len(other.Requests()); n != 1 {
		t.Errorf("%d requests to the other server, want 1", n)
	}

	_, err = Mirror(context.Background(), "gopher://127.0.0.1:25/1/", t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), "port 25 belongs to smtp") {
		t.Errorf("a URL at port 25: %v", err)
	}
}

// TestMirrorFTPDataPortGuard: an ftp server naming another protocol's
// port for its data connection (a 229 reply aimed at smtp's 25) is
// refused as get refuses it (§6); nothing is fetched from it.
func TestMirrorFTPDataPortGuard(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: faultFiles, DataPort: 25})
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", t.TempDir(), Options{Log: &log})
	if err != nil || st.Failed != 1 || st.Fetched != 0 {
		t.Fatalf("Mirror = %+v, %v; want the listing failed\n%s", st, err, log.String())
	}
	if want := "refused (§6): the server named a data port: port 25 belongs to smtp"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, log.String())
	}
}

// stalledGopher serves a menu of two items, /one and /two: /one stops
// after a few bytes and holds the connection open, /two comes whole.
func stalledGopher(t *testing.T) *testserver.GopherFake {
	t.Helper()
	return testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		switch string(req) {
		case "/menu\r\n":
			return testserver.GopherReply{Reply: gopherMenu(addr, "9 /one", "9 /two")}
		case "/one\r\n":
			return testserver.GopherReply{Reply: []byte("partial"), Hold: true}
		}
		return testserver.GopherReply{Reply: []byte("whole item")}
	})
}
