package download

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"
)

// syncFile (or syncFS, for many files at once) and rename are the two
// steps whose order keeps a download safe from a crash; tests replace
// them to record that order.
var (
	syncFile = (*os.File).Sync
	syncFS   = syncfs // the whole file system of a file: batch_linux.go
	rename   = renameFile
)

// batchMaxPending bounds the parts waiting for their sync (each holds
// its file open): Add waits when that many are queued.
const batchMaxPending = 256

// batchGroup and batchLinger make a group commit: a flusher that finds
// fewer than batchGroup parts waiting waits up to batchLinger for more
// (not past Close) before it syncs them. Files that come one at a time
// (a run without --parallel, a slow one) are then synced many to a sync,
// where each would have had its own, every one a journal commit.
var (
	batchGroup                = 64
	batchLinger time.Duration = 20e6 // 20 ms
)

// batchSyncers is how many files of a batch are synced at once, where
// each is synced on its own: the file system commits concurrent syncs
// together (one journal commit for many files on ext4 and xfs), where
// one after the other each waits for its own.
const batchSyncers = 16

// A Batch makes finished downloads complete many at a time: each part
// added is synced, then renamed to its final path, in the background,
// while the next files are written. A sync waits for the disk, and one
// per file, in turn, costs more than the transfers of small files; the
// files of a batch are synced together: on Linux 5.8 and later by one
// syncfs per file system, else by concurrent syncs, which the file
// system commits together; a few parts wait up to 20 ms for more, so that files that come one at a time are synced many at a
// time too. A syncfs commits the file system's other dirty data as well,
// other programs' included. A file's rename always comes after its data
// is synced, so a crash leaves no final name over data that never
// reached the disk (at worst a complete .part file, which -C resumes at
// its end).
//
// The zero Batch is ready to use; Close waits for every part added.
type Batch struct {
	// NoSync skips the sync: a part is renamed when added (curl and wget
	// never sync). A crash can then leave a final name over missing data.
	NoSync bool
	// Done, when set, is told of each part added once it is complete
	// (err nil: renamed) or has failed (its .part removed). It may be
	// called from another goroutine than Add's, one call at a time.
	Done func(p *Part, err error)

	mu      sync.Mutex
	wake    *sync.Cond // pending grew, or the batch closed
	room    *sync.Cond // pending shrank
	pending []*Part
	running bool
	closed  bool
	flushed chan struct{} // closed when the flusher has drained the batch
	err     error         // the first failure
	doneMu  sync.Mutex
}

// Add makes p complete, now (NoSync) or once it is synced. p must be
// written in full; it is closed and owned by the batch from here on, and
// p.Abort does nothing. Add waits while batchMaxPending parts are queued.
func (b *Batch) Add(p *Part) {
	p.committed = true
	if b.NoSync {
		b.finish(p, nil)
		return
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		b.finish(p, syncFile(p.f))
		return
	}
	if !b.running {
		b.running = true
		b.wake, b.room = sync.NewCond(&b.mu), sync.NewCond(&b.mu)
		b.flushed = make(chan struct{})
		go b.flusher()
	}
	for len(b.pending) >= batchMaxPending {
		b.room.Wait()
	}
	b.pending = append(b.pending, p)
	// The flusher waits for a first part, or lingers for a group.
	if len(b.pending) == 1 || len(b.pending) >= batchGroup {
		b.wake.Signal()
	}
	b.mu.Unlock()
}

// flusher takes whatever parts are queued — after waiting a little for
// more when they are few (linger) — syncs them together, renames them,
// and starts over, until the batch is closed and drained: the batch
// grows with the rate files arrive at, and a file waits for at most
// batchLinger and one sync.
func (b *Batch) flusher() {
	defer close(b.flushed)
	b.mu.Lock()
	for {
		for len(b.pending) == 0 && !b.closed {
			b.wake.Wait()
		}
		if len(b.pending) == 0 {
			b.mu.Unlock()
			return
		}
		b.linger()
		batch := b.pending
		b.pending = nil
		b.room.Broadcast()
		b.mu.Unlock()

		errs := syncBatch(batch)
		// Every sync has returned: only now the renames.
		for i, p := range batch {
			b.finish(p, errs[i])
		}
		b.mu.Lock()
	}
}

// linger waits, b.mu held, while fewer than batchGroup parts are
// pending, for batchLinger at most, unless the batch is closed: Add
// wakes it at batchGroup, Close at once, a timer at the end.
func (b *Batch) linger() {
	var t *time.Timer
	over := false
	for len(b.pending) < batchGroup && !b.closed && !over {
		if t == nil {
			t = time.AfterFunc(batchLinger, func() {
				b.mu.Lock()
				over = true
				b.wake.Signal()
				b.mu.Unlock()
			})
		}
		b.wake.Wait()
	}
	if t != nil {
		t.Stop()
	}
}

// syncBatch makes the data of every part of batch durable and returns
// each one's error. Where the kernel's syncfs reports writeback errors,
// the parts on one file system are synced by one syncfs: the journal is
// committed once for all of them, where each fsync commits it (or waits
// for a commit) again. A syncfs that fails does not say which file
// failed: that group's files are then synced one by one, so that only a
// file whose own sync fails fails. A part alone on its file system has
// its own sync, cheaper than the whole file system's.
func syncBatch(batch []*Part) []error {
	errs := make([]error, len(batch))
	var each []int // the parts synced on their own
	if len(batch) < 2 || !syncfsReportsErrors() {
		each = make([]int, len(batch))
		for i := range batch {
			each[i] = i
		}
	} else {
		var devs []uint64
		groups := map[uint64][]int{}
		for i, p := range batch {
			dev, ok := fileSystem(p.f)
			if !ok {
				each = append(each, i)
				continue
			}
			if groups[dev] == nil {
				devs = append(devs, dev)
			}
			groups[dev] = append(groups[dev], i)
		}
		for _, dev := range devs {
			g := groups[dev]
			if len(g) == 1 {
				each = append(each, g...)
				continue
			}
			// The syncfs goes through the part opened first: it
			// reports the file system's writeback errors since its
			// descriptor was opened (syncfs(2)), a span that holds
			// every other part's.
			oldest := slices.MinFunc(g, func(i, j int) int {
				return cmp.Compare(batch[i].opened, batch[j].opened)
			})
			if syncFS(batch[oldest].f) != nil {
				each = append(each, g...)
			}
		}
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(len(each), batchSyncers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = syncFile(batch[i].f)
			}
		}()
	}
	for _, i := range each {
		next <- i
	}
	close(next)
	wg.Wait()
	return errs
}

// finish closes p and, when err is nil, renames it to its final path;
// else its .part is removed. Done is told.
func (b *Batch) finish(p *Part, err error) {
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(p.Name, p.Path)
	}
	if err != nil {
		os.Remove(p.Name)
		err = fmt.Errorf("%s: %w", p.Path, err)
	}
	b.doneMu.Lock()
	defer b.doneMu.Unlock()
	if err != nil && b.err == nil {
		b.err = err
	}
	if b.Done != nil {
		b.Done(p, err)
	}
}

// Close waits until every part added is complete or failed, and returns
// the first failure. A part added after Close is synced and renamed at
// once.
func (b *Batch) Close() error {
	b.mu.Lock()
	b.closed = true
	running := b.running
	if running {
		b.wake.Signal()
	}
	b.mu.Unlock()
	if running {
		<-b.flushed
	}
	b.doneMu.Lock()
	defer b.doneMu.Unlock()
	return b.err
}
