package download

import (
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrTooLarge is wrapped by the error of a body longer than a Fetcher's
// MaxSize.
var ErrTooLarge = errors.New("more data than the size limit allows")

// tooLarge is the error of a body longer than the limit: announced as
// size bytes by the server, or (size -1) counted as it came. name is how
// the Fetcher's users know the limit.
type tooLarge struct {
	name, url   string
	size, limit int64
}

func (e tooLarge) Error() string {
	if e.size < 0 {
		return "more data than " + e.name + " allows"
	}
	return fmt.Sprintf("%s: %d bytes is more than %s %d", e.url, e.size, e.name, e.limit)
}

func (e tooLarge) Is(target error) bool { return target == ErrTooLarge }

// meter is a body as a Fetcher copies it: every arrival touches the idle
// watchdog and is reported to progress (when set), and with limited set,
// a byte beyond the left allowed is tooLarge and is never written.
type meter struct {
	r        io.Reader
	watch    interface{ Touch() }
	progress func(n int64)
	limited  bool
	left     int64
	name     string // the limit's name in the error
}

func (m *meter) count(n int64) {
	if n <= 0 {
		return
	}
	m.watch.Touch()
	if m.progress != nil {
		m.progress(n)
	}
	m.left -= n
}

func (m *meter) tooLarge() error { return tooLarge{name: m.name, size: -1} }

func (m *meter) Read(p []byte) (int, error) {
	if m.limited {
		if m.left < 0 {
			return 0, m.tooLarge()
		}
		p = p[:min(int64(len(p)), m.left+1)] // one byte more tells an exact fit from too much
	}
	n, err := m.r.Read(p)
	m.count(int64(n))
	if m.limited && m.left < 0 {
		return n + int(m.left), m.tooLarge()
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
		err = m.tooLarge()
	}
	return n, err
}

// ReadFrom lets a body hand over its connection (an *io.LimitedReader of
// it) so that io.Copy reaches w's own ReadFrom: for an *os.File, splice(2)
// from the socket, with no copy through this process. It keeps the
// io.ReaderFrom contract, reading r to its end: the limit caps r, and
// when the cap, not r's end, stopped the copy, one byte more read
// (never written) tells an exact fit from too much.
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
		// Tests, not a switch: the coverage profile the mutation gate
		// reads counts a case's condition as never run.
		if k > 0 {
			err = m.tooLarge()
		} else if rerr != io.EOF {
			err = rerr
		}
	}
	return n, err
}
