package access

import (
	"context"
	"errors"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// An ftp login serves many files (RFC 959: a session is a login and any
// number of transfers). With FTP.Pool set, the ftp handler takes
// its connection from the pool (ftp.Pool: logged in, in the login
// directory, where a plan's CWDs start, §3.2.2) and gives it back after
// the transfer instead of the plan's QUIT; the plan's USER and PASS are
// then the pool's. A kept connection the server has closed in the
// meantime costs one failed command, then the plan runs once more.

// ftpState is how the plan's connection ends.
type ftpState struct {
	pool   *ftp.Pool // nil: QUIT at the end
	pc     *ftp.PooledConn
	reused bool // the pool gave a connection that served an earlier URL
}

// end ends the plan's use of conn after err: with a pool, the connection
// goes back to it (Put closes one an error left out of step, and takes
// one that is fine home first); else QUIT.
func (st ftpState) end(ctx context.Context, conn *ftp.Conn, err error) {
	if st.pool != nil {
		if err != nil && !ftpAnswered(err) {
			conn.Close()
		}
		st.pool.Put(context.WithoutCancel(ctx), st.pc)
		return
	}
	ftpQuit(ctx, conn)
}

// ftpAnswered reports whether err is the server's answer (a reply code)
// rather than a broken connection; a 421 ("service not available,
// closing control connection", RFC 959 §4.2) is how a server ends an
// idle one, so it counts as broken.
func ftpAnswered(err error) bool {
	var ce *ftp.CommandError
	return errors.As(err, &ce) && ce.Reply.Code != 421
}
