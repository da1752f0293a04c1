package mirror

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// decideRun is a run over a fresh folder with an empty manifest, as
// Mirror makes one, for the decisions that need no server.
func decideRun(t *testing.T, opt Options) (*run, string, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	var log bytes.Buffer
	opt.Log = &log
	m, err := loadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.compact() })
	return &run{opt: opt, root: root, man: m, jobs: map[string]job{}}, dir, &log
}

// TestWalkerListsAhead: a directory waiting is listed before the files
// only while fewer than listAhead files wait; at listAhead the next file
// goes first. The files go first in, first out; the directories deepest
// (last added) first. (The walker's tests come first in the package:
// under -failfast a walker that waits for ever fails here, before a
// Mirror test hangs on it.)
func TestWalkerListsAhead(t *testing.T) {
	var got []string
	mark := func(s string) job {
		return func(context.Context, *watchdog.Watchdog) { got = append(got, s) }
	}
	w := newWalker()
	for i := range listAhead {
		w.addFile(mark("f" + strconv.Itoa(i)))
	}
	w.addDir(mark("d1"))
	w.addDir(mark("d2"))
	// next, but a walker that would wait for ever fails the test.
	next := func() job {
		c := make(chan job, 1)
		go func() { c <- w.next() }()
		select {
		case j := <-c:
			return j
		case <-time.After(5 * time.Second):
			t.Fatal("the walker waits for ever")
			return nil
		}
	}
	take := func() {
		j := next()
		if j == nil {
			t.Fatal("the walk ended early")
		}
		j(nil, nil)
		w.finished()
	}
	take() // listAhead files wait: a file first
	take() // listAhead-1: the last directory added
	take() // still fewer: the other directory
	take() // none left: a file
	if want := []string{"f0", "d2", "d1", "f1"}; !slices.Equal(got, want) {
		t.Errorf("taken %v, want %v", got, want)
	}
	for range listAhead - 2 {
		take()
	}
	if j := next(); j != nil {
		t.Errorf("a job after the last one")
	}
	if got[len(got)-1] != "f"+strconv.Itoa(listAhead-1) || len(w.files) != 0 || w.head != 0 {
		t.Errorf("last taken %s; queue %d slots from %d", got[len(got)-1], len(w.files), w.head)
	}
}

// TestWalkerLinksLast: a link waits until nothing else is left; then
// the links go, each while fewer than listAhead files wait (a link
// listed gives files too); at listAhead the next file goes first. The
// walk ends when every job is done; one on two workers runs them all.
func TestWalkerLinksLast(t *testing.T) {
	var got []string
	w := newWalker()
	mark := func(s string) job {
		return func(context.Context, *watchdog.Watchdog) { got = append(got, s) }
	}
	w.addLink(mark("l1"))
	w.addLink(func(context.Context, *watchdog.Watchdog) {
		got = append(got, "l2")
		for i := range listAhead {
			w.addFile(mark("f" + strconv.Itoa(i)))
		}
	})
	w.addFile(mark("first"))
	next := func() job {
		c := make(chan job, 1)
		go func() { c <- w.next() }()
		select {
		case j := <-c:
			return j
		case <-time.After(5 * time.Second):
			t.Fatal("the walker waits for ever")
			return nil
		}
	}
	for range 4 {
		j := next()
		if j == nil {
			t.Fatal("the walk ended early")
		}
		j(nil, nil)
		w.finished()
	}
	if want := []string{"first", "l2", "f0", "l1"}; !slices.Equal(got, want) {
		t.Errorf("taken %v, want %v", got, want)
	}
	for j := next(); j != nil; j = next() {
		j(nil, nil)
		w.finished()
	}
	if len(got) != 3+listAhead {
		t.Errorf("%d jobs taken, want %d", len(got), 3+listAhead)
	}

	var ran atomic.Int32
	w = newWalker()
	for range 3 {
		w.addFile(func(context.Context, *watchdog.Watchdog) { ran.Add(1) })
	}
	done := make(chan error, 1)
	go func() { done <- w.run(context.Background(), 2, func(ctx context.Context, j job) { j(ctx, nil) }) }()
	select {
	case err := <-done:
		if err != nil || ran.Load() != 3 {
			t.Errorf("run = %v after %d of 3 jobs", err, ran.Load())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the walk did not end")
	}
}

// TestDecideFilters: --include keeps only matching files, --exclude drops
// matching ones; a glob without "/" matches the base name, one with "/"
// the path from the top; --max-size skips a file listed larger than it,
// not one of exactly its size. Each file skipped is counted, each kept
// one planned.
func TestDecideFilters(t *testing.T) {
	cases := []struct {
		name      string
		opt       Options
		rel       string
		size      int64
		fetch     bool
		skipped   int
		logged    string
		logWanted bool
	}{
		{name: "no filter", rel: "a/b.txt", size: 5, fetch: true},
		{name: "include base", opt: Options{Include: []string{"*.txt"}}, rel: "a/b.txt", size: 5, fetch: true},
		{name: "include miss", opt: Options{Include: []string{"*.gz"}}, rel: "a/b.txt", size: 5, skipped: 1},
		{name: "include second glob", opt: Options{Include: []string{"*.gz", "b.*"}}, rel: "a/b.txt", size: 5, fetch: true},
		{name: "include path", opt: Options{Include: []string{"a/*.txt"}}, rel: "a/b.txt", size: 5, fetch: true},
		{name: "include path is not base", opt: Options{Include: []string{"a/*.txt"}}, rel: "c/a/b.txt", size: 5, skipped: 1},
		{name: "exclude base", opt: Options{Exclude: []string{"b.*"}}, rel: "a/b.txt", size: 5, skipped: 1},
		{name: "exclude miss", opt: Options{Exclude: []string{"c.*"}}, rel: "a/b.txt", size: 5, fetch: true},
		{name: "include and exclude", opt: Options{Include: []string{"*.txt"}, Exclude: []string{"a/*"}}, rel: "a/b.txt", size: 5, skipped: 1},
		{name: "max-size exact", opt: Options{MaxSize: 5}, rel: "b", size: 5, fetch: true},
		{name: "max-size over", opt: Options{MaxSize: 5}, rel: "b", size: 6, skipped: 1, logged: "skipped b: 6 bytes, more than --max-size"},
		{name: "max-size unknown size", opt: Options{MaxSize: 5}, rel: "b", size: -1, fetch: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, _, log := decideRun(t, c.opt)
			fetch, unchanged := r.want(c.rel, c.size, time.Time{})
			if fetch != c.fetch || unchanged {
				t.Errorf("want(%q, %d) = %v, %v; want %v, false", c.rel, c.size, fetch, unchanged, c.fetch)
			}
			st := r.snapshot()
			planned := 0
			if c.fetch {
				planned = 1
			}
			if st.Skipped != c.skipped || st.Planned != planned {
				t.Errorf("skipped %d, planned %d; want %d, %d", st.Skipped, st.Planned, c.skipped, planned)
			}
			if c.logged != "" && !strings.Contains(log.String(), c.logged) {
				t.Errorf("log %q lacks %q", log, c.logged)
			}
		})
	}
}

// TestDecideUnchanged: a file is left alone only when the manifest has it
// with the listed size (or no size was listed) and the listed time (or no
// time was listed), and the local copy is a regular file of the recorded
// size; anything else is fetched again.
func TestDecideUnchanged(t *testing.T) {
	when := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name      string
		local     string // content of the local file; "-" none, "/" a folder
		size      int64
		mtime     time.Time
		unchanged bool
	}{
		{name: "same", local: "hello", size: 5, mtime: when, unchanged: true},
		{name: "no size listed", local: "hello", size: -1, mtime: when, unchanged: true},
		{name: "no time listed", local: "hello", size: 5, unchanged: true},
		{name: "other size listed", local: "hello", size: 6, mtime: when},
		{name: "size 0 listed", local: "hello", size: 0, mtime: when},
		{name: "other time listed", local: "hello", size: 5, mtime: when.Add(time.Second)},
		{name: "local copy shorter", local: "hell", size: 5, mtime: when},
		{name: "local copy gone", local: "-", size: 5, mtime: when},
		{name: "local copy a folder", local: "/", size: 5, mtime: when},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, dir, _ := decideRun(t, Options{})
			switch c.local {
			case "-":
			case "/":
				os.Mkdir(filepath.Join(dir, "f"), 0o755)
			default:
				os.WriteFile(filepath.Join(dir, "f"), []byte(c.local), 0o644)
			}
			r.man.add(Record{URL: "ftp://h/f", Path: "f", Size: 5, Mtime: when})
			fetch, unchanged := r.want("f", c.size, c.mtime)
			if fetch == c.unchanged || unchanged != c.unchanged {
				t.Errorf("want = %v, %v; want unchanged %v", fetch, unchanged, c.unchanged)
			}
			st := r.snapshot()
			if c.unchanged && (st.Unchanged != 1 || st.Planned != 0) || !c.unchanged && (st.Unchanged != 0 || st.Planned != 1) {
				t.Errorf("stats %+v", st)
			}
			// decide without counting: the same answer, no count.
			r2, dir2, _ := decideRun(t, Options{})
			os.WriteFile(filepath.Join(dir2, "f"), []byte("hello"), 0o644)
			r2.man.add(Record{URL: "ftp://h/f", Path: "f", Size: 5, Mtime: when})
			if fetch, unchanged := r2.decide("f", 5, when, false); fetch || !unchanged || r2.snapshot().Unchanged != 0 {
				t.Errorf("decide(countUnchanged false) = %v, %v, %+v", fetch, unchanged, r2.snapshot())
			}
		})
	}
	// Without a folder (a dry run into a folder not made) nothing is
	// taken for unchanged.
	r := &run{man: &manifest{recs: map[pathKey]entryRef{}}}
	r.man.add(Record{Path: "f", Size: 5})
	if fetch, unchanged := r.want("f", 5, time.Time{}); !fetch || unchanged {
		t.Errorf("want without a folder = %v, %v", fetch, unchanged)
	}
}

// TestPlanMaxTotal: --max-total admits files while the bytes planned stay
// within it (an exact fit included), skips one that would pass it without
// counting its bytes, and skips everything once the bytes arrived reach
// it. A file of unknown size (-1) plans no bytes.
func TestPlanMaxTotal(t *testing.T) {
	r, _, log := decideRun(t, Options{MaxTotal: 10})
	steps := []struct {
		size int64
		ok   bool
	}{{4, true}, {7, false}, {-1, true}, {6, true}, {1, false}, {0, true}}
	for i, s := range steps {
		if got := r.plan("f", s.size); got != s.ok {
			t.Errorf("step %d: plan(%d) = %v, want %v", i, s.size, got, s.ok)
		}
	}
	if r.planned.Load() != 10 {
		t.Errorf("planned %d bytes, want 10", r.planned.Load())
	}
	st := r.snapshot()
	if st.Planned != 4 || st.Skipped != 2 {
		t.Errorf("planned %d, skipped %d; want 4, 2", st.Planned, st.Skipped)
	}
	if !strings.Contains(log.String(), "skipped f: --max-total reached") {
		t.Errorf("log %q", log)
	}
	// Bytes arrived count too: at the limit nothing more is planned, even
	// a file of no bytes; one byte short, a file of no bytes still is.
	r, _, _ = decideRun(t, Options{MaxTotal: 10})
	r.arrived.Store(9)
	if !r.plan("g", 0) || r.totalReached() {
		t.Errorf("9 of 10 bytes arrived: plan refused or total reached")
	}
	r.arrived.Store(10)
	if r.plan("g", 0) || !r.totalReached() {
		t.Errorf("10 of 10 bytes arrived: plan admitted or total not reached")
	}
	if st := r.snapshot(); st.Planned != 1 || st.Skipped != 1 {
		t.Errorf("planned %d, skipped %d; want 1, 1", st.Planned, st.Skipped)
	}
	// No limit: everything is planned, nothing counted against it.
	r, _, _ = decideRun(t, Options{})
	r.arrived.Store(1 << 40)
	if !r.plan("h", 1<<40) || r.totalReached() || r.planned.Load() != 0 {
		t.Errorf("no --max-total: plan refused, or bytes counted")
	}
}

// TestRequestMaxBytes: a fetch is bounded by --max-size less the bytes
// a resume starts from, and by at least one byte.
func TestRequestMaxBytes(t *testing.T) {
	u, err := rfc1738.Parse("ftp://h/f")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ max, offset, want int64 }{
		{0, 0, 0}, {0, 7, 0}, {10, 0, 10}, {10, 4, 6}, {10, 10, 1}, {10, 12, 1},
	} {
		r := &run{opt: Options{MaxSize: c.max}}
		req := r.request(u, c.offset, nil)
		if req.MaxBytes != c.want || req.Offset != c.offset {
			t.Errorf("max-size %d, offset %d: MaxBytes %d, Offset %d; want %d", c.max, c.offset, req.MaxBytes, req.Offset, c.want)
		}
	}
}

// TestAddRefused: a URL that is not valid is refused and counted, never
// queued; a valid one is queued once however it is spelt (§2.2).
func TestAddRefused(t *testing.T) {
	r, _, log := decideRun(t, Options{})
	r.add("ftp://h/a b", 1, func(ctx context.Context, wd *watchdog.Watchdog) {})
	if st := r.snapshot(); st.Refused != 1 || len(r.jobs) != 0 {
		t.Errorf("refused %d, %d jobs; want 1, 0", st.Refused, len(r.jobs))
	}
	if !strings.Contains(log.String(), "refused ftp://h/a b") {
		t.Errorf("log %q", log)
	}
}

// TestDeleteGone: in a folder listed whole, what the listing did not name
// is deleted (a file's record marked deleted, every record below a
// folder too), except the manifest at the top and the partial files a
// resume needs; a dry run deletes nothing and counts what it would.
func TestDeleteGone(t *testing.T) {
	for _, dry := range []bool{false, true} {
		r, dir, log := decideRun(t, Options{DryRun: dry})
		for _, p := range []string{"keep", "gone", "old/x", "old/y/z", "sub/keep", "sub/gone", "sub/" + ManifestName, ".f.rfc1738-partial", "g.rfc1738-partial"} {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
			os.WriteFile(filepath.Join(dir, p), []byte(p), 0o644)
			r.man.add(Record{URL: "ftp://h/" + p, Path: p, Size: int64(len(p))})
		}
		names := nameSet{}
		names.add("keep")
		names.add("sub")
		r.deleteGone("", names)
		names = nameSet{}
		names.add("keep")
		r.deleteGone("sub", names)
		gone := []string{"gone", "old", "sub/gone", "sub/" + ManifestName, "g.rfc1738-partial"}
		kept := []string{"keep", "sub/keep", ".f.rfc1738-partial", ManifestName}
		if dry {
			kept, gone = append(kept, gone...), nil
		}
		for _, p := range gone {
			if _, err := os.Lstat(filepath.Join(dir, p)); err == nil {
				t.Errorf("dry run %v: %s not deleted", dry, p)
			}
		}
		for _, p := range kept {
			if _, err := os.Lstat(filepath.Join(dir, p)); err != nil {
				t.Errorf("dry run %v: %s deleted", dry, p)
			}
		}
		if st := r.snapshot(); st.Deleted != 5 || st.Failed != 0 {
			t.Errorf("dry run %v: deleted %d, failed %d; want 5, 0", dry, st.Deleted, st.Failed)
		}
		want := "deleted sub/gone"
		if dry {
			want = "would delete sub/gone"
		}
		if !strings.Contains(log.String(), want) {
			t.Errorf("log %q lacks %q", log, want)
		}
		for _, p := range []string{"gone", "old/x", "old/y/z", "sub/gone", "sub/" + ManifestName} {
			if _, _, ok := r.man.stat(p); ok == !dry {
				t.Errorf("dry run %v: record of %s kept %v", dry, p, ok)
			}
		}
		for _, p := range []string{"keep", "sub/keep"} {
			if _, _, ok := r.man.stat(p); !ok {
				t.Errorf("dry run %v: record of %s dropped", dry, p)
			}
		}
	}
	// No folder (a dry run into a folder not made), or a folder that is
	// not there: nothing to delete.
	r := &run{man: &manifest{recs: map[pathKey]entryRef{}}}
	r.deleteGone("", nameSet{})
	r, _, _ = decideRun(t, Options{})
	r.deleteGone("missing", nameSet{})
	if st := r.snapshot(); st.Deleted != 0 || st.Failed != 0 {
		t.Errorf("deleted %d, failed %d", st.Deleted, st.Failed)
	}
}

// TestListedWhole: deletions follow only a listing read whole; one cut
// short, or with a line not understood, has its deletions skipped, and
// the log says which.
func TestListedWhole(t *testing.T) {
	entry := func(errs ...error) *access.Entries {
		i := 0
		return access.NewEntries(func() (access.Entry, error) {
			if i < len(errs) {
				i++
				return access.Entry{}, errs[i-1]
			}
			return access.Entry{}, io.EOF
		}, nil)
	}
	for _, tt := range []struct {
		name  string
		ents  *access.Entries
		whole bool
		why   string
	}{
		{"whole", entry(), true, ""},
		{"cut short", entry(errors.New("connection reset")), false, "(it was cut short)"},
		{"unreadable line", entry(&access.LineError{Line: "?", Reason: "no name"}), false, "(unreadable lines)"},
	} {
		r, _, log := decideRun(t, Options{})
		for _, err := tt.ents.Next(); err == nil || errors.As(err, new(*access.LineError)); _, err = tt.ents.Next() {
		}
		tt.ents.Close()
		if got := r.listedWhole(tt.ents, "pub"); got != tt.whole {
			t.Errorf("%s: listedWhole = %v", tt.name, got)
		}
		skipped := 0
		if !tt.whole {
			skipped = 1
		}
		if st := r.snapshot(); st.DeletesSkipped != skipped {
			t.Errorf("%s: %d deletions skipped, want %d", tt.name, st.DeletesSkipped, skipped)
		}
		if !strings.Contains(log.String(), tt.why) || tt.whole && log.Len() > 0 {
			t.Errorf("%s: log %q, want %q", tt.name, log, tt.why)
		}
		if !tt.whole && !strings.Contains(log.String(), "deletions skipped in pub") {
			t.Errorf("%s: log %q", tt.name, log)
		}
	}
}

// TestLocalSegment: a remote name is a local one as it is, but for "%",
// control octets and DEL, written %XX, and the names "." and ".."; two
// remote names never give one local name.
func TestLocalSegment(t *testing.T) {
	for in, want := range map[string]string{
		"a b~!":      "a b~!",
		".":          "%2E",
		"..":         "%2E%2E",
		"...":        "...",
		".x":         ".x",
		"100%":       "100%",
		"100%.txt":   "100%.txt",
		"pct%dir":    "pct%dir",
		"%41":        "%2541",
		"a%4":        "a%4",
		"a%4g":       "a%4g",
		"a%zz%ff":    "a%zz%25ff",
		"a\x1fb\x7f": "a%1Fb%7F",
		"\x00":       "%00",
		"x\x01y%z":   "x%01y%z",
		"東京":         "東京",
		"":           "",
		// The mirror's own names: a partial transfer, the manifest, a
		// gopher menu, root or server folder, Gopher+ attributes.
		".big.bin.rfc1738-partial": "%2Ebig.bin.rfc1738-partial",
		".rfc1738-partial":         ".rfc1738-partial",
		"big.rfc1738-partial":      "big.rfc1738-partial",
		ManifestName:               "%2E" + ManifestName[1:],
		"%gophermap":               "%25gophermap",
		"%root":                    "%25root",
		"%h:70":                    "%25h:70",
		"a.txt%gopher+":            "a.txt%25gopher+",
		"%gopher+":                 "%25gopher+",
		"%41%gopher+":              "%2541%25gopher+",
	} {
		if got := localSegment(in); got != want {
			t.Errorf("localSegment(%q) = %q, want %q", in, got, want)
		}
	}
	if got := localDir([]string{"a", "..", "b%", "c%2F"}); got != "a/%2E%2E/b%/c%252F" {
		t.Errorf("localDir = %q", got)
	}
	for c := range 256 {
		want := c < 0x20 || c == 0x7f || c == '/'
		if needsPercent(byte(c)) != want {
			t.Errorf("needsPercent(%#x) = %v", c, !want)
		}
	}
}

// unescapeLocal reads each "%XX" with two hex digits as its octet, and
// any other octet as itself.
func unescapeLocal(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			n, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b = append(b, byte(n))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	return string(b)
}

// TestLocalSegmentUnescapes: every "%XX" of a local name is an escape,
// so unescaping gives the remote name back: two remote names never give
// one local name.
func TestLocalSegmentUnescapes(t *testing.T) {
	names := []string{"%", "%%", "%%41", "%4", "%41", "%2541", "a%gopher+", "a%25gopher+", "%gophermap", "%25gophermap",
		".x.rfc1738-partial", "%2Ex.rfc1738-partial", ManifestName, "x\x00y", "x%00y", "..", "%2E%2E", "\xff%fF"}
	seen := map[string]string{}
	for _, n := range names {
		l := localSegment(n)
		if back := unescapeLocal(l); back != n {
			t.Errorf("localSegment(%q) = %q, which unescapes to %q", n, l, back)
		}
		if other, dup := seen[l]; dup {
			t.Errorf("%q and %q both give %q", n, other, l)
		}
		seen[l] = n
	}
}

func TestManifestDryRunRecord(t *testing.T) {
	dir := t.TempDir()
	// The first line starts with a space: a line read one byte in would
	// be a record of "x".
	_, m := manifestIn(t, dir, ` {"url":"ftp://h/old","path":"x","size":1}`+"\n")
	if rec, ok := m.read("x"); !ok || rec.URL != "ftp://h/old" {
		t.Fatalf("read(x) = %+v, %v", rec, ok)
	}
	m.add(Record{URL: "ftp://h/new", Path: "x", Size: 2})
	if size, _, ok := m.stat("x"); !ok || size != 2 {
		t.Errorf("stat(x) = %d, %v", size, ok)
	}
	if rec, ok := m.read("x"); ok {
		t.Errorf("a record not written read back as %+v", rec)
	}
	if err := m.open(); err != nil {
		t.Fatal(err)
	}
	if err := m.compact(); err != nil || m.r != nil || m.f != nil {
		t.Errorf("compact = %v; handles left open: %v, %v", err, m.r != nil, m.f != nil)
	}
}

// TestManifestCompactReadFails: a compaction that cannot read the
// manifest back fails and leaves the file as it was; it never puts the
// records it did read in its place as if they were all (nothing recorded
// on evidence that was not read whole).
func TestManifestCompactReadFails(t *testing.T) {
	dir := t.TempDir()
	content := `{"url":"ftp://h/a","path":"a","size":1}` + "\n" +
		`{"url":"ftp://h/b","path":"b","size":2}` + "\n"
	_, m := manifestIn(t, dir, content)
	if err := m.open(); err != nil {
		t.Fatal(err)
	}
	if err := m.reader(); err != nil {
		t.Fatal(err)
	}
	m.r.Close() // every read of the compaction now fails
	if err := m.compact(); err == nil {
		t.Error("compact over an unreadable manifest = nil, want its read error")
	}
	if b, err := os.ReadFile(filepath.Join(dir, ManifestName)); err != nil || string(b) != content {
		t.Errorf("manifest after a failed compaction = %q, %v; want it as it was:\n%s", b, err, content)
	}
}

// TestMirrorManifestUnwritable: a run whose manifest cannot be written at
// its end fails, though every item went through.
func TestMirrorManifestUnwritable(t *testing.T) {
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if string(req) == "/menu\r\n" {
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a")}
		}
		return testserver.GopherReply{Reply: []byte("a")}
	})
	dir := filepath.Join(t.TempDir(), "m")
	var once sync.Once
	opt := Options{Parallel: 1, Progress: func(st Stats) {
		// Once the document is saved, the folder goes: the manifest
		// can be neither appended to nor rewritten.
		if st.Fetched > 0 {
			once.Do(func() { os.RemoveAll(dir) })
		}
	}}
	_, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1/menu", dir, opt)
	if err == nil || !strings.Contains(err.Error(), "write manifest") {
		t.Errorf("Mirror = %v, want a write manifest error", err)
	}
}

// askReader serves n bytes and records how many each Read asked for.
type askReader struct {
	n     int
	chunk int // the most one Read gives; 0 for no bound
	asks  []int
}

func (a *askReader) Read(p []byte) (int, error) {
	a.asks = append(a.asks, len(p))
	if len(a.asks) > 100 {
		return 0, errors.New("asked 100 times: a read loop")
	}
	if a.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), a.n)
	if a.chunk > 0 {
		k = min(k, a.chunk)
	}
	a.n -= k
	return k, nil
}

// TestLimitedReads: a transfer is passed through untouched when no limit
// applies; under --max-size (the item's size) or --max-total (the run's
// bytes) a read asks for at most one byte past what is left, so an exact
// fit ends without error and the first byte too many stops the transfer
// with ErrLimit, one byte past the limit at most.
func TestLimitedReads(t *testing.T) {
	src := &askReader{n: 10}
	if r := (&run{}).limited(src, 0); r != io.Reader(src) {
		t.Errorf("no limit: the body is wrapped")
	}
	for _, c := range []struct {
		name         string
		size, total  int64
		arrived      int64
		body         int
		read         int
		err          bool
		firstAsk     int
		arrivedAfter int64
	}{
		{name: "size exact", size: 10, body: 10, read: 10, firstAsk: 11},
		{name: "size short", size: 10, body: 4, read: 4, firstAsk: 11},
		{name: "size over", size: 10, body: 50, read: 11, err: true, firstAsk: 11},
		{name: "total exact", total: 10, body: 10, read: 10, firstAsk: 11, arrivedAfter: 10},
		{name: "total over", total: 10, body: 50, read: 11, err: true, firstAsk: 11, arrivedAfter: 11},
		{name: "total partly used", total: 10, arrived: 6, body: 50, read: 5, err: true, firstAsk: 5, arrivedAfter: 11},
		{name: "total used up", total: 10, arrived: 10, body: 50, read: 1, err: true, firstAsk: 1, arrivedAfter: 11},
		{name: "total past", total: 10, arrived: 12, body: 50, read: 1, err: true, firstAsk: 1, arrivedAfter: 13},
		{name: "size under total", size: 4, total: 10, body: 50, read: 5, err: true, firstAsk: 5},
		{name: "total under size", size: 10, total: 3, body: 50, read: 4, err: true, firstAsk: 4, arrivedAfter: 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &run{opt: Options{MaxSize: c.size, MaxTotal: c.total}}
			r.arrived.Store(c.arrived)
			src := &askReader{n: c.body}
			got, err := io.ReadAll(io.LimitReader(r.limited(src, c.size), 1<<20))
			if len(got) != c.read || (err != nil) != c.err || c.err && !errors.Is(err, ErrLimit) {
				t.Errorf("read %d bytes, %v; want %d, error %v", len(got), err, c.read, c.err)
			}
			if len(src.asks) == 0 || src.asks[0] != c.firstAsk {
				t.Errorf("reads asked for %v, want %d first", src.asks, c.firstAsk)
			}
			if r.arrived.Load() != c.arrivedAfter {
				t.Errorf("%d bytes counted arrived, want %d", r.arrived.Load(), c.arrivedAfter)
			}
			if c.err && c.size > 0 && c.size < c.total+c.arrived && !strings.Contains(err.Error(), "--max-size") ||
				c.err && c.size == 0 && !strings.Contains(err.Error(), "--max-total") {
				t.Errorf("error %q names the wrong limit", err)
			}
		})
	}
}

// TestLimitedSmallReads: a read that asks for no more than is left (one
// byte past the limit included) is passed on as it is.
func TestLimitedSmallReads(t *testing.T) {
	for _, c := range []struct{ size, total int64 }{{10, 0}, {0, 10}, {10, 10}} {
		r := &run{opt: Options{MaxSize: c.size, MaxTotal: c.total}}
		src := &askReader{n: 50}
		l := r.limited(src, c.size)
		var errs []error
		for _, n := range []int{4, 6, 5} {
			_, err := l.Read(make([]byte, n))
			errs = append(errs, err)
		}
		if !slices.Equal(src.asks, []int{4, 6, 1}) || errs[0] != nil || errs[1] != nil || !errors.Is(errs[2], ErrLimit) {
			t.Errorf("size %d, total %d: reads of 4, 6, 5 bytes asked %v, errors %v; want 4, 6, 1 and ErrLimit last", c.size, c.total, src.asks, errs)
		}
	}
}

// TestLimitedAsks: read by read, a limited transfer asks for one byte
// more than either limit leaves, whichever is less, counting what each
// read gave.
func TestLimitedAsks(t *testing.T) {
	for _, c := range []struct {
		size, total int64
		asks        []int
		read        int
	}{
		{size: 10, asks: []int{11, 8, 5, 2}, read: 11},
		{total: 10, asks: []int{11, 8, 5, 2}, read: 11},
		{size: 10, total: 6, asks: []int{7, 4, 1}, read: 7},
		{size: 6, total: 10, asks: []int{7, 4, 1}, read: 7},
	} {
		r := &run{opt: Options{MaxSize: c.size, MaxTotal: c.total}}
		src := &askReader{n: 50, chunk: 3}
		got, err := io.ReadAll(r.limited(src, c.size))
		if len(got) != c.read || !errors.Is(err, ErrLimit) || !slices.Equal(src.asks, c.asks) {
			t.Errorf("size %d, total %d: read %d, %v, asked %v; want %d, ErrLimit, asked %v", c.size, c.total, len(got), err, src.asks, c.read, c.asks)
		}
	}
}

// TestMirrorIdleBound: Options.IdleTimeout, when set, is the bound of a
// stalled item (not DefaultIdleTimeout); the run gives up on the item and
// goes on. A cancelled run ends with the context's error.
func TestMirrorIdleBound(t *testing.T) {
	fake := stalledGopher(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := Mirror(ctx, "gopher://"+fake.Addr+"/1/menu", t.TempDir(), Options{Parallel: 1, IdleTimeout: 200 * time.Millisecond})
	if err != nil || st.Failed != 1 || st.Fetched != 2 {
		t.Errorf("Mirror = %+v, %v; want the stalled item given up after 200ms", st, err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := Mirror(ctx, "gopher://"+fake.Addr+"/1/menu", t.TempDir(), Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v", err)
	}
}

// TestMirrorCancelledDeleting: a run cancelled after its listings, while
// it deletes what they no longer name, ends with the context's error.
func TestMirrorCancelledDeleting(t *testing.T) {
	var gone atomic.Bool
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		if string(req) == "/menu\r\n" {
			if gone.Load() {
				return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a")}
			}
			return testserver.GopherReply{Reply: gopherMenu(addr, "0 /a", "0 /b")}
		}
		return testserver.GopherReply{Reply: []byte("item")}
	})
	dir := t.TempDir()
	url := "gopher://" + fake.Addr + "/1/menu"
	if _, err := Mirror(context.Background(), url, dir, Options{Parallel: 1}); err != nil {
		t.Fatal(err)
	}
	gone.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := Mirror(ctx, url, dir, Options{Parallel: 1, Delete: true, Progress: func(st Stats) {
		if st.Deleted > 0 {
			cancel()
		}
	}})
	if st.Deleted != 1 || !errors.Is(err, context.Canceled) {
		t.Errorf("Mirror = %+v, %v; want b deleted, then context.Canceled", st, err)
	}
}

// TestWalkerQueueCompacted: the files queue is emptied when its last file
// is taken, and moved to its start once 1024 files or more were taken
// from it and they are at least half of it; not before.
func TestWalkerQueueCompacted(t *testing.T) {
	nop := func(context.Context, *watchdog.Watchdog) {}
	for _, tt := range []struct {
		files, take int
		head, left  int // w.head and len(w.files) after
	}{
		{2, 1, 1, 2},
		{2, 2, 0, 0},
		{2000, 1023, 1023, 2000},
		{2000, 1024, 0, 976},
		{2048, 1024, 0, 1024},
		{2049, 1024, 1024, 2049},
		{2049, 1025, 0, 1024},
	} {
		w := newWalker()
		for range tt.files {
			w.addFile(nop)
		}
		for range tt.take {
			if w.next() == nil {
				t.Fatal("the walk ended early")
			}
			w.finished()
		}
		if w.head != tt.head || len(w.files) != tt.left {
			t.Errorf("%d files, %d taken: head %d of %d; want %d of %d", tt.files, tt.take, w.head, len(w.files), tt.head, tt.left)
		}
	}
}

// TestChargeMaxTotal: a menu, listing or attribute reply whose bytes
// reach --max-total exactly is kept; one more byte is dropped.
func TestChargeMaxTotal(t *testing.T) {
	r, _, _ := decideRun(t, Options{MaxTotal: 10})
	if !r.charge(4) || !r.charge(6) {
		t.Errorf("4 and 6 bytes of 10: refused")
	}
	if r.charge(1) {
		t.Errorf("the 11th byte of 10: kept")
	}
	if r.planned.Load() != 11 {
		t.Errorf("planned %d bytes, want 11", r.planned.Load())
	}
}

// TestPartialNames: only ".NAME" and partialSuffix, NAME not empty, is a
// partial transfer's name; "%" and two hex digits, of either case, are
// an escape.
func TestPartialNames(t *testing.T) {
	for name, want := range map[string]bool{
		".f" + partialSuffix: true,
		"." + partialSuffix:  false, // no NAME
		partialSuffix:        false,
		"f" + partialSuffix:  false,
		".f":                 false,
	} {
		if got := isPartial(name); got != want {
			t.Errorf("isPartial(%q) = %v", name, got)
		}
	}
	for c := 0; c < 256; c++ {
		want := strings.ContainsRune("0123456789abcdefABCDEF", rune(c))
		if got := isHex(byte(c)); got != want {
			t.Errorf("isHex(%q) = %v", rune(c), got)
		}
	}
}
