package download

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordOrder replaces the sync and rename steps with ones that log
// what they do, and fail the sync of a file named in failing. It
// returns the log, and restores the steps when the test ends.
func recordOrder(t *testing.T, failing string) (log func() []string, syncs func() int) {
	var mu sync.Mutex
	var events []string
	synced := map[string]bool{}
	n := 0
	oldSync, oldRename := syncFile, rename
	t.Cleanup(func() { syncFile, rename = oldSync, oldRename })
	syncFile = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		events = append(events, "sync "+filepath.Base(f.Name()))
		if failing != "" && strings.Contains(f.Name(), failing) {
			return errors.New("injected failure")
		}
		synced[f.Name()] = true
		return oldSync(f)
	}
	rename = func(from, to string) error {
		mu.Lock()
		events = append(events, "rename "+filepath.Base(from))
		mu.Unlock()
		return oldRename(from, to)
	}
	return func() []string {
			mu.Lock()
			defer mu.Unlock()
			return append([]string(nil), events...)
		}, func() int {
			mu.Lock()
			defer mu.Unlock()
			return n
		}
}

// addAll writes n files from 4 goroutines, each added to b when written.
func addAll(t *testing.T, b *Batch, dir string, n int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 4 {
				p, err := OpenPart(filepath.Join(dir, fmt.Sprintf("f%03d", i)), false)
				if err != nil {
					t.Error(err)
					return
				}
				fmt.Fprintf(p, "file %d", i)
				b.Add(p)
				if p.Abort(false) {
					t.Errorf("Abort after Add kept %s", p.Name)
				}
			}
		}()
	}
	wg.Wait()
}

// within runs f and fails the test when it has not returned after a few
// seconds: a batch that deadlocks fails its test instead of hanging it.
// It fails it with a panic, which ends the test binary at once: after a
// t.Fatal the tests below would hang on the same deadlock, and even with
// -failfast the examples still run (and hang).
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		panic(fmt.Sprintf("%s: %s has not returned after 3 s: a deadlock", t.Name(), what))
	}
}

// addWaiting reports whether a goroutine is parked in Add, waiting for
// room in the batch.
func addWaiting() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "sync.(*Cond).Wait") && strings.Contains(g, "download.(*Batch).Add") {
			return true
		}
	}
	return false
}

// TestBatchBoundsPending: while a sync is under way, Add queues up to
// batchMaxPending parts and waits at the next one; the flusher then syncs
// and renames the queued parts as one batch, and the waiting part after
// them. (First of the package's tests: under -failfast a batch that
// deadlocks fails here, before a test below hangs on it.)
func TestBatchBoundsPending(t *testing.T) {
	log, _ := recordOrder(t, "")
	entered, release := make(chan struct{}), make(chan struct{})
	recorded := syncFile
	var once sync.Once
	syncFile = func(f *os.File) error {
		once.Do(func() {
			close(entered)
			<-release
		})
		return recorded(f)
	}
	dir := t.TempDir()
	part := func(i int) *Part {
		p, err := OpenPart(filepath.Join(dir, fmt.Sprintf("f%03d", i)), false)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	parts := make([]*Part, batchMaxPending+2)
	for i := range parts {
		parts[i] = part(i)
	}
	b := &Batch{}
	within(t, "the first Add", func() { b.Add(parts[0]) })
	within(t, "the first sync", func() { <-entered })
	// The flusher holds f000 in its sync: these queue.
	within(t, "the Adds up to batchMaxPending", func() {
		for _, p := range parts[1 : batchMaxPending+1] {
			b.Add(p)
		}
	})
	last := parts[batchMaxPending+1]
	added := make(chan struct{})
	go func() {
		defer close(added)
		b.Add(last)
	}()
	within(t, "the Add over batchMaxPending", func() {
		for !addWaiting() {
			select {
			case <-added:
				t.Errorf("Add returned with %d parts queued", batchMaxPending)
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	close(release)
	within(t, "the waiting Add", func() { <-added })
	within(t, "Close", func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	// The syncs of a batch all come before its renames: the runs of
	// syncs are the batches.
	var batches []int
	run := 0
	for _, e := range log() {
		if strings.HasPrefix(e, "sync ") {
			run++
		} else if run > 0 {
			batches, run = append(batches, run), 0
		}
	}
	if fmt.Sprint(batches) != fmt.Sprint([]int{1, batchMaxPending, 1}) {
		t.Errorf("batches of %v, want 1, %d, 1", batches, batchMaxPending)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != batchMaxPending+2 {
		t.Errorf("%d files, want %d", len(entries), batchMaxPending+2)
	}
}

// TestBatchSyncsBeforeRename: a batch syncs each file before it renames
// it, so that no final name is there before its data was synced; more
// files than the batch holds at once all end complete, and no .part is
// left. A file whose sync fails never gets its final name.
func TestBatchSyncsBeforeRename(t *testing.T) {
	log, _ := recordOrder(t, "f007")
	dir := t.TempDir()
	var mu sync.Mutex
	done := map[string]error{}
	b := &Batch{Done: func(p *Part, err error) {
		mu.Lock()
		done[filepath.Base(p.Path)] = err
		mu.Unlock()
		// The final name is there exactly when the commit succeeded.
		if _, serr := os.Stat(p.Path); (serr == nil) != (err == nil) {
			t.Errorf("%s: Done(%v) and the file's stat says %v", p.Path, err, serr)
		}
	}}
	const n = batchMaxPending + 44
	addAll(t, b, dir, n)
	if err := b.Close(); err == nil || !strings.Contains(err.Error(), "f007: injected failure") {
		t.Errorf("Close = %v, want the injected failure of f007", err)
	}
	seen := map[string]int{} // the event index of each file's sync
	for i, e := range log() {
		verb, name, _ := strings.Cut(e, " ")
		part := name
		if verb == "sync" {
			seen[part] = i
			continue
		}
		if _, ok := seen[part]; !ok {
			t.Fatalf("%s renamed before its sync (events %d)", part, i)
		}
		if part == ".f007.part" {
			t.Errorf("f007, whose sync failed, was renamed")
		}
	}
	if len(done) != n {
		t.Errorf("Done told of %d parts, want %d", len(done), n)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != n-1 {
		t.Errorf("%d files in the folder, want %d", len(entries), n-1)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".part") || e.Name() == "f007" {
			t.Errorf("left behind: %s", e.Name())
			continue
		}
		var i int
		fmt.Sscanf(e.Name(), "f%d", &i)
		if b, _ := os.ReadFile(filepath.Join(dir, e.Name())); string(b) != fmt.Sprintf("file %d", i) {
			t.Errorf("%s holds %q", e.Name(), b)
		}
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", e.Name(), fi.Mode())
		}
	}
	// Part.Commit keeps the same order, for one file.
	p, _ := OpenPart(filepath.Join(dir, "one"), false)
	p.Write([]byte("one"))
	before := len(log())
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := log()[before:]; len(got) != 2 || got[0] != "sync .one.part" || got[1] != "rename .one.part" {
		t.Errorf("Commit: %q, want the sync then the rename", got)
	}
}

// TestBatchNoSync: with NoSync nothing is synced, and every file is
// complete under its name when Add returns.
func TestBatchNoSync(t *testing.T) {
	_, syncs := recordOrder(t, "")
	dir := t.TempDir()
	b := &Batch{NoSync: true}
	addAll(t, b, dir, 40)
	if entries, _ := os.ReadDir(dir); len(entries) != 40 {
		t.Errorf("%d files before Close, want 40", len(entries))
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := syncs(); n != 0 {
		t.Errorf("NoSync: %d syncs", n)
	}
	// Without NoSync, the same run syncs every file.
	b = &Batch{}
	addAll(t, b, t.TempDir(), 40)
	b.Close()
	if n := syncs(); n != 40 {
		t.Errorf("%d syncs for 40 files", n)
	}
}
