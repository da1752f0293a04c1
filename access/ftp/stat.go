package ftp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A Probe is what Stat learned of a name.
type Probe struct {
	Dir  bool
	Size int64     // -1 when unknown
	Time time.Time // zero when unknown
	// Aborted reports that only a RETR, closed at its 150 reply, proved
	// the file: the server knows neither SIZE nor MDTM.
	Aborted bool
}

// String says what the probe proved: "directory", "file, 12 bytes",
// "file (RETR aborted after 150)".
func (p Probe) String() string {
	s := "file"
	switch {
	case p.Dir:
		return "directory"
	case p.Size >= 0:
		s = fmt.Sprintf("file, %d bytes", p.Size)
	}
	if p.Aborted {
		s += " (RETR aborted after 150)"
	}
	return s
}

// Stat proves, with the lightest exchange that does, that name in the
// current directory is a file or a directory, without transferring it:
// SIZE (RFC 3659 §4) for a file, falling back to MDTM (§3) and then to a
// RETR closed at its 150 reply on a server that knows neither; CWD for a
// directory, tried first when dir says the URL names one (;type=d,
// RFC 1738 §3.2.2). A name SIZE refuses may still be a directory (§3.2.3
// leaves the type to the client): CWD tells. A CWD that succeeds leaves
// the connection in that directory. The error is the server's refusal
// (a *CommandError) or a broken connection.
func (c *Conn) Stat(ctx context.Context, name string, dir bool) (Probe, error) {
	if dir {
		if _, err := c.Cwd(ctx, name); err == nil {
			return Probe{Dir: true, Size: -1}, nil
		} else if !isRefusal(err) {
			return Probe{}, err
		}
	}
	if !c.binary {
		// SIZE is refused under TYPE A by some servers (vsftpd), and
		// RFC 3659 §4 defines it for TYPE I.
		if _, err := c.Type(ctx, "I"); err != nil && !isRefusal(err) {
			return Probe{}, err
		}
	}
	size, _, err := c.Size(ctx, name)
	if err == nil {
		// SIZE answers from the directory, readable file or not (vsftpd
		// gives the size of a mode 600 file its RETR refuses).
		aborted, err := c.retrievable(ctx, name)
		if err != nil {
			return Probe{}, err
		}
		return Probe{Size: size, Aborted: aborted}, nil
	}
	if !isRefusal(err) || replyCode(err)/100 == 4 {
		// Not a refusal, or a transient one (RFC 959 §4.2: 4yz): the
		// fallbacks would not learn more.
		return Probe{}, err
	}
	if notImplemented(err) {
		// RFC 3659 is an extension: an older server may know MDTM only,
		// or neither; then the RETR is opened and dropped at its 150.
		t, _, merr := c.Mdtm(ctx, name)
		switch {
		case merr == nil:
			return Probe{Size: -1, Time: t}, nil
		case !isRefusal(merr):
			return Probe{}, merr
		case notImplemented(merr):
			body, size, rerr := c.Retr(ctx, name)
			if rerr != nil {
				return Probe{}, rerr
			}
			if cerr := body.Close(); cerr != nil && !isRefusal(cerr) {
				return Probe{}, cerr
			}
			return Probe{Size: size, Aborted: true}, nil
		}
		err = merr
	}
	if _, cerr := c.Cwd(ctx, name); cerr == nil {
		return Probe{Dir: true, Size: -1}, nil
	} else if !isRefusal(cerr) {
		return Probe{}, cerr
	}
	return Probe{}, err
}

// ErrNotRetrievable is wrapped by the error of a Stat whose file exists
// but that the server says it would not send (an MLST perm fact without
// "r").
var ErrNotRetrievable = errors.New("the file cannot be retrieved")

// retrievable proves that the file name can be retrieved, with the
// lightest exchange that does: where FEAT lists MLST, its "perm" fact
// (RFC 3659 §7.5.5: "r", RETR may be applied); else, or when the server
// gives no perm fact, a RETR closed right after its preliminary 150
// reply (RFC 959 §4.2, 1yz) — aborted reports that. A RETR refused
// (550) is the error; a perm fact without "r" is ErrNotRetrievable.
func (c *Conn) retrievable(ctx context.Context, name string) (aborted bool, err error) {
	mlst, err := c.Features(ctx)
	if err != nil {
		return false, err
	}
	if mlst {
		e, _, err := c.Mlst(ctx, name)
		var pe *ProtocolError
		switch {
		case err == nil && e.Perm != "" && strings.Contains(e.Perm, "r"):
			return false, nil
		case err == nil && e.Perm != "":
			return false, fmt.Errorf("ftp: %s: %w: perm=%s has no \"r\" (RFC 3659 §7.5.5)", redact("MLST", name, true), ErrNotRetrievable, e.Perm)
		case err != nil && !isRefusal(err) && !errors.As(err, &pe):
			return false, err
		}
		// No perm fact, or MLST refused: the RETR tells.
	}
	body, _, err := c.Retr(ctx, name)
	if err != nil {
		return false, err
	}
	if cerr := body.Close(); cerr != nil && !isRefusal(cerr) {
		return false, cerr
	}
	return true, nil
}

// notImplemented reports a 500, 501 or 502: the server does not know the
// command (RFC 959 §4.2), which says nothing about the file.
func notImplemented(err error) bool {
	c := replyCode(err)
	return c == 500 || c == 501 || c == 502
}

// replyCode returns the code of a server's refusal, or 0.
func replyCode(err error) int {
	var ce *CommandError
	if errors.As(err, &ce) {
		return ce.Reply.Code
	}
	return 0
}
