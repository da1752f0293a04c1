package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/browse"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() {
	register(&command{
		name:    "browse",
		short:   "a full-screen terminal browser for gopher, ftp, news, WAIS, files and http",
		args:    "[flags] [URL]",
		summary: "Browse gopherspace, ftp archives, news, WAIS, local folders and http pages on a full screen. Every link followed passes the §6 guards. Bookmarks and history live in $XDG_CONFIG_HOME/rfc1738; NO_COLOR turns colours off.",
		run:     runBrowse,
		fetches: true,
	})
}

func runBrowse(e *env, args []string) int {
	fs := newFlags(e, commands["browse"])
	timeout := fs.Duration("timeout", browse.DefaultTimeout, "give up on a page after this long (Esc gives up sooner)")
	dir := fs.String("download-dir", ".", "where d saves")
	noConfig := fs.Bool("no-config", false, "keep no bookmarks or history")
	dump := fs.Bool("dump", false, "write the page as rendered, then a numbered list of its links, and exit, as lynx -dump does (no terminal needed)")
	setup := accessSetup(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(operands) > 1 {
		fmt.Fprintf(e.stderr, "rfc1738 browse: want at most one URL, got %d\n", len(operands))
		return exitUsage
	}
	start := ""
	if len(operands) == 1 {
		start = operands[0]
		// A start URL that cannot be browsed is a usage error, before
		// the screen is taken over.
		u, status, ok := parseURL(e, "browse", start, false, false)
		if !ok {
			return status
		}
		start = u.String() // as read: an A-label, a "/" before "?"
		c, err := setup(e)
		if err == nil {
			_, err = c.Plan(u)
		}
		if errors.Is(err, access.ErrUnsupported) {
			fmt.Fprintln(e.stderr, "rfc1738 browse:", errText(err))
			return exitUsage
		}
	}
	if *dump {
		return runDump(e, start, *timeout, setup)
	}
	if !isTerminal(e.stdin) || !isTerminal(e.stdout) {
		fmt.Fprintln(e.stderr, "rfc1738 browse: needs a terminal on stdin and stdout (use rfc1738 get to fetch without one)")
		return exitUsage
	}
	// The flags are checked once here, then each fetch gets a fresh client.
	if _, err := setup(e); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 browse:", errText(err))
		return exitUsage
	}
	opts := browse.Options{
		NewClient:   func() (*access.Client, error) { return setup(e) },
		DownloadDir: *dir,
		Timeout:     max(*timeout, time.Second),
		NoColor:     e.Getenv("NO_COLOR") != "",
	}
	if !*noConfig {
		opts.ConfigDir = browse.DefaultConfigDir()
	}
	// Bubble Tea ends on SIGTERM as on q: the status still says which.
	_, caught, stop := interruptible(context.Background())
	defer stop()
	err := browse.Run(start, opts, e.stdin, e.stdout)
	if s := caught(); s != nil {
		return signalStatus(s)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 browse:", errText(err))
		return exitStatus(err)
	}
	return exitOK
}

// runDump is browse --dump: the page and its links on stdout.
func runDump(e *env, start string, timeout time.Duration, setup func(*env) (*access.Client, error)) int {
	if start == "" {
		return usageError(e, "browse", "--dump needs a URL")
	}
	if _, err := setup(e); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 browse:", errText(err))
		return exitUsage
	}
	ctx, caught, stop := interruptible(context.Background())
	defer stop()
	opts := browse.Options{NewClient: func() (*access.Client, error) { return setup(e) }, Timeout: max(timeout, time.Second)}
	err := browse.Dump(ctx, start, opts, e.stdout)
	if s := caught(); s != nil {
		fmt.Fprintf(e.stderr, "rfc1738 browse: interrupted by %s\n", signalName(s))
		return signalStatus(s)
	}
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 browse:", safetext.Escape(err.Error()))
		return exitStatus(err)
	}
	return exitOK
}
