package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// getError gives an error of Get its context: the URL (password redacted),
// named once, and, when the context ended, the reason it was given (a
// timeout the user set, say) before the error it caused, which says what
// was going on ("ftp: USER anonymous: …").
func getError(ctx context.Context, url string, err error) error {
	err = withCause(ctx, err, false)
	if ce, ok := err.(*causeError); ok {
		ce.url = url // "URL: gave up after --timeout 5s: ftp: USER …"
		return ce
	}
	if strings.Contains(err.Error(), url) {
		return err
	}
	return fmt.Errorf("%s: %w", url, err)
}

// withCause gives a deadline or cancellation error that ctx caused ctx's
// cause (context.WithTimeoutCause, WithCancelCause), wrapping both. With
// terse, the cause replaces the I/O error's text, for a caller that says
// what was going on itself: "gave up after --timeout 5s" says more than
// "write x.part: i/o timeout", which is what a socket deadline looks like
// from inside a splice.
func withCause(ctx context.Context, err error, terse bool) error {
	if ctx.Err() == nil {
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			return err
		}
		// A connection deadline copied from ctx can expire a moment
		// before ctx's own timer does.
		dl, ok := ctx.Deadline()
		if !ok || time.Until(dl) > 10*time.Millisecond {
			return err
		}
		<-ctx.Done()
	}
	cause := context.Cause(ctx)
	if errors.Is(err, cause) {
		return err
	}
	if cause == ctx.Err() {
		return fmt.Errorf("%w: %w", cause, err)
	}
	return &causeError{cause: cause, ctxErr: ctx.Err(), io: err, terse: terse}
}

// causeError is an I/O error caused by a context that ended: it prints the
// cause (and, unless terse, the error), and matches the cause, the
// context's error and the I/O error.
type causeError struct {
	cause, ctxErr, io error
	terse             bool
	url               string // named first when set
}

func (e *causeError) Error() string {
	if e.terse {
		return e.cause.Error()
	}
	if e.url == "" {
		return e.cause.Error() + ": " + e.io.Error()
	}
	return e.url + ": " + e.cause.Error() + ": " + strings.TrimPrefix(e.io.Error(), e.url+": ")
}

func (e *causeError) Unwrap() []error { return []error{e.cause, e.ctxErr, e.io} }

// reportingBody is a Response body whose errors say what was going on: the
// URL, how many bytes had arrived (of how many announced), and, when the
// context ended, why. Its WriteTo hands the copy to the body's own WriteTo
// (the ftp and gopher bodies splice a socket into a file).
type reportingBody struct {
	rc   io.ReadCloser
	ctx  context.Context
	url  string
	size int64 // announced, or -1
	n    int64
}

func (b *reportingBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.n += int64(n)
	if err != nil && err != io.EOF {
		err = b.explain(err)
	}
	return n, err
}

func (b *reportingBody) WriteTo(w io.Writer) (int64, error) {
	var n int64
	var err error
	if wt, ok := b.rc.(io.WriterTo); ok {
		n, err = wt.WriteTo(w)
	} else {
		n, err = io.Copy(w, struct{ io.Reader }{b.rc})
	}
	b.n += n
	if err != nil {
		err = b.explain(err)
	}
	return n, err
}

func (b *reportingBody) Close() error {
	if err := b.rc.Close(); err != nil {
		return b.explain(err)
	}
	return nil
}

// explain wraps a body error once: "URL: after 15 of 1000 bytes: cause".
func (b *reportingBody) explain(err error) error {
	var already *bodyError
	if errors.As(err, &already) {
		return err
	}
	return &bodyError{url: b.url, n: b.n, size: b.size, err: withCause(b.ctx, err, true)}
}

// bodyError is an error met while a body was being received.
type bodyError struct {
	url     string
	n, size int64
	err     error
}

func (e *bodyError) Error() string {
	var what string
	switch {
	case e.size >= 0 && e.n < e.size && errors.Is(e.err, io.ErrUnexpectedEOF):
		what = fmt.Sprintf("the body was cut short: %d of %d bytes", e.n, e.size)
	case e.size >= 0:
		what = fmt.Sprintf("receiving the body, after %d of %d bytes", e.n, e.size)
	default:
		what = fmt.Sprintf("receiving the body, after %d bytes", e.n)
	}
	msg := e.err.Error()
	if strings.HasPrefix(msg, e.url+": ") {
		// The handler named the URL and what it was doing already.
		return msg
	}
	return e.url + ": " + what + ": " + msg
}

func (e *bodyError) Unwrap() error { return e.err }
