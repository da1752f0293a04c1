package main

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestGetRetryConnRefused: with --retry-connrefused a refused connection
// is retried, so a get rides out a server restart (curl's and wget's
// flag); without it a refusal is final, status 4.
func TestGetRetryConnRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	port := closedPort(t)
	url := "http://127.0.0.1:" + port + "/ok"
	_, stderr, status := runBinary(t, "", "get", "--retry", "3", "--retry-delay", "100ms", url)
	if status != exitNetwork || strings.Contains(stderr, "trying again") {
		t.Fatalf("without --retry-connrefused: status %d, want %d, no retry; stderr:\n%s", status, exitNetwork, stderr)
	}

	// The server comes up half a second after the first try.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(500 * time.Millisecond)
		ln, err := net.Listen("tcp", "127.0.0.1:"+port)
		if err != nil {
			t.Errorf("listen again on %s: %v", port, err)
			return
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "back\n") })}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
	}()
	out, stderr, status := runBinary(t, "", "get", "--retry", "5", "--retry-delay", "300ms", "--retry-connrefused", url)
	wg.Wait()
	if status != exitOK || out != "back\n" || !strings.Contains(stderr, "connection refused; trying again in 300ms (retry 1 of 5)") {
		t.Errorf("with --retry-connrefused: status %d, stdout %q; stderr:\n%s", status, out, stderr)
	}
}

// TestGetOutputDirMade: --output-dir makes the folder, with its parents,
// as wget's -P does.
func TestGetOutputDirMade(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	web := statusServer(t)
	dir := filepath.Join(t.TempDir(), "new", "deeper")
	_, stderr, status := runBinary(t, "", "get", "--output-dir", dir, web.URL+"/ok")
	if status != exitOK {
		t.Fatalf("status %d; stderr:\n%s", status, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ok")); err != nil || string(b) != "hello\n" {
		t.Errorf("%s/ok: %q, %v", dir, b, err)
	}
}

// TestGetQuiet: -q prints nothing at all on success, the summary of
// several URLs and the notes included; a failure is still reported.
func TestGetQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	web := statusServer(t)
	dir := t.TempDir()
	// A .part left by an earlier run: a note without -q.
	if err := os.WriteFile(filepath.Join(dir, ".ok.part"), []byte("he"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"get", "--output-dir", dir, web.URL + "/ok", web.URL + "/ok2"}
	_, loud, status := runBinary(t, "", args...)
	if status != exitOK || !strings.Contains(loud, "2 of 2 fetched") {
		t.Fatalf("without -q: status %d; stderr:\n%s", status, loud)
	}
	os.WriteFile(filepath.Join(dir, ".ok.part"), []byte("he"), 0o644)
	out, stderr, status := runBinary(t, "", append(args, "-q")...)
	if status != exitOK || out != "" || stderr != "" {
		t.Errorf("-q: status %d, stdout %q, stderr %q; want nothing", status, out, stderr)
	}
	_, stderr, status = runBinary(t, "", "get", "-q", "--output-dir", dir, web.URL+"/ok", web.URL+"/nope")
	if status != exitRefused || !strings.Contains(stderr, "404") || !strings.Contains(stderr, "1 of 2 fetched") {
		t.Errorf("-q with a failure: status %d; stderr:\n%s", status, stderr)
	}
}

// TestPlanNetrc: plan takes --netrc-file as get does, so the dry run
// shows the login the real run sends.
func TestPlanNetrc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	netrc := filepath.Join(t.TempDir(), "netrc")
	if err := os.WriteFile(netrc, []byte("machine ftp.example.org login alice password s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, status := runBinary(t, "", "plan", "--netrc-file", netrc, "ftp://ftp.example.org/pub/f.txt")
	if status != exitOK || !strings.Contains(out, "USER alice\n") || strings.Contains(out, "s3cret") {
		t.Errorf("plan --netrc-file: status %d, stdout:\n%s\nstderr:\n%s", status, out, stderr)
	}
	out, _, _ = runBinary(t, "", "plan", "ftp://ftp.example.org/pub/f.txt")
	if !strings.Contains(out, "USER anonymous\n") {
		t.Errorf("plan without --netrc: %s", out)
	}
}

// TestGetRepairsUnsafe: §2.2 says "~" is unsafe and must be encoded; a
// URL that breaks the rule only so is fetched encoded (%7E), as curl and
// wget send it, with a warning that names the rule; --strict refuses it
// (status 2) and sends nothing.
func TestGetRepairsUnsafe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var mu sync.Mutex
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.EscapedPath())
		mu.Unlock()
		io.WriteString(w, "home\n")
	}))
	t.Cleanup(srv.Close)
	web := srv.URL
	url := web + "/~alice/index.txt"
	out, stderr, status := runBinary(t, "", "get", url)
	mu.Lock()
	got := strings.Join(paths, " ")
	mu.Unlock()
	if status != exitOK || out != "home\n" || got != "/%7Ealice/index.txt" {
		t.Errorf("get %s: status %d, stdout %q, the server saw %q", url, status, out, got)
	}
	for _, w := range []string{"warning: ", "taken as " + web + "/%7Ealice/index.txt", "'~' is unsafe and must be encoded as %7E (§2.2)", "--strict"} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	_, stderr, status = runBinary(t, "", "get", "--strict", url)
	mu.Lock()
	n := len(paths)
	mu.Unlock()
	if status != exitUsage || n != 1 || !strings.Contains(stderr, "is not a valid RFC 1738 URL") {
		t.Errorf("get --strict: status %d, %d requests; stderr:\n%s", status, n, stderr)
	}
	// plan shows the same repair.
	out, _, status = runBinary(t, "", "plan", "ftp://h.example/~u/f")
	if status != exitOK || !strings.Contains(out, "CWD ~u\n") {
		t.Errorf("plan: status %d:\n%s", status, out)
	}
}
