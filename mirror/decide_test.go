package mirror

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
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
		for _, p := range []string{"keep", "gone", "old/x", "old/y/z", "sub/keep", "sub/gone", "sub/" + ManifestName, "f.rfc1738-partial"} {
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
		gone := []string{"gone", "old", "sub/gone", "sub/" + ManifestName}
		kept := []string{"keep", "sub/keep", "f.rfc1738-partial", ManifestName}
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
		if st := r.snapshot(); st.Deleted != 4 || st.Failed != 0 {
			t.Errorf("dry run %v: deleted %d, failed %d; want 4, 0", dry, st.Deleted, st.Failed)
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
