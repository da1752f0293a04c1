package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
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
