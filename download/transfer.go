package download

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// A transfer is one job's attempts.
type transfer struct {
	*run
	i    int
	job  Job
	part *Part // nil for Out or a device
	kept bool  // the part was kept for a resume
}

func (t *transfer) emit(ev Event) {
	ev.Job, ev.Path = t.i, t.job.Path
	t.run.emit(ev)
}

// tries makes the attempts of a job and returns the count of body bytes
// written. A job whose part is complete is left for the batch.
func (t *transfer) tries() (int64, error) {
	f := t.f
	var total int64
	for attempt := 0; ; attempt++ {
		n, err := t.attempt()
		total += n
		if err == nil {
			return total, nil
		}
		if !t.retry(attempt, n, err) {
			// An end of ctx keeps what came, Resume or not (as curl
			// and wget do on an interrupt): Resume goes on from it.
			if t.part != nil {
				t.kept = t.part.Abort(f.Resume || t.ctx.Err() != nil)
			}
			return total, err
		}
		// Doubling from RetryDelay, or what the server asked for
		// (Retry-After), at most a minute either way.
		delay := min(max(f.RetryDelay<<attempt, access.RetryAfter(err)), time.Minute)
		t.emit(Event{Kind: Retrying, Err: err, Attempt: attempt + 1, Delay: delay})
		select {
		case <-time.After(delay):
		case <-t.ctx.Done():
			if t.part != nil {
				t.kept = t.part.Abort(true)
			}
			return total, context.Cause(t.ctx)
		}
	}
}

// retry reports whether a failed attempt, the attempt-th, that wrote n
// bytes is tried again.
func (t *transfer) retry(attempt int, n int64, err error) bool {
	f := t.f
	transient := access.Transient(err) || f.RetryConnRefused && errors.Is(err, syscall.ECONNREFUSED)
	return attempt < f.Retries && t.ctx.Err() == nil && transient &&
		(t.part != nil || n == 0) // what went to Out cannot be taken back
}

// do makes a request with Do, else the Client.
func (t *transfer) do(ctx context.Context, req access.Request) (*access.Response, error) {
	if t.f.Do != nil {
		return t.f.Do(ctx, req)
	}
	return t.f.Client.Do(ctx, req)
}

// attempt makes one try at the job: a resume from the part file's end
// when it holds bytes, the body through the meter (idle watchdog,
// MaxSize, Progress) into the part file, the device or Out.
func (t *transfer) attempt() (int64, error) {
	f, part := t.f, t.part
	ctx := t.ctx
	if f.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, f.Timeout, timeoutError{fmt.Errorf("gave up after %s", named(f.TimeoutName, f.Timeout))})
		defer cancel()
	}
	var idleCause error
	if f.IdleTimeoutName != "" {
		idleCause = fmt.Errorf("nothing arrived for %v (%s)", f.IdleTimeout, f.IdleTimeoutName)
	}
	ctx, watch := watchdog.New(ctx, f.IdleTimeout, idleCause)
	defer watch.Stop()

	req := access.Request{URL: t.job.URL, Head: f.Head, KeepErrorBody: f.KeepErrorBody}
	if part != nil {
		req.Offset = part.Offset()
	}
	resp, err := t.do(ctx, req)
	if err != nil && req.Offset > 0 && errors.Is(err, access.ErrNoResume) {
		t.emit(Event{Kind: NoResume, Err: err})
		if err := part.Restart(); err != nil {
			return 0, err
		}
		req.Offset = 0
		resp, err = t.do(ctx, req)
	}
	var he *access.HTTPStatusError
	if errors.As(err, &he) && he.Response != nil {
		return t.errorPage(ctx, err, he.Response, watch)
	}
	if err != nil {
		return 0, watchdog.Explain(ctx, err)
	}
	if part != nil && resp.Offset != req.Offset {
		// The server sent the whole resource: start the file over.
		t.emit(Event{Kind: SentWhole, Response: resp, N: req.Offset})
		if err := part.Restart(); err != nil {
			resp.Body.Close()
			return 0, err
		}
	}
	n, err := t.write(ctx, resp, watch)
	if err != nil && req.Offset > 0 && errors.Is(err, access.ErrLongTransfer) {
		// More bytes than the size announced less the offset: the
		// server did not resume where asked, and the part file is no
		// prefix of what came. It starts over, once.
		t.emit(Event{Kind: NoResume, Err: err})
		if err := part.Restart(); err != nil {
			return n, err
		}
		req.Offset = 0
		if resp, err = t.do(ctx, req); err != nil {
			return 0, watchdog.Explain(ctx, err)
		}
		return t.write(ctx, resp, watch)
	}
	return n, err
}

// errorPage writes the page of an http error status (KeepErrorBody) and
// completes its file at once; the attempt still fails with err.
func (t *transfer) errorPage(ctx context.Context, err error, resp *access.Response, watch *watchdog.Watchdog) (int64, error) {
	if t.part != nil && t.part.Offset() > 0 {
		t.part.Restart()
	}
	n, werr := t.write(ctx, resp, watch)
	if werr == nil && t.part != nil {
		b := &Batch{NoSync: t.f.NoSync}
		b.Add(t.part)
		werr = b.Close()
	}
	if werr != nil {
		return n, werr
	}
	return n, watchdog.Explain(ctx, err)
}

// write writes a response (its header first with Header or Head) to
// the part file, the device or Out, and closes its body, whose Close
// reads the protocol's own end of transfer.
func (t *transfer) write(ctx context.Context, resp *access.Response, watch *watchdog.Watchdog) (int64, error) {
	f := t.f
	defer resp.Body.Close()
	if f.LimitSize && resp.Size > f.MaxSize {
		return 0, tooLarge{name: f.maxSizeName(), url: resp.URL, size: resp.Size, limit: f.MaxSize}
	}
	var w io.Writer
	// Tests, not a switch: the coverage profile the mutation gate reads
	// counts a case's condition as never run.
	if t.part != nil {
		w = t.part
	} else if t.job.Out != nil {
		w = t.job.Out
	} else { // a device: written in place
		dev, err := os.OpenFile(t.job.Path, os.O_WRONLY, 0)
		if err != nil {
			return 0, err
		}
		defer dev.Close()
		w = dev
	}
	if (f.Header || f.Head) && resp.Status != "" {
		if _, err := io.WriteString(w, formatHeader(resp)); err != nil {
			return 0, err
		}
	}
	body := &meter{r: resp.Body, watch: watch, limited: f.LimitSize, left: f.MaxSize, name: f.maxSizeName()}
	if f.Events != nil {
		body.progress = func(n int64) { t.emit(Event{Kind: Progress, N: n}) }
	}
	t.emit(Event{Kind: Started, Response: resp})
	var n int64
	var err error
	if t.part != nil {
		n, err = fill(t.part, body)
	} else {
		n, err = io.Copy(w, body) // stdout, a device: as it comes
	}
	if err == nil {
		err = resp.Body.Close()
	}
	t.emit(Event{Kind: Stopped, Err: err})
	if err != nil {
		return n, watchdog.Explain(ctx, err)
	}
	return n, nil
}

// fillSize is the size of fill's writes.
const fillSize = 64 << 10

// fillBufs are fill's buffers, shared by the transfers.
var fillBufs = sync.Pool{New: func() any { return new([fillSize]byte) }}

// fill copies r into p, a part file, in writes of fillSize bytes, the
// last one shorter: a small file is written once, however many reads
// (TLS records, packets) its body came in, an empty one never. What was
// read before an error is written before fill returns it.
func fill(p io.Writer, r io.Reader) (int64, error) {
	buf := fillBufs.Get().(*[fillSize]byte)
	defer fillBufs.Put(buf)
	var total int64
	for {
		n, err := io.ReadFull(r, buf[:])
		if n > 0 {
			w, werr := p.Write(buf[:n])
			total += int64(w)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

func (f *Fetcher) maxSizeName() string {
	if f.MaxSizeName == "" {
		return "the size limit"
	}
	return f.MaxSizeName
}

// named writes a limit with its name, when it has one.
func named(name string, d time.Duration) string {
	if name == "" {
		return d.String()
	}
	return name + " " + d.String()
}

// timeoutError is an error that is a timeout (as a net.Error says), for
// the cause of a context that Timeout ends.
type timeoutError struct{ error }

func (e timeoutError) Timeout() bool { return true }
func (e timeoutError) Unwrap() error { return e.error }

// isDevice reports whether a path of which os.Stat said fi, err is an
// existing file that is not a regular file or a folder (/dev/null, a
// FIFO): it is written in place.
func isDevice(fi os.FileInfo, err error) bool {
	return err == nil && !fi.Mode().IsRegular() && !fi.IsDir()
}

// formatHeader writes an http response's status line and header as
// they came (RFC 9112 §2.1), then the empty line; every value is
// escaped for a terminal.
func formatHeader(resp *access.Response) string {
	var b strings.Builder
	b.WriteString(safetext.Escape(resp.Status) + "\r\n")
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			b.WriteString(safetext.Escape(k) + ": " + safetext.Escape(v) + "\r\n")
		}
	}
	b.WriteString("\r\n")
	return b.String()
}
