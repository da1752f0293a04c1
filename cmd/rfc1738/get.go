package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rfc1738/rfc1738/internal/watchdog"
)

func init() {
	register(&command{
		name:  "get",
		short: "fetch what a URL names with its scheme's protocol",
		args:  "[flags] URL... [-i FILE] [-o FILE | -O [--output-dir DIR]]",
		summary: "Fetch what each URL names with its scheme's protocol (§3), guarded as §6 says. Streams to stdout, or writes each file atomically " +
			"(a hidden .NAME.part renamed when complete), resumes it (-C -), retries transient failures (--retry N), and sums up a run of several URLs.",
		run:     runGet,
		fetches: true,
	})
}

// errTooLarge is the error of a body longer than --max-size.
var errTooLarge = errors.New("more data than --max-size allows")

// meter is the body as get copies it: every arrival touches the idle
// watchdog and moves the progress bar (when there is one), and with
// limited set, a byte beyond the left allowed is errTooLarge and is never
// written.
type meter struct {
	r       io.Reader
	watch   interface{ Touch() }
	bar     *progressbar.ProgressBar
	limited bool
	left    int64
}

func (m *meter) count(n int64) {
	if n <= 0 {
		return
	}
	m.watch.Touch()
	if m.bar != nil {
		m.bar.Add64(n)
	}
	m.left -= n
}

func (m *meter) Read(p []byte) (int, error) {
	if m.limited {
		if m.left < 0 {
			return 0, errTooLarge
		}
		if int64(len(p)) > m.left+1 {
			p = p[:m.left+1] // one byte more tells an exact fit from too much
		}
	}
	n, err := m.r.Read(p)
	m.count(int64(n))
	if m.limited && m.left < 0 {
		return n + int(m.left), errTooLarge
	}
	return n, err
}

// WriteTo hands the copy to the body's own WriteTo when it has one (the
// ftp body reads with a large buffer, or splices the data connection
// into a file: see meterWriter.ReadFrom).
func (m *meter) WriteTo(w io.Writer) (int64, error) {
	wt, ok := m.r.(io.WriterTo)
	if !ok {
		return io.Copy(w, struct{ io.Reader }{m})
	}
	return wt.WriteTo(meterWriter{m: m, w: w})
}

// meterWriter is the writer a body's WriteTo writes to: it meters what
// passes to w.
type meterWriter struct {
	m *meter
	w io.Writer
}

func (mw meterWriter) Write(p []byte) (int, error) {
	m := mw.m
	var over bool
	if m.limited && int64(len(p)) > m.left {
		p, over = p[:max(m.left, 0)], true
	}
	n, err := mw.w.Write(p)
	m.count(int64(n))
	if err == nil && over {
		err = errTooLarge
	}
	return n, err
}

// ReadFrom lets a body hand over its connection (an *io.LimitedReader of
// it) so that io.Copy reaches w's own ReadFrom: for an *os.File, splice(2)
// from the socket, with no copy through this process. It keeps the
// io.ReaderFrom contract, reading r to its end: the limit caps r, and
// when the cap, not r's end, stopped the copy, one byte more read
// (never written) tells an exact fit from errTooLarge.
func (mw meterWriter) ReadFrom(r io.Reader) (int64, error) {
	m := mw.m
	if !m.limited {
		n, err := io.Copy(mw.w, r)
		m.count(n)
		return n, err
	}
	lr, ok := r.(*io.LimitedReader)
	if !ok {
		lr = &io.LimitedReader{R: r, N: math.MaxInt64}
	}
	want := lr.N
	lr.N = min(want, max(m.left, 0))
	n, err := io.Copy(mw.w, lr)
	m.count(n)
	lr.N = want - n
	if err == nil && m.left <= 0 && lr.N > 0 {
		var one [1]byte
		k, rerr := io.ReadFull(lr, one[:])
		switch {
		case k > 0:
			err = errTooLarge
		case rerr != io.EOF:
			err = rerr
		}
	}
	return n, err
}

// newWatchdog is get's idle watchdog: its cause names the flag.
func newWatchdog(parent context.Context, idle time.Duration) (context.Context, *watchdog.Watchdog) {
	return watchdog.New(parent, idle, fmt.Errorf("nothing arrived for %v (--idle-timeout)", idle))
}

// explain adds why the context ended to err, when it did: the idle
// watchdog, --timeout, or an interrupt.
func explain(ctx context.Context, err error) error { return watchdog.Explain(ctx, err) }

// parseSize reads a byte count with an optional K, M, G or T suffix
// (powers of 1024; "KB", "MiB" and the like are read the same).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}
