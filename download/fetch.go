package download

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// A Job is one URL of a Fetcher's run and where its body goes.
type Job struct {
	URL rfc1738.URL
	// Path is the file the body is saved to, through its .part file
	// (OpenPart), renamed only when the transfer is complete. A Path
	// that names an existing file that is not a regular file (/dev/null,
	// a FIFO) is written in place.
	Path string
	// Out, when set, takes the body instead of Path, as it arrives: an
	// attempt that wrote to it is never retried (what went out cannot
	// be taken back). Jobs that share an Out want Parallel 1, so that
	// their bodies do not interleave.
	Out io.Writer
}

// A Fetcher downloads many URLs to files, some at once: each through its
// .part file, resumed where an earlier run stopped (Resume), retried
// after a transient failure from where the failed attempt stopped, and
// completed by a Batch (synced, then renamed). Its fields are its
// settings; the zero value of each works (one job at a time, no retry,
// no limit). A Fetcher must not be changed while it runs.
type Fetcher struct {
	// Client speaks the protocols. It must be set unless Do is.
	Client *access.Client
	// Do, when set, makes each request instead of Client.Do: a caller's
	// own responses for some URLs (a listing rendered as text).
	Do func(ctx context.Context, req access.Request) (*access.Response, error)

	// Parallel is how many jobs run at once; less than 1 is 1.
	Parallel int
	// Resume goes on from the bytes of a .part file an earlier run left
	// (or from the final file itself: OpenPart), and keeps the .part of
	// a job that fails, for the next run. Without it a .part left is
	// started over, and a failed job leaves nothing.
	Resume bool
	// Retries is how many more attempts a job gets after a transient
	// failure (access.Transient), each from where the last one stopped.
	Retries int
	// RetryConnRefused counts a refused connection as transient (a
	// server restarting).
	RetryConnRefused bool
	// RetryDelay is the wait before the first retry; each next one waits
	// twice as long, or what the server asked for (access.RetryAfter),
	// at most a minute.
	RetryDelay time.Duration

	// MaxSize, when LimitSize is set, is the most bytes one body may
	// bring: a larger announced size is refused before any byte is
	// written, and a body that goes past it fails (ErrTooLarge).
	MaxSize   int64
	LimitSize bool
	// Timeout ends an attempt that lasts longer (0: no limit);
	// IdleTimeout ends one during which nothing arrives for that long
	// (0: no limit). Both are timeouts (a net.Error's Timeout).
	Timeout, IdleTimeout time.Duration
	// MaxSizeName, TimeoutName and IdleTimeoutName name the limits in
	// errors as the Fetcher's users know them (a command's flags); when
	// empty, "the size limit", and none.
	MaxSizeName, TimeoutName, IdleTimeoutName string

	// NoSync skips the sync before each rename (Batch.NoSync).
	NoSync bool
	// Head asks for the header only (access.Request.Head); Header writes
	// an http response's status line and header before its body;
	// KeepErrorBody saves the page of an http error status, and the job
	// still fails (access.Request.KeepErrorBody).
	Head, Header, KeepErrorBody bool

	// Events, when set, is told what happens to each job, in order for
	// one job. It is called from Run's goroutines, for several jobs at
	// once: it must be safe for concurrent use.
	Events func(Event)
}

// Stats sums up a run.
type Stats struct {
	Saved, Failed int
	Bytes         int64 // body bytes written, by every attempt
}

// A run is one Run of a Fetcher.
type run struct {
	f     *Fetcher
	ctx   context.Context
	batch *Batch

	mu    sync.Mutex
	stats Stats
	jobOf map[*Part]int // the parts in the batch, and their jobs
}

// Run fetches the jobs, Parallel at a time, and returns what happened;
// Events tells of each job as it goes. When ctx ends, no more jobs
// start, the transfers under way fail, and each keeps its .part file
// (Resume or not: a later run with Resume goes on from it). Run returns
// once every file it completes is complete.
func (f *Fetcher) Run(ctx context.Context, jobs []Job) Stats {
	r := &run{f: f, ctx: ctx, jobOf: map[*Part]int{}}
	// A file is complete once its batch has synced and renamed it: only
	// then is it saved, or failed.
	r.batch = &Batch{NoSync: f.NoSync, Done: func(p *Part, err error) {
		r.mu.Lock()
		i := r.jobOf[p]
		delete(r.jobOf, p)
		r.mu.Unlock()
		if err != nil {
			r.emit(Event{Kind: Failed, Job: i, Path: p.Path, Err: err})
			return
		}
		r.emit(Event{Kind: Saved, Job: i, Path: p.Path, N: p.Offset()})
	}}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(max(f.Parallel, 1), max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r.fetch(i, jobs[i])
			}
		}()
	}
	for i := range jobs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	r.batch.Close()
	return r.stats
}

// emit counts what ends a job and tells Events.
func (r *run) emit(ev Event) {
	if ev.Kind == Saved || ev.Kind == Failed {
		r.mu.Lock()
		if ev.Kind == Saved {
			r.stats.Saved++
		} else {
			r.stats.Failed++
		}
		r.mu.Unlock()
	}
	if r.f.Events != nil {
		r.f.Events(ev)
	}
}

// fetch fetches one job, with the retries Retries allows, and ends it:
// Saved or Failed now, or once its batch completes the file.
func (r *run) fetch(i int, j Job) {
	part, ok := r.open(i, j)
	if !ok {
		return
	}
	t := &transfer{run: r, i: i, job: j, part: part}
	n, err := t.tries()
	r.mu.Lock()
	r.stats.Bytes += n
	r.mu.Unlock()
	// Tests, not a switch: the coverage profile the mutation gate reads
	// counts a case's condition as never run.
	if err != nil {
		ev := Event{Kind: Failed, Job: i, Path: j.Path, Err: err}
		if t.kept {
			ev.Kept, ev.N = part.Name, part.Offset()
		}
		r.emit(ev)
	} else if part != nil {
		r.mu.Lock()
		r.jobOf[part] = i
		r.mu.Unlock()
		r.batch.Add(part)
	} else {
		r.emit(Event{Kind: Saved, Job: i, Path: j.Path, N: n})
	}
}

// open opens the part file of job i and tells what an earlier run left
// of it; nil for a job whose body goes to Out or to a device, which is
// written in place. It reports false, the job failed and told, when the
// part cannot be opened.
func (r *run) open(i int, j Job) (*Part, bool) {
	if j.Out != nil {
		return nil, true
	}
	fi, err := os.Stat(j.Path)
	if isDevice(fi, err) {
		return nil, true
	}
	part, err := openPart(j.Path, r.f.Resume, fi, err)
	if err != nil {
		r.emit(Event{Kind: Failed, Job: i, Path: j.Path, Err: err})
		return nil, false
	}
	// Tests, not a switch: the coverage profile the mutation gate reads
	// counts a case's condition as never run.
	if part.Adopted || part.Found > 0 && r.f.Resume {
		r.emit(Event{Kind: Resuming, Job: i, Path: j.Path, Part: part})
	} else if part.Found > 0 {
		r.emit(Event{Kind: StartingOver, Job: i, Path: j.Path, Part: part})
	}
	return part, true
}
