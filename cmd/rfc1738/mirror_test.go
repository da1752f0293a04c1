package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/mirror"
)

func runMirrorCLI(args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	status := run(append([]string{"mirror"}, args...), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return out.String(), errb.String(), status
}

// TestMirrorCLI runs the command against the fake: a dry run changes
// nothing, a run copies the tree and says so in its summary, --delete
// removes a file the server no longer has.
func TestMirrorCLI(t *testing.T) {
	files := map[string]string{"/pub/a.txt": "a\n", "/pub/sub/b.txt": "bb\n"}
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: files,
		// The fake's own LIST calls everything a file; this one tells
		// the folder sub apart.
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line != "LIST" {
				return false
			}
			switch s.Dir() {
			case "/pub":
				s.Send("150 Here comes the directory listing.",
					"-rw-r--r--    1 0        0               2 Jan 01  2024 a.txt\r\n"+
						"drwxr-xr-x    2 0        0            4096 Jan 01  2024 sub\r\n")
			default:
				s.Send("150 Here comes the directory listing.",
					"-rw-r--r--    1 0        0               3 Jan 01  2024 b.txt\r\n")
			}
			return true
		}})
	url := "ftp://" + fake.Addr + "/pub/"
	dir := filepath.Join(t.TempDir(), "copy")

	out, errs, status := runMirrorCLI("--dry-run", url, dir)
	if status != 0 || !strings.Contains(out, "would fetch "+url+"a.txt -> a.txt") {
		t.Errorf("dry run: status %d\n%s%s", status, out, errs)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the dry run made %s: %v", dir, err)
	}

	out, errs, status = runMirrorCLI("-v", url, dir)
	if status != 0 || !strings.Contains(errs, "mirror: 2 fetched") {
		t.Fatalf("run: status %d\n%s%s", status, out, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "b.txt")); string(b) != "bb\n" {
		t.Errorf("sub/b.txt = %q", b)
	}

	os.WriteFile(filepath.Join(dir, "stray.txt"), []byte("x"), 0o644)
	out, errs, status = runMirrorCLI("--delete", url, dir)
	if status != 0 || !strings.Contains(out, "deleted stray.txt") {
		t.Errorf("--delete: status %d\n%s%s", status, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "stray.txt")); !os.IsNotExist(err) {
		t.Errorf("stray.txt kept: %v", err)
	}

	if _, _, status := runMirrorCLI(url); status != exitUsage {
		t.Errorf("one operand: status %d, want %d", status, exitUsage)
	}
}

// TestMirrorCLIIdleAndPorts: --idle-timeout gives up on a file whose
// transfer stalls (exit status 1, the run finishes), and a URL at
// another protocol's port is refused in get's terms (--allow-port).
func TestMirrorCLIIdleAndPorts(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/a.txt": "a\n"},
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch line {
			case "LIST":
				s.Send("150 Here comes the directory listing.", "-rw-r--r--    1 0        0               2 Jan 01  2024 a.txt\r\n")
				return true
			case "RETR a.txt":
				<-s.Done()
				return true
			}
			return false
		}})
	out, errs, status := runMirrorCLI("--idle-timeout", "200ms", "ftp://"+fake.Addr+"/pub/", t.TempDir())
	if status != exitNetwork || !strings.Contains(out, "nothing arrived for 200ms") || !strings.Contains(errs, "1 failed") {
		t.Errorf("stalled RETR: status %d\n%s%s", status, out, errs)
	}
	_, errs, status = runMirrorCLI("ftp://127.0.0.1:25/pub/", t.TempDir())
	if status != exitUsage || !strings.Contains(errs, "give --allow-port 25 to go on") {
		t.Errorf("port 25: status %d\n%s", status, errs)
	}
}

// TestMirrorCLIHostileTrees: through the command, an endless gopher hole
// (each menu links to two new menus) under --max-total 100000 ends and
// writes no more than that (it saved 7.6 MB and kept walking), and an
// ftp tree's names stay the server's ("pct%dir/100%.txt", not
// "pct%25dir/100%25.txt").
func TestMirrorCLIHostileTrees(t *testing.T) {
	hole := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		sel := strings.TrimSpace(string(req))
		host, port, _ := strings.Cut(addr, ":")
		var b strings.Builder
		for _, it := range []string{"1" + sel + "/a", "1" + sel + "/b", "0" + sel + "/doc"} {
			b.WriteString(it + "\t" + it[1:] + "\t" + host + "\t" + port + "\r\n")
		}
		if strings.HasSuffix(sel, "/doc") {
			return testserver.GopherReply{Reply: bytes.Repeat([]byte("d"), 1000)}
		}
		return testserver.GopherReply{Reply: []byte(b.String() + ".\r\n")}
	})
	dir := t.TempDir()
	done := make(chan struct{})
	var errs string
	go func() {
		defer close(done)
		_, errs, _ = runMirrorCLI("--max-total", "100000", "gopher://"+hole.Addr+"/1/m", dir)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("mirror --max-total 100000 still walking the hole after 30 s")
	}
	var written int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && d.Name() != mirror.ManifestName {
			fi, _ := d.Info()
			written += fi.Size()
		}
		return nil
	})
	if written > 100000 || !strings.Contains(errs, "mirror: ") {
		t.Errorf("%d bytes written under --max-total 100000\n%s", written, errs)
	}

	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/pct%dir/100%.txt": "100\n"}})
	dir = t.TempDir()
	url := "ftp://" + fake.Addr + "/pub/"
	if out, errs, status := runMirrorCLI(url, dir); status != 0 {
		t.Fatalf("ftp: status %d\n%s%s", status, out, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "pct%dir", "100%.txt")); string(b) != "100\n" {
		t.Errorf("pct%%dir/100%%.txt = %q, %v", b, err)
	}
	if out, errs, status := runMirrorCLI("--delete", url, dir); status != 0 || !strings.Contains(errs, "mirror: 0 fetched") || !strings.Contains(errs, " 0 deleted") {
		t.Errorf("second run: status %d\n%s%s", status, out, errs)
	}
}
