package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// faultFiles is the fake's tree; its LIST adds lines no mirror may take.
var faultFiles = map[string]string{
	"/top/a.txt":     "a\n",
	"/top/b.txt":     "bbbb\n",
	"/top/sub/c.txt": "cc\n",
}

// fakeList answers LIST in the Unix format with true sizes, plus an
// unreadable line and a name that would leave the folder.
func fakeList(s *testserver.FTPSession) {
	dir := s.Dir()
	names := map[string]string{}
	for p, body := range faultFiles {
		if rel, ok := strings.CutPrefix(p, dir+"/"); ok {
			if d, _, isDir := strings.Cut(rel, "/"); isDir {
				names[d] = ""
			} else {
				names[rel] = body
			}
		}
	}
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("total 3\r\n")
	for _, n := range keys {
		kind, size := "-", len(names[n])
		if _, ok := faultFiles[path.Join(dir, n)]; !ok {
			kind, size = "d", 4096
		}
		fmt.Fprintf(&b, "%srw-r--r--    1 0        0       %8d Jan 01  2024 %s\r\n", kind, size, n)
	}
	b.WriteString("this line is no listing\r\n")
	b.WriteString("-rw-r--r--    1 0        0              1 Jan 01  2024 ../../escape\r\n")
	s.Send("150 Here comes the directory listing.", b.String())
}

// faultFake serves faultFiles, LIST by fakeList, and the command lines
// of answers by their functions.
func faultFake(t *testing.T, answers map[string]func(*testserver.FTPSession)) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: faultFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "LIST" {
				fakeList(s)
				return true
			}
			if answer, ok := answers[line]; ok {
				answer(s)
				return true
			}
			return false
		},
	})
}

func TestMirrorFaults(t *testing.T) {
	var drop atomic.Bool
	drop.Store(true)
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: faultFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch {
			case line == "LIST":
				fakeList(s)
				return true
			case line == "RETR b.txt" && drop.Load():
				// The server goes away in the middle of the tree.
				s.Drop()
				return true
			}
			return false
		},
	})
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Fetched != 2 || st.Failed != 1 || st.Refused != 4 {
		t.Errorf("first run %+v, want 2 fetched, 1 failed, 4 refused (2 per listing)\n%s", st, log.String())
	}
	for _, want := range []string{`unreadable LIST line in ftp://` + fake.Addr + `/top/: "this line is no listing"`, `refused "../../escape"`} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	// The manifest names exactly the complete files; the cut one left
	// no file and no temporary file behind.
	recs := readManifest(t, dir)
	if _, ok := recs["b.txt"]; ok || len(recs) != 2 || recs["sub/c.txt"].Size != 3 {
		t.Errorf("manifest %+v, want a.txt and sub/c.txt", recs)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "b.txt") || strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("%s left after the cut transfer", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "..", "escape")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file outside the folder: %v", err)
	}

	// The next run fetches only what is missing.
	drop.Store(false)
	log.Reset()
	st, err = Mirror(context.Background(), url, dir, Options{Log: &log})
	if err != nil || st.Fetched != 1 || st.Unchanged != 2 || st.Failed != 0 {
		t.Errorf("second run %+v, %v; want b.txt only\n%s", st, err, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "bbbb\n" {
		t.Errorf("b.txt = %q", b)
	}
}

// TestMirrorInterrupted cancels the run (Ctrl-C) in the middle of a
// transfer: the run says so and the manifest holds only complete files.
func TestMirrorInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: faultFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch line {
			case "LIST":
				fakeList(s)
				return true
			case "RETR b.txt":
				cancel()
				<-s.Done()
				return true
			}
			return false
		},
	})
	dir := t.TempDir()
	st, err := Mirror(ctx, "ftp://"+fake.Addr+"/top/", dir, Options{Parallel: 1})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Mirror = %+v, %v; want context.Canceled", st, err)
	}
	recs := readManifest(t, dir)
	if _, ok := recs["b.txt"]; ok {
		t.Errorf("manifest names the interrupted b.txt: %+v", recs)
	}
	for p := range recs {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err != nil || int64(len(b)) != recs[p].Size {
			t.Errorf("manifest names %s, on disk: %d bytes, %v", p, len(b), err)
		}
	}
}

// TestMirrorResume breaks a transfer after 40,000 of 100,000 bytes; the
// next run sends REST 40000 (RFC 3659 §5) and completes the same bytes.
func TestMirrorResume(t *testing.T) {
	big := make([]byte, 100000)
	for i := range big {
		big[i] = byte(i * 7)
	}
	var broke atomic.Bool
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: map[string]string{"/top/big.bin": string(big)},
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch {
			case line == "LIST":
				s.Send("150 Here comes the directory listing.", "-rw-r--r--    1 0        0          100000 Jan 01  2024 big.bin\r\n")
				return true
			case line == "RETR big.bin" && !broke.Load():
				broke.Store(true)
				dc, err := s.AcceptData()
				if err != nil {
					return false
				}
				s.Reply("150 Opening BINARY mode data connection for big.bin (100000 bytes).")
				dc.Write(big[:40000])
				dc.Close()
				s.Drop()
				return true
			}
			return false
		},
	})
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	st, _ := Mirror(context.Background(), url, dir, Options{})
	if st.Failed != 1 {
		t.Fatalf("first run %+v, want the broken transfer failed", st)
	}
	if _, err := os.Stat(filepath.Join(dir, "big.bin")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("big.bin exists after a broken transfer: %v", err)
	}
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log})
	if err != nil || st.Fetched != 1 || st.Bytes != 60000 {
		t.Fatalf("second run %+v, %v; want 60,000 bytes more\n%s", st, err, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "big.bin")); !bytes.Equal(b, big) {
		t.Errorf("big.bin: %d bytes, not the file", len(b))
	}
	rest := false
	for _, c := range fake.Commands() {
		rest = rest || c == "REST 40000"
	}
	if !rest {
		t.Errorf("no REST 40000 among %q", fake.Commands())
	}
	sum := sha256.Sum256(big)
	if r := readManifest(t, dir)["big.bin"]; r.Size != 100000 || r.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("manifest %+v: the hash is of the whole file", r)
	}
	if !strings.Contains(log.String(), "resumed "+url+"big.bin at byte 40000") {
		t.Errorf("log: %s", log.String())
	}
}

// TestMirrorMLSDUnreadable: a server that offers MLSD (FEAT lists MLST)
// and answers it with lines none of which can be read. The listing falls
// back to LIST, as an unreadable LIST falls back to NLST (one directory
// reader, access/ftp): the files are fetched, and --delete keeps a local
// file the server still lists, rather than taking the folder for empty.
func TestMirrorMLSDUnreadable(t *testing.T) {
	fake := faultFake(t, map[string]func(*testserver.FTPSession){
		"FEAT": func(s *testserver.FTPSession) {
			s.Reply("211-Features:", " MLST type*;size*;modify*;", " SIZE", "211 End")
		},
		"MLSD": func(s *testserver.FTPSession) { s.Send("150 Here comes the listing.", "no facts here\r\nnor here\r\n") },
	})
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("old\n"), 0o644)
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", dir, Options{Log: &log, Parallel: 1, Delete: true})
	if err != nil || st.Deleted != 0 || st.Fetched != 3 {
		t.Fatalf("Mirror = %+v, %v; want a.txt, b.txt and sub/c.txt fetched, nothing deleted\n%s", st, err, log.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "a\n" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
	if strings.Contains(log.String(), "unreadable MLSD line") {
		t.Errorf("the MLSD lines of a listing read again by LIST are reported:\n%s", log.String())
	}
}

// TestMirrorGopherMenuNotWhole: a menu with a line that cannot be read
// is not read whole. The line is reported and counted, and --delete keeps
// the local copies of that menu's items: the item the broken line held
// may still be there.
func TestMirrorGopherMenuNotWhole(t *testing.T) {
	var broken atomic.Bool
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if string(req) == "/menu\r\n" {
			m := gopherMenu(addr, "0 /a", "0 /b")
			if broken.Load() {
				// b's line loses its host and port.
				host, port, _ := strings.Cut(addr, ":")
				m = bytes.Replace(m, []byte("\t"+host+"\t"+port+"\r\n0/b\t/b\t"+host+"\t"+port), []byte("\t"+host+"\t"+port+"\r\n0/b\t/b"), 1)
			}
			return testserver.GopherReply{Reply: m}
		}
		return testserver.GopherReply{Reply: []byte("item " + strings.TrimSpace(string(req)))}
	})
	dir := t.TempDir()
	url := "gopher://" + fake.Addr + "/1/menu"
	if st, err := Mirror(context.Background(), url, dir, Options{}); err != nil || st.Fetched != 3 {
		t.Fatalf("first run %+v, %v", st, err)
	}
	broken.Store(true)
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Delete: true})
	if err != nil || st.Deleted != 0 || st.Refused != 1 {
		t.Fatalf("second run %+v, %v; want the broken line refused, nothing deleted\n%s", st, err, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err != nil {
		t.Errorf("b deleted though its menu was not read whole: %v", err)
	}
	if !strings.Contains(log.String(), "unreadable menu line in "+url) {
		t.Errorf("log lacks the unreadable line:\n%s", log.String())
	}
}

// TestMirrorResumeIgnored: a server that accepts REST and then sends the
// file from byte 0. The bytes received after REST 2 are more than SIZE
// (the listing's 5) less 2: the partial is dropped and the file fetched
// again from 0, so b.txt is the server's file, never prefix + whole
// file, and so is its manifest line.
func TestMirrorResumeIgnored(t *testing.T) {
	fake := faultFake(t, map[string]func(*testserver.FTPSession){
		// REST accepted, and then ignored: the whole file.
		"REST 2": func(s *testserver.FTPSession) { s.Reply("350 Restart position accepted (2).") },
		"RETR b.txt": func(s *testserver.FTPSession) {
			s.Send("150 Opening BINARY mode data connection for b.txt (5 bytes).", faultFiles["/top/b.txt"])
		},
	})
	dir := t.TempDir()
	listed := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	part := filepath.Join(dir, ".b.txt.rfc1738-partial")
	os.WriteFile(part, []byte("bb"), 0o644)
	os.Chtimes(part, listed, listed)
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", dir, Options{Log: &log, Parallel: 1})
	if err != nil || st.Fetched != 3 || st.Failed != 0 {
		t.Fatalf("Mirror = %+v, %v; want a.txt, b.txt and sub/c.txt fetched\n%s", st, err, log.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "b.txt")); string(b) != "bbbb\n" {
		t.Errorf("b.txt = %q, %v; want the server's %q\n%s", b, err, "bbbb\n", log.String())
	}
	if rec := readManifest(t, dir)["b.txt"]; rec.Size != 5 {
		t.Errorf("manifest line of b.txt %+v, want 5 bytes", rec)
	}
	if _, err := os.Stat(part); !os.IsNotExist(err) {
		t.Errorf("the partial is left: %v", err)
	}
}

// listFake serves files (absolute paths) and answers LIST of /top with
// the lines given, as sent, and of any other folder with one file "c.txt"
// of 2 bytes; other command lines by answers.
func listFake(t testing.TB, files map[string]string, lines []string, answers map[string]func(*testserver.FTPSession)) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: files,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line == "LIST" {
				ls := []string{"-rw-r--r--    1 0        0               2 Jan 01  2024 c.txt"}
				if s.Dir() == "/top" {
					ls = lines
				}
				s.Send("150 Here comes the directory listing.", strings.Join(ls, "\r\n")+"\r\n")
				return true
			}
			if answer, ok := answers[line]; ok {
				answer(s)
				return true
			}
			return false
		},
	})
}

// TestMirrorDeleteNotWhole: a LIST with one line that cannot be read (its
// size is no number) is not whole. --delete leaves that folder alone, and
// says so: the file of the broken line is still on the server (it was
// deleted before), and so may be any other name the listing lacks.
func TestMirrorDeleteNotWhole(t *testing.T) {
	fake := listFake(t, map[string]string{"/top/a.txt": "a\n", "/top/weird.txt": "w\n"}, []string{
		"-rw-r--r--    1 0        0               2 Jan 01  2024 a.txt",
		"-rw-r--r--    1 0        0              zz Jan 01  2024 weird.txt",
	}, nil)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "weird.txt"), []byte("w\n"), 0o644)
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", dir, Options{Log: &log, Parallel: 1, Delete: true})
	if err != nil || st.Deleted != 0 || st.DeletesSkipped != 1 || st.Fetched != 1 {
		t.Fatalf("Mirror = %+v, %v; want a.txt fetched, nothing deleted, one folder's deletions skipped\n%s", st, err, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "weird.txt")); err != nil {
		t.Errorf("weird.txt deleted though the listing was not whole: %v", err)
	}
	if want := "deletions skipped in ftp://" + fake.Addr + "/top/: its listing was not read whole (unreadable lines)"; !strings.Contains(log.String(), want) {
		t.Errorf("log lacks %q:\n%s", want, log.String())
	}
}

// TestMirrorControlNames: a name holding ESC (a terminal's escape
// sequence) and "%" is written with %XX locally, as the gopher mirror
// writes a selector's (localSegment), and its manifest line too; a later
// run finds it unchanged.
func TestMirrorControlNames(t *testing.T) {
	fake := listFake(t, map[string]string{"/top/red\x1b[31m%.txt": "red\n"}, []string{
		"-rw-r--r--    1 0        0               4 Jan 01  2024 red\x1b[31m%.txt",
	}, nil)
	dir := t.TempDir()
	url := "ftp://" + fake.Addr + "/top/"
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1}); err != nil || st.Fetched != 1 {
		t.Fatalf("Mirror = %+v, %v", st, err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "red%1B[31m%.txt")); string(b) != "red\n" {
		t.Fatalf("red%%1B[31m%%.txt = %q, %v; the folder holds %q", b, err, names)
	}
	if _, ok := readManifest(t, dir)["red%1B[31m%.txt"]; !ok {
		t.Errorf("no manifest line for the local name")
	}
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1, Delete: true}); err != nil || st.Unchanged != 1 || st.Deleted != 0 {
		t.Errorf("second run %+v, %v; want it unchanged", st, err)
	}
}

// symlinkLines is a listing with links: one inside the folder, one that
// climbs out, one absolute, one to a directory.
var symlinkLines = []string{
	"-rw-r--r--    1 0        0               2 Jan 01  2024 a.txt",
	"lrwxrwxrwx    1 0        0               5 Jan 01  2024 in -> a.txt",
	"lrwxrwxrwx    1 0        0              16 Jan 01  2024 out -> ../../etc/passwd",
	"lrwxrwxrwx    1 0        0              11 Jan 01  2024 abs -> /etc/passwd",
	"lrwxrwxrwx    1 0        0               3 Jan 01  2024 dl -> sub",
	"drwxr-xr-x    2 0        0            4096 Jan 01  2024 sub",
}

// symlinkFake serves symlinkLines; the server resolves in and dl as the
// files and folder they point to, and refuses out and abs.
func symlinkFake(t *testing.T) *testserver.FTPFake {
	return listFake(t, map[string]string{
		"/top/a.txt": "a\n", "/top/in": "a\n", "/top/sub/c.txt": "c\n", "/top/dl/c.txt": "c\n",
	}, symlinkLines, map[string]func(*testserver.FTPSession){
		"SIZE in":  func(s *testserver.FTPSession) { s.Reply("213 2") },
		"SIZE dl":  func(s *testserver.FTPSession) { s.Reply("550 Could not get file size.") },
		"SIZE out": func(s *testserver.FTPSession) { s.Reply("550 Could not get file size.") },
		"SIZE abs": func(s *testserver.FTPSession) { s.Reply("550 Could not get file size.") },
		"CWD out":  func(s *testserver.FTPSession) { s.Reply("550 Failed to change directory.") },
		"CWD abs":  func(s *testserver.FTPSession) { s.Reply("550 Failed to change directory.") },
	})
}

// TestMirrorSymlinks: links in a listing are reported and counted
// (they vanished, and the summary said "0 skipped"); --symlinks keep
// makes the links whose target stays inside the folder and refuses the
// others; follow fetches what they point to.
func TestMirrorSymlinks(t *testing.T) {
	fake := symlinkFake(t)
	url := "ftp://" + fake.Addr + "/top/"

	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1})
	if err != nil || st.Links != 4 || st.Skipped != 4 || st.Fetched != 2 {
		t.Fatalf("skip: %+v, %v; want 4 links skipped, a.txt and sub/c.txt fetched\n%s", st, err, log.String())
	}
	if !strings.Contains(log.String(), "skipped link in -> a.txt") {
		t.Errorf("skip: log lacks the link:\n%s", log.String())
	}

	dir = t.TempDir()
	log.Reset()
	st, err = Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1, Symlinks: SymlinksKeep})
	if err != nil || st.Links != 4 || st.Refused != 2 {
		t.Fatalf("keep: %+v, %v; want 4 links, out and abs refused\n%s", st, err, log.String())
	}
	for name, want := range map[string]string{"in": "a.txt", "dl": "sub"} {
		if got, err := os.Readlink(filepath.Join(dir, name)); got != want {
			t.Errorf("keep: %s -> %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"out", "abs"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("keep: %s made: %v", name, err)
		}
	}
	if !strings.Contains(log.String(), "refused link out -> ../../etc/passwd: its target is outside the folder") {
		t.Errorf("keep: log lacks the refusal:\n%s", log.String())
	}

	dir = t.TempDir()
	log.Reset()
	st, err = Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1, Symlinks: SymlinksFollow})
	if err != nil || st.Fetched != 3 || st.Failed != 2 || st.Skipped != 1 {
		t.Fatalf("follow: %+v, %v; want a.txt, in, sub/c.txt fetched, dl skipped (sub is walked), out and abs failed\n%s", st, err, log.String())
	}
	for name, want := range map[string]string{"in": "a\n", "sub/c.txt": "c\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("follow: %s = %q, %v", name, b, err)
		}
	}
	if !strings.Contains(log.String(), "skipped link dl -> sub: the server directory ~/top/sub is walked already") {
		t.Errorf("follow: log lacks dl:\n%s", log.String())
	}
	if fi, err := os.Lstat(filepath.Join(dir, "in")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("follow: in is no regular file: %v", err)
	}
}

func TestLocalLinkTarget(t *testing.T) {
	for _, tt := range []struct {
		dir, target, want string
		ok                bool
	}{
		{"", "a.txt", "a.txt", true},
		{"d", "../a.txt", "../a.txt", true},
		{"d/e", "../../x/y", "../../x/y", true},
		{"", "../a", "", false},
		{"d", "../../a", "", false},
		{"", "/etc/passwd", "", false},
		// A ".." after a name climbs from where that name leads (maybe
		// a link): refused.
		{"", "d/e/l/../..", "", false},
		{"", "esc\x1b", "esc%1B", true},
		{"", ".", "", false},
	} {
		got, ok := localLinkTarget(tt.dir, tt.target)
		if got != tt.want || ok != tt.ok {
			t.Errorf("localLinkTarget(%q, %q) = %q, %v; want %q, %v", tt.dir, tt.target, got, ok, tt.want, tt.ok)
		}
	}
}

// TestMirrorLimitsCountBytes: a server with no readable LIST (so NLST,
// no size) and no SIZE, whose 150 reply says 10 bytes and which sends
// 100,000. --max-size and --max-total count the bytes as they arrive:
// the transfer is stopped at the limit and nothing is saved (the file
// was saved whole before).
func TestMirrorLimitsCountBytes(t *testing.T) {
	big := strings.Repeat("x", 100_000)
	fake := listFake(t, map[string]string{"/top/big": big, "/top/big2": big}, []string{"no listing"},
		map[string]func(*testserver.FTPSession){
			"RETR big": func(s *testserver.FTPSession) {
				s.Send("150 Opening BINARY mode data connection for big (10 bytes).", big)
			},
			"RETR big2": func(s *testserver.FTPSession) {
				s.Send("150 Opening BINARY mode data connection for big2 (10 bytes).", big)
			},
		})
	url := "ftp://" + fake.Addr + "/top/"
	for _, tt := range []struct {
		name string
		opt  Options
	}{
		{"max-size", Options{MaxSize: 1000}},
		{"max-total", Options{MaxTotal: 1000}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var log bytes.Buffer
			tt.opt.Log, tt.opt.Parallel = &log, 1
			st, err := Mirror(context.Background(), url, dir, tt.opt)
			if err != nil || st.Fetched != 0 || st.Failed == 0 {
				t.Fatalf("Mirror = %+v, %v; want nothing fetched\n%s", st, err, log.String())
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != ManifestName {
					t.Errorf("%s left in the folder", e.Name())
				}
			}
			if !strings.Contains(log.String(), "more bytes than the limit") {
				t.Errorf("log lacks the limit:\n%s", log.String())
			}
		})
	}
}

// TestMirrorMDTM: a LIST time to the day (a year shown) and a server
// whose MDTM tells the second. The local copy gets the second; a rewrite
// of the same size on the same day, which the listing cannot show, is
// fetched; a server without MDTM keeps the listed time.
func TestMirrorMDTM(t *testing.T) {
	var mdtm atomic.Value
	mdtm.Store("213 20240101123456")
	fake := listFake(t, map[string]string{"/top/a.txt": "a\n"}, []string{
		"-rw-r--r--    1 0        0               2 Jan 01  2024 a.txt",
	}, map[string]func(*testserver.FTPSession){
		"MDTM a.txt": func(s *testserver.FTPSession) { s.Reply(mdtm.Load().(string)) },
	})
	dir := t.TempDir()
	url := "ftp://" + fake.Addr + "/top/"
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1}); err != nil || st.Fetched != 1 {
		t.Fatalf("first run %+v, %v", st, err)
	}
	exact := time.Date(2024, 1, 1, 12, 34, 56, 0, time.UTC)
	if fi, _ := os.Stat(filepath.Join(dir, "a.txt")); !fi.ModTime().Equal(exact) {
		t.Errorf("a.txt: local time %v, want %v", fi.ModTime().UTC(), exact)
	}
	if rec := readManifest(t, dir)["a.txt"]; !rec.Exact.Equal(exact) {
		t.Errorf("manifest line %+v, want exact %v", rec, exact)
	}
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1}); err != nil || st.Unchanged != 1 || st.Fetched != 0 {
		t.Errorf("second run %+v, %v; want a.txt unchanged", st, err)
	}
	mdtm.Store("213 20240101200000")
	var log bytes.Buffer
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1, Log: &log}); err != nil || st.Fetched != 1 {
		t.Errorf("third run %+v, %v; want a.txt fetched: MDTM changed\n%s", st, err, log.String())
	}
	mdtm.Store("502 MDTM not implemented.")
	dir = t.TempDir()
	if st, err := Mirror(context.Background(), url, dir, Options{Parallel: 1}); err != nil || st.Fetched != 1 {
		t.Fatalf("without MDTM: %+v, %v", st, err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.txt")); !fi.ModTime().Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("without MDTM: local time %v, want the listed day", fi.ModTime().UTC())
	}
}

// TestMirrorDeleteBadEnd: a LIST whose lines all read well but whose
// transfer ends with 451, not 2xx, is not whole: nothing of that folder
// is deleted, and nothing of it is fetched.
func TestMirrorDeleteBadEnd(t *testing.T) {
	fake := rawListFake(t, "-rw-r--r--    1 0        0               2 Jan 01  2024 x\r\n", "451 Requested action aborted: local error in processing.")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644)
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+fake.Addr+"/top/", dir, Options{Log: &log, Parallel: 1, Delete: true})
	if err != nil || st.Deleted != 0 || st.Failed != 1 || st.Fetched != 0 {
		t.Fatalf("Mirror = %+v, %v; want the listing failed, nothing deleted\n%s", st, err, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err != nil {
		t.Errorf("b.txt deleted after a listing that ended with 451: %v", err)
	}
}

// TestMirrorRemotePartialName: a remote file named as the partial
// transfer of another (".big.bin.rfc1738-partial" beside big.bin) is a
// file like any other: its local name is escaped, so it is never taken
// for big.bin's partial (which made big.bin "hello" and the rest of the
// real bytes from byte 5 on, recorded so in the manifest). A second run
// over the first run's output fetches and deletes nothing.
func TestMirrorRemotePartialName(t *testing.T) {
	big := strings.Repeat("0123456789", 10_000)
	for _, parallel := range []int{1, 2} {
		t.Run(strconv.Itoa(parallel), func(t *testing.T) {
			fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{
				"/top/big.bin":                  big,
				"/top/.big.bin.rfc1738-partial": "hello",
			}})
			url := "ftp://" + fake.Addr + "/top/"
			dir := t.TempDir()
			var log bytes.Buffer
			st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: parallel})
			if err != nil || st.Fetched != 2 || st.Failed != 0 {
				t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "big.bin")); string(b) != big {
				t.Errorf("big.bin: %d bytes starting %q, not the server's", len(b), b[:min(len(b), 10)])
			}
			if b, err := os.ReadFile(filepath.Join(dir, "%2Ebig.bin.rfc1738-partial")); string(b) != "hello" {
				t.Errorf("the remote .big.bin.rfc1738-partial: %q, %v", b, err)
			}
			sum := sha256.Sum256([]byte(big))
			recs := readManifest(t, dir)
			if r := recs["big.bin"]; r.Size != int64(len(big)) || r.SHA256 != hex.EncodeToString(sum[:]) {
				t.Errorf("manifest line of big.bin %+v", r)
			}
			if strings.Contains(log.String(), "resumed") {
				t.Errorf("a resume:\n%s", log.String())
			}
			log.Reset()
			st, err = Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: parallel, Delete: true})
			if err != nil || st.Fetched != 0 || st.Deleted != 0 || st.Unchanged != 2 {
				t.Errorf("second run %+v, %v; want both unchanged\n%s", st, err, log.String())
			}
		})
	}
}

// TestMirrorServerNames: local names are the server's ("%" and all, as
// lftp and wget keep them); only a "%" that would read as an escape
// ("%41") is written "%25". A second run over the first run's output,
// with --delete, fetches and deletes nothing.
func TestMirrorServerNames(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{
		"/top/pct%dir/100%.txt": "100\n",
		"/top/%41.txt":          "A\n",
		"/top/a b;c#d%zz.txt":   "z\n",
	}})
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	if st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1}); err != nil || st.Fetched != 3 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	for local, want := range map[string]string{"pct%dir/100%.txt": "100\n", "%2541.txt": "A\n", "a b;c#d%zz.txt": "z\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(local))); string(b) != want {
			t.Errorf("%s = %q, %v", local, b, err)
		}
		if _, ok := readManifest(t, dir)[local]; !ok {
			t.Errorf("no manifest line for %s", local)
		}
	}
	log.Reset()
	if st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1, Delete: true}); err != nil || st.Fetched != 0 || st.Deleted != 0 || st.Unchanged != 3 {
		t.Errorf("second run %+v, %v; want all unchanged\n%s", st, err, log.String())
	}
}

// TestMirrorUnstorableTimes: MLSD times no local file can have (RFC 3659
// §2.3 allows years 0000-9999; os.Chtimes wraps outside 1678-2262, and
// 9999-12-31 became 1901-12-13). The local time is clamped, the manifest
// keeps the server's, and a second run finds both files unchanged.
func TestMirrorUnstorableTimes(t *testing.T) {
	fake := listFake(t, map[string]string{"/top/far.txt": "far\n", "/top/old.txt": "old\n"}, nil, map[string]func(*testserver.FTPSession){
		"FEAT": func(s *testserver.FTPSession) {
			s.Reply("211-Features:", " MLST type*;size*;modify*;", " SIZE", "211 End")
		},
		"MLSD": func(s *testserver.FTPSession) {
			s.Send("150 Here comes the listing.",
				"type=cdir;modify=20240101000000; .\r\n"+
					"type=file;size=4;modify=99991231235959; far.txt\r\n"+
					"type=file;size=4;modify=00000101000000; old.txt\r\n")
		},
	})
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	if st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1}); err != nil || st.Fetched != 2 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	if fi, err := os.Stat(filepath.Join(dir, "far.txt")); err != nil || fi.ModTime().Year() < 2200 {
		t.Errorf("far.txt: local time %v, %v; want 9999 clamped, not wrapped", fi.ModTime().UTC(), err)
	}
	recs := readManifest(t, dir)
	if far, old := recs["far.txt"], recs["old.txt"]; far.Mtime.Year() != 9999 || old.Mtime.Year() != 0 {
		t.Errorf("manifest times %v, %v; want the server's", far.Mtime, old.Mtime)
	}
	log.Reset()
	if st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1}); err != nil || st.Fetched != 0 || st.Unchanged != 2 {
		t.Errorf("second run %+v, %v; want both unchanged\n%s", st, err, log.String())
	}
}
