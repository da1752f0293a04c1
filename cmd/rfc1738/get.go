package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/atomicfile"
)

func init() {
	register(&command{
		name:    "get",
		short:   "fetch what a URL names with its scheme's protocol",
		args:    "[flags] URL [-o FILE]",
		summary: "Fetch what URL names with its scheme's protocol (§3), guarded as §6 says. Streams to stdout, or writes FILE atomically.",
		run:     runGet,
	})
}

func runGet(e *env, args []string) int {
	fs := newFlags(e, commands["get"])
	output := fs.String("o", "", "write to `FILE` (atomically: a temporary file in the same folder, renamed when complete)")
	timeout := fs.Duration("timeout", 0, "give up after this long in all (0: no limit)")
	idle := fs.Duration("idle-timeout", 60*time.Second, "give up when nothing arrives for this long")
	maxSize := fs.String("max-size", "", "refuse more than this many bytes (e.g. 10M, 1G)")
	verbose := fs.Bool("v", false, "show the protocol conversation on stderr (passwords redacted)")
	asJSON := fs.Bool("json", false, "write listings (menus, groups) as JSON Lines")
	raw := fs.Bool("raw", false, "write listings as the protocol's own bytes")
	quiet := fs.Bool("q", false, "no progress bar")
	setup := accessSetup(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	limit := int64(-1)
	if *maxSize != "" {
		n, err := parseSize(*maxSize)
		if err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 get: --max-size:", err)
			return exitUsage
		}
		limit = n
	}
	u, status, ok := parseOneURL(e, "get", operands)
	if !ok {
		return status
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
	if *verbose {
		// A telnet session puts the terminal in raw mode, where "\n"
		// alone does not return the cursor: on a terminal, end trace
		// lines in "\r\n", which a cooked terminal shows the same.
		eol := "\n"
		if isTerminal(e.stderr) {
			eol = "\r\n"
		}
		c.Trace = func(dir byte, line string) { fmt.Fprintf(e.stderr, "%c %s%s", dir, line, eol) }
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, *timeout, fmt.Errorf("gave up after --timeout %v", *timeout))
		defer cancel()
	}
	ctx, watch := newWatchdog(ctx, *idle)
	defer watch.stop()

	resp, err := c.Get(ctx, u)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 get:", explain(ctx, err))
		return failStatus(err)
	}
	defer resp.Body.Close()
	if limit >= 0 && resp.Size > limit {
		fmt.Fprintf(e.stderr, "rfc1738 get: %s: %d bytes is more than --max-size %d\n", resp.URL, resp.Size, limit)
		return exitNegative
	}
	body := &meter{r: resp.Body, watch: watch, limited: limit >= 0, left: limit}
	if !*quiet && !*verbose && isTerminal(e.stderr) {
		body.bar = progressbar.NewOptions64(resp.Size,
			progressbar.OptionSetWriter(e.stderr),
			progressbar.OptionSetDescription(filepath.Base(resp.URL)),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(resp.Size > 0),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(e.stderr) }),
			progressbar.OptionFullWidth(),
		)
		defer body.bar.Finish()
	}

	if *output == "" {
		if _, err := io.Copy(e.stdout, body); err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 get:", explain(ctx, err))
			return exitNegative
		}
		if err := resp.Body.Close(); err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 get:", explain(ctx, err))
			return exitNegative
		}
		return exitOK
	}
	if err := atomicfile.Write(*output, body, resp.Body); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 get:", explain(ctx, err))
		return exitNegative
	}
	return exitOK
}

// errTooLarge is the error of a body longer than --max-size.
var errTooLarge = errors.New("more data than --max-size allows")

// meter is the body as get copies it: every arrival touches the idle
// watchdog and moves the progress bar (when there is one), and with
// limited set, a byte beyond the left allowed is errTooLarge and is never
// written.
type meter struct {
	r       io.Reader
	watch   *watchdog
	bar     *progressbar.ProgressBar
	limited bool
	left    int64
}

func (m *meter) count(n int64) {
	if n <= 0 {
		return
	}
	m.watch.touch()
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

// watchdog cancels its context when no data has arrived for the idle
// limit: every network read then ends with a deadline instead of hanging.
type watchdog struct {
	last   atomic.Int64 // unix nanoseconds of the last progress
	done   chan struct{}
	cancel context.CancelCauseFunc
}

func newWatchdog(parent context.Context, idle time.Duration) (context.Context, *watchdog) {
	ctx, cancel := context.WithCancelCause(parent)
	w := &watchdog{done: make(chan struct{}), cancel: cancel}
	w.touch()
	if idle <= 0 {
		return ctx, w
	}
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
					cancel(fmt.Errorf("nothing arrived for %v (--idle-timeout)", idle))
					return
				}
			}
		}
	}()
	return ctx, w
}

func (w *watchdog) touch() { w.last.Store(time.Now().UnixNano()) }

func (w *watchdog) stop() {
	select {
	case <-w.done:
	default:
		close(w.done)
	}
	w.cancel(nil)
}

// explain adds why the context ended to err, when it did: the idle
// watchdog, --timeout, or an interrupt.
func explain(ctx context.Context, err error) error {
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
	return fmt.Errorf("%v: %w", cause, err)
}

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
