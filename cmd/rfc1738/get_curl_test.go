package main

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetSharedNameReserved: -O --parallel 2 of two URLs whose last
// segments coincide (…/a/million, …/b/million) saves two files, the
// second as million.1 (wget's rule), each the body of its URL; they
// never share a partial file.
func TestGetSharedNameReserved(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bodies := map[string][]byte{"/a/million": bytes.Repeat([]byte("a"), 400000), "/b/million": bytes.Repeat([]byte("b"), 400000)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := bodies[r.URL.Path]
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		// In slices, so that the two transfers overlap.
		for i := 0; i < len(b); i += 50000 {
			w.Write(b[i : i+50000])
			w.(http.Flusher).Flush()
			time.Sleep(10 * time.Millisecond)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	_, errOut, status := runIn(t, dir, "", "get", "-O", "--parallel", "2", srv.URL+"/a/million", srv.URL+"/b/million")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "million")); err != nil || !bytes.Equal(got, bodies["/a/million"]) {
		t.Errorf("million: %d bytes, %v; want the 400000 of /a/million", len(got), err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "million.1")); err != nil || !bytes.Equal(got, bodies["/b/million"]) {
		t.Errorf("million.1: %d bytes, %v; want the 400000 of /b/million", len(got), err)
	}
	if !strings.Contains(errOut, "saving to million.1") {
		t.Errorf("no word of the second name:\n%s", errOut)
	}
}

// TestGetResumeStopsAtRange: a lying server answers a resume with a 206
// whose Content-Range names 10 bytes and whose body is the whole file:
// get -C - keeps the 10 bytes the range names and no more (wget stops
// there too).
func TestGetResumeStopsAtRange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	whole := bytes.Repeat([]byte("0123456789"), 100)
	whole = append(whole, "ABCDE"...) // 1005 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Range", "bytes 995-1004/1005")
		w.WriteHeader(http.StatusPartialContent)
		w.Write(whole) // the whole file, not the range
	}))
	defer srv.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".out.bin.part"), whole[:995], 0o600)
	_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "out.bin", srv.URL+"/f")
	got, _ := os.ReadFile(filepath.Join(dir, "out.bin"))
	if status != 0 || len(got) != 1005 || !bytes.Equal(got[:995], whole[:995]) || !bytes.Equal(got[995:], whole[:10]) {
		t.Errorf("status %d, out.bin %d bytes; want 995 kept and the 10 of the range:\n%s", status, len(got), errOut)
	}
}

// TestGetResumeNamedFile: -C - with -o naming a file that exists resumes
// it, as curl does: a Range from its size over http, REST over ftp; the
// result is the whole file, and no hidden partial is left.
func TestGetResumeNamedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	blob := bytes.Repeat([]byte("blob-"), 20000) // 100000 bytes
	t.Run("http", func(t *testing.T) {
		var mu sync.Mutex
		var ranges []string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			ranges = append(ranges, r.Header.Get("Range"))
			mu.Unlock()
			http.ServeContent(w, r, "blob", time.Time{}, bytes.NewReader(blob))
		}))
		defer srv.Close()
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "f.iso"), blob[:50000], 0o644)
		_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "f.iso", srv.URL+"/blob")
		got, _ := os.ReadFile(filepath.Join(dir, "f.iso"))
		if status != 0 || !bytes.Equal(got, blob) || len(ranges) != 1 || ranges[0] != "bytes=50000-" {
			t.Errorf("status %d, f.iso %d bytes, ranges %q:\n%s", status, len(got), ranges, errOut)
		}
		if names := dirNames(t, dir); len(names) != 1 {
			t.Errorf("the folder holds %q", names)
		}
	})
	t.Run("ftp", func(t *testing.T) {
		fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/blob": string(blob)}})
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "f.iso"), blob[:50000], 0o644)
		_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "f.iso", "ftp://"+fake.Addr+"/pub/blob")
		got, _ := os.ReadFile(filepath.Join(dir, "f.iso"))
		if status != 0 || !bytes.Equal(got, blob) || !strings.Contains(strings.Join(fake.Commands(), "\n"), "REST 50000") {
			t.Errorf("status %d, f.iso %d bytes, commands %q:\n%s", status, len(got), fake.Commands(), errOut)
		}
	})
	t.Run("a failure puts the file back", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "gone", http.StatusNotFound)
		}))
		defer srv.Close()
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "f.iso"), blob[:50000], 0o644)
		_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "f.iso", srv.URL+"/blob")
		got, _ := os.ReadFile(filepath.Join(dir, "f.iso"))
		if status != exitRefused || !bytes.Equal(got, blob[:50000]) || len(dirNames(t, dir)) != 1 {
			t.Errorf("status %d, f.iso %d bytes, folder %q:\n%s", status, len(got), dirNames(t, dir), errOut)
		}
	})
}

// TestGetKeepsEncoding: a body is saved as the server sent it: no
// Accept-Encoding is sent, and a .tar.gz served with Content-Encoding:
// gzip is saved byte for byte (net/http's default would ask for gzip and
// save it unpacked); --include shows the real Content-Encoding.
// --compressed asks for gzip and saves the decoded body, which
// --max-size bounds: a gzip bomb stops at the limit.
func TestGetKeepsEncoding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tarball := gzipped(t, strings.Repeat("a file in a tar ", 1000))
	bomb := gzipped(t, string(make([]byte, 20<<20))) // 20 MiB of zeros, about 20 KiB sent
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		mu.Unlock()
		w.Header().Set("Content-Encoding", "gzip")
		switch r.URL.Path {
		case "/t.tar.gz":
			w.Header().Set("Content-Type", "application/x-tar")
			w.Write(tarball)
		case "/bomb":
			w.Write(bomb)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	_, errOut, status := runIn(t, dir, "", "get", "-O", srv.URL+"/t.tar.gz")
	if got, _ := os.ReadFile(filepath.Join(dir, "t.tar.gz")); status != 0 || !bytes.Equal(got, tarball) {
		t.Errorf("status %d; t.tar.gz is %d bytes, want the %d sent:\n%s", status, len(got), len(tarball), errOut)
	}
	seen := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), asked...)
	}
	if asked := seen(); len(asked) != 1 || asked[0] != "" {
		t.Errorf("Accept-Encoding sent without --compressed: %q", asked)
	}
	out, _, _ := runIn(t, dir, "", "get", "--include", srv.URL+"/t.tar.gz")
	if !strings.Contains(out, "Content-Encoding: gzip\r\n") || !strings.Contains(out, "Content-Length: "+strconv.Itoa(len(tarball))+"\r\n") {
		t.Errorf("--include hides the coding:\n%.300q", out)
	}

	_, errOut, status = runIn(t, dir, "", "get", "--compressed", "--max-size", "1M", "-o", "bomb", srv.URL+"/bomb")
	if status == 0 || !strings.Contains(errOut, "--max-size") || len(dirNames(t, dir)) != 1 {
		t.Errorf("the bomb: status %d, folder %q:\n%s", status, dirNames(t, dir), errOut)
	}
	_, errOut, status = runIn(t, dir, "", "get", "--compressed", "-o", "bomb", srv.URL+"/bomb")
	if fi, err := os.Stat(filepath.Join(dir, "bomb")); status != 0 || err != nil || fi.Size() != 20<<20 {
		t.Errorf("--compressed: status %d, %v:\n%s", status, err, errOut)
	}
	if asked := seen(); asked[len(asked)-1] != "gzip" {
		t.Errorf("--compressed sent Accept-Encoding %q", asked[len(asked)-1])
	}
}

// TestGetCurlFlags: the flags curl users type: -H, -A and -e send their
// fields; -fsSL is accepted as one cluster; -s says nothing, not even an
// error, and -sS the error; -d and -X POST are refused, saying why; a
// flag typed with two dashes is shown with two.
func TestGetCurlFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "%s|%s|%s|%s|%q\n", r.Method, r.Header.Get("X-Test"), r.UserAgent(), r.Referer(), r.Header.Values("X-Gone"))
	}))
	defer srv.Close()
	out, errOut, status := runBinary(t, "", "get", "-fsSL", "-H", "X-Test: one two", "-A", "agent/1.0", "-e", "http://from.example/", "-H", "X-Gone:", srv.URL+"/h")
	if status != 0 || out != "GET|one two|agent/1.0|http://from.example/|[]\n" || errOut != "" {
		t.Errorf("headers: %d %q %q", status, out, errOut)
	}
	out, errOut, status = runBinary(t, "", "get", "-s", srv.URL+"/missing")
	if status != exitRefused || out != "" || errOut != "" {
		t.Errorf("-s: %d %q %q", status, out, errOut)
	}
	_, errOut, status = runBinary(t, "", "get", "-sS", srv.URL+"/missing")
	if status != exitRefused || !strings.Contains(errOut, "404") {
		t.Errorf("-sS: %d %q", status, errOut)
	}
	for _, args := range [][]string{{"-d", "a=1"}, {"--data", "a=1"}, {"-X", "POST"}} {
		_, errOut, status = runBinary(t, "", append(append([]string{"get"}, args...), srv.URL+"/h")...)
		if status != exitUsage || !strings.Contains(errOut, args[0]+": URLs here are retrieved, not posted") && !strings.Contains(errOut, args[0]+" POST: URLs here are retrieved, not posted") {
			t.Errorf("%q: %d %q", args, status, errOut)
		}
	}
	_, errOut, status = runBinary(t, "", "get", "--compresed", srv.URL+"/h")
	if status != exitUsage || !strings.Contains(errOut, "flag provided but not defined: --compresed\n") {
		t.Errorf("a two-dash typo: %d %q", status, errOut)
	}
	_, errOut, _ = runBinary(t, "", "get", "-H", "Bad Name: x", srv.URL+"/h")
	if !strings.Contains(errOut, "want 'Name: value'") {
		t.Errorf("a bad field name: %q", errOut)
	}
}

// TestGetProxy: -x sends every http request through the proxy given
// (loopback too, as curl does); --noproxy names the hosts reached
// directly.
func TestGetProxy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "proxied %s\n", r.URL)
	}))
	defer proxy.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "direct")
	}))
	defer origin.Close()
	out, errOut, status := runBinary(t, "", "get", "-x", proxy.URL, origin.URL+"/p")
	if status != 0 || out != "proxied "+origin.URL+"/p\n" {
		t.Errorf("-x: %d %q %q", status, out, errOut)
	}
	out, errOut, status = runBinary(t, "", "get", "--proxy", strings.TrimPrefix(proxy.URL, "http://"), "--noproxy", "example.org,127.0.0.1", origin.URL+"/p")
	if status != 0 || out != "direct\n" {
		t.Errorf("--noproxy: %d %q %q", status, out, errOut)
	}
}

// TestGetIndexName: -O on a URL whose path ends in "/" saves index.html,
// as wget does.
func TestGetIndexName(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "<p>home")
	}))
	defer srv.Close()
	dir := t.TempDir()
	_, errOut, status := runIn(t, dir, "", "get", "-O", srv.URL+"/")
	if status != 0 || readFile(t, filepath.Join(dir, "index.html")) != "<p>home\n" {
		t.Errorf("status %d:\n%s", status, errOut)
	}
}

// TestGetFTPFolder: get on an ftp folder prints what LIST tells of each
// entry (type, size, name, URL), a folder's URL with its "/", and get on
// that URL lists the folder.
func TestGetFTPFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{
		"/pub/a.txt": "hello\n", "/pub/docs/readme": "read me\n",
	}})
	base := "ftp://" + fake.Addr + "/pub/"
	out, errOut, status := runBinary(t, "", "get", base)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if status != 0 || len(lines) != 2 {
		t.Fatalf("status %d:\n%s\n%s", status, out, errOut)
	}
	f, d := strings.Fields(lines[0]), strings.Fields(lines[1])
	if f[0] != "-" || f[1] != "6" || f[len(f)-2] != "a.txt" || f[len(f)-1] != base+"a.txt" {
		t.Errorf("the file's line: %q", lines[0])
	}
	if d[0] != "d" || d[len(d)-2] != "docs/" || d[len(d)-1] != base+"docs/" {
		t.Errorf("the folder's line: %q", lines[1])
	}
	out, errOut, status = runBinary(t, "", "get", d[len(d)-1])
	if status != 0 || !strings.Contains(out, " readme  "+base+"docs/readme\n") {
		t.Errorf("get on the folder's URL: %d %q %q", status, out, errOut)
	}
}

// TestMirrorInterruptSummary: a mirror stopped by SIGINT mid-transfer
// names in its summary the status it exits with (130), and counts the
// transfer it cut as interrupted, not failed.
func TestMirrorInterruptSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var retr sync.Once
	started := make(chan struct{})
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: map[string]string{"/pub/a.txt": "a\n", "/pub/big.bin": strings.Repeat("b", 100000)},
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line != "RETR big.bin" {
				return false
			}
			dc, err := s.AcceptData()
			if err != nil {
				return false
			}
			s.Reply("150 Opening BINARY mode data connection for big.bin (100000 bytes).")
			dc.Write([]byte(strings.Repeat("b", 1000)))
			retr.Do(func() { close(started) })
			<-s.Done() // stalls until the test ends
			dc.Close()
			return true
		}})
	cmd := exec.Command(binary(t), "mirror", "--parallel", "1", "ftp://"+fake.Addr+"/pub/", filepath.Join(t.TempDir(), "copy"))
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the mirror never asked for big.bin")
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("mirror ended with %v, want status 130:\n%s", err, errOut.String())
	}
	got := errOut.String()
	if !strings.Contains(got, "0 failed, 1 interrupted;") || !strings.Contains(got, "(exit status 130: interrupted by SIGINT)") || strings.Contains(got, "the worst") {
		t.Errorf("the summary:\n%s", got)
	}
}
