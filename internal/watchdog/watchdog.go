// Package watchdog gives up on a transfer that stops making progress:
// a Watchdog cancels its context when nothing has arrived for an idle
// limit, so every network read under that context ends (the ftp and
// gopher clients turn a cancelled context into an expired deadline on
// their connections) instead of waiting forever on a stalled peer. The
// get and mirror commands share it (--idle-timeout).
package watchdog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"
)

// A Watchdog watches one transfer (or one job of several exchanges):
// each arrival calls Touch; when none came for the idle limit, the
// context New returned is cancelled with the cause New was given.
type Watchdog struct {
	last   atomic.Int64 // unix nanoseconds of the last progress
	done   chan struct{}
	cancel context.CancelCauseFunc
}

// New returns a context that ends when parent does, when Stop is
// called, or when no Touch came for idle (zero or less: never); cause
// is then its context.Cause, nil meaning "nothing arrived for <idle>".
func New(parent context.Context, idle time.Duration, cause error) (context.Context, *Watchdog) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &Watchdog{done: make(chan struct{}), cancel: cancel}
	w.Touch()
	if idle <= 0 {
		return ctx, w
	}
	if cause == nil {
		cause = fmt.Errorf("nothing arrived for %v", idle)
	}
	cause = idleError{cause}
	tick := min(idle/4, time.Second)
	go func() {
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-w.done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				if now.Sub(time.Unix(0, w.last.Load())) > idle {
					cancel(cause)
					return
				}
			}
		}
	}()
	return ctx, w
}

// idleError is the cause of a context the watchdog cancelled: a
// timeout (its Timeout method says so, as a net.Error's does).
type idleError struct{ error }

func (e idleError) Timeout() bool { return true }
func (e idleError) Unwrap() error { return e.error }

// Touch records progress now.
func (w *Watchdog) Touch() { w.last.Store(time.Now().UnixNano()) }

// Stop ends the watch and cancels its context (with no cause of its own).
func (w *Watchdog) Stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	w.cancel(nil)
}

// Reader returns r with every arrival touching w. Its WriteTo hands the
// copy to r's own WriteTo (the ftp and gopher bodies read with a large
// buffer) through a writer that touches w; that writer has no ReadFrom,
// so such a copy goes through the buffer, never spliced.
func (w *Watchdog) Reader(r io.Reader) io.Reader { return reader{r: r, w: w} }

type reader struct {
	r io.Reader
	w *Watchdog
}

func (r reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.w.Touch()
	}
	return n, err
}

func (r reader) WriteTo(dst io.Writer) (int64, error) {
	if wt, ok := r.r.(io.WriterTo); ok {
		return wt.WriteTo(writer{w: dst, wd: r.w})
	}
	return io.Copy(dst, struct{ io.Reader }{r})
}

type writer struct {
	w  io.Writer
	wd *Watchdog
}

func (w writer) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if n > 0 {
		w.wd.Touch()
	}
	return n, err
}

// Explain adds why ctx ended to err, when it did: the watchdog's cause,
// a timeout's (context.WithTimeoutCause), or "interrupted" for a plain
// cancellation (Ctrl-C).
func Explain(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		// A connection deadline copied from ctx can expire a moment
		// before ctx's own timer does: then wait for it.
		if dl, ok := ctx.Deadline(); !ok || time.Now().Before(dl) {
			return err
		}
		<-ctx.Done()
	}
	cause := context.Cause(ctx)
	switch {
	case errors.Is(err, cause):
		return err
	case cause == context.Canceled:
		return fmt.Errorf("interrupted: %w", err)
	}
	return fmt.Errorf("%w: %w", cause, err)
}
