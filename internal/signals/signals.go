// Package signals installs signal handlers the way every Unix tool is
// expected to: only for the signals the program's parent did not ignore.
//
// A shell starts the background jobs of a script with SIGINT ignored, and
// nohup starts its command with SIGHUP ignored, so that a Ctrl-C at the
// terminal or a closed session leaves them running; signal.Notify turns
// such a signal back on (POSIX sh, "Signals and Error Handling"; wget and
// curl keep it ignored). What was ignored is read once, before anything
// asks for a signal: after a Notify, signal.Ignored no longer says.
package signals

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// atStart are the signals ignored when the program started.
var atStart = func() map[os.Signal]bool {
	m := map[os.Signal]bool{}
	for _, s := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM} {
		if signal.Ignored(s) {
			m[s] = true
		}
	}
	return m
}()

// IgnoredAtStart reports whether s was ignored when the program started
// (only SIGHUP, SIGINT, SIGQUIT and SIGTERM are known).
func IgnoredAtStart(s os.Signal) bool { return atStart[s] }

// Notify is signal.Notify for those of sigs that were not ignored when the
// program started; it returns them. With none left it registers nothing
// (signal.Notify with no signal would take them all).
func Notify(c chan<- os.Signal, sigs ...os.Signal) []os.Signal {
	keep := notIgnored(sigs)
	if len(keep) > 0 {
		signal.Notify(c, keep...)
	}
	return keep
}

// NotifyContext is signal.NotifyContext for those of sigs that were not
// ignored when the program started; with none left, the context ends only
// with parent or stop.
func NotifyContext(parent context.Context, sigs ...os.Signal) (ctx context.Context, stop context.CancelFunc) {
	if keep := notIgnored(sigs); len(keep) > 0 {
		return signal.NotifyContext(parent, keep...)
	}
	return context.WithCancel(parent)
}

// notIgnored returns those of sigs not ignored at start.
func notIgnored(sigs []os.Signal) []os.Signal {
	var keep []os.Signal
	for _, s := range sigs {
		if !atStart[s] {
			keep = append(keep, s)
		}
	}
	return keep
}
