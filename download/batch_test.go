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
// what they do ("sync NAME", "syncfs NAME" for the file system of NAME,
// "rename NAME"), and fail the sync of a file named in failing; then a
// syncfs fails too, as a file system's does when one of its files
// failed. It returns the log and the count of syncs and syncfs, and
// restores the steps when the test ends.
func recordOrder(t *testing.T, failing string) (log func() []string, syncs func() int) {
	var mu sync.Mutex
	var events []string
	synced := map[string]bool{}
	n := 0
	oldSync, oldSyncFS, oldRename := syncFile, syncFS, rename
	t.Cleanup(func() { syncFile, syncFS, rename = oldSync, oldSyncFS, oldRename })
	syncFS = func(f *os.File) error {
		mu.Lock()
		defer mu.Unlock()
		n++
		events = append(events, "syncfs "+filepath.Base(f.Name()))
		if failing != "" {
			return errors.New("injected failure of the file system")
		}
		return oldSyncFS(f)
	}
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

// holdFirstSync makes the next sync of a file (syncFile, as it is now:
// recordOrder's) wait: entered is closed when it starts, and it goes on
// when release is closed.
func holdFirstSync() (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	recorded := syncFile
	var once sync.Once
	syncFile = func(f *os.File) error {
		once.Do(func() {
			close(entered)
			<-release
		})
		return recorded(f)
	}
	return entered, release
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
func addWaiting() bool { return waitingIn("download.(*Batch).Add") }

// waitingIn reports whether a goroutine is parked on a sync.Cond in the
// function fn, and not yet woken: the goroutine's header says so
// ("goroutine 7 [sync.Cond.Wait]:"); one that a Signal has woken but that
// has not run yet says "[runnable]" above the same frames.
func waitingIn(fn string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, frames, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "[sync.Cond.Wait") && strings.Contains(frames, fn) {
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
	entered, release := holdFirstSync()
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
	// renames are the batches.
	var batches []int
	run := 0
	for _, e := range append(log(), "end") {
		if strings.HasPrefix(e, "rename ") {
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
// left. A file whose sync fails never gets its final name. (Its file
// system's syncfs fails too: each file is synced on its own.)
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
		if verb == "syncfs" {
			continue
		}
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
	// Without NoSync, the same run syncs: each file, or a batch's file
	// system at once.
	b = &Batch{}
	addAll(t, b, t.TempDir(), 40)
	b.Close()
	if n := syncs(); n < 1 || n > 40 {
		t.Errorf("%d syncs for 40 files", n)
	}
}

// addAsOneBatch opens parts named first and f000…f(n-1) in dir and adds
// them to b so that the flusher takes first alone and the n others as
// one batch: first's sync waits until they are queued. They are added
// in the reverse of the order they were opened in.
func addAsOneBatch(t *testing.T, b *Batch, dir string, n int) {
	t.Helper()
	open := func(name string) *Part {
		p, err := OpenPart(filepath.Join(dir, name), false)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(p, "file %s", name)
		return p
	}
	first := open("first")
	parts := make([]*Part, n)
	for i := range parts {
		parts[i] = open(fmt.Sprintf("f%03d", i))
	}
	entered, release := holdFirstSync()
	within(t, "the first Add", func() { b.Add(first) })
	within(t, "the first sync", func() { <-entered })
	within(t, "the Adds of the batch", func() {
		for i := range parts {
			b.Add(parts[n-1-i])
		}
	})
	close(release)
}

// skipWithoutSyncfs skips a test of syncfs where the batch does not use
// it.
func skipWithoutSyncfs(t *testing.T) {
	if !syncfsReportsErrors() {
		t.Skip("no syncfs that reports writeback errors here (Linux 5.8 or later): each file is synced on its own")
	}
}

// TestBatchSyncsItsFileSystemOnce: a batch of many parts on one file
// system is synced by one syncfs, through the part opened first, and no
// fsync; every rename comes after it. A part alone is synced on its own.
func TestBatchSyncsItsFileSystemOnce(t *testing.T) {
	skipWithoutSyncfs(t)
	for _, n := range []int{20, 2} { // two: the smallest batch for a syncfs
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			log, _ := recordOrder(t, "")
			dir := t.TempDir()
			b := &Batch{}
			addAsOneBatch(t, b, dir, n)
			within(t, "Close", func() {
				if err := b.Close(); err != nil {
					t.Error(err)
				}
			})
			got := log()
			if len(got) != 2+1+n {
				t.Fatalf("%d events, want %d: %q", len(got), 2+1+n, got)
			}
			if got[0] != "sync .first.part" || got[1] != "rename .first.part" {
				t.Errorf("the part alone: %q, want its sync then its rename", got[:2])
			}
			if got[2] != "syncfs .f000.part" {
				t.Errorf("the batch begins with %q, want the syncfs through f000, opened first", got[2])
			}
			for _, e := range got[3:] {
				if !strings.HasPrefix(e, "rename ") {
					t.Errorf("after the syncfs: %q, want only renames", e)
				}
			}
			if entries, _ := os.ReadDir(dir); len(entries) != n+1 {
				t.Errorf("%d files, want %d", len(entries), n+1)
			}
		})
	}
}

// TestBatchSyncfsFailureSyncsEachFile: when the syncfs of a batch fails,
// each of its files is synced on its own, all before any rename; the
// file whose sync fails is removed and told, the others are renamed.
func TestBatchSyncfsFailureSyncsEachFile(t *testing.T) {
	skipWithoutSyncfs(t)
	log, _ := recordOrder(t, "f003")
	dir := t.TempDir()
	var mu sync.Mutex
	done := map[string]error{}
	b := &Batch{Done: func(p *Part, err error) {
		mu.Lock()
		done[filepath.Base(p.Path)] = err
		mu.Unlock()
	}}
	const n = 8
	addAsOneBatch(t, b, dir, n)
	within(t, "Close", func() {
		if err := b.Close(); err == nil || !strings.Contains(err.Error(), "f003: injected failure") {
			t.Errorf("Close = %v, want the injected failure of f003", err)
		}
	})
	got := log()
	if len(got) != 2+1+n+n-1 {
		t.Fatalf("%d events, want %d: %q", len(got), 2+1+n+n-1, got)
	}
	if !strings.HasPrefix(got[2], "syncfs ") {
		t.Errorf("the batch begins with %q, want its syncfs", got[2])
	}
	synced := map[string]bool{}
	for _, e := range got[3 : 3+n] {
		verb, name, _ := strings.Cut(e, " ")
		if verb != "sync" {
			t.Errorf("%q before every file of the batch was synced", e)
		}
		synced[name] = true
	}
	if len(synced) != n {
		t.Errorf("%d files synced after the syncfs failed, want %d", len(synced), n)
	}
	for _, e := range got[3+n:] {
		if !strings.HasPrefix(e, "rename ") || e == "rename .f003.part" {
			t.Errorf("after the syncs: %q, want the renames of the others", e)
		}
	}
	for i := range n {
		name := fmt.Sprintf("f%03d", i)
		_, err := os.Stat(filepath.Join(dir, name))
		_, perr := os.Stat(filepath.Join(dir, "."+name+".part"))
		if i == 3 {
			if err == nil || perr == nil || done[name] == nil {
				t.Errorf("f003, whose sync failed: stat %v, its .part's %v, Done told %v", err, perr, done[name])
			}
			continue
		}
		if err != nil || perr == nil || done[name] != nil {
			t.Errorf("%s: stat %v, its .part's %v, Done told %v", name, err, perr, done[name])
		}
	}
}

// TestBatchOfOneSyncsTheFile: a batch of one part syncs that file, not
// its file system.
func TestBatchOfOneSyncsTheFile(t *testing.T) {
	log, _ := recordOrder(t, "")
	dir := t.TempDir()
	p, err := OpenPart(filepath.Join(dir, "f"), false)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("one"))
	b := &Batch{}
	b.Add(p)
	within(t, "Close", func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	if got := log(); fmt.Sprint(got) != fmt.Sprint([]string{"sync .f.part", "rename .f.part"}) {
		t.Errorf("%q, want the file's sync then its rename", got)
	}
}

// setLinger sets batchLinger for the test.
func setLinger(t *testing.T, d time.Duration) {
	old := batchLinger
	batchLinger = d
	t.Cleanup(func() { batchLinger = old })
}

// addOneByOne writes n parts in turn, as a run without --parallel makes
// them, each added to b when written, with a pause between.
func addOneByOne(t *testing.T, b *Batch, dir string, n int, pause time.Duration) {
	t.Helper()
	for i := range n {
		p, err := OpenPart(filepath.Join(dir, fmt.Sprintf("f%03d", i)), false)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(p, "file %d", i)
		b.Add(p)
		time.Sleep(pause)
	}
}

// TestBatchGroupsPartsOneByOne: parts that come one at a time, each a
// little after the last, are synced together (a group commit), not one
// sync each: one syncfs for the ten, every rename after it.
func TestBatchGroupsPartsOneByOne(t *testing.T) {
	skipWithoutSyncfs(t)
	setLinger(t, time.Hour) // only Close ends the wait
	log, syncs := recordOrder(t, "")
	dir := t.TempDir()
	b := &Batch{}
	addOneByOne(t, b, dir, 10, time.Millisecond)
	within(t, "Close", func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	got := log()
	if syncs() != 1 || len(got) != 11 || got[0] != "syncfs .f000.part" {
		t.Errorf("%d syncs for ten parts added one by one, want one syncfs then the renames: %q", syncs(), got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 10 {
		t.Errorf("%d files, want 10", len(entries))
	}
}

// lingering reports whether the flusher is waiting for a group.
func lingering() bool { return waitingIn("download.(*Batch).linger") }

// TestBatchLingerEnds: the wait for a group ends at batchGroup parts,
// with no Close (the parts are renamed while the batch stays open) —
// the last of them added while the flusher waits, as it does at one
// fewer; and at Close for a lone part, however long the linger.
func TestBatchLingerEnds(t *testing.T) {
	setLinger(t, time.Hour)
	recordOrder(t, "")
	dir := t.TempDir()
	b := &Batch{}
	renamed := make(chan string, batchGroup)
	b.Done = func(p *Part, err error) {
		if err != nil {
			t.Error(err)
		}
		renamed <- p.Path
	}
	waitLingering := func() {
		within(t, "the flusher's wait for a group", func() {
			for !lingering() {
				time.Sleep(time.Millisecond)
			}
		})
	}
	add := func(i int) {
		p, err := OpenPart(filepath.Join(dir, fmt.Sprintf("g%03d", i)), false)
		if err != nil {
			t.Fatal(err)
		}
		b.Add(p)
	}
	add(0)
	waitLingering()
	for i := 1; i < batchGroup-1; i++ {
		add(i)
	}
	// batchGroup-1 parts: it waits on, parked again after any wake-up (an
	// Add that signalled below the group would have woken it; the last
	// Add must then wake it itself).
	waitLingering()
	add(batchGroup - 1)
	within(t, "a group of batchGroup parts", func() {
		for range batchGroup {
			<-renamed
		}
	})
	p, err := OpenPart(filepath.Join(dir, "lone"), false)
	if err != nil {
		t.Fatal(err)
	}
	b.Add(p)
	within(t, "Close with a lone part lingering", func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	if _, err := os.Stat(filepath.Join(dir, "lone")); err != nil {
		t.Errorf("the lone part after Close: %v", err)
	}
}

// TestBatchLingerTimesOut: a lone part waits batchLinger for company,
// then is synced and renamed with the batch still open; so does the next
// lone part, which finds the flusher idle.
func TestBatchLingerTimesOut(t *testing.T) {
	setLinger(t, 50*time.Millisecond)
	recordOrder(t, "")
	b := &Batch{}
	renamed := make(chan struct{}, 2)
	b.Done = func(*Part, error) { renamed <- struct{}{} }
	dir := t.TempDir()
	for i := range 2 {
		start := time.Now()
		p, err := OpenPart(filepath.Join(dir, fmt.Sprint(i)), false)
		if err != nil {
			t.Fatal(err)
		}
		b.Add(p)
		within(t, "the lone part's rename", func() { <-renamed })
		if waited := time.Since(start); waited < 50*time.Millisecond {
			t.Errorf("part %d was renamed after %v, before the linger of 50ms ended", i, waited)
		}
	}
	b.Close()
}
