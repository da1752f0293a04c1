package ftp

import (
	"context"
	"fmt"
	"io"
	"strconv"
)

// RetrFrom retrieves a file from byte offset on: "REST <offset>" (RFC
// 3659 §5, the restart of stream mode; RFC 959 §4.1.3 gives REST for the
// other modes), then RETR as Retr does. An offset of 0 is Retr. The
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
	if _, err := c.Rest(ctx, offset); err != nil {
		return nil, -1, err
	}
	b, err := c.open(ctx, "RETR", name, true)
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

// Rest sends "REST <offset>" (RFC 3659 §5) and returns the 350 reply. The
// next RETR then starts at that byte; RetrFrom is the usual way to use it.
func (c *Conn) Rest(ctx context.Context, offset int64) (Reply, error) {
	return c.simple(ctx, "REST", strconv.FormatInt(offset, 10), true, func(code int) bool { return code == 350 })
}
