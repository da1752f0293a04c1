package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// hopLog records the Authorization header each request of a redirect
// chain carried, by path.
type hopLog struct {
	mu   sync.Mutex
	hops []string
}

func (l *hopLog) add(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hops = append(l.hops, fmt.Sprintf("%s auth=%q", r.URL.Path, r.Header.Get("Authorization")))
}

// reset empties the log for the next chain (the handlers may still hold
// it: the struct and its mutex are never replaced).
func (l *hopLog) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hops = nil
}

func (l *hopLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.hops, "\n")
}

// TestGetLoginNeverCrossesADowngrade: a netrc login goes only to the
// origin it belongs to, and never again once the chain has left it or
// left TLS (net/http copies the first request's headers to every hop it
// follows): https://h/r → http://h/r2 → http://h/auth carries it on the
// first hop only; so does https://h/r → https://h:other/x → https://h/back,
// although the last hop is the login's own origin again. An https page
// that redirects to ftp:// on the same host is a downgrade too: the ftp
// login is anonymous, and a warning says so.
func TestGetLoginNeverCrossesADowngrade(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/x": "ftp data"}})
	chain := newLoginChain(t, "ftp://"+fake.Addr+"/x")
	rc, caFile, secure, log := chain.netrc, chain.caFile, chain.secure, &chain.log
	basic := `auth="Basic am9lOnMzY3JldA=="`

	out, errOut, status := runBinary(t, "", "get", "--netrc-file", rc, "--cacert", caFile, secure.URL+"/r")
	want := []string{"/r " + basic, `/r2 auth=""`, `/auth auth=""`}
	if status != 0 || out != "done" || log.String() != strings.Join(want, "\n") {
		t.Errorf("https → http → http: status %d %q; the hops carried\n%s\nwant\n%s\nstderr %q", status, out, log, strings.Join(want, "\n"), errOut)
	}
	if !strings.Contains(errOut, "warning: redirect from https to http") {
		t.Errorf("https → http: no warning: %q", errOut)
	}

	log.reset()
	out, errOut, status = runBinary(t, "", "get", "--netrc-file", rc, "--cacert", caFile, secure.URL+"/away")
	want = []string{"/away " + basic, `/x auth=""`, `/back auth=""`}
	if status != 0 || out != "done" || log.String() != strings.Join(want, "\n") {
		t.Errorf("out of the origin and back: status %d %q; the hops carried\n%s\nwant\n%s\nstderr %q", status, out, log, strings.Join(want, "\n"), errOut)
	}

	out, errOut, status = runBinary(t, "", "get", "--netrc-file", rc, "--cacert", caFile, secure.URL+"/ftp")
	cmds := fake.Commands()
	if status != 0 || out != "ftp data" || slices.Contains(cmds, "USER joe") || slices.Contains(cmds, "PASS s3cret") || !slices.Contains(cmds, "USER anonymous") {
		t.Errorf("https → ftp: status %d %q; the ftp server saw %q", status, out, cmds)
	}
	if !strings.Contains(errOut, "warning: redirect from https to ftp") || !strings.Contains(errOut, "without the stored login") {
		t.Errorf("https → ftp: no warning: %q", errOut)
	}
	// Without TLS in the chain, the ftp host's own stored login is used.
	if _, errOut, status := runBinary(t, "", "get", "--netrc-file", rc, "-o", os.DevNull, "ftp://"+fake.Addr+"/x"); status != 0 || !slices.Contains(fake.Commands(), "USER joe") {
		t.Errorf("ftp with netrc: %d %q; the ftp server saw %q", status, errOut, fake.Commands())
	}
}

// TestLinkcheckGopherSessionGuard: §6 — linkcheck gopher://h:11211/8 (a
// telnet item aimed at memcached's port) is refused by the port guard
// before anything connects, as /1 on the same port is: a listener there
// sees no connection.
func TestLinkcheckGopherSessionGuard(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:11211")
	if err != nil {
		t.Skipf("port 11211 is not free here (%v): the package test TestGopherSessionGuardFirst guards a port of its own", err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	for _, u := range []string{"gopher://127.0.0.1:11211/8", "gopher://127.0.0.1:11211/T", "gopher://127.0.0.1:11211/1"} {
		out, errOut, _ := runBinary(t, "", "linkcheck", "-q", "-v", u)
		if !strings.Contains(out, "§6") || !strings.Contains(out, "memcached") {
			t.Errorf("linkcheck %s: %q %q, want it refused by the §6 guard", u, out, errOut)
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("port 11211 saw %d connections, want none", n)
	}
}

// loginChain is a netrc login and the servers of its redirect chains:
// secure (https, the login's origin) answers /r with a redirect to plain
// (http) /r2, which goes on to /auth; /away with one to other (https,
// another port) /x, which comes back to secure /back; /ftp with one to
// ftpURL ("" for none); anything else with "done". log has what each hop
// carried.
type loginChain struct {
	netrc, caFile string
	secure        *httptest.Server
	log           hopLog
}

func newLoginChain(t *testing.T, ftpURL string) *loginChain {
	t.Helper()
	ca := testserver.NewCA(t)
	dir := t.TempDir()
	c := &loginChain{caFile: ca.WriteFile(t, dir), netrc: filepath.Join(dir, "netrc")}
	if err := os.WriteFile(c.netrc, []byte("machine 127.0.0.1 login joe password s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.log.add(r)
		if r.URL.Path == "/r2" {
			http.Redirect(w, r, "/auth", http.StatusFound)
			return
		}
		fmt.Fprint(w, "done")
	}))
	t.Cleanup(plain.Close)
	other := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.log.add(r)
		http.Redirect(w, r, c.secure.URL+"/back", http.StatusFound)
	}))
	c.secure = testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.log.add(r)
		switch {
		case r.URL.Path == "/r":
			http.Redirect(w, r, plain.URL+"/r2", http.StatusFound)
		case r.URL.Path == "/away":
			http.Redirect(w, r, other.URL+"/x", http.StatusFound)
		case r.URL.Path == "/ftp" && ftpURL != "":
			http.Redirect(w, r, ftpURL, http.StatusFound)
		default:
			fmt.Fprint(w, "done")
		}
	}))
	return c
}
