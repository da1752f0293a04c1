package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dirNames lists a folder, hidden files included.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// TestGetMany: several URLs in one run, from operands and -i (a file and
// stdin), named from their URLs, one login's files and a failure: the
// summary counts them and the status says one failed.
func TestGetMany(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	files := map[string]string{"/pub/a.txt": "file a\n", "/pub/b%20c.txt": "unused", "/pub/b c.txt": "file b c\n", "/pub/d.bin": strings.Repeat("d", 5000)}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files})
	base := "ftp://" + fake.Addr + "/pub/"
	dir := t.TempDir()
	list := filepath.Join(dir, "urls.txt")
	os.WriteFile(list, []byte("# a list\n"+base+"b%20c.txt\n\n"), 0o644)
	out, errOut, status := runIn(t, dir, base+"d.bin\n", "get", "--output-dir", dir, base+"a.txt", "-i", list, "-i", "-", base+"missing.txt", "--parallel", "2")
	if status != exitRefused || out != "" {
		t.Errorf("status %d, stdout %q", status, out)
	}
	if !strings.Contains(errOut, "RETR missing.txt: 550") || !strings.HasSuffix(errOut, "; 1 failed (exit status 8, the worst: the server said no)\n") || !strings.Contains(errOut, "rfc1738 get: 3 of 4 fetched") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if !strings.Contains(errOut, "rfc1738 get: saved "+filepath.Join(dir, "d.bin")+" (4.9 KiB)\n") {
		t.Errorf("no line for a saved file with --parallel 2:\n%s", errOut)
	}
	for name, want := range map[string]string{"a.txt": "file a\n", "b c.txt": "file b c\n", "d.bin": files["/pub/d.bin"]} {
		if got := readFile(t, filepath.Join(dir, name)); got != want {
			t.Errorf("%s = %q", name, got)
		}
	}
	if names := dirNames(t, dir); len(names) != 4 {
		t.Errorf("folder holds %q; want the three files and the list, no .part", names)
	}
	// One login per connection: at most --parallel 2 logins for 4 URLs
	// (a 550 leaves the login usable), each reused connection back in
	// the login directory first.
	// The two connections' commands interleave in the fake's log: each
	// is checked on its own.
	sessions := fake.SessionCommands()
	reused := false
	for _, s := range sessions {
		cmds := strings.Join(s, "\n")
		if strings.Count(cmds, "USER anonymous") != 1 || !strings.Contains(cmds, "PWD") {
			t.Errorf("a connection without exactly one login and its PWD:\n%s", cmds)
		}
		if n := strings.Count(cmds, "RETR "); n > 1 {
			reused = true
			if strings.Count(cmds, "CWD /\nCWD pub") != n-1 {
				t.Errorf("a reused connection not back in the login directory before each next file:\n%s", cmds)
			}
		}
	}
	if len(sessions) < 1 || len(sessions) > 2 || !reused {
		t.Errorf("%d logins for 4 URLs, none reused: %q", len(sessions), sessions)
	}

	// -O into the current folder; a URL whose path ends in "/" is saved
	// as index.html (wget's name), one that names "." is refused.
	dir2 := t.TempDir()
	_, errOut, status = runIn(t, dir2, "", "get", "-O", base+"a.txt", base, base+".")
	if status != exitNegative || !strings.Contains(errOut, "the URL names no file") || readFile(t, filepath.Join(dir2, "a.txt")) != "file a\n" ||
		!strings.Contains(readFile(t, filepath.Join(dir2, "index.html")), "a.txt") {
		t.Errorf("-O: %d %q", status, errOut)
	}
	// Several URLs to stdout, in order.
	out, _, status = runBinary(t, "", "get", base+"a.txt", base+"b%20c.txt")
	if status != 0 || out != "file a\nfile b c\n" {
		t.Errorf("two URLs to stdout: %d %q", status, out)
	}
	out, _, _ = runBinary(t, "", "get", "-o", "-", base+"a.txt")
	if out != "file a\n" {
		t.Errorf("-o -: %q", out)
	}
}

// TestGetOutputErrors: -o naming a folder, or a file in a missing one,
// is an error that names the path as given, before anything is fetched,
// and a local file error (status 3, as wget's), not a usage error.
func TestGetOutputErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/x": "x"}})
	u := "ftp://" + fake.Addr + "/x"
	for _, tc := range []struct{ o, want string }{
		{"out/", "-o out/: is a folder name"},
		{".", "-o .: is a folder"},
		{"missing/x.txt", "-o missing/x.txt: the folder missing does not exist"},
	} {
		_, errOut, status := runIn(t, dir, "", "get", "-o", tc.o, u)
		if status != exitLocalIO || !strings.HasPrefix(errOut, "rfc1738 get: "+tc.want) || strings.Contains(errOut, ".part") {
			t.Errorf("-o %s: %d %q", tc.o, status, errOut)
		}
	}
	if len(fake.Commands()) != 0 {
		t.Errorf("the server was asked %q", fake.Commands())
	}
	_, errOut, status := runBinary(t, "", "get", "-o", "f", u, u)
	if status != exitUsage || !strings.Contains(errOut, "-o names one file, and there are 2 URLs") {
		t.Errorf("-o with two URLs: %d %q", status, errOut)
	}
}

// dropOnce serves RETR of name and honours REST, as vsftpd does (the
// 150 reply announces the whole size); the first maxDrops times it sends
// half of what is asked and drops the data connection (a 426).
func dropOnce(name, content string, drops *atomic.Int32, maxDrops int32) testserver.FTPFakeOptions {
	var rest atomic.Int64
	return testserver.FTPFakeOptions{
		Files: map[string]string{"/pub/" + name: content},
		Handle: func(s *testserver.FTPSession, line string) bool {
			if n, ok := strings.CutPrefix(line, "REST "); ok {
				off, _ := strconv.ParseInt(n, 10, 64)
				rest.Store(off)
				s.Reply("350 Restart position accepted (" + n + ").")
				return true
			}
			if line != "RETR "+name {
				return false
			}
			data := content[rest.Swap(0):]
			announce := fmt.Sprintf("150 Opening BINARY mode data connection for %s (%d bytes).", name, len(content))
			if drops.Load() >= maxDrops {
				s.Send(announce, data)
				return true
			}
			drops.Add(1)
			dc, err := s.AcceptData()
			if err != nil {
				return false
			}
			s.Reply(announce)
			dc.Write([]byte(data[:len(data)/2]))
			dc.Close()
			s.Reply("426 Failure writing network stream.")
			return true
		},
	}
}

// numbered returns n bytes that never repeat a 10-byte period, so that a
// resume at the wrong offset shows.
func numbered(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d,", i)
	}
	return b.String()[:n]
}

// TestGetResumeFTP: a transfer dropped half-way leaves a .part with -C,
// and the next run resumes it with REST; without -C nothing is left.
func TestGetResumeFTP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	content := numbered(30000)
	var drops atomic.Int32
	fake := testserver.NewFTPFake(t, dropOnce("f.bin", content, &drops, 1))
	u := "ftp://" + fake.Addr + "/pub/f.bin"
	dir := t.TempDir()
	_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "f.bin", u)
	if status != exitNetwork || !strings.Contains(errOut, "426") || !strings.Contains(errOut, "kept .f.bin.part, 15000 bytes, for -C to resume") {
		t.Fatalf("first run: %d %q", status, errOut)
	}
	if names := dirNames(t, dir); len(names) != 1 || names[0] != ".f.bin.part" {
		t.Fatalf("after the drop: %q", names)
	}
	_, errOut, status = runIn(t, dir, "", "get", "--continue", "-o", "f.bin", u)
	if status != 0 || readFile(t, filepath.Join(dir, "f.bin")) != content || !strings.Contains(errOut, "resuming .f.bin.part at byte 15000") {
		t.Fatalf("resume: %d %q", status, errOut)
	}
	if cmds := strings.Join(fake.Commands(), "\n"); !strings.Contains(cmds, "REST 15000\nRETR f.bin") {
		t.Errorf("commands:\n%s", cmds)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("after the resume: %q", names)
	}

	// A .part left by a killed run is reported, and, without -C, not used.
	os.WriteFile(filepath.Join(dir, ".g.bin.part"), []byte("stale"), 0o600)
	fake2 := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/g.bin": "fresh"}})
	_, errOut, status = runIn(t, dir, "", "get", "-o", "g.bin", "ftp://"+fake2.Addr+"/g.bin")
	if status != 0 || readFile(t, filepath.Join(dir, "g.bin")) != "fresh" || !strings.Contains(errOut, ".g.bin.part (5 bytes) was left by an earlier run; starting over (-C resumes it)") {
		t.Errorf("stale part: %d %q", status, errOut)
	}
}

// TestGetRetry: --retry tries a dropped transfer again after the delay,
// resuming where it stopped; a refusal (550) is not retried.
func TestGetRetry(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	content := numbered(20000)
	var drops atomic.Int32
	fake := testserver.NewFTPFake(t, dropOnce("f.bin", content, &drops, 2))
	u := "ftp://" + fake.Addr + "/pub/f.bin"
	dir := t.TempDir()
	_, errOut, status := runIn(t, dir, "", "get", "--retry", "3", "--retry-delay", "10ms", "-o", "f.bin", u)
	if status != 0 || readFile(t, filepath.Join(dir, "f.bin")) != content {
		t.Fatalf("retry: %d %q", status, errOut)
	}
	if strings.Count(errOut, "trying again in") != 2 || !strings.Contains(errOut, "trying again in 10ms (retry 1 of 3)") || !strings.Contains(errOut, "trying again in 20ms (retry 2 of 3)") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if cmds := strings.Join(fake.Commands(), "\n"); !strings.Contains(cmds, "REST 10000\nRETR f.bin") || !strings.Contains(cmds, "REST 15000\nRETR f.bin") {
		t.Errorf("commands:\n%s", cmds)
	}
	// Not transient: one try.
	_, errOut, status = runIn(t, dir, "", "get", "--retry", "3", "--retry-delay", "10ms", "-o", "g.bin", "ftp://"+fake.Addr+"/pub/none")
	if status != exitRefused || strings.Contains(errOut, "trying again") {
		t.Errorf("550 retried: %d %q", status, errOut)
	}
}

// TestGetHTTPDownload: Range resume, a server that ignores it, 503 then
// 200 with --retry, --include, -I, --keep-error-body.
func TestGetHTTPDownload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	content := strings.Repeat("http body ", 1000)
	var busy atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/f":
			http.ServeContent(w, r, "f", time.Time{}, strings.NewReader(content))
		case "/whole":
			w.Write([]byte(content))
		case "/busy":
			if busy.Add(1) == 1 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("at last"))
		default:
			http.Error(w, "no such page", http.StatusNotFound)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".f.part"), []byte(content[:1234]), 0o600)
	os.WriteFile(filepath.Join(dir, ".whole.part"), []byte("garbage"), 0o600)
	_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-O", srv.URL+"/f", srv.URL+"/whole")
	if status != 0 || readFile(t, filepath.Join(dir, "f")) != content || readFile(t, filepath.Join(dir, "whole")) != content {
		t.Fatalf("resume: %d %q", status, errOut)
	}
	if !strings.Contains(errOut, "the server sent it whole, not from byte 7; starting over") {
		t.Errorf("stderr: %q", errOut)
	}
	out, errOut, status := runBinary(t, "", "get", "--retry", "1", "--retry-delay", "10ms", srv.URL+"/busy")
	// The server's Retry-After: 1 outweighs --retry-delay.
	if status != 0 || out != "at last" || !strings.Contains(errOut, "503 Service Unavailable; trying again in 1s") {
		t.Errorf("503 then 200: %d %q %q", status, out, errOut)
	}
	out, _, status = runBinary(t, "", "get", "-I", srv.URL+"/f")
	if status != 0 || !strings.HasPrefix(out, "HTTP/1.1 200 OK\r\n") || !strings.Contains(out, "Content-Length: 10000\r\n") || !strings.HasSuffix(out, "\r\n\r\n") {
		t.Errorf("-I: %d %q", status, out)
	}
	out, _, _ = runBinary(t, "", "get", "--include", srv.URL+"/f")
	if !strings.HasPrefix(out, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(out, "\r\n\r\n"+content) {
		t.Errorf("--include: %q…", out[:min(len(out), 200)])
	}
	out, errOut, status = runBinary(t, "", "get", srv.URL+"/missing")
	if status != exitRefused || out != "" || !strings.Contains(errOut, "404 Not Found") {
		t.Errorf("404: %d %q %q", status, out, errOut)
	}
	out, errOut, status = runBinary(t, "", "get", "--keep-error-body", srv.URL+"/missing")
	if status != exitRefused || out != "no such page\n" || !strings.Contains(errOut, "404 Not Found") {
		t.Errorf("--keep-error-body: %d %q %q", status, out, errOut)
	}
}

// TestGetNetrc: a URL without a login takes the one ~/.netrc (or
// --netrc-file) holds for its host, for ftp and http.
func TestGetNetrc(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/x": "x"}})
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		auth.Store(u + ":" + p)
	}))
	defer srv.Close()
	dir := t.TempDir()
	rc := filepath.Join(dir, "netrc")
	os.WriteFile(rc, []byte("machine 127.0.0.1 login joe password s3cret\n"), 0o600)
	_, errOut, status := runBinary(t, "", "get", "--netrc-file", rc, "-v", "ftp://"+fake.Addr+"/x")
	if status != 0 || !strings.Contains(strings.Join(fake.Commands(), "\n"), "USER joe\nPASS s3cret") || strings.Contains(errOut, "s3cret") {
		t.Errorf("ftp: %d %q %q", status, fake.Commands(), errOut)
	}
	if strings.Contains(errOut, "readable by group or others") {
		t.Errorf("a private netrc drew a warning: %q", errOut)
	}
	// A netrc others may read is used, with a warning naming it.
	os.Chmod(rc, 0o644)
	if _, errOut, status := runBinary(t, "", "get", "--netrc-file", rc, "-o", "/dev/null", "ftp://"+fake.Addr+"/x"); status != 0 ||
		!strings.Contains(errOut, "rfc1738: warning: "+rc+" is readable by group or others (mode 0644)") {
		t.Errorf("ftp, netrc mode 0644: %d %q", status, errOut)
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".netrc"), []byte("default login ann password pw\n"), 0o600)
	cmd := []string{"get", "--netrc", srv.URL + "/"}
	t.Setenv("HOME", home)
	if _, errOut, status := runBinary(t, "", cmd...); status != 0 || auth.Load() != "ann:pw" {
		t.Errorf("http: %d %q %v", status, errOut, auth.Load())
	}
}

// TestGetResumeVSFTPD: a .part holding the first third of a file is
// resumed against vsftpd (REST, then the 150's whole size less the
// offset checked), and the result is the file, byte for byte.
func TestGetResumeVSFTPD(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	addr, root := testserver.VSFTPD(t)
	want := readFile(t, filepath.Join(root, "pub", "binary.bin"))
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".binary.bin.part"), []byte(want[:len(want)/3]), 0o600)
	_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-v", "-O", "ftp://"+addr+"/pub/binary.bin")
	if status != 0 || readFile(t, filepath.Join(dir, "binary.bin")) != want {
		t.Fatalf("resume: %d\n%s", status, errOut)
	}
	if !strings.Contains(errOut, fmt.Sprintf("> REST %d\n< 350", len(want)/3)) {
		t.Errorf("conversation:\n%s", errOut)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("folder: %q", names)
	}
}

// TestGetResumeIgnored: a server that accepts REST and then sends the
// file from byte 0. get -C - sees more bytes than SIZE less the offset,
// drops the part file and fetches the file whole, once: never the kept
// prefix followed by the whole file.
func TestGetResumeIgnored(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	content := numbered(3000)
	var rests atomic.Int32
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: map[string]string{"/f.bin": content},
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch {
			case line == "FEAT":
				s.Reply("211-Features:", " SIZE", "211 End")
				return true
			case line == "SIZE f.bin":
				s.Reply("213 " + strconv.Itoa(len(content)))
				return true
			case strings.HasPrefix(line, "REST "): // accepted, then ignored
				rests.Add(1)
				s.Reply("350 Restart position accepted.")
				return true
			case line == "RETR f.bin":
				s.Send("150 Opening BINARY mode data connection for f.bin ("+strconv.Itoa(len(content))+" bytes).", content)
				return true
			}
			return false
		},
	})
	u := "ftp://" + fake.Addr + "/f.bin"
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".f.bin.part"), []byte(content[:1000]), 0o600)
	_, errOut, status := runIn(t, dir, "", "get", "-C", "-", "-o", "f.bin", u)
	if status != 0 || readFile(t, filepath.Join(dir, "f.bin")) != content || !strings.Contains(errOut, "did not resume where asked") {
		t.Fatalf("resume ignored: %d %q", status, errOut)
	}
	if names := dirNames(t, dir); len(names) != 1 || rests.Load() != 1 {
		t.Errorf("after it: %q, %d REST", names, rests.Load())
	}
}
