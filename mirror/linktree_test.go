package mirror

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// A linkTree is a server's tree with symbolic links: each absolute path
// is "d" (a directory), "l:TARGET" (a link) or "f:BODY" (a file).
type linkTree map[string]string

// resolve is the real path p names, each link on the way followed as a
// server follows it; "" when it names nothing (or loops).
func (t linkTree) resolve(p string) string {
	return t.resolveHops(path.Clean(p), 0)
}

func (t linkTree) resolveHops(p string, hops int) string {
	if p == "/" {
		return "/"
	}
	if hops > 40 {
		return ""
	}
	dir := t.resolveHops(path.Dir(p), hops)
	if dir == "" {
		return ""
	}
	cur := path.Join(dir, path.Base(p))
	v, ok := t[cur]
	switch {
	case !ok:
		return ""
	case strings.HasPrefix(v, "l:"):
		target := v[2:]
		if !strings.HasPrefix(target, "/") {
			target = path.Join(dir, target)
		}
		return t.resolveHops(path.Clean(target), hops+1)
	}
	return cur
}

// linkTreeFake serves the tree tree holds (it may change between runs):
// CWD through links (the session keeps the path it was given), LIST in
// the Unix format with "name -> target" for a link, SIZE and RETR of
// files.
func linkTreeFake(t *testing.T, tree *atomic.Pointer[linkTree]) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Handle: func(s *testserver.FTPSession, line string) bool {
			lt := *tree.Load()
			verb, arg, _ := strings.Cut(line, " ")
			abs := func() string {
				if strings.HasPrefix(arg, "/") {
					return path.Clean(arg)
				}
				return path.Join(s.Dir(), arg)
			}
			switch verb {
			case "CWD":
				if real := lt.resolve(abs()); real != "" && (real == "/" || lt[real] == "d") {
					s.SetDir(abs())
					s.Reply("250 Directory successfully changed.")
				} else {
					s.Reply("550 Failed to change directory.")
				}
			case "LIST":
				real := lt.resolve(s.Dir())
				var names []string
				for p := range lt {
					if path.Dir(p) == real && p != "/" {
						names = append(names, p)
					}
				}
				sort.Strings(names)
				var b strings.Builder
				for _, p := range names {
					v := lt[p]
					switch {
					case v == "d":
						fmt.Fprintf(&b, "drwxr-xr-x    2 0        0            4096 Jan 01  2024 %s\r\n", path.Base(p))
					case strings.HasPrefix(v, "l:"):
						fmt.Fprintf(&b, "lrwxrwxrwx    1 0        0               9 Jan 01  2024 %s -> %s\r\n", path.Base(p), v[2:])
					default:
						fmt.Fprintf(&b, "-rw-r--r--    1 0        0        %8d Jan 01  2024 %s\r\n", len(v)-2, path.Base(p))
					}
				}
				s.Send("150 Here comes the directory listing.", b.String())
			case "SIZE":
				if v := lt[lt.resolve(abs())]; strings.HasPrefix(v, "f:") {
					s.Reply(fmt.Sprintf("213 %d", len(v)-2))
				} else {
					s.Reply("550 Could not get file size.")
				}
			case "RETR":
				if v := lt[lt.resolve(abs())]; strings.HasPrefix(v, "f:") {
					s.Send("150 Opening BINARY mode data connection.", v[2:])
				} else {
					s.Reply("550 Failed to open file.")
				}
			default:
				return false
			}
			return true
		},
	})
}

// linksLeaving returns the links under dir whose target, read from where
// the link really is, leads outside dir.
func linksLeaving(t *testing.T, dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, _ := os.Readlink(p)
		to := filepath.Join(filepath.Dir(p), target)
		if filepath.IsAbs(target) || (to != dir && !strings.HasPrefix(to, dir+string(filepath.Separator))) {
			out = append(out, p+" -> "+target)
		}
		return nil
	})
	return out
}

// TestMirrorKeptLinkBecomesDir: a link kept by a first run (z/y/cur ->
// ../../a) that the server then lists as a real directory. The second
// run with --delete replaced nothing and deleted a/f.txt and a/g.txt,
// still on the server, "inside" z/y/cur, and wrote cur's new file into
// a/. Now the link is replaced with a folder: a/ stays whole, the new
// file lands in z/y/cur, the manifest says so, and a third run over that
// output fetches and deletes nothing.
func TestMirrorKeptLinkBecomesDir(t *testing.T) {
	first := linkTree{
		"/top": "d", "/top/a": "d", "/top/a/f.txt": "f:f\n", "/top/a/g.txt": "f:g\n",
		"/top/z": "d", "/top/z/y": "d", "/top/z/y/cur": "l:../../a",
	}
	second := linkTree{}
	for k, v := range first {
		second[k] = v
	}
	second["/top/z/y/cur"] = "d"
	second["/top/z/y/cur/new.txt"] = "f:new\n"
	var tree atomic.Pointer[linkTree]
	tree.Store(&first)
	fake := linkTreeFake(t, &tree)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	opt := Options{Log: &log, Parallel: 2, Symlinks: SymlinksKeep, Delete: true}
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Fetched != 2 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	if got, _ := os.Readlink(filepath.Join(dir, "z/y/cur")); got != "../../a" {
		t.Fatalf("first run: z/y/cur -> %q", got)
	}
	tree.Store(&second)
	log.Reset()
	st, err := Mirror(context.Background(), url, dir, opt)
	if err != nil || st.Deleted != 0 || st.Fetched != 1 || st.Failed != 0 {
		t.Errorf("second run %+v, %v; want new.txt fetched, nothing deleted\n%s", st, err, log.String())
	}
	for _, p := range []string{"a/f.txt", "a/g.txt", "z/y/cur/new.txt"} {
		if fi, err := os.Lstat(filepath.Join(dir, p)); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v", p, err)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dir, "z/y/cur")); err != nil || !fi.IsDir() {
		t.Errorf("z/y/cur is no folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "a/new.txt")); err == nil {
		t.Errorf("new.txt written into a/ through the old link")
	}
	recs := readManifest(t, dir)
	for _, p := range []string{"a/f.txt", "a/g.txt", "z/y/cur/new.txt"} {
		if _, ok := recs[p]; !ok {
			t.Errorf("manifest lacks %s: %v", p, recs)
		}
	}
	log.Reset()
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Fetched != 0 || st.Deleted != 0 || st.Unchanged != 3 {
		t.Errorf("third run %+v, %v; want all unchanged\n%s", st, err, log.String())
	}
}

// TestMirrorKeptLinkDryRun: a dry run over a kept z/y/cur -> ../../a
// that the server now lists as a directory says it would replace the
// link, changes nothing, and would delete nothing: the files the link
// reaches are a/'s, not cur's.
func TestMirrorKeptLinkDryRun(t *testing.T) {
	first := linkTree{
		"/top": "d", "/top/a": "d", "/top/a/f.txt": "f:f\n",
		"/top/z": "d", "/top/z/y": "d", "/top/z/y/cur": "l:../../a",
	}
	second := linkTree{"/top": "d", "/top/a": "d", "/top/a/f.txt": "f:f\n",
		"/top/z": "d", "/top/z/y": "d", "/top/z/y/cur": "d", "/top/z/y/cur/new.txt": "f:new\n"}
	var tree atomic.Pointer[linkTree]
	tree.Store(&first)
	fake := linkTreeFake(t, &tree)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	opt := Options{Log: &log, Parallel: 2, Symlinks: SymlinksKeep, Delete: true}
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Fetched != 1 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	tree.Store(&second)
	log.Reset()
	opt.DryRun = true
	st, err := Mirror(context.Background(), url, dir, opt)
	if err != nil || st.Deleted != 0 || st.Failed != 0 {
		t.Errorf("dry run %+v, %v; want nothing deleted\n%s", st, err, log.String())
	}
	out := log.String()
	if !strings.Contains(out, "would replace the link z/y/cur with a folder") || strings.Contains(out, "would delete") {
		t.Errorf("dry run log:\n%s", out)
	}
	if got, _ := os.Readlink(filepath.Join(dir, "z/y/cur")); got != "../../a" {
		t.Errorf("dry run: z/y/cur -> %q, want the link as it was", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "a/f.txt")); err != nil {
		t.Errorf("a/f.txt: %v", err)
	}
}

// TestMirrorKeptLinkUpBecomesEmptyDir: a kept s1/s2/back -> ../.. that
// the server then lists as an empty directory: --delete emptied the
// whole tree through it, manifest and all. Now back becomes an empty
// folder and nothing else goes.
func TestMirrorKeptLinkUpBecomesEmptyDir(t *testing.T) {
	first := linkTree{"/top": "d", "/top/f.txt": "f:f\n", "/top/s1": "d", "/top/s1/s2": "d", "/top/s1/s2/back": "l:../.."}
	second := linkTree{"/top": "d", "/top/f.txt": "f:f\n", "/top/s1": "d", "/top/s1/s2": "d", "/top/s1/s2/back": "d"}
	var tree atomic.Pointer[linkTree]
	tree.Store(&first)
	fake := linkTreeFake(t, &tree)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	opt := Options{Log: &log, Parallel: 2, Symlinks: SymlinksKeep, Delete: true}
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Fetched != 1 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	tree.Store(&second)
	log.Reset()
	st, err := Mirror(context.Background(), url, dir, opt)
	if err != nil || st.Deleted != 0 || st.Failed != 0 {
		t.Errorf("second run %+v, %v; want nothing deleted\n%s", st, err, log.String())
	}
	if b, err := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != "f\n" {
		t.Errorf("f.txt = %q, %v", b, err)
	}
	if _, ok := readManifest(t, dir)["f.txt"]; !ok {
		t.Errorf("manifest lacks f.txt")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "s1/s2/back")); err != nil || !fi.IsDir() {
		t.Errorf("s1/s2/back is no folder: %v", err)
	}
}

// TestMirrorKeptLinkThroughLink: a kept s1/s2/back -> ../.., then the
// server lists back as a directory holding s1/s2/evil ->
// ../../../../etc/passwd. Judged by its remote depth (5) evil stays
// inside; made through the old link, it landed in s1/s2 and led to
// /etc/passwd. Now back is a real folder first, and no link in DIR
// leads out of it.
func TestMirrorKeptLinkThroughLink(t *testing.T) {
	first := linkTree{"/top": "d", "/top/s1": "d", "/top/s1/s2": "d", "/top/s1/s2/back": "l:../.."}
	second := linkTree{"/top": "d", "/top/s1": "d", "/top/s1/s2": "d", "/top/s1/s2/back": "d",
		"/top/s1/s2/back/s1": "d", "/top/s1/s2/back/s1/s2": "d", "/top/s1/s2/back/s1/s2/evil": "l:../../../../etc/passwd"}
	var tree atomic.Pointer[linkTree]
	tree.Store(&first)
	fake := linkTreeFake(t, &tree)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	opt := Options{Log: &log, Parallel: 1, Symlinks: SymlinksKeep}
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Links != 1 {
		t.Fatalf("first run %+v, %v\n%s", st, err, log.String())
	}
	tree.Store(&second)
	log.Reset()
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Failed != 0 {
		t.Errorf("second run %+v, %v\n%s", st, err, log.String())
	}
	if out := linksLeaving(t, dir); len(out) > 0 {
		t.Errorf("links leading out of DIR: %q\n%s", out, log.String())
	}
	if _, err := os.Lstat(filepath.Join(dir, "s1/s2/evil")); err == nil {
		t.Errorf("s1/s2/evil made through the old link")
	}
}

// TestMirrorFollowOnce: --symlinks follow against links to ".", "..",
// a sibling and a directory outside the top that links back. Each
// server directory is walked once: before, every link was walked again
// on every path up to 8 links deep (thousands of listings of one tree).
// A second run over the output fetches and deletes nothing.
func TestMirrorFollowOnce(t *testing.T) {
	tree := linkTree{
		"/top": "d", "/top/f.txt": "f:f\n", "/top/dot": "l:.", "/top/self": "l:../top",
		"/top/dsub": "d", "/top/dsub/g.txt": "f:g\n", "/top/dsub/back": "l:..", "/top/dsub/up": "l:../dsub",
		"/top/ext": "l:../pub", "/pub": "d", "/pub/p.txt": "f:p\n", "/pub/loop": "l:../top",
	}
	var tp atomic.Pointer[linkTree]
	tp.Store(&tree)
	fake := linkTreeFake(t, &tp)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	opt := Options{Log: &log, Parallel: 2, Symlinks: SymlinksFollow, Delete: true}
	st, err := Mirror(ctx, url, dir, opt)
	if err != nil || st.Dirs != 3 || st.Fetched != 3 || st.Failed != 0 {
		t.Fatalf("Mirror = %+v, %v; want top, dsub and ext listed, f.txt, dsub/g.txt and ext/p.txt fetched\n%.3000s", st, err, log.String())
	}
	for _, p := range []string{"f.txt", "dsub/g.txt", "ext/p.txt"} {
		if fi, err := os.Lstat(filepath.Join(dir, p)); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s: %v", p, err)
		}
	}
	log.Reset()
	st, err = Mirror(ctx, url, dir, opt)
	if err != nil || st.Fetched != 0 || st.Deleted != 0 || st.Unchanged != 3 {
		t.Errorf("second run %+v, %v; want all unchanged\n%.3000s", st, err, log.String())
	}
}

// TestMirrorFollowBound: links whose targets name a new path each time
// ("l/a", "l/b", "l/c", where each of l, a, b and c -> ".") though the
// server reaches one directory: 3⁸ paths within MaxLinkHops. The whole
// walk through links stops at the bound (lowered here to 20), and says
// so.
func TestMirrorFollowBound(t *testing.T) {
	defer func(n int) { linkDirBound = n }(linkDirBound)
	linkDirBound = 20
	tree := linkTree{"/top": "d", "/top/l": "l:.", "/top/a": "l:.", "/top/b": "l:.", "/top/c": "l:.",
		"/top/m1": "l:l/a", "/top/m2": "l:l/b", "/top/m3": "l:l/c"}
	var tp atomic.Pointer[linkTree]
	tp.Store(&tree)
	fake := linkTreeFake(t, &tp)
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := Mirror(ctx, "ftp://"+fake.Addr+"/top/", t.TempDir(), Options{Log: &log, Parallel: 2, Symlinks: SymlinksFollow})
	if err != nil || st.Dirs > 21 {
		t.Fatalf("Mirror = %+v, %v; want at most 20 directories through links\n%.2000s", st, err, log.String())
	}
	if !strings.Contains(log.String(), "more than 20 directories reached through links") {
		t.Errorf("log lacks the bound:\n%.2000s", log.String())
	}
}

// TestMirrorDirBecomesKeptLink: a directory of a first run that the
// server then lists as a link: the folder goes, and so do its records
// (the manifest named d/x.txt, which was gone).
func TestMirrorDirBecomesKeptLink(t *testing.T) {
	first := linkTree{"/top": "d", "/top/a": "d", "/top/a/y.txt": "f:y\n", "/top/d": "d", "/top/d/x.txt": "f:x\n"}
	second := linkTree{"/top": "d", "/top/a": "d", "/top/a/y.txt": "f:y\n", "/top/d": "l:a"}
	var tree atomic.Pointer[linkTree]
	tree.Store(&first)
	fake := linkTreeFake(t, &tree)
	url := "ftp://" + fake.Addr + "/top/"
	dir := t.TempDir()
	opt := Options{Parallel: 1, Symlinks: SymlinksKeep}
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Fetched != 2 {
		t.Fatalf("first run %+v, %v", st, err)
	}
	tree.Store(&second)
	if st, err := Mirror(context.Background(), url, dir, opt); err != nil || st.Failed != 0 {
		t.Fatalf("second run %+v, %v", st, err)
	}
	if got, _ := os.Readlink(filepath.Join(dir, "d")); got != "a" {
		t.Errorf("d -> %q, want a", got)
	}
	if recs := readManifest(t, dir); len(recs) != 1 {
		t.Errorf("manifest %v, want a/y.txt alone", recs)
	}
}
