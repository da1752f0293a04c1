package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/download"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// getter runs the jobs of one get: download.Fetcher fetches them, and
// the getter draws what it tells (bars, notes, errors) on stderr.
type getter struct {
	e     *env
	c     *access.Client
	o     getOptions
	start time.Time

	ctx    context.Context  // what SIGINT and SIGTERM cancel, during run
	caught func() os.Signal // the signal that did, once run started

	mu   sync.Mutex // stderr, the bars, kept, stats
	bars map[*barGate]bool
	kept []string // .part files kept for a resume

	jobList []*getJob
	par     int              // transfers at once
	drawn   map[int]*barGate // the bar of each job that has one
	stats   runStats
}

func newGetter(e *env, c *access.Client, o getOptions) *getter {
	return &getter{e: e, c: c, o: o, start: time.Now(), bars: map[*barGate]bool{}, drawn: map[int]*barGate{}, ctx: context.Background()}
}

// interrupted returns the signal that stopped the run, or nil.
func (g *getter) interrupted() os.Signal {
	if g.caught == nil {
		return nil
	}
	return g.caught()
}

func signalName(s os.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}

// keptNote names the .part files an interrupt left for a resume.
func (g *getter) keptNote() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.kept) == 0 {
		return ""
	}
	sort.Strings(g.kept)
	return "; kept " + strings.Join(g.kept, ", ") + " for -C to resume"
}

// say writes a message on stderr, on a line of its own: a progress bar
// on the terminal is cleared first, and redraws itself below.
func (g *getter) say(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for b := range g.bars {
		b.clearLocked()
	}
	fmt.Fprintf(g.e.stderr, format, args...)
}

// note says what is not an error (a resume, a retry): nothing under -q.
func (g *getter) note(format string, args ...any) {
	if !g.o.quiet {
		g.say(format, args...)
	}
}

type runStats struct {
	failed int
	bytes  int64
	status int
}

// run fetches the jobs, up to o.parallel at once (one at a time when a
// body goes to stdout, so that bodies do not interleave), and returns
// what happened. SIGINT and SIGTERM cancel every transfer.
func (g *getter) run(jobs []*getJob) runStats {
	var stop func()
	g.ctx, g.caught, stop = interruptible(context.Background())
	defer stop()

	g.jobList = jobs
	g.par = g.o.parallel
	fjobs := make([]download.Job, len(jobs))
	for i, j := range jobs {
		fjobs[i] = download.Job{URL: j.u, Path: j.path}
		if j.path == "" {
			g.par = 1
			fjobs[i].Out = g.stdout()
		}
	}
	o := g.o
	f := &download.Fetcher{
		Client: g.c, Do: g.do, Parallel: g.par,
		Resume: o.resume, Retries: o.retries, RetryConnRefused: o.retryRefused, RetryDelay: o.retryDelay,
		MaxSize: o.limit, LimitSize: o.limit >= 0, Timeout: o.timeout, IdleTimeout: o.idle,
		MaxSizeName: "--max-size", TimeoutName: "--timeout", IdleTimeoutName: "--idle-timeout",
		NoSync: o.noFsync, Head: o.head, Header: o.include, KeepErrorBody: o.keepErrorBody,
		Events: g.render,
	}
	st := f.Run(g.ctx, fjobs)
	g.stats.bytes = st.Bytes
	return g.stats
}

// stdout is where a body for stdout goes: on a terminal, unless -o -
// asks for it, a binary body is refused (curl's guard).
func (g *getter) stdout() io.Writer {
	if isTerminal(g.e.stdout) && g.o.output != "-" {
		return &binaryGuard{w: g.e.stdout}
	}
	return g.e.stdout
}

// do makes a request: an ftp folder is listed (get_ftplist.go), any
// other URL goes to the client.
func (g *getter) do(ctx context.Context, req access.Request) (*access.Response, error) {
	if !req.Head && ftpFolder(req.URL, g.c.Listing) {
		return g.listFTP(ctx, req.URL)
	}
	return g.c.Do(ctx, req)
}

// render draws an event of the run.
func (g *getter) render(ev download.Event) {
	path := safetext.Escape(ev.Path)
	switch ev.Kind {
	case download.Resuming:
		if ev.Part.Adopted {
			g.note("rfc1738 get: %s: resuming it at byte %d\n", path, ev.Part.Found)
		} else {
			g.note("rfc1738 get: %s: resuming %s at byte %d\n", path, safetext.Escape(ev.Part.Name), ev.Part.Found)
		}
	case download.StartingOver:
		g.note("rfc1738 get: %s: %s (%d bytes) was left by an earlier run; starting over (-C resumes it)\n",
			path, safetext.Escape(ev.Part.Name), ev.Part.Found)
	case download.NoResume:
		// A server that resumed and then sent too much is said even
		// under -q: the file was started over.
		if errors.Is(ev.Err, access.ErrLongTransfer) {
			g.say("rfc1738 get: %v; fetching it whole\n", ev.Err)
		} else {
			g.note("rfc1738 get: %v; fetching it whole\n", ev.Err)
		}
	case download.SentWhole:
		// An ftp folder's listing has no resume: it starts over unsaid.
		if !ftpFolder(g.jobList[ev.Job].u, g.c.Listing) {
			g.note("rfc1738 get: %s: the server sent it whole, not from byte %d; starting over\n", ev.Response.URL, ev.N)
		}
	case download.Retrying:
		g.note("rfc1738 get: %v; trying again in %v (retry %d of %d)\n", ev.Err, ev.Delay, ev.Attempt, g.o.retries)
	case download.Started, download.Progress, download.Stopped:
		g.drawBar(ev)
	case download.Saved:
		// No bars when several transfers run at once: a line for each
		// file that is complete.
		if g.par > 1 && !g.o.quiet {
			g.say("rfc1738 get: saved %s (%s)\n", path, formatBytes(ev.N))
		}
	case download.Failed:
		g.failed(ev)
	}
}

// failed counts a job that failed and says why, unless an interrupt
// ended the run (its line says it all).
func (g *getter) failed(ev download.Event) {
	err := inCLITerms(ev.Err)
	g.mu.Lock()
	g.stats.failed++
	g.stats.status = worseStatus(g.stats.status, exitStatus(err))
	if ev.Kept != "" {
		g.kept = append(g.kept, safetext.Escape(ev.Kept))
	}
	g.mu.Unlock()
	if g.interrupted() != nil {
		return
	}
	if ev.Kept != "" {
		err = fmt.Errorf("%w (kept %s, %d bytes, for -C to resume)", err, safetext.Escape(ev.Kept), ev.N)
	}
	g.say("rfc1738 get: %v\n", errText(err))
}
