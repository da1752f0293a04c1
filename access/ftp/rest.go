package ftp

import (
	"context"
	"fmt"
	"io"
	"strconv"
)

// RetrFrom retrieves a file from byte offset on: as Retr, with
// "REST <offset>" (RFC 3659 §5, the restart of stream mode) between the
// EPSV or PASV and the RETR, which it must immediately precede. An offset of 0 is Retr. The
// server must answer REST with 350; a refusal (500, 502, 504 …) is the
// *CommandError of REST, and nothing was retrieved, so the caller may
// fetch the whole file instead.
//
// RFC 3659 §5.3 defines the offset for TYPE I only (under TYPE A it is
// in the server's own representation); RetrFrom refuses it after any
// other TYPE.
//
// size is the count of bytes still to come, when the 150 reply announced
// a size: servers such as vsftpd and proftpd announce the whole file's
// size, so it is that less offset. A body shorter than that is
// ErrShortTransfer, as for Retr.
func (c *Conn) RetrFrom(ctx context.Context, name string, offset int64) (body io.ReadCloser, size int64, err error) {
	if offset == 0 {
		return c.Retr(ctx, name)
	}
	if offset < 0 {
		return nil, -1, fmt.Errorf("ftp: REST %d: a negative offset", offset)
	}
	if !c.binary {
		return nil, -1, fmt.Errorf("ftp: REST %d: a restart offset is defined for TYPE I only (RFC 3659 §5.3)", offset)
	}
	b, err := c.open(ctx, "RETR", name, true, offset)
	if err != nil {
		return nil, -1, err
	}
	if b.size >= offset {
		b.size -= offset
	} else {
		// An announced size below the offset counts what is left (or is
		// wrong): it is not checked.
		b.size = -1
	}
	return b, b.size, nil
}

// restart sends "REST <offset>" inside open, once the data connection
// is up, and wants 350. On a refusal the data connection is closed and
// the control connection stays usable.
func (c *Conn) restart(ctx context.Context, w *watcher, offset int64) error {
	arg := strconv.FormatInt(offset, 10)
	rep, err := c.roundTrip("REST", arg, true)
	if err != nil {
		w.done()
		err = wrapIO("REST "+arg, ctxErr(ctx, err))
		c.fail(err)
		return err
	}
	if err := replyErr("REST "+arg, rep, func(code int) bool { return code == 350 }); err != nil {
		w.done()
		c.closeDC()
		return err
	}
	return nil
}
