package mirror

import (
	"context"
	"sync"
)

// A walker runs the jobs of an ftp tree walk on Parallel workers. A
// directory is listed once, from its parent's listing, so no URL needs
// remembering (crawl.Frontier's seen set would hold one string per file
// for the whole run); and files go before directories, deepest
// directory first, so what waits is the files of the last few listings
// and a stack of directory names, never the whole tree. A directory is
// listed ahead of the files only while fewer than listAhead files wait,
// so transfers keep going while the next listing comes.
type walker struct {
	mu    sync.Mutex
	cond  *sync.Cond
	files []job // FIFO from head
	head  int
	dirs  []job // LIFO: depth first
	// links (--symlinks follow) wait until the tree itself is walked:
	// then a link to a directory the walk reached has it walked already.
	links   []job
	linking bool
	active  int
	done    bool
}

// listAhead is the number of waiting files below which a worker lists the
// next directory rather than fetch a file.
const listAhead = 64

func newWalker() *walker {
	w := &walker{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *walker) addFile(j job) {
	w.mu.Lock()
	w.files = append(w.files, j)
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) addLink(j job) {
	w.mu.Lock()
	w.links = append(w.links, j)
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) addDir(j job) {
	w.mu.Lock()
	w.dirs = append(w.dirs, j)
	w.mu.Unlock()
	w.cond.Signal()
}

// next takes the next job, waiting while others may still add some; nil
// when the walk is over.
func (w *walker) next() job {
	w.mu.Lock()
	defer w.mu.Unlock()
	for {
		if w.done {
			return nil
		}
		waiting := len(w.files) - w.head
		if len(w.dirs) > 0 && waiting < listAhead {
			j := w.dirs[len(w.dirs)-1]
			w.dirs[len(w.dirs)-1] = nil
			w.dirs = w.dirs[:len(w.dirs)-1]
			w.active++
			return j
		}
		if len(w.links) > 0 && waiting < listAhead && (w.linking || w.active == 0 && waiting == 0) {
			// The first link only once nothing else is left.
			w.linking = true
			j := w.links[len(w.links)-1]
			w.links[len(w.links)-1] = nil
			w.links = w.links[:len(w.links)-1]
			w.active++
			return j
		}
		if waiting > 0 {
			j := w.files[w.head]
			w.files[w.head] = nil
			w.head++
			// An if chain, not a switch: a case's condition counts as
			// covered only through its body, and the mutation gate
			// reads every one.
			if w.head == len(w.files) {
				w.files, w.head = w.files[:0], 0
			} else if w.head >= 1024 && 2*w.head >= len(w.files) {
				// A queue that never empties would otherwise keep
				// the slots of every file taken from it.
				n := copy(w.files, w.files[w.head:])
				clear(w.files[n:])
				w.files, w.head = w.files[:n], 0
			}
			w.active++
			return j
		}
		if w.active == 0 {
			w.done = true
			w.cond.Broadcast()
			return nil
		}
		w.cond.Wait()
	}
}

func (w *walker) finished() {
	w.mu.Lock()
	w.active--
	w.mu.Unlock()
	w.cond.Broadcast()
}

// run runs the walk on n workers until no job is left or ctx ends (then
// waiting jobs are dropped and running ones see the cancelled ctx).
func (w *walker) run(ctx context.Context, n int, visit func(ctx context.Context, j job)) error {
	stop := context.AfterFunc(ctx, func() {
		w.mu.Lock()
		w.done = true
		w.mu.Unlock()
		w.cond.Broadcast()
	})
	defer stop()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := w.next(); j != nil; j = w.next() {
				visit(ctx, j)
				w.finished()
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
