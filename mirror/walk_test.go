package mirror

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// TestWalkerHoldsNoTree walks 200 directories of 100 files on 2
// workers: every file is visited once, and the files waiting never
// exceed what the listings being worked on gave (listAhead plus one
// listing per worker), where a first-in-first-out queue of the whole
// walk would hold nearly all 20,000.
func TestWalkerHoldsNoTree(t *testing.T) {
	const dirs, files, workers = 200, 100, 2
	w := newWalker()
	var visits sync.Map
	var most atomic.Int64
	file := func(id int) job {
		return func(ctx context.Context, wd *watchdog.Watchdog) {
			if _, dup := visits.LoadOrStore(id, true); dup {
				t.Errorf("file %d visited twice", id)
			}
			w.mu.Lock()
			waiting := int64(len(w.files) - w.head)
			w.mu.Unlock()
			for m := most.Load(); waiting > m && !most.CompareAndSwap(m, waiting); m = most.Load() {
			}
		}
	}
	w.addDir(func(ctx context.Context, wd *watchdog.Watchdog) {
		for d := range dirs {
			w.addDir(func(ctx context.Context, wd *watchdog.Watchdog) {
				for f := range files {
					w.addFile(file(d*files + f))
				}
			})
		}
	})
	r := &run{opt: Options{IdleTimeout: -1}}
	if err := w.run(context.Background(), workers, r.runJob); err != nil {
		t.Fatal(err)
	}
	n := 0
	visits.Range(func(any, any) bool { n++; return true })
	if n != dirs*files {
		t.Errorf("%d files visited, want %d", n, dirs*files)
	}
	if limit := int64(listAhead + workers*files); most.Load() > limit {
		t.Errorf("up to %d files waited, want at most %d", most.Load(), limit)
	}
}

// TestWalkerStops: a cancelled walk drops what waits and returns.
func TestWalkerStops(t *testing.T) {
	w := newWalker()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ran atomic.Int32
	for range 100 {
		w.addFile(func(ctx context.Context, wd *watchdog.Watchdog) {
			if ran.Add(1) == 3 {
				cancel()
			}
		})
	}
	r := &run{opt: Options{IdleTimeout: -1}}
	done := make(chan error)
	go func() { done <- w.run(ctx, 2, r.runJob) }()
	select {
	case err := <-done:
		if err == nil || ran.Load() > 4 {
			t.Errorf("run = %v after %d jobs", err, ran.Load())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the walk did not stop")
	}
}

// TestManifestTornLine: a line torn by a killed run is cut off before
// the next line is appended, so every line of the file stays whole.
func TestManifestTornLine(t *testing.T) {
	dir := t.TempDir()
	whole := `{"url":"ftp://h/a","path":"a","size":1}` + "\n"
	_, m := manifestIn(t, dir, whole+`{"url":"ftp://h/b-with-a-longer-name-than-the-line-that-follows","pa`)
	if err := m.open(); err != nil {
		t.Fatal(err)
	}
	m.add(Record{URL: "ftp://h/c", Path: "c", Size: 3})
	b, _ := os.ReadFile(filepath.Join(dir, ManifestName))
	if want := whole + `{"url":"ftp://h/c","path":"c","size":3}` + "\n"; string(b) != want {
		t.Errorf("manifest before compaction:\n%s\nwant\n%s", b, want)
	}
	if rec, ok := m.read("a"); !ok || rec.URL != "ftp://h/a" {
		t.Errorf("read(a) = %+v, %v", rec, ok)
	}
	if err := m.compact(); err != nil {
		t.Fatal(err)
	}
	recs := readManifest(t, dir)
	if len(recs) != 2 || recs["c"].Size != 3 || recs["a"].URL != "ftp://h/a" {
		t.Errorf("compacted: %+v", recs)
	}
}

// TestWalkerQueueReused: a queue of files that never empties (each file
// queues another, 20,000 in all) keeps reusing its slots instead of
// growing by one per file.
func TestWalkerQueueReused(t *testing.T) {
	const total = 20000
	w := newWalker()
	var added atomic.Int32
	var most atomic.Int64
	var file job
	file = func(ctx context.Context, wd *watchdog.Watchdog) {
		w.mu.Lock()
		c := int64(cap(w.files))
		w.mu.Unlock()
		for m := most.Load(); c > m && !most.CompareAndSwap(m, c); m = most.Load() {
		}
		if added.Add(1) <= total {
			w.addFile(file)
		}
	}
	for range 10 {
		w.addFile(file)
	}
	r := &run{opt: Options{IdleTimeout: -1}}
	if err := w.run(context.Background(), 1, r.runJob); err != nil {
		t.Fatal(err)
	}
	if most.Load() > 4096 {
		t.Errorf("the queue grew to %d slots for at most 11 waiting files", most.Load())
	}
}

// TestManifestLongLine: a line longer than the reader's buffer is no
// record and is skipped, and the lines after it are found at their true
// offsets; such a line torn at the end of the file is cut off like any
// torn line.
func TestManifestLongLine(t *testing.T) {
	dir := t.TempDir()
	long := `{"url":"ftp://h/` + strings.Repeat("x", 100<<10) + `","path":"long","size":1}` + "\n"
	a := `{"url":"ftp://h/a","path":"a","size":1}` + "\n"
	torn := `{"url":"ftp://h/` + strings.Repeat("y", 100<<10)
	root, m := manifestIn(t, dir, a+long+a[:len(a)-1]+"\n"+torn)
	if want := int64(len(a) + len(long) + len(a)); m.end != want {
		t.Errorf("the whole lines end at %d, want %d", m.end, want)
	}
	if _, _, ok := m.stat("long"); ok {
		t.Errorf("a line longer than the buffer was read as a record")
	}
	if rec, ok := m.read("a"); !ok || rec.URL != "ftp://h/a" {
		t.Errorf("read(a) after the long line = %+v, %v", rec, ok)
	}
	if e := m.recs[keyOf("a")]; e.off != int64(len(a)+len(long)) {
		t.Errorf("a's line at %d, want %d", e.off, len(a)+len(long))
	}
	// The next line appended starts a line of its own, and is read back.
	if err := m.open(); err != nil {
		t.Fatal(err)
	}
	m.add(Record{URL: "ftp://h/c", Path: "c", Size: 3})
	again, err := loadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := again.stat("c"); !ok {
		t.Errorf("the line appended after a torn long line is lost")
	}
	if err := m.compact(); err != nil {
		t.Fatal(err)
	}
}

// manifestIn writes content as the manifest of dir and loads it; the
// folder is closed when the test ends.
func manifestIn(t *testing.T, dir, content string) (*os.Root, *manifest) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, ManifestName), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	m, err := loadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, m
}
