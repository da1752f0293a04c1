package linkcheck

import (
	"context"
	"errors"
	"fmt"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
)

// checkFTP checks an ftp URL on a pooled login: one login per host and
// user serves all its URLs. A kept login that the server has since
// dropped (or answers 421) is replaced by a fresh one, once per idle
// login.
func (k *Checker) checkFTP(ctx context.Context, u rfc1738.URL) outcome {
	f, _ := u.FTP()
	// §3.2.1: the login.
	user, password, ask := f.Login(k.Client.Email)
	cred := ftp.Credentials{User: user, Password: password, HasPassword: !ask}
	for tries := 0; ; tries++ {
		pc, err := k.FTP.Get(ctx, u.HostPort(), cred)
		if err != nil {
			if errors.Is(err, ftp.ErrPasswordRequired) {
				return skipped("the server asks for a password and the URL has none (§3.2.1)")
			}
			return broken(err)
		}
		o := ftpProbe(ctx, pc, f)
		stale := pc.Reused && (!pc.Usable() || ftpCode(o.err) == 421) && tries <= k.PerHost
		if !stale {
			k.FTP.Put(ctx, pc)
		} else {
			pc.Conn.Close()
			continue
		}
		if o.err != nil {
			out := broken(o.err)
			if o.what != "" {
				out.detail = o.what + ": " + out.detail
			}
			return out
		}
		return okay("%s", o.what)
	}
}

// probe is what ftpProbe found: err nil and what it is, or the error.
type probe struct {
	what string
	err  error
}

// ftpProbe runs the §3.2.2 CWD sequence and the lightest proof of the
// object: SIZE (RFC 3659) for a file, falling back to MDTM and then to a
// RETR closed at its 150 reply; CWD for a directory.
func ftpProbe(ctx context.Context, pc *ftp.PooledConn, f rfc1738.FTP) probe {
	// §3.2.2: each <cwd> segment, decoded, is its own CWD, in order.
	for _, dir := range f.Cwd {
		if _, err := pc.Cwd(ctx, dir); err != nil {
			return probe{err: err}
		}
	}
	if f.Name == "" {
		// §3.2.2: an empty <name> is the directory the CWDs reached.
		return probe{what: "directory"}
	}
	if f.IsDirectory() {
		// ;type=d: the name is listed (NLST); a directory answers CWD.
		if _, err := pc.Cwd(ctx, f.Name); err == nil {
			return probe{what: "directory"}
		} else if !refused(err) {
			return probe{err: err}
		}
	}
	if err := pc.Binary(ctx); err != nil && !refused(err) {
		return probe{err: err}
	}
	size, _, err := pc.Size(ctx, f.Name)
	if err == nil {
		if size >= 0 {
			return probe{what: fmt.Sprintf("file, %d bytes", size)}
		}
		return probe{what: "file"}
	}
	if !refused(err) || ftpCode(err)/100 == 4 {
		// Not a refusal, or a transient one (RFC 959 §4.2: 4yz): the
		// fallbacks would not learn more.
		return probe{err: err}
	}
	if notImplemented(err) {
		// RFC 3659 is an extension: an older server may know MDTM only,
		// or neither; then the RETR is opened and dropped at its 150.
		_, _, merr := pc.Mdtm(ctx, f.Name)
		switch {
		case merr == nil:
			return probe{what: "file"}
		case !refused(merr):
			return probe{err: merr}
		case notImplemented(merr):
			body, size, rerr := pc.Retr(ctx, f.Name)
			if rerr != nil {
				return probe{err: rerr}
			}
			if cerr := body.Close(); cerr != nil && !refused(cerr) {
				return probe{err: cerr}
			}
			if size >= 0 {
				return probe{what: fmt.Sprintf("file, %d bytes (RETR aborted after 150)", size)}
			}
			return probe{what: "file (RETR aborted after 150)"}
		}
		err = merr
	}
	// A name without ;type=d may still be a directory (§3.2.3 leaves the
	// type to the client): SIZE refuses it, CWD accepts it.
	if _, cerr := pc.Cwd(ctx, f.Name); cerr == nil {
		return probe{what: "directory"}
	} else if !refused(cerr) {
		return probe{err: cerr}
	}
	return probe{err: err}
}

// refused reports a server's 4xx or 5xx reply, after which the
// connection is still in step.
func refused(err error) bool { return ftpCode(err) != 0 }

// notImplemented reports a 500, 501 or 502: the server does not know the
// command (RFC 959 §4.2), which says nothing about the file.
func notImplemented(err error) bool {
	c := ftpCode(err)
	return c == 500 || c == 501 || c == 502
}

func ftpCode(err error) int {
	var ce *ftp.CommandError
	if errors.As(err, &ce) {
		return ce.Reply.Code
	}
	return 0
}
