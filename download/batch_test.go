package download

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
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
