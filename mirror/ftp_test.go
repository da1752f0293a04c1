package mirror

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// tree is the remote tree of the ftp tests: names with spaces, ";",
// "%", "#" and non-ASCII bytes, nested empty directories.
var tree = map[string]string{
	"a.txt":                 "alpha\n",
	"with space.txt":        "space\n",
	"semi;colon.txt":        "semi\n",
	"per%25cent.txt":        "percent\n",
	"hash#tag.txt":          "hash\n",
	"東京/ノート.txt":            "tokyo\n",
	"sub/deeper/deep.bin":   strings.Repeat("\x00\x01binary", 5000),
	"sub/x y/z;w.txt":       "nested\n",
	"empty1/empty2/":        "",
	"dir with space/f#1.md": "md\n",
}

func writeTree(t *testing.T, root string) {
	t.Helper()
	for rel, body := range tree {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkTree compares dir with tree, each remote name made local
// (localSegment: "%" is written %25).
func checkTree(t *testing.T, dir string) {
	t.Helper()
	for rel, body := range tree {
		segs := strings.Split(rel, "/")
		for i, seg := range segs {
			if seg != "" {
				segs[i] = localSegment(seg)
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(strings.Join(segs, "/")))
		if strings.HasSuffix(rel, "/") {
			if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
				t.Errorf("directory %s missing: %v", rel, err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if string(got) != body {
			t.Errorf("%s: %d bytes, want %d", rel, len(got), len(body))
		}
	}
}

func readManifest(t *testing.T, dir string) map[string]Record {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs := map[string]Record{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("manifest line %q: %v", sc.Text(), err)
		}
		recs[r.Path] = r
	}
	return recs
}

// servers gives the ftp flavours of the tests: vsftpd (LIST) and
// pyftpdlib (MLSD), each serving a fresh copy of tree at a URL.
func servers(t *testing.T) map[string]func(t *testing.T) (url, root string) {
	return map[string]func(t *testing.T) (string, string){
		"vsftpd": func(t *testing.T) (string, string) {
			addr, root := testserver.VSFTPD(t)
			top := filepath.Join(root, "mirror")
			writeTree(t, top)
			chmodTree(t, top)
			return "ftp://" + addr + "/mirror/", top
		},
		"pyftpdlib": func(t *testing.T) (string, string) {
			addr, root := pyftpdlib(t)
			writeTree(t, root)
			return "ftp://" + addr + "/", root
		},
	}
}

func chmodTree(t *testing.T, root string) {
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if fi.IsDir() {
				mode = 0o755
			}
			os.Chmod(p, mode)
		}
		return nil
	})
}

// pyftpdlib starts pyftpdlib (an MLSD server) with anonymous access to
// a fresh folder.
func pyftpdlib(t *testing.T) (addr, root string) {
	t.Helper()
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import pyftpdlib").Run() != nil {
		testserver.Unavailable(t, "pyftpdlib is not installed for %s", py)
		return "", ""
	}
	root = t.TempDir()
	port := testserver.FreePort(t)
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	testserver.Start(t, "pyftpdlib", exec.Command(py, "-m", "pyftpdlib", "-i", "127.0.0.1", "-p", fmt.Sprint(port), "-d", root), addr)
	return addr, root
}

func TestMirrorFTP(t *testing.T) {
	for name, start := range servers(t) {
		t.Run(name, func(t *testing.T) {
			url, root := start(t)
			dir := t.TempDir()
			var log bytes.Buffer
			ctx := context.Background()
			st, err := Mirror(ctx, url, dir, Options{Log: &log, Email: "test@example.org"})
			if err != nil || st.Failed > 0 {
				t.Fatalf("first run: %+v, %v\n%s", st, err, log.String())
			}
			checkTree(t, dir)
			recs := readManifest(t, dir)
			files := 0
			for _, b := range tree {
				if b != "" {
					files++
				}
			}
			if st.Fetched != files || len(recs) != files {
				t.Errorf("fetched %d, manifest %d records, want %d\n%s", st.Fetched, len(recs), files, log.String())
			}
			if r, want := recs["with space.txt"], sha256.Sum256([]byte(tree["with space.txt"])); r.SHA256 != hex.EncodeToString(want[:]) || r.Size != 6 {
				t.Errorf("manifest of with space.txt = %+v", r)
			}
			if r := recs["semi;colon.txt"]; !strings.HasSuffix(r.URL, "/semi%3Bcolon.txt") {
				t.Errorf("URL of semi;colon.txt = %q, want ;  encoded (§3.2.2)", r.URL)
			}

			// A second run transfers nothing.
			log.Reset()
			st, err = Mirror(ctx, url, dir, Options{Log: &log})
			if err != nil || st.Fetched != 0 || st.Unchanged != files {
				t.Fatalf("second run: %+v, %v, want nothing fetched\n%s", st, err, log.String())
			}

			// A changed file is fetched again; a gone one is deleted
			// with --delete, and its manifest record goes.
			os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha, longer now\n"), 0o644)
			os.Remove(filepath.Join(root, "hash#tag.txt"))
			// A gone folder goes whole, with the records of its files.
			os.RemoveAll(filepath.Join(root, "sub", "deeper"))
			log.Reset()
			st, err = Mirror(ctx, url, dir, Options{Log: &log, Delete: true})
			if err != nil || st.Fetched != 1 || st.Deleted != 2 {
				t.Fatalf("third run: %+v, %v, want 1 fetched, 2 deleted\n%s", st, err, log.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "sub", "deeper")); !os.IsNotExist(err) {
				t.Errorf("sub/deeper still there: %v", err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "alpha, longer now\n" {
				t.Errorf("a.txt = %q after the change", b)
			}
			if _, err := os.Stat(filepath.Join(dir, "hash#tag.txt")); !os.IsNotExist(err) {
				t.Errorf("hash#tag.txt still there: %v", err)
			}
			recs = readManifest(t, dir)
			_, deep := recs["sub/deeper/deep.bin"]
			if _, ok := recs["hash#tag.txt"]; ok || deep || len(recs) != files-2 {
				t.Errorf("manifest after --delete: %d records, hash#tag.txt kept %v, sub/deeper/deep.bin %v", len(recs), ok, deep)
			}
		})
	}
}

// TestMirrorResumeVSFTPD: a partial file left by a broken run, marked
// with the file's time to the second (MDTM: vsftpd's LIST gives the
// minute), is completed with REST, as vsftpd's log shows.
func TestMirrorResumeVSFTPD(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	top := filepath.Join(root, "resume")
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<14) // 256 KiB
	os.MkdirAll(top, 0o755)
	if err := os.WriteFile(filepath.Join(top, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	chmodTree(t, top)
	fi, _ := os.Stat(filepath.Join(top, "big.bin"))
	// vsftpd lists times in UTC to the minute; MDTM tells the second.
	listed := fi.ModTime().UTC().Truncate(time.Second)
	dir := t.TempDir()
	part := filepath.Join(dir, ".big.bin.rfc1738-partial")
	os.WriteFile(part, big[:100000], 0o644)
	os.Chtimes(part, listed, listed)

	var log bytes.Buffer
	st, err := Mirror(context.Background(), "ftp://"+addr+"/resume/", dir, Options{Log: &log})
	if err != nil || st.Fetched != 1 || st.Bytes != int64(len(big)-100000) {
		t.Fatalf("%+v, %v; want the rest of big.bin\n%s", st, err, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "big.bin")); !bytes.Equal(b, big) {
		t.Errorf("big.bin: %d bytes, not the file", len(b))
	}
	if l := testserver.VSFTPDLog(root); !strings.Contains(l, `"REST 100000"`) {
		t.Errorf("vsftpd's log shows no REST 100000:\n%s", l)
	}
}

// TestMirrorMDTMVSFTPD: vsftpd has no MLSD, and its LIST gives the
// minute for a recent file and the day for one older than six months.
// MDTM tells the second: the local copy gets it, and a same-size rewrite
// within the minute is fetched (it was reported unchanged).
func TestMirrorMDTMVSFTPD(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	top := filepath.Join(root, "times")
	os.MkdirAll(top, 0o755)
	recent := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour).Add(10 * time.Second)
	old := time.Date(2020, 3, 4, 5, 6, 7, 0, time.UTC)
	write := func(name, body string, at time.Time) {
		p := filepath.Join(top, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, at, at)
	}
	write("recent.txt", "version 1\n", recent)
	write("old.txt", "old\n", old)
	chmodTree(t, top)
	url := "ftp://" + addr + "/times/"
	dir := t.TempDir()
	if st, err := Mirror(context.Background(), url, dir, Options{}); err != nil || st.Fetched != 2 {
		t.Fatalf("first run %+v, %v", st, err)
	}
	for name, want := range map[string]time.Time{"recent.txt": recent, "old.txt": old} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || !fi.ModTime().Equal(want) {
			t.Errorf("%s: local time %v, %v; want the second, %v", name, fi.ModTime().UTC(), err, want)
		}
	}
	// The same size, 30 seconds later in the same minute.
	write("recent.txt", "version 2\n", recent.Add(30*time.Second))
	var log bytes.Buffer
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log})
	if err != nil || st.Fetched != 1 || st.Unchanged != 1 {
		t.Fatalf("second run %+v, %v; want recent.txt fetched, old.txt unchanged\n%s", st, err, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "recent.txt")); string(b) != "version 2\n" {
		t.Errorf("recent.txt = %q, want version 2", b)
	}
	if l := testserver.VSFTPDLog(root); !strings.Contains(l, `"MDTM recent.txt"`) {
		t.Errorf("vsftpd's log shows no MDTM")
	}
}
