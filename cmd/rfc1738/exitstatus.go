package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/signals"
)

// The exit statuses of the commands that reach servers (get, mirror,
// mail, plan, browse), after wget's: what failed, not only that something
// did. exitOK, exitNegative (1) and exitUsage (2) are in main.go.
const (
	exitLocalIO  = 3 // the output file or folder, a file: URL's file
	exitNetwork  = 4 // refused, unreachable, timed out, reset, cut short
	exitTLS      = 5 // a certificate that does not verify, a failed handshake
	exitAuth     = 6 // a login refused or required
	exitProtocol = 7 // a reply that makes no sense
	exitRefused  = 8 // the server said no: http 4xx/5xx, ftp 550, a gopher error item, no such article
)

// exitStatuses is the table of exitStatus, for --help, the man page and
// the README.
var exitStatuses = []struct{ code, meaning string }{
	{"0", "success"},
	{"1", "generic failure"},
	{"2", "usage: a bad flag, a URL that does not parse, a scheme with no access method, a §6 refusal"},
	{"3", "local file I/O: the output file or folder, a file: URL's file"},
	{"4", "network failure: connection refused, unreachable, timed out, reset or cut short"},
	{"5", "TLS: a certificate that does not verify, a failed handshake, TLS required and not offered"},
	{"6", "authentication refused or required (ftp 530, http 401, nntp 480/481, smtp 535)"},
	{"7", "protocol error: a reply that makes no sense"},
	{"8", "the server said no: http 4xx/5xx, ftp 550, a gopher error item, no such article"},
	{"129", "hung up (SIGHUP)"},
	{"130", "interrupted (SIGINT)"},
	{"143", "terminated (SIGTERM)"},
}

// worstRule says which status a run of several URLs (or a mirror of
// several items) ends with.
const worstRule = "With several URLs the status is the worst one's, as wget ranks them: a signal first, " +
	"then the lowest of 2 to 8 (the most basic failure), then 1; the summary line names it."

// writeExitStatuses writes the table for --help.
func writeExitStatuses(w io.Writer) {
	fmt.Fprintln(w, "\nexit status (as wget's):")
	for _, s := range exitStatuses {
		fmt.Fprintf(w, "  %-4s %s\n", s.code, s.meaning)
	}
	fmt.Fprintln(w, worstRule)
}

// exitStatus returns the exit status that says what err is: the kind of
// failure access.FailureOf finds in it, for every command that fetches.
// nil is exitOK.
func exitStatus(err error) int {
	if err == nil {
		return exitOK
	}
	switch access.FailureOf(err) {
	case access.ErrNotAttempted:
		return exitUsage
	case access.ErrTLS:
		return exitTLS
	case access.ErrNetwork:
		return exitNetwork
	case access.ErrLocal:
		return exitLocalIO
	case access.ErrAuth:
		return exitAuth
	case access.ErrProtocol:
		return exitProtocol
	case access.ErrRefused:
		return exitRefused
	}
	return exitNegative
}

// worseStatus returns the worse of two exit statuses, as wget ranks them:
// a signal's status first, then the lowest of 2 to 8 (a usage error
// before local I/O, before the network, before what a server answered),
// then 1, then 0.
func worseStatus(a, b int) int {
	rank := func(s int) int {
		switch {
		case s >= 128:
			return 1000 + s
		case s >= exitUsage:
			return 100 - s
		}
		return s
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// statusName says in a few words what an exit status means, for a
// summary line.
func statusName(s int) string {
	switch s {
	case exitOK:
		return "success"
	case exitUsage:
		return "usage or URL error"
	case exitLocalIO:
		return "local file I/O error"
	case exitNetwork:
		return "network failure"
	case exitTLS:
		return "TLS failure"
	case exitAuth:
		return "authentication refused"
	case exitProtocol:
		return "protocol error"
	case exitRefused:
		return "the server said no"
	case 128 + int(syscall.SIGHUP):
		return "hung up"
	case 128 + int(syscall.SIGINT):
		return "interrupted"
	case 128 + int(syscall.SIGTERM):
		return "terminated"
	}
	return "failure"
}

// signalStatus is the exit status after the signal s: 128 + its number,
// 130 for SIGINT and 143 for SIGTERM.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitNegative
}

// interruptible returns a context that SIGINT, SIGTERM or SIGHUP cancels,
// with the signal as its cause; caught returns that signal, or nil. stop
// stops listening. A signal the parent ignored when the program started
// (a script's background job, nohup) stays ignored.
func interruptible(parent context.Context) (ctx context.Context, caught func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	var got atomic.Value
	sigc := make(chan os.Signal, 1)
	signals.Notify(sigc, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			got.Store(s)
			cancel(fmt.Errorf("interrupted by %s", signalName(s)))
		case <-done:
		}
	}()
	caught = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			signal.Stop(sigc)
			close(done)
			cancel(nil)
		}
	}
	return ctx, caught, stop
}
