package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/download"
	"github.com/rfc1738/rfc1738/internal/netrc"
	"github.com/rfc1738/rfc1738/internal/safetext"
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

	// The flags read once the FlagSet has parsed them.
	inputs        stringList // -i
	cont, maxSize string     // -C, --max-size
	asJSON, raw   bool       // --json, --raw
}

// A getJob is one URL of a get run and where its body goes.
type getJob struct {
	raw  string
	u    rfc1738.URL
	path string // "" for stdout
}

// getFlags defines the flags of get on fs, into o.
func getFlags(fs *flag.FlagSet, o *getOptions) {
	fs.StringVar(&o.output, "o", "", "write to `FILE` (atomically: a hidden FILE.part in the same folder, renamed when complete); - is stdout")
	fs.BoolVar(&o.remoteName, "O", false, "write each URL to the file its path names (the last segment, decoded), in the current folder or --output-dir")
	fs.StringVar(&o.outDir, "output-dir", "", "write files named from their URLs into `DIR`, made if missing, as wget's -P (implies -O)")
	fs.Var(&o.inputs, "i", "read more URLs from `FILE`, one a line (- is stdin; blank lines and # comments are skipped); repeatable")
	fs.IntVar(&o.parallel, "parallel", 1, "fetch up to `N` URLs at once")
	fs.StringVar(&o.cont, "C", "", "resume (the only offset is -, where the partial file ends): as --continue")
	fs.BoolVar(&o.resume, "continue", false, "resume a partial download (ftp REST, http Range) from its hidden .part file, and keep that file when a transfer fails")
	fs.IntVar(&o.retries, "retry", 0, "try a transfer up to `N` more times after a transient failure (ftp 4xx, http 408/429/5xx, a reset, a timeout), resuming where it stopped")
	fs.BoolVar(&o.retryRefused, "retry-connrefused", false, "with --retry, a refused connection is transient too (a server restarting)")
	fs.DurationVar(&o.retryDelay, "retry-delay", time.Second, "wait this long before the first retry, then twice as long each time (at most a minute)")
	fs.BoolVar(&o.include, "include", false, "http: write the response's status line and header before the body")
	fs.BoolVar(&o.head, "I", false, "http: ask for the header only (HEAD) and write it")
	fs.BoolVar(&o.keepErrorBody, "keep-error-body", false, "http: on an error status, still write the error page (the exit status stays 8)")
}

// getLimitFlags defines the limits and the output's manners, into o.
func getLimitFlags(fs *flag.FlagSet, o *getOptions) {
	fs.DurationVar(&o.timeout, "timeout", 0, "give up a transfer after this long in all (0: no limit)")
	fs.DurationVar(&o.idle, "idle-timeout", 60*time.Second, "give up when nothing arrives for this long")
	fs.StringVar(&o.maxSize, "max-size", "", "refuse more than this many bytes (e.g. 10M, 1G)")
	fs.BoolVar(&o.verbose, "v", false, "show the protocol conversation on stderr (passwords redacted)")
	fs.BoolVar(&o.asJSON, "json", false, "write listings (menus, groups) as JSON Lines")
	fs.BoolVar(&o.raw, "raw", false, "write listings as the protocol's own bytes")
	fs.BoolVar(&o.quiet, "q", false, "print nothing on success: no progress bar, no notes, no summary (errors still go to stderr)")
	fs.BoolVar(&o.noFsync, "no-fsync", false, "do not sync files to disk, as curl and wget never do: faster on slow disks, but a crash may leave a file complete in name only. "+
		"By default each file's data is synced before its .part is renamed, many files at a time (one syncfs per file system on Linux 5.8 and later; a file waits up to 20 ms for others to share its sync) while the next ones download, so a crash leaves no final name over missing data, at most a .part that -C resumes")
	fs.BoolVar(&o.strict, "strict", false, "refuse a URL that breaks §2.2 only by unencoded octets (\"~\", a space), which is otherwise fetched encoded with a warning")
}

func runGet(e *env, args []string) int {
	fs := newFlags(e, commands["get"])
	var o getOptions
	getFlags(fs, &o)
	applyNetrc := netrcFlags(fs)
	getLimitFlags(fs, &o)
	setup := accessSetup(fs)
	curl := curlFlags(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := curl.check(); err != nil {
		return usageError(e, "get", "%v", err)
	}
	raws, status, ok := o.check(e, operands)
	if !ok {
		return status
	}
	c, err := setup(e)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 get:", errText(err))
		return exitUsage
	}
	switch {
	case o.asJSON:
		c.Listing = access.ListingJSON
	case o.raw:
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
	return newGetter(e, c, o).runAll(raws)
}

// check reads the flags that need more than the FlagSet's parsing, and
// returns the URLs of the run: the operands, then those of -i.
func (o *getOptions) check(e *env, operands []string) (raws []string, status int, ok bool) {
	switch o.cont {
	case "":
	case "-":
		o.resume = true
	default:
		return nil, usageError(e, "get", "-C %q: the only offset is - (where the partial file ends)", o.cont), false
	}
	o.limit = -1
	if o.maxSize != "" {
		n, err := parseSize(o.maxSize)
		if err != nil {
			return nil, usageError(e, "get", "--max-size: %v", err), false
		}
		o.limit = n
	}
	if o.parallel < 1 {
		return nil, usageError(e, "get", "--parallel %d: want 1 or more", o.parallel), false
	}
	if o.retries < 0 {
		return nil, usageError(e, "get", "--retry %d: want 0 or more", o.retries), false
	}
	if o.outDir != "" {
		o.remoteName = true
	}
	raws = operands
	for _, in := range o.inputs {
		more, err := readURLList(e, in)
		if err != nil {
			return nil, usageError(e, "get", "-i %s: %v", in, err), false
		}
		raws = append(raws, more...)
	}
	switch {
	case len(raws) == 0:
		return nil, usageError(e, "get", "want a URL (or -i FILE)"), false
	case o.output != "" && o.remoteName:
		return nil, usageError(e, "get", "-o names one file; -O and --output-dir name each from its URL: give one or the other"), false
	case o.output != "" && o.output != "-" && len(raws) > 1:
		return nil, usageError(e, "get", "-o names one file, and there are %d URLs; use -O or --output-dir", len(raws)), false
	}
	if o.outDir != "" {
		// As wget's -P: the folder is made, with its parents.
		if err := os.MkdirAll(o.outDir, 0o777); err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 get: --output-dir: %v\n", errText(err))
			return nil, exitLocalIO, false
		}
	}
	if o.output != "" && o.output != "-" && !isDevice(o.output) {
		// A folder that is missing, or given as the file: the local
		// file system's failure (wget's status 3), not a usage error.
		if err := download.CheckTarget(o.output); err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 get: -o %v\n", errText(err))
			return nil, exitLocalIO, false
		}
	}
	return raws, exitOK, true
}

// runAll fetches the URLs of the run, and sums it up.
func (g *getter) runAll(raws []string) int {
	e, c, o := g.e, g.c, g.o
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
	jobs, failed, status := g.jobs(raws)
	if len(raws) == 1 && len(jobs) == 0 {
		return status
	}
	if len(jobs) > 1 {
		// One ftp login serves every file of its host (RFC 959).
		defer c.KeepFTPLogins(o.parallel, false).Close()
	}
	// As many connections to a host as transfers at once, each kept for
	// the next URL: one TCP and TLS handshake per connection, not per URL.
	setHTTP(c, func(h *access.HTTP) { h.ConnsPerHost = o.parallel })
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

// jobs parses every URL first, so that a typo is reported before
// anything is fetched, and names the file of each. It returns the jobs,
// the count of URLs that failed already and the worst status of those.
func (g *getter) jobs(raws []string) (jobs []*getJob, failed, status int) {
	e, o := g.e, g.o
	taken := map[string]bool{} // the files of this run: two never share one
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
				fmt.Fprintf(e.stderr, "rfc1738 get: %s: %v\n", safetext.Escape(access.Redact(r)), errText(err))
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
	return jobs, failed, status
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
