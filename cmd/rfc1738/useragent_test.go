package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// sentAgents records the User-Agent of each request a loopback server
// receives, as "METHOD /path UA".
type sentAgents struct {
	mu   sync.Mutex
	seen []string
}

func (s *sentAgents) add(r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("User-Agent"))
}

func (s *sentAgents) reset() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := s.seen
	s.seen = nil
	return seen
}

// builtUserAgent is the User-Agent the built binary should send:
// "rfc1738/" and the version `rfc1738 version` prints (its commit for a
// build from a clone without a version, else "devel").
func builtUserAgent(t *testing.T) string {
	t.Helper()
	out, errOut, status := runBinary(t, "", "version")
	f := strings.Fields(out)
	if status != 0 || len(f) < 3 {
		t.Fatalf("version: %d %q %q", status, out, errOut)
	}
	v := f[1]
	if v == "(devel)" {
		v = "devel"
		if rev := f[2]; strings.Trim(rev, "0123456789abcdef") == "" {
			v = rev
		}
	}
	return "rfc1738/" + v
}

// TestUserAgent: every http request of get, linkcheck (HEAD, and
// robots.txt in a recursive run) and browse carries User-Agent
// rfc1738/VERSION, the version `rfc1738 version` prints, as plan's
// request lines say; -A/--user-agent replaces it (get's own -A comes with
// its curl-style header flags). The robots.txt group
// obeyed is the one naming the product token sent (RFC 9309 §2.2.1):
// "rfc1738", or -A's. (mirror copies ftp and gopher only: it sends no
// http request.)
func TestUserAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	want := builtUserAgent(t)
	var sent sentAgents
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.add(r)
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n\nUser-agent: rfc1738\nDisallow: /private\n\nUser-agent: otherbot\nDisallow: /public\n")
		case "/redirect":
			http.Redirect(w, r, "/page", http.StatusFound)
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<a href="/private">p</a> <a href="/public">q</a>`)
		default:
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "hello")
		}
	}))
	t.Cleanup(srv.Close)

	check := func(what string, got []string, wantSeen ...string) {
		t.Helper()
		if strings.Join(got, "\n") != strings.Join(wantSeen, "\n") {
			t.Errorf("%s: the server saw\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(wantSeen, "\n"))
		}
	}

	if out, errOut, status := runBinary(t, "", "get", "-q", srv.URL+"/redirect"); status != 0 || out != "hello" {
		t.Fatalf("get: %d %q %q", status, out, errOut)
	}
	check("get", sent.reset(), "GET /redirect "+want, "GET /page "+want)

	if out, _, _ := runBinary(t, "", "plan", srv.URL+"/page"); !strings.Contains(out, "\nUser-Agent: "+want+"\n") {
		t.Errorf("plan: %q, want a line User-Agent: %s", out, want)
	}
	if out, _, _ := runBinary(t, "", "plan", "-A", "x/1", srv.URL+"/page"); !strings.Contains(out, "\nUser-Agent: x/1\n") {
		t.Errorf("plan -A: %q", out)
	}

	if _, errOut, status := runBinary(t, "", "linkcheck", "-q", srv.URL+"/page"); status != 0 {
		t.Errorf("linkcheck: %d %q", status, errOut)
	}
	check("linkcheck", sent.reset(), "HEAD /page "+want)
	runBinary(t, "", "linkcheck", "-q", "--user-agent", "Wget/1.21", srv.URL+"/page")
	check("linkcheck --user-agent", sent.reset(), "HEAD /page Wget/1.21")

	// A recursive run reads robots.txt with the same header, and obeys
	// the group of its product token: /private is not fetched.
	out, errOut, _ := runBinary(t, "", "linkcheck", "-q", "-v", "--recursive", srv.URL+"/")
	check("linkcheck --recursive", sent.reset(), "GET /robots.txt "+want, "GET / "+want, "GET /public "+want)
	if !strings.Contains(out, "/private") || !strings.Contains(out, "Disallow: /private") {
		t.Errorf("linkcheck --recursive: the report does not say robots.txt's group of rfc1738 kept /private out:\n%s\n%s", out, errOut)
	}
	out, errOut, _ = runBinary(t, "", "linkcheck", "-q", "-v", "--recursive", "-A", "OtherBot/2.0", srv.URL+"/")
	check("linkcheck --recursive -A", sent.reset(), "GET /robots.txt OtherBot/2.0", "GET / OtherBot/2.0", "GET /private OtherBot/2.0")
	if !strings.Contains(out, "Disallow: /public") {
		t.Errorf("linkcheck --recursive -A OtherBot/2.0: the group of otherbot was not obeyed:\n%s\n%s", out, errOut)
	}

	if out, errOut, status := runBinary(t, "", "browse", "--dump", srv.URL+"/page"); status != 0 || !strings.Contains(out, "hello") {
		t.Errorf("browse --dump: %d %q %q", status, out, errOut)
	}
	check("browse", sent.reset(), "GET /page "+want)
	runBinary(t, "", "browse", "--dump", "-A", "lynx/2.9", srv.URL+"/page")
	check("browse -A", sent.reset(), "GET /page lynx/2.9")

	if _, errOut, status := runBinary(t, "", "linkcheck", "-A", "a\r\nX-Injected: 1", srv.URL+"/page"); status != exitUsage || !strings.Contains(errOut, "control character") {
		t.Errorf("linkcheck -A with CR LF: %d %q", status, errOut)
	}
	check("linkcheck -A with CR LF", sent.reset())
}
