package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/signals"
	"github.com/rfc1738/rfc1738/linkcheck"
)

func init() {
	register(&command{
		name:  "linkcheck",
		short: "check every link of a document set with each scheme's own protocol",
		args:  "[flags] [FILE|DIR|URL]...",
		summary: "Check that the URLs in files, directories (walked), URL arguments or stdin still name something, each with the\n" +
			"lightest exchange of its scheme's access method (§3): ftp SIZE/CWD on shared logins, http and https HEAD, gopher first\n" +
			"bytes, news/nntp STAT, wais search, telnet TCP accept, file stat. Each distinct URL (§2.2) is checked once.\n" +
			"Links are read as browsers and curl read them; each departure from RFC 1738 is a warning (--strict: invalid).\n" +
			"Exit status: 0 nothing broken or invalid (warnings do not count, unless --warnings-as-errors), 1 something is, 2 bad usage.",
		run: runLinkcheck,
	})
}

// linkcheckMemoryLimit is the Go runtime's soft memory limit during a
// linkcheck run (runtime/debug.SetMemoryLimit); $GOMEMLIMIT overrides it.
const linkcheckMemoryLimit = 48 << 20

// linkcheckTreeMemoryLimit is that limit when files are read.
const linkcheckTreeMemoryLimit = 160 << 20

// depthFlag is --recursive[=DEPTH]: alone it means every level.
type depthFlag struct{ depth int }

func (d *depthFlag) String() string   { return strconv.Itoa(d.depth) }
func (d *depthFlag) IsBoolFlag() bool { return true }
func (d *depthFlag) Set(s string) error {
	switch s {
	case "true":
		d.depth = 1 << 30
		return nil
	case "false":
		d.depth = 0
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a depth", s)
	}
	d.depth = n
	return nil
}

// globList is a repeatable, comma-separated list of globs.
type globList []string

func (g *globList) String() string { return strings.Join(*g, ",") }
func (g *globList) Set(s string) error {
	*g = append(*g, strings.Split(s, ",")...)
	return nil
}

// regexpList is a repeatable regular expression.
type regexpList []*regexp.Regexp

func (l *regexpList) String() string { return fmt.Sprint(*l) }
func (l *regexpList) Set(s string) error {
	re, err := regexp.Compile(s)
	if err != nil {
		return err
	}
	*l = append(*l, re)
	return nil
}

func runLinkcheck(e *env, args []string) int {
	fs := newFlags(e, commands["linkcheck"])
	var lf linkcheckFlags
	lf.define(fs)
	applyNetrc := netrcFlags(fs)
	proxy := proxyFlags(fs)
	setup := accessSetup(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	f, err := linkcheck.ParseFormat(*lf.format)
	if *lf.asJSON {
		f, err = linkcheck.JSON, nil
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck: --format:", errText(err))
		return exitUsage
	}
	pageLimit, err := parseSize(*lf.maxPage)
	if err != nil || pageLimit < 1 {
		fmt.Fprintf(e.stderr, "rfc1738 linkcheck: --max-page-size: %q is not a size of at least one byte\n", *lf.maxPage)
		return exitUsage
	}
	if *lf.jobs < 1 || *lf.perHost < 1 || *lf.retries < 0 {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck: --jobs and --per-host must be at least 1, --retries at least 0")
		return exitUsage
	}
	c, err := setup(e)
	if err == nil {
		err = applyNetrc(e, c)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck:", errText(err))
		return exitUsage
	}
	proxy.apply(c)
	if c.TLS.Insecure {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck: warning: -k: certificates are not verified: anyone on the path can change what the https checks see")
	}
	c.Prompt = nil // thousands of URLs: nobody is asked anything
	c.Stdin, c.Stdout = nil, nil
	run, warnings, err := lf.newRun(c, pageLimit)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck:", errText(err))
		return exitUsage
	}
	defer run.Checker.Close()

	tree := &linkcheck.Tree{Root: *lf.root, Base: *lf.base, Include: lf.include, Exclude: lf.exclude,
		IncludeURL: lf.includeURL, ExcludeURL: lf.excludeURL, Offline: *lf.offline, Fragments: *lf.fragments, Found: run.Add}
	if err := gatherLinks(e, tree, operands); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck:", errText(err))
		return exitUsage
	}
	if e.Getenv("GOMEMLIMIT") == "" {
		// A run keeps a small record per distinct URL; a soft limit makes
		// the collector work before the heap doubles, so that 100,000
		// URLs stay within 64 MiB of memory. A tree also keeps the
		// anchors of its pages until the links into them are decided:
		// under the small limit the collector ran all the time (python3-doc,
		// 530 pages: 45% of the CPU in the collector).
		limit := int64(linkcheckMemoryLimit)
		if tree.Len() > 0 {
			limit = linkcheckTreeMemoryLimit
		}
		debug.SetMemoryLimit(limit)
	}

	// Not the signals the parent ignored (nohup, a script's background job).
	ctx, stop := signals.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	tree.Read(ctx)
	for _, p := range tree.Problems {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck: warning:", p)
	}
	var bar *progressbar.ProgressBar
	if !*lf.quiet && isTerminal(e.stderr) {
		bar = linkcheckBar(e, run)
	}
	start := time.Now()
	err = run.Check(ctx)
	if bar != nil {
		bar.Finish()
	}
	warnings.mu.Lock()
	for _, w := range warnings.list { // after the progress bar, which shares stderr
		fmt.Fprintln(e.stderr, w)
	}
	warnings.mu.Unlock()
	results := append(append([]linkcheck.Result{}, tree.Results()...), run.Results()...)
	rep := linkcheck.Report{Format: f, Verbose: *lf.verbose, Elapsed: time.Since(start)}
	if err != nil {
		rep.Note = fmt.Sprintf("interrupted: %d of %d checked", len(results), run.Total()+len(tree.Results()))
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck:", rep.Note)
	}
	if werr := rep.Write(e.stdout, results); werr != nil {
		fmt.Fprintln(e.stderr, "rfc1738 linkcheck:", werr)
	}
	if run.Cache != nil {
		if err := run.Cache.Save(); err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 linkcheck: --cache:", errText(err))
		}
	}
	if linkcheck.Count(results).Failed() || err != nil {
		return exitNegative
	}
	if *lf.warningsAsErrors && hasWarnings(results) {
		return exitNegative
	}
	return exitOK
}

// linkcheckFlags are linkcheck's own flags (the access flags are shared).
type linkcheckFlags struct {
	asJSON                 *bool
	format                 *string
	verbose                *bool
	quiet                  *bool
	root                   *string
	base                   *string
	offline                *bool
	fragments              *bool
	accept                 *string
	internalOnly           *bool
	maxRetryWait           *time.Duration
	spanHosts              *bool
	noRobots               *bool
	maxPage                *string
	jobs                   *int
	perHost                *int
	delay                  *time.Duration
	timeout                *time.Duration
	retries                *int
	cacheFile              *string
	maxAge                 *time.Duration
	strict                 *bool
	warningsAsErrors       *bool
	smtpVerify             *bool
	include, exclude       globList
	includeURL, excludeURL regexpList
	rec                    depthFlag
}

// define defines the flags on fs.
func (f *linkcheckFlags) define(fs *flag.FlagSet) {
	f.asJSON = fs.Bool("json", false, "JSON Lines, one object per distinct URL (same as --format json)")
	f.format = choice(fs, "format", "text", "report `format`: text, json, csv, junit, markdown, github (workflow annotations) or sarif (SARIF 2.1.0)",
		"text", "json", "csv", "junit", "markdown", "github", "sarif")
	f.verbose = fs.Bool("v", false, "list ok and skipped URLs too")
	f.quiet = fs.Bool("q", false, "no progress bar")
	fs.Var(&f.include, "include", "in directories, read only files matching this `glob` (repeatable; for URLs see --include-url)")
	fs.Var(&f.exclude, "exclude", "in directories, leave out files matching this `glob` (repeatable; for URLs see --exclude-url)")
	fs.Var(&f.includeURL, "include-url", "check only URLs matching this `regexp` (repeatable); others are skipped")
	fs.Var(&f.excludeURL, "exclude-url", "skip URLs matching this `regexp` (repeatable; also one a line in a tree's .linkcheckignore)")
	f.root = fs.String("root", "", "the `DIR` published at \"/\": root-relative links of local files resolve in it")
	f.base = fs.String("base", "", "the `URL` the tree (--root, or each folder given) is published at: links under it are checked in the tree")
	f.offline = fs.Bool("offline", false, "check only local files; network URLs are skipped")
	f.fragments = fs.Bool("fragments", false, "check the #fragments of http and https links too (one GET per page); local ones always are")
	f.accept = fs.String("accept", "", "http status `CODES` that are ok, e.g. 200..299,403,429 (default 2xx)")
	f.internalOnly = fs.Bool("internal-only", false, "with --recursive, check only links on the sites given; the others are skipped (LinkChecker's default)")
	f.maxRetryWait = fs.Duration("max-retry-wait", 30*time.Second, "longest Retry-After honoured on a 429 or 503 before a retry")
	fs.Var(&f.rec, "recursive", "follow links found in what is retrieved (menus, listings, HTML pages with their relative links), to `DEPTH` levels (alone: all); links to other sites are checked, not followed")
	f.spanHosts = fs.Bool("span-hosts", false, "with --recursive, follow links to other sites (scheme, host and port) too")
	f.noRobots = fs.Bool("no-robots", false, "with --recursive, fetch what robots.txt disallows (RFC 9309)")
	f.maxPage = fs.String("max-page-size", "4M", "with --recursive, read this much of each page, listing or document for its links (a warning names a page read in part; an HTML page over 32M is read as text, robots.txt to 500K)")
	f.jobs = fs.Int("jobs", 16, "checks running at once")
	f.perHost = fs.Int("per-host", 2, "checks (and kept connections) per host at once")
	f.delay = fs.Duration("delay", 0, "least time between two checks of one host")
	f.timeout = fs.Duration("timeout", 20*time.Second, "give up one attempt after this long")
	f.retries = fs.Int("retries", 2, "attempts again after a transient failure (4xx, 503, timeout), with back-off")
	f.cacheFile = fs.String("cache", "", "keep verdicts in this `FILE` and re-check only stale ones")
	f.maxAge = fs.Duration("max-cache-age", 24*time.Hour, "how long a cached verdict stays fresh")
	f.strict = fs.Bool("strict", false, "hold every link to RFC 1738 exactly: what browsers read beyond it (an IPv6 literal, an international name, http://h?q) is invalid, not a warning")
	f.warningsAsErrors = fs.Bool("warnings-as-errors", false, "exit 1 when a link departs from RFC 1738 even if it works")
	f.smtpVerify = fs.Bool("smtp-verify", false, "ask the SMTP relay (--smtp) whether it takes each mailto address (RCPT TO, no DATA)")
}

// newRun makes the checker and the run the flags ask for, on c.
func (lf *linkcheckFlags) newRun(c *access.Client, pageLimit int64) (*linkcheck.Run, *pageWarnings, error) {
	var err error
	k := &linkcheck.Checker{Client: c, PerHost: *lf.perHost, Timeout: *lf.timeout, Retries: *lf.retries, MaxRetryWait: *lf.maxRetryWait,
		MaxPage: pageLimit}
	if *lf.accept != "" {
		if k.Accept, err = linkcheck.ParseCodes(*lf.accept); err != nil {
			return nil, nil, fmt.Errorf("--accept: %w", err)
		}
	}
	if *lf.smtpVerify {
		m, _ := c.Handler("mailto").(access.Mailto)
		if m.Relay == "" {
			return nil, nil, errors.New("--smtp-verify needs a relay: --smtp host[:port], $RFC1738_SMTP or $SMTP_RELAY")
		}
		k.SMTPRelay = m.Relay
	}
	run := &linkcheck.Run{Checker: k, Jobs: *lf.jobs, PerHost: *lf.perHost, Delay: *lf.delay, Depth: lf.rec.depth, SpanHosts: *lf.spanHosts, NoRobots: *lf.noRobots,
		InternalOnly: *lf.internalOnly, Fragments: *lf.fragments, Strict: *lf.strict}
	warnings := &pageWarnings{}
	run.Warn = warnings.add
	if *lf.cacheFile != "" {
		if run.Cache, err = linkcheck.OpenCache(*lf.cacheFile, *lf.maxAge); err != nil {
			k.Close()
			return nil, nil, fmt.Errorf("--cache: %w", err)
		}
	}
	return run, warnings, nil
}

// pageWarnings keeps the warnings of pages read in part, printed after
// the progress bar, which shares stderr.
type pageWarnings struct {
	mu   sync.Mutex
	list []string
}

func (w *pageWarnings) add(url, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, fmt.Sprintf("rfc1738 linkcheck: warning: %s: %s; --max-page-size reads more", url, msg))
}

// gatherLinks adds the links of the operands to tree: each file, folder
// or glob read as a tree, an operand that is no file but a URL added as
// it is; stdin read as a document when there is no operand.
func gatherLinks(e *env, tree *linkcheck.Tree, operands []string) error {
	if len(operands) == 0 {
		g := linkcheck.Gatherer{Found: tree.URL}
		if err := g.Reader("-", e.stdin); err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
	}
	for _, op := range operands {
		if _, err := os.Stat(op); err != nil && linkcheck.HasScheme(op) {
			tree.URL(op, linkcheck.Place{})
			continue
		}
		if err := tree.Add(op); err != nil {
			return err
		}
	}
	return nil
}

// linkcheckBar draws run's progress on stderr: checked of known URLs,
// the rate and the broken so far.
func linkcheckBar(e *env, run *linkcheck.Run) *progressbar.ProgressBar {
	bar := progressbar.NewOptions(run.Total(),
		progressbar.OptionSetWriter(e.stderr),
		progressbar.OptionSetDescription("checking"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("URLs"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
	)
	run.Progress = func(done, total, broken int) {
		if total != bar.GetMax() {
			bar.ChangeMax(total)
		}
		bar.Describe(fmt.Sprintf("checking, %d broken", broken))
		bar.Set(done)
	}
	return bar
}

// hasWarnings reports whether any link departs from RFC 1738.
func hasWarnings(rs []linkcheck.Result) bool {
	for _, r := range rs {
		if len(r.Warnings) > 0 {
			return true
		}
	}
	return false
}
