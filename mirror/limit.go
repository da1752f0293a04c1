package mirror

import (
	"fmt"
	"io"

	"github.com/rfc1738/rfc1738/access"
)

// ErrLimit is wrapped by the error of a transfer stopped by
// Options.MaxSize or Options.MaxTotal: more bytes arrived than they
// allow. What came is dropped; nothing is saved under the item's name.
// It is access.ErrTooLarge, which a Request's MaxBytes stops a body with,
// so one test finds either.
var ErrLimit = access.ErrTooLarge

// limited counts the bytes of one transfer as they arrive, against size
// for the item (0: none; an ftp file's --max-size is the Request's
// MaxBytes, less its resume offset) and Options.MaxTotal for the run: a
// server that announces no size (a gopher document) or a wrong one is
// stopped at the limit, one byte past it at most, whatever it sends.
func (r *run) limited(src io.Reader, size int64) io.Reader {
	if size <= 0 && r.opt.MaxTotal <= 0 {
		return src
	}
	return &limitReader{r: r, src: src, size: size}
}

// charge counts n bytes of a menu, a listing or an attribute reply
// against Options.MaxTotal, as limitReader counts a transfer's: false
// when they cross it, and the item is then dropped (what the run writes
// stays within the limit, and its walk ends there). They are planned
// too, so that a file planned later fits in what is left.
func (r *run) charge(n int64) bool {
	if r.opt.MaxTotal <= 0 {
		return true
	}
	r.planned.Add(n)
	return r.arrived.Add(n) <= r.opt.MaxTotal
}

// errTotal is the error of an item charge stopped.
func (r *run) errTotal() error {
	return fmt.Errorf("--max-total %d bytes reached: %w", r.opt.MaxTotal, ErrLimit)
}

// totalReached reports whether Options.MaxTotal bytes have arrived.
func (r *run) totalReached() bool {
	return r.opt.MaxTotal > 0 && r.arrived.Load() >= r.opt.MaxTotal
}

type limitReader struct {
	r    *run
	src  io.Reader
	size int64 // the item's limit, 0 for none
	n    int64 // bytes of this transfer
}

func (l *limitReader) Read(p []byte) (int, error) {
	o := &l.r.opt
	// Ask for one byte more than is left: an exact fit is no excess.
	if l.size > 0 {
		p = p[:min(int64(len(p)), l.size-l.n+1)]
	}
	if o.MaxTotal > 0 {
		p = p[:min(int64(len(p)), max(o.MaxTotal-l.r.arrived.Load()+1, 1))]
	}
	n, err := l.src.Read(p)
	l.n += int64(n)
	if l.size > 0 && l.n > l.size {
		return n, fmt.Errorf("more than --max-size %d bytes arrived: %w", o.MaxSize, ErrLimit)
	}
	if o.MaxTotal > 0 && l.r.arrived.Add(int64(n)) > o.MaxTotal {
		return n, fmt.Errorf("--max-total %d bytes reached: %w", o.MaxTotal, ErrLimit)
	}
	return n, err
}
