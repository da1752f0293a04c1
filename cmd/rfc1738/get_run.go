package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/download"
	"github.com/rfc1738/rfc1738/internal/netrc"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// getOptions are the flags of get once parsed.
type getOptions struct {
	output        string // -o: one file, or "-" for stdout
	remoteName    bool   // -O
	outDir        string // --output-dir
	parallel      int
	resume        bool // -C - / --continue
	retries       int
	retryDelay    time.Duration
	retryRefused  bool // --retry-connrefused
	include, head bool // --include, -I
	keepErrorBody bool
	timeout, idle time.Duration
	limit         int64 // --max-size, or -1
	quiet         bool
	verbose       bool
	strict        bool
	noFsync       bool // --no-fsync
}

// A getJob is one URL of a get run and where its body goes.
type getJob struct {
	raw  string
	u    rfc1738.URL
	path string // "" for stdout

	queued bool // its part went to the getter's batch, which says when it is saved
}

func runGet(e *env, args []string) int {
	fs := newFlags(e, commands["get"])
	var o getOptions
	fs.StringVar(&o.output, "o", "", "write to `FILE` (atomically: a hidden FILE.part in the same folder, renamed when complete); - is stdout")
	fs.BoolVar(&o.remoteName, "O", false, "write each URL to the file its path names (the last segment, decoded), in the current folder or --output-dir")
	fs.StringVar(&o.outDir, "output-dir", "", "write files named from their URLs into `DIR`, made if missing, as wget's -P (implies -O)")
	var inputs stringList
	fs.Var(&inputs, "i", "read more URLs from `FILE`, one a line (- is stdin; blank lines and # comments are skipped); repeatable")
	fs.IntVar(&o.parallel, "parallel", 1, "fetch up to `N` URLs at once")
	cont := fs.String("C", "", "resume (the only offset is -, where the partial file ends): as --continue")
	fs.BoolVar(&o.resume, "continue", false, "resume a partial download (ftp REST, http Range) from its hidden .part file, and keep that file when a transfer fails")
	fs.IntVar(&o.retries, "retry", 0, "try a transfer up to `N` more times after a transient failure (ftp 4xx, http 408/429/5xx, a reset, a timeout), resuming where it stopped")
	fs.BoolVar(&o.retryRefused, "retry-connrefused", false, "with --retry, a refused connection is transient too (a server restarting)")
	fs.DurationVar(&o.retryDelay, "retry-delay", time.Second, "wait this long before the first retry, then twice as long each time (at most a minute)")
	fs.BoolVar(&o.include, "include", false, "http: write the response's status line and header before the body")
	fs.BoolVar(&o.head, "I", false, "http: ask for the header only (HEAD) and write it")
	fs.BoolVar(&o.keepErrorBody, "keep-error-body", false, "http: on an error status, still write the error page (the exit status stays 8)")
	applyNetrc := netrcFlags(fs)
	fs.DurationVar(&o.timeout, "timeout", 0, "give up a transfer after this long in all (0: no limit)")
	fs.DurationVar(&o.idle, "idle-timeout", 60*time.Second, "give up when nothing arrives for this long")
	maxSize := fs.String("max-size", "", "refuse more than this many bytes (e.g. 10M, 1G)")
	fs.BoolVar(&o.verbose, "v", false, "show the protocol conversation on stderr (passwords redacted)")
	asJSON := fs.Bool("json", false, "write listings (menus, groups) as JSON Lines")
	raw := fs.Bool("raw", false, "write listings as the protocol's own bytes")
	fs.BoolVar(&o.quiet, "q", false, "print nothing on success: no progress bar, no notes, no summary (errors still go to stderr)")
	fs.BoolVar(&o.noFsync, "no-fsync", false, "do not sync files to disk, as curl and wget never do: faster on slow disks, but a crash may leave a file complete in name only. "+
		"By default each file's data is synced before its .part is renamed, the syncs of many files together while the next ones download, so a crash leaves no final name over missing data, at most a .part that -C resumes")
	fs.BoolVar(&o.strict, "strict", false, "refuse a URL that breaks §2.2 only by unencoded octets (\"~\", a space), which is otherwise fetched encoded with a warning")
	setup := accessSetup(fs)
	curl := curlFlags(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := curl.check(); err != nil {
		return usageError(e, "get", "%v", err)
	}
	switch *cont {
	case "":
	case "-":
		o.resume = true
	default:
		return usageError(e, "get", "-C %q: the only offset is - (where the partial file ends)", *cont)
	}
	o.limit = -1
	if *maxSize != "" {
		n, err := parseSize(*maxSize)
		if err != nil {
			return usageError(e, "get", "--max-size: %v", err)
		}
		o.limit = n
	}
	if o.parallel < 1 {
		return usageError(e, "get", "--parallel %d: want 1 or more", o.parallel)
	}
	if o.retries < 0 {
		return usageError(e, "get", "--retry %d: want 0 or more", o.retries)
	}
	if o.outDir != "" {
		o.remoteName = true
	}
	raws := operands
	for _, in := range inputs {
		more, err := readURLList(e, in)
		if err != nil {
			return usageError(e, "get", "-i %s: %v", in, err)
		}
		raws = append(raws, more...)
	}
	switch {
	case len(raws) == 0:
		return usageError(e, "get", "want a URL (or -i FILE)")
	case o.output != "" && o.remoteName:
		return usageError(e, "get", "-o names one file; -O and --output-dir name each from its URL: give one or the other")
	case o.output != "" && o.output != "-" && len(raws) > 1:
		return usageError(e, "get", "-o names one file, and there are %d URLs; use -O or --output-dir", len(raws))
	}
	if o.outDir != "" {
		// As wget's -P: the folder is made, with its parents.
		if err := os.MkdirAll(o.outDir, 0o777); err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 get: --output-dir: %v\n", err)
			return exitLocalIO
		}
	}
	if o.output != "" && o.output != "-" && !isDevice(o.output) {
		// A folder that is missing, or given as the file: the local
		// file system's failure (wget's status 3), not a usage error.
		if err := download.CheckTarget(o.output); err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 get: -o %v\n", err)
			return exitLocalIO
		}
	}

	c, err := setup(e)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 get:", err)
		return exitUsage
	}
	switch {
	case *asJSON:
		c.Listing = access.ListingJSON
	case *raw:
		c.Listing = access.ListingRaw
	}
	if err := applyNetrc(e, c); err != nil {
		return usageError(e, "get", "%v", err)
	}
	if err := curl.apply(c); err != nil {
		return usageError(e, "get", "%v", err)
	}
	if curl.silent {
		// curl's -s: no progress, no notes, and no errors unless -S.
		o.quiet = true
		if !curl.showError {
			quiet := *e
			quiet.stderr = io.Discard
			e = &quiet
		}
	}

	g := newGetter(e, c, o)
	c.Warn = func(msg string) { g.say("rfc1738 get: warning: %s\n", msg) }
	if o.verbose {
		// A telnet session puts the terminal in raw mode, where "\n"
		// alone does not return the cursor: on a terminal, end trace
		// lines in "\r\n", which a cooked terminal shows the same.
		eol := "\n"
		if isTerminal(e.stderr) {
			eol = "\r\n"
		}
		c.Trace = func(dir byte, line string) { g.say("%c %s%s", dir, line, eol) }
	}

	// The jobs: every URL parsed first, so that a typo is reported
	// before anything is fetched.
	var jobs []*getJob
	taken := map[string]bool{} // the files of this run: two never share one
	failed := 0
	status = exitOK
	for _, r := range raws {
		u, st, ok := parseURL(e, "get", r, o.strict, o.quiet)
		if !ok {
			failed++
			status = worseStatus(status, st)
			continue
		}
		j := &getJob{raw: r, u: u}
		switch {
		case o.output == "-":
		case o.output != "":
			j.path = o.output
		case o.remoteName:
			name, err := download.NameFromURL(u)
			if errors.Is(err, download.ErrEmptyName) {
				name, err = "index.html", nil // wget's name for a folder's or a host's page
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "rfc1738 get: %s: %v\n", safetext.Escape(access.Redact(r)), err)
				failed++
				status = worseStatus(status, exitNegative)
				continue
			}
			want := filepath.Join(o.outDir, name)
			// Reserved before any byte is written: a name an earlier
			// URL of the run took becomes NAME.1, NAME.2 (wget's rule).
			if j.path = download.Reserve(taken, want); j.path != want && !o.quiet {
				fmt.Fprintf(e.stderr, "rfc1738 get: %s: %s is another URL's in this run; saving to %s\n",
					safetext.Escape(access.Redact(r)), safetext.Escape(want), safetext.Escape(j.path))
			}
		}
		jobs = append(jobs, j)
	}
	if len(raws) == 1 && len(jobs) == 0 {
		return status
	}
	if len(jobs) > 1 {
		// One ftp login serves every file of its host (RFC 959).
		defer c.KeepFTPLogins(o.parallel, false).Close()
	}
	// As many connections to a host as transfers at once, each kept for
	// the next URL: one TCP and TLS handshake per connection, not per URL.
	c.HTTPConnsPerHost = o.parallel
	st := g.run(jobs)
	if s := g.interrupted(); s != nil {
		g.clearBars()
		fmt.Fprintf(e.stderr, "rfc1738 get: interrupted by %s%s\n", signalName(s), g.keptNote())
		return signalStatus(s)
	}
	failed += st.failed
	status = worseStatus(status, st.status)
	if len(raws) > 1 && (failed > 0 || !o.quiet) {
		fmt.Fprintf(e.stderr, "rfc1738 get: %d of %d fetched, %s in %v", len(raws)-failed, len(raws),
			formatBytes(st.bytes), time.Since(g.start).Round(time.Millisecond))
		if failed > 0 {
			fmt.Fprintf(e.stderr, "; %d failed (exit status %d, the worst: %s)", failed, status, statusName(status))
		}
		fmt.Fprintln(e.stderr)
	}
	return status
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// readURLList reads the URLs of -i: one a line; blank lines and lines
// starting with "#" are skipped; "-" is stdin.
func readURLList(e *env, name string) ([]string, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	lr := newLineReader(r)
	var out []string
	for {
		line, err := lr.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
}

// netrcFlags defines --netrc and --netrc-file on fs (get and plan: the
// dry run shows the login the real run sends) and returns what applies
// them to a client.
func netrcFlags(fs *flag.FlagSet) func(e *env, c *access.Client) error {
	useNetrc := fs.Bool("netrc", false, "take a login for a URL without one from ~/.netrc (ftp and http)")
	netrcFile := fs.String("netrc-file", "", "like --netrc, from `FILE`")
	return func(e *env, c *access.Client) error {
		if !*useNetrc && *netrcFile == "" {
			return nil
		}
		return useNetrcFile(e, c, *netrcFile)
	}
}

// useNetrcFile sets c.Credentials from a netrc file: path, else
// $NETRC, else ~/.netrc.
func useNetrcFile(e *env, c *access.Client, path string) error {
	if path == "" {
		path = e.Getenv("NETRC")
	}
	if path == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return fmt.Errorf("--netrc: %v", err)
		}
		path = filepath.Join(home, ".netrc")
	}
	f, err := netrc.ReadFile(path)
	if err != nil {
		return fmt.Errorf("--netrc: %v", err)
	}
	if f.Warning != "" {
		fmt.Fprintf(e.stderr, "rfc1738: warning: %s\n", safetext.Escape(f.Warning))
	}
	c.Credentials = func(scheme, host string) (string, string, bool) {
		en, ok := f.Lookup(host)
		return en.Login, en.Password, ok && en.Login != ""
	}
	return nil
}

// isDevice reports whether path is an existing file that is not a
// regular file or a folder (/dev/null, a FIFO): it is written in place.
func isDevice(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// getter runs the jobs of one get.
type getter struct {
	e     *env
	c     *access.Client
	o     getOptions
	start time.Time

	ctx    context.Context  // what SIGINT and SIGTERM cancel, during run
	caught func() os.Signal // the signal that did, once run started

	mu   sync.Mutex // stderr, the bars, kept
	bars map[*barGate]bool
	kept []string // .part files kept for a resume

	batch *download.Batch // completes the files: sync, then rename

	stdoutMu sync.Mutex
}

func newGetter(e *env, c *access.Client, o getOptions) *getter {
	return &getter{e: e, c: c, o: o, start: time.Now(), bars: map[*barGate]bool{}, ctx: context.Background()}
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

// clearBars erases every bar still on the screen and stops it for good.
func (g *getter) clearBars() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for b := range g.bars {
		b.stopLocked(true)
		delete(g.bars, b)
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

	par := g.o.parallel
	for _, j := range jobs {
		if j.path == "" {
			par = 1
		}
	}
	var st runStats
	var smu sync.Mutex
	// A file is complete once its batch has synced and renamed it: only
	// then is it saved, or failed.
	g.batch = &download.Batch{NoSync: g.o.noFsync, Done: func(p *download.Part, err error) {
		if err != nil {
			smu.Lock()
			st.failed++
			st.status = worseStatus(st.status, exitStatus(err))
			smu.Unlock()
			if g.interrupted() == nil {
				g.say("rfc1738 get: %v\n", err)
			}
			return
		}
		if par > 1 && !g.o.quiet {
			g.say("rfc1738 get: saved %s (%s)\n", safetext.Escape(p.Path), formatBytes(p.Offset()))
		}
	}}
	next := make(chan *getJob)
	var wg sync.WaitGroup
	for range min(par, max(len(jobs), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				n, err := g.fetch(j)
				smu.Lock()
				st.bytes += n
				if err != nil {
					st.failed++
					st.status = worseStatus(st.status, exitStatus(err))
				}
				smu.Unlock()
				switch {
				case err != nil && g.interrupted() == nil:
					g.say("rfc1738 get: %v\n", err)
				case err == nil && par > 1 && !g.o.quiet && !j.queued:
					// No bars when several transfers run at once: a
					// line for each file that is complete.
					g.say("rfc1738 get: saved %s (%s)\n", safetext.Escape(j.path), formatBytes(n))
				}
			}
		}()
	}
	for _, j := range jobs {
		if g.ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	g.batch.Close()
	return st
}

// fetch fetches one job, with the retries --retry allows, and returns
// the count of body bytes written.
func (g *getter) fetch(j *getJob) (int64, error) {
	var part *download.Part
	if j.path != "" && !isDevice(j.path) {
		var err error
		part, err = download.OpenPart(j.path, g.o.resume)
		if err != nil {
			return 0, err
		}
		switch {
		case part.Adopted:
			g.note("rfc1738 get: %s: resuming it at byte %d\n", safetext.Escape(j.path), part.Found)
		case part.Found > 0 && g.o.resume:
			g.note("rfc1738 get: %s: resuming %s at byte %d\n", safetext.Escape(j.path), safetext.Escape(part.Name), part.Found)
		case part.Found > 0:
			g.note("rfc1738 get: %s: %s (%d bytes) was left by an earlier run; starting over (-C resumes it)\n",
				safetext.Escape(j.path), safetext.Escape(part.Name), part.Found)
		}
	}
	var total int64
	for attempt := 0; ; attempt++ {
		n, err := g.attempt(j, part)
		total += n
		if err == nil {
			if part != nil {
				j.queued = true
				g.batch.Add(part)
			}
			return total, nil
		}
		transient := access.Transient(err) || g.o.retryRefused && errors.Is(err, syscall.ECONNREFUSED)
		retry := attempt < g.o.retries && g.ctx.Err() == nil && transient &&
			(part != nil || n == 0) // what went to stdout cannot be taken back
		if !retry {
			// An interrupt keeps what came, -C or not (as curl and wget
			// do): -C resumes it, a run without -C starts it over.
			if part != nil && g.abort(part, g.o.resume || g.interrupted() != nil) {
				if g.interrupted() == nil {
					err = fmt.Errorf("%w (kept %s, %d bytes, for -C to resume)", err, safetext.Escape(part.Name), part.Offset())
				}
			}
			return total, err
		}
		// Doubling from --retry-delay, or what the server asked for
		// (Retry-After), at most a minute either way.
		delay := min(max(g.o.retryDelay<<attempt, access.RetryAfter(err)), time.Minute)
		g.note("rfc1738 get: %v; trying again in %v (retry %d of %d)\n", err, delay, attempt+1, g.o.retries)
		select {
		case <-time.After(delay):
		case <-g.ctx.Done():
			if part != nil {
				g.abort(part, true)
			}
			return total, context.Cause(g.ctx)
		}
	}
}

// abort closes a part file that failed, keeping it for a resume when keep
// says so and it holds bytes; it reports whether it was kept.
func (g *getter) abort(part *download.Part, keep bool) bool {
	if !part.Abort(keep) {
		return false
	}
	g.mu.Lock()
	g.kept = append(g.kept, safetext.Escape(part.Name))
	g.mu.Unlock()
	return true
}

// commitNow completes a part at once, synced unless --no-fsync says not.
func (g *getter) commitNow(part *download.Part) error {
	b := &download.Batch{NoSync: g.o.noFsync}
	b.Add(part)
	return b.Close()
}

// attempt makes one try at a job: a resume from the part file's end when
// it holds bytes, the body through the meter (idle watchdog, --max-size,
// the bar) into the part file or stdout.
func (g *getter) attempt(j *getJob, part *download.Part) (int64, error) {
	ctx := g.ctx
	if g.o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, g.o.timeout, timeoutError{fmt.Errorf("gave up after --timeout %v", g.o.timeout)})
		defer cancel()
	}
	ctx, watch := newWatchdog(ctx, g.o.idle)
	defer watch.Stop()

	if !g.o.head && ftpFolder(j.u, g.c.Listing) {
		if part != nil && part.Offset() > 0 {
			if err := part.Restart(); err != nil { // a listing has no restart
				return 0, err
			}
		}
		resp, err := g.listFTP(ctx, j.u)
		if err != nil {
			return 0, explain(ctx, inCLITerms(err))
		}
		return g.write(ctx, j, part, resp, watch)
	}
	req := access.Request{URL: j.u, Head: g.o.head, KeepErrorBody: g.o.keepErrorBody}
	if part != nil {
		req.Offset = part.Offset()
	}
	resp, err := g.c.Do(ctx, req)
	if err != nil && req.Offset > 0 && errors.Is(err, access.ErrNoResume) {
		g.note("rfc1738 get: %v; fetching it whole\n", err)
		if err := part.Restart(); err != nil {
			return 0, err
		}
		req.Offset = 0
		resp, err = g.c.Do(ctx, req)
	}
	var he *access.HTTPStatusError
	if errors.As(err, &he) && he.Response != nil {
		// --keep-error-body: the page is written, and the status
		// still says the fetch failed.
		if part != nil && part.Offset() > 0 {
			part.Restart()
		}
		n, werr := g.write(ctx, j, part, he.Response, watch)
		if werr == nil && part != nil {
			werr = g.commitNow(part)
			part = nil
		}
		if werr != nil {
			return n, werr
		}
		return n, explain(ctx, err)
	}
	if err != nil {
		return 0, explain(ctx, inCLITerms(err))
	}
	if part != nil && resp.Offset != req.Offset {
		// The server sent the whole resource: start the file over.
		g.note("rfc1738 get: %s: the server sent it whole, not from byte %d; starting over\n", resp.URL, req.Offset)
		if err := part.Restart(); err != nil {
			resp.Body.Close()
			return 0, err
		}
	}
	n, err := g.write(ctx, j, part, resp, watch)
	if err != nil && req.Offset > 0 && errors.Is(err, access.ErrLongTransfer) {
		// More bytes than the size announced less the offset: the
		// server did not resume where asked, and the part file is no
		// prefix of what came. It starts over, once.
		g.say("rfc1738 get: %v; fetching it whole\n", err)
		if err := part.Restart(); err != nil {
			return n, err
		}
		req.Offset = 0
		if resp, err = g.c.Do(ctx, req); err != nil {
			return 0, explain(ctx, inCLITerms(err))
		}
		return g.write(ctx, j, part, resp, watch)
	}
	return n, err
}

// write writes a response (the header first with --include or -I) to
// the part file or stdout, and closes its body, whose Close reads the
// protocol's own end of transfer.
func (g *getter) write(ctx context.Context, j *getJob, part *download.Part, resp *access.Response, watch *watchdog.Watchdog) (int64, error) {
	defer resp.Body.Close()
	if g.o.limit >= 0 && resp.Size > g.o.limit {
		return 0, fmt.Errorf("%s: %d bytes is more than --max-size %d", resp.URL, resp.Size, g.o.limit)
	}
	var w io.Writer = part
	toTerminal := false
	switch {
	case part != nil:
	case j.path != "": // a device: written in place
		f, err := os.OpenFile(j.path, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		defer f.Close()
		w = f
	default:
		g.stdoutMu.Lock()
		defer g.stdoutMu.Unlock()
		w = g.e.stdout
		toTerminal = isTerminal(g.e.stdout)
		if toTerminal && g.o.output != "-" {
			w = &binaryGuard{w: w}
		}
	}
	if (g.o.include || g.o.head) && resp.Status != "" {
		if _, err := io.WriteString(w, formatHeader(resp)); err != nil {
			return 0, err
		}
	}
	body := &meter{r: resp.Body, watch: watch, limited: g.o.limit >= 0, left: g.o.limit}
	var bar *barGate
	if !g.o.quiet && !g.o.verbose && !toTerminal && g.o.parallel == 1 && isTerminal(g.e.stderr) {
		bar = g.newBar(resp)
		body.bar = bar.bar
	}
	n, err := io.Copy(w, body)
	if err == nil {
		err = resp.Body.Close()
	}
	if bar != nil {
		g.endBar(bar, err == nil)
	}
	if err != nil {
		return n, explain(ctx, err)
	}
	return n, nil
}

// formatHeader writes an http response's status line and header as
// they came (RFC 9112 §2.1), then the empty line; every value goes
// through safetext.
func formatHeader(resp *access.Response) string {
	var b strings.Builder
	b.WriteString(safetext.Escape(resp.Status) + "\r\n")
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			b.WriteString(safetext.Escape(k) + ": " + safetext.Escape(v) + "\r\n")
		}
	}
	b.WriteString("\r\n")
	return b.String()
}

// barGate is a progress bar whose writes pass a gate: once stopped, the
// bar can never draw again (its spinner has a timer of its own).
type barGate struct {
	g       *getter
	bar     *progressbar.ProgressBar
	stopped bool
	drawn   bool
}

func (b *barGate) Write(p []byte) (int, error) {
	b.g.mu.Lock()
	defer b.g.mu.Unlock()
	if b.stopped {
		return len(p), nil
	}
	b.drawn = true
	return b.g.e.stderr.Write(p)
}

// clearLocked erases the bar's line; the bar redraws on its next update.
func (b *barGate) clearLocked() {
	if b.drawn && !b.stopped {
		io.WriteString(b.g.e.stderr, "\r\033[2K")
		b.drawn = false
	}
}

// stopLocked stops the bar: clear erases its line; else the line is
// ended, and the bar stays as the record of the transfer.
func (b *barGate) stopLocked(clear bool) {
	if b.stopped {
		return
	}
	if clear {
		b.clearLocked()
	} else if b.drawn {
		io.WriteString(b.g.e.stderr, "\n")
	}
	b.stopped = true
}

func (g *getter) newBar(resp *access.Response) *barGate {
	b := &barGate{g: g}
	total := resp.Size
	if total >= 0 {
		total += resp.Offset
	}
	b.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(b),
		progressbar.OptionSetDescription(safetext.Escape(filepath.Base(resp.URL))),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(resp.Size > 0),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionFullWidth(),
		progressbar.OptionUseANSICodes(true),
	)
	if resp.Offset > 0 {
		b.bar.Set64(resp.Offset)
	}
	g.mu.Lock()
	g.bars[b] = true
	g.mu.Unlock()
	return b
}

// endBar ends a transfer's bar: completed, it is drawn full and its line
// ended; failed or interrupted, its line is erased, so that the error has
// a line of its own and the bar never comes back.
func (g *getter) endBar(b *barGate, ok bool) {
	if ok {
		b.bar.Finish()
	}
	g.mu.Lock()
	b.stopLocked(!ok)
	delete(g.bars, b)
	g.mu.Unlock()
	if !ok {
		b.bar.Finish() // stops its spinner; the gate drops the drawing
	}
}

// formatBytes writes a byte count for people: 1.5 MiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// errBinaryTerminal is the error of a body that holds a NUL byte on its
// way to a terminal: curl's refusal, in its words.
var errBinaryTerminal = errors.New(`Binary output can mess up your terminal. Use "-o -" to write it to your terminal anyway, or "-o FILE" to save it to a file`)

// binaryGuard writes to a terminal until a write holds a NUL byte, the
// sign of binary data (curl's test), and then fails: what a terminal
// would take for control sequences is never written. The failure is the
// output's (exit status 3; curl's 23 is its write error).
type binaryGuard struct{ w io.Writer }

func (b *binaryGuard) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, 0) >= 0 {
		return 0, &fs.PathError{Op: "write", Path: "the terminal", Err: errBinaryTerminal}
	}
	return b.w.Write(p)
}
