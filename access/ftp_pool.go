package access

import (
	"context"
	"sync"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// An ftp login serves many files (RFC 959: a session is a login and any
// number of transfers). With Client.MaxIdleFTP set, a connection whose
// transfer completed is kept, logged in, for the next URL of the same
// login (host, port, user, password), as net/http's Transport keeps idle
// connections; the next plan then skips USER and PASS and first goes
// back to the login directory (learnt with PWD after the login), where
// its CWDs start (§3.2.2). A kept connection the server has closed in
// the meantime costs one failed command, then a new login.

// ftpState is what a connection carries between plans.
type ftpState struct {
	home   string // the directory after the login, "" when unknown
	moved  bool   // a CWD was sent since the login
	reused bool   // taken from the idle pool for this plan

	pool *Client // where to put the connection back after the transfer; nil: QUIT
	key  string
}

// ftpIdleConn is a logged-in connection waiting in the pool.
type ftpIdleConn struct {
	conn  *ftp.Conn
	state ftpState
}

// ftpPool holds the idle connections by login.
type ftpPool struct {
	mu   sync.Mutex
	idle map[string][]*ftpIdleConn
}

// ftpLoginKey names a login: the address and the USER and PASS steps'
// arguments (an asked password is not known before; the user is).
func ftpLoginKey(p *Plan) string {
	key := p.Connect
	for _, s := range p.Steps {
		switch s.Verb {
		case "USER", "PASS":
			key += "\x00" + s.Verb + " " + s.Arg
		}
	}
	return key
}

// ftpTake returns an idle connection of the login key, or nil.
func (c *Client) ftpTake(key string) *ftpIdleConn {
	c.ftpIdle.mu.Lock()
	defer c.ftpIdle.mu.Unlock()
	list := c.ftpIdle.idle[key]
	for len(list) > 0 {
		ic := list[len(list)-1]
		list = list[:len(list)-1]
		c.ftpIdle.idle[key] = list
		if ic.conn.Idle() {
			return ic
		}
		ic.conn.Close()
	}
	return nil
}

// ftpPut keeps an idle connection, or ends it with QUIT when the login
// has MaxIdleFTP waiting already.
func (c *Client) ftpPut(key string, ic *ftpIdleConn) {
	c.ftpIdle.mu.Lock()
	if c.ftpIdle.idle == nil {
		c.ftpIdle.idle = map[string][]*ftpIdleConn{}
	}
	if len(c.ftpIdle.idle[key]) < c.MaxIdleFTP {
		c.ftpIdle.idle[key] = append(c.ftpIdle.idle[key], ic)
		c.ftpIdle.mu.Unlock()
		return
	}
	c.ftpIdle.mu.Unlock()
	ftpQuit(context.Background(), ic.conn)
}

// CloseIdleConnections ends the connections kept for reuse (ftp: QUIT,
// briefly).
func (c *Client) CloseIdleConnections() {
	c.ftpIdle.mu.Lock()
	idle := c.ftpIdle.idle
	c.ftpIdle.idle = nil
	c.ftpIdle.mu.Unlock()
	for _, list := range idle {
		for _, ic := range list {
			ftpQuit(context.Background(), ic.conn)
		}
	}
}

// end ends the plan's use of conn after err: a refusal the server
// answered (a 550 for a missing file) leaves the login usable, so the
// connection goes back to the pool when there is one; else QUIT.
func (st ftpState) end(ctx context.Context, conn *ftp.Conn, err error) {
	if st.pool != nil && ftpAnswered(err) && conn.Idle() {
		st.pool.ftpPut(st.key, &ftpIdleConn{conn: conn, state: ftpState{home: st.home, moved: true}})
		return
	}
	ftpQuit(ctx, conn)
}
