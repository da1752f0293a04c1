package ftp

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// A FetchRequest is what Fetch retrieves.
type FetchRequest struct {
	Name string
	// Offset resumes at this byte (REST, RFC 3659 §5; TYPE I only).
	Offset int64
	// Size is the whole file's size when the caller knows it (a
	// listing's), else -1.
	Size int64
	// AskSize asks SIZE (RFC 3659 §4) when Size is unknown and FEAT
	// lists it, so that the length received can be checked even when
	// the 150 reply gives no count.
	AskSize bool
}

// Fetch retrieves a file with RetrFrom and returns its body as a Download,
// checked against the size announced before the transfer (the caller's,
// or SIZE's): the one place where every tool's transfer, resumed or not,
// is verified — offset plus the bytes received must be that size. A
// server refusing REST is RetrFrom's *CommandError of REST, and an offset
// past the size announced is ErrOffsetBeyondEnd; either way nothing was
// retrieved.
func (c *Conn) Fetch(ctx context.Context, r FetchRequest) (*Download, error) {
	want := r.Size
	if want < 0 && r.AskSize {
		var err error
		if want, err = c.announcedSize(ctx, r.Name); err != nil {
			return nil, err
		}
	}
	if r.Offset > 0 && want >= 0 && r.Offset > want {
		return nil, fmt.Errorf("ftp: REST %d: %w: it has %d bytes now", r.Offset, ErrOffsetBeyondEnd, want)
	}
	body, size, err := c.RetrFrom(ctx, r.Name, r.Offset)
	if err != nil {
		return nil, err
	}
	if want >= 0 {
		want -= r.Offset // SIZE counts the whole file; a resumed transfer starts at the offset
	}
	if size < 0 {
		size = want // pyftpdlib's 150 reply has no count
	}
	return &Download{body: body, Want: want, Size: size, offset: r.Offset}, nil
}

// announcedSize asks the size of name when the server lists SIZE in FEAT
// (RFC 3659 §4, RFC 2389). It returns -1 when the size is not known: no
// FEAT, no SIZE, or a refusal (the RETR that follows reports a missing
// file itself). Only a broken connection is an error.
func (c *Conn) announcedSize(ctx context.Context, name string) (int64, error) {
	var ce *CommandError
	feats, _, err := c.Feat(ctx)
	if errors.As(err, &ce) {
		return -1, nil
	}
	if err != nil || !HasFeature(feats, "SIZE") {
		return -1, err
	}
	n, _, err := c.Size(ctx, name)
	if errors.As(err, &ce) {
		return -1, nil
	}
	return n, err
}

// A Download is the body of a Fetch: the file's bytes, counted, and
// checked at their end against the size announced before the transfer.
// Close reads the transfer's final reply (RFC 959 §5.4).
type Download struct {
	body io.ReadCloser
	// Want is the count of bytes expected from the offset on, -1 when no
	// size was announced.
	Want int64
	// Size is the count the server announced for this transfer (its 150
	// reply, else Want), -1 when none.
	Size   int64
	n      int64
	offset int64
	err    error
}

// Received returns the bytes read so far.
func (d *Download) Received() int64 { return d.n }

// check compares the bytes received with the size announced: fewer at
// the end is a transfer cut short, even when the server's final reply
// said it was complete; more at any time is ErrLongTransfer.
func (d *Download) check(err error) error {
	switch {
	case d.Want < 0:
	case d.n > d.Want && d.offset > 0:
		return fmt.Errorf("ftp: %w: after REST %d, %d bytes came, though SIZE said %d in all: the server did not resume where asked", ErrLongTransfer, d.offset, d.n, d.offset+d.Want)
	case d.n > d.Want:
		return fmt.Errorf("ftp: %w: %d bytes came, though SIZE said %d", ErrLongTransfer, d.n, d.Want)
	case err == io.EOF && d.n < d.Want:
		return fmt.Errorf("ftp: %w: %d bytes received, though SIZE said %d", ErrShortTransfer, d.n, d.Want)
	}
	return err
}

func (d *Download) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	n, err := d.body.Read(p)
	d.n += int64(n)
	if d.Want >= 0 && d.n > d.Want {
		// Not one byte beyond the size announced reaches the caller.
		n -= int(d.n - d.Want)
		d.err = d.check(err)
		return n, d.err
	}
	return n, d.check(err)
}

// WriteTo hands the copy to the transfer body's own (large buffers, or a
// splice into a file).
func (d *Download) WriteTo(w io.Writer) (int64, error) {
	wt, ok := d.body.(io.WriterTo)
	if !ok {
		return io.Copy(w, struct{ io.Reader }{d})
	}
	n, err := wt.WriteTo(w)
	d.n += n
	if err == nil || (d.Want >= 0 && d.n > d.Want) {
		if err = d.check(io.EOF); err == io.EOF {
			err = nil
		}
	}
	return n, err
}

// Close ends the transfer: it reads the final reply.
func (d *Download) Close() error { return d.body.Close() }
