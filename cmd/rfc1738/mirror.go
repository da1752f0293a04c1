package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738/mirror"
)

func init() {
	register(&command{
		name:  "mirror",
		short: "keep a local copy of an ftp tree or a gopher hole, incrementally",
		args:  "[flags] URL DIR",
		summary: "Copy the tree under an ftp directory URL (walked with the §3.2.2 CWD sequence; MLSD, LIST or NLST) or a\n" +
			"gopher menu (§3.4) into DIR, with a manifest DIR/" + mirror.ManifestName + " (URL, path, size, time,\n" +
			"SHA-256). A second run fetches only what is new or changed.",
		run:     runMirror,
		fetches: true,
	})
}

func runMirror(e *env, args []string) int {
	fs := newFlags(e, commands["mirror"])
	parallel := fs.Int("parallel", mirror.DefaultParallel, "transfers and listings at once (logins kept per host)")
	depth := fs.Int("depth", 0, "read at most `N` levels of directories or menus, the URL's own being 1 (0: all)")
	var include, exclude globList
	fs.Var(&include, "include", "fetch only files matching this `glob` (base name, or path with /; repeatable)")
	fs.Var(&exclude, "exclude", "leave out files and directories matching this `glob` (repeatable)")
	maxSize := fs.Int64("max-size", 0, "skip files larger than `BYTES` (0: no limit)")
	maxTotal := fs.Int64("max-total", 0, "fetch at most `BYTES` in all (0: no limit)")
	del := fs.Bool("delete", false, "remove local files whose remote ones are gone (never outside DIR)")
	dry := fs.Bool("dry-run", false, "print what would be fetched or deleted; change nothing")
	symlinks := choice(fs, "symlinks", mirror.SymlinksSkip, "ftp: what to do with a symbolic link: skip (reported and counted), keep (the same link, when its target stays inside DIR), or follow (fetch what it points to)", mirror.SymlinkModes...)
	span := fs.Bool("span-hosts", false, "gopher: follow menus to other hosts and ports too")
	recheck := fs.Bool("recheck", false, "gopher: fetch again the documents a plain menu gives no size or time for, and replace one only when its SHA-256 differs")
	idle := fs.Duration("idle-timeout", mirror.DefaultIdleTimeout, "give up on a listing or file when nothing arrives for this long (0: never); the run goes on")
	verbose := fs.Bool("v", false, "print a line per fetched file, not only problems")
	quiet := fs.Bool("q", false, "no progress line and no summary")
	strict := fs.Bool("strict", false, "take only an RFC 1738 URL: an IPv6 literal or an international name, which are otherwise read as curl reads them with a warning, is refused")
	setup := accessSetup(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(operands) != 2 || *parallel < 1 || *depth < 0 {
		fmt.Fprintln(e.stderr, "usage: rfc1738 mirror [flags] URL DIR (--parallel at least 1, --depth at least 0)")
		return exitUsage
	}
	top, status, ok := parseURL(e, "mirror", operands[0], *strict, false)
	if !ok {
		return status
	}
	c, err := setup(e)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mirror:", errText(err))
		return exitUsage
	}
	opt := mirror.Options{
		Parallel: *parallel, Depth: *depth, Include: include, Exclude: exclude,
		MaxSize: *maxSize, MaxTotal: *maxTotal, Delete: *del, DryRun: *dry,
		Symlinks: *symlinks, SpanHosts: *span, Recheck: *recheck, Email: c.Email, Verbose: *verbose || *dry, Log: e.stdout,
		IdleTimeout: *idle, Access: c,
	}
	if *idle <= 0 {
		opt.IdleTimeout = -1 // as get's --idle-timeout 0: never
	}
	var mu sync.Mutex
	progress := !*quiet && isTerminal(e.stderr)
	last := time.Time{}
	start := time.Now()
	if progress {
		opt.Progress = func(s mirror.Stats) {
			mu.Lock()
			defer mu.Unlock()
			if now := time.Now(); now.Sub(last) > 200*time.Millisecond {
				last = now
				fmt.Fprintf(e.stderr, "\r\x1b[K%d/%d files, %s, %s/s", s.Fetched, s.Planned, formatBytes(s.Bytes),
					formatBytes(int64(float64(s.Bytes)/max(now.Sub(start).Seconds(), 0.001))))
			}
		}
	}
	// The status is the worst of the items that failed. An item that
	// ends after SIGINT or SIGTERM was interrupted, not failed: the
	// signal's status is the run's.
	ctx, caught, stop := interruptible(context.Background())
	defer stop()
	worst, interrupted := exitOK, 0
	opt.Failure = func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			interrupted++
			return
		}
		worst = worseStatus(worst, exitStatus(err))
	}
	st, err := mirror.Mirror(ctx, top.String(), operands[1], opt)
	stop()
	if progress {
		mu.Lock()
		fmt.Fprint(e.stderr, "\r\x1b[K")
		mu.Unlock()
	}
	if !*quiet {
		mu.Lock()
		failed, w := st.Failed-interrupted, worseStatus(worst, exitNegative)
		mu.Unlock()
		writeMirrorSummary(e.stderr, st, failed, interrupted, time.Since(start), *symlinks, caught(), w)
	}
	if s := caught(); s != nil {
		fmt.Fprintf(e.stderr, "rfc1738 mirror: interrupted by %s; run it again to go on\n", signalName(s))
		return signalStatus(s)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 mirror:", errText(inCLITerms(err)))
		return exitStatus(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if st.Failed > interrupted {
		return worseStatus(worst, exitNegative)
	}
	return exitOK
}

// writeMirrorSummary writes the line a mirror run ends with: what it did,
// and the exit status it ends with when that is not 0 (worst, the worst
// failure's, or the signal's that interrupted it).
func writeMirrorSummary(w io.Writer, st mirror.Stats, failed, interrupted int, el time.Duration, symlinks string, sig os.Signal, worst int) {
	fmt.Fprintf(w, "mirror: %d fetched (%s), %d unchanged, %d deleted, %d skipped, %d refused, %d failed", st.Fetched,
		formatBytes(st.Bytes), st.Unchanged, st.Deleted, st.Skipped, st.Refused, failed)
	if interrupted > 0 {
		fmt.Fprintf(w, ", %d interrupted", interrupted)
	}
	fmt.Fprintf(w, "; %d directories in %s", st.Dirs, el.Round(time.Millisecond))
	if st.Links > 0 {
		fmt.Fprintf(w, "; %d symbolic links (--symlinks %s)", st.Links, symlinks)
	}
	if st.DeletesSkipped > 0 {
		fmt.Fprintf(w, "; deletions skipped in %d folders not listed whole", st.DeletesSkipped)
	}
	if sig != nil {
		fmt.Fprintf(w, " (exit status %d: interrupted by %s)", signalStatus(sig), signalName(sig))
	} else if failed > 0 {
		fmt.Fprintf(w, " (exit status %d, the worst: %s)", worst, statusName(worst))
	}
	fmt.Fprintln(w)
	if st.NotRechecked > 0 {
		fmt.Fprintf(w, "mirror: %d not rechecked: a plain gopher server gives no size or time, so a change is not seen; --recheck fetches them again\n", st.NotRechecked)
	}
}
