package ftp

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/textproto"
	"strings"
	"sync"
	"time"
)

// DefaultMaxIdlePerLogin is the number of idle connections a Pool keeps
// per login when Pool.MaxIdlePerLogin is zero.
const DefaultMaxIdlePerLogin = 2

// DefaultIdleTimeout is how long a Pool keeps an idle connection when
// Pool.IdleTimeout is zero: well under the 300 s after which vsftpd
// (idle_session_timeout) and most servers drop an idle session.
const DefaultIdleTimeout = 90 * time.Second

// A Pool keeps logged-in control connections for reuse, as net/http's
// Transport keeps idle connections: one login serves many URLs of the same
// server and user. Connections are keyed by address, user and password
// (the password as a hash, never kept in clear). Its zero value works;
// it is safe for concurrent use.
//
// Get returns an idle connection of the login, or dials and logs in; Put
// hands it back once the caller is done, after returning it to the login
// directory (RFC 1738 §3.2.2 reads every URL's <cwd> sequence from
// there).
type Pool struct {
	// Config is used for the connections the pool dials.
	Config Config
	// MaxIdlePerLogin bounds the idle connections kept per login; zero
	// means DefaultMaxIdlePerLogin, a negative value keeps none.
	MaxIdlePerLogin int
	// IdleTimeout closes a connection idle for longer; zero means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration
	// StayInDirectory keeps a connection Put back in the directory it was
	// in, rather than taking it home at once: GetIn then gives a
	// connection already in the directory asked for without a CWD, so
	// the files of one directory cost no CWD between them (a mirror's
	// walk). Get and GetIn go home first when they must.
	StayInDirectory bool

	mu     sync.Mutex
	idle   map[loginKey][]*PooledConn
	closed bool
}

type loginKey struct {
	addr, user string
	pass       [sha256.Size]byte
}

// A PooledConn is a logged-in connection taken from a Pool: a *Conn that
// knows its login directory and whether it left it.
type PooledConn struct {
	*Conn
	// Home is the login directory (from PWD), "" when the server did not
	// say; a connection that left an unknown Home is not reused.
	Home string
	// Reused reports whether the connection served an earlier Get.
	Reused bool
	// Login is the final reply of the login (230 or 202).
	Login Reply

	key    loginKey
	since  time.Time
	binary bool
	at     string // with StayInDirectory: the directory it is in (dirKey), when cwds still says so
	cwds   int    // the connection's CWD count when at was set
}

// dirKey names the directory a §3.2.2 CWD sequence from the login
// directory reaches; "\x00" stands for the login directory itself.
func dirKey(dirs []string) string { return "\x00" + strings.Join(dirs, "\x00") }

// Get returns a logged-in connection to addr for cred: an idle one when
// the pool has it, else a new one (Dial, Login and PWD). The caller
// returns it with Put, or closes it.
func (p *Pool) Get(ctx context.Context, addr string, cred Credentials) (*PooledConn, error) {
	addr = withDefaultPort(addr)
	key := loginKey{addr: addr, user: cred.User}
	if cred.User == "" {
		key.user = "anonymous"
	}
	key.pass = sha256.Sum256([]byte(cred.Password))
	if pc := p.take(key, dirKey(nil)); pc != nil {
		pc.Reused = true
		if err := pc.home(ctx); err != nil {
			pc.quit()
			return p.Get(ctx, addr, cred)
		}
		return pc, nil
	}
	c, err := Dial(ctx, addr, p.Config)
	if err != nil {
		return nil, err
	}
	rep, err := c.Login(ctx, cred)
	if err != nil {
		c.Close()
		return nil, err
	}
	pc := &PooledConn{Conn: c, Login: rep, key: key}
	// RFC 959 §4.1.3 PWD: the login directory, to come back to. A server
	// that refuses PWD leaves Home empty; the connection still serves one
	// URL.
	if home, _, err := c.Pwd(ctx); err == nil {
		pc.Home = home
	} else if !isRefusal(err) {
		c.Close()
		return nil, err
	}
	return pc, nil
}

// GetIn is Get for a connection in the directory the CWD sequence dirs
// reaches from the login directory (RFC 1738 §3.2.2: one CWD per <cwd>,
// in order): with StayInDirectory, an idle one already there sends no
// command; another goes home first, then sends the CWDs. A refused CWD
// is returned with the connection, for the caller to Put.
func (p *Pool) GetIn(ctx context.Context, addr string, cred Credentials, dirs []string) (*PooledConn, error) {
	want := dirKey(dirs)
	var pc *PooledConn
	if p.StayInDirectory {
		k := loginKey{addr: withDefaultPort(addr), user: cred.User, pass: sha256.Sum256([]byte(cred.Password))}
		if cred.User == "" {
			k.user = "anonymous"
		}
		if pc = p.take(k, want); pc != nil {
			pc.Reused = true
			if pc.in(want) {
				return pc, nil
			}
			if err := pc.home(ctx); err != nil {
				pc.quit()
				pc = nil
			}
		}
	}
	if pc == nil {
		var err error
		if pc, err = p.Get(ctx, addr, cred); err != nil {
			return nil, err
		}
	}
	for _, dir := range dirs {
		if _, err := pc.Cwd(ctx, dir); err != nil {
			return pc, err
		}
	}
	pc.at, pc.cwds = want, pc.Conn.cwds
	return pc, nil
}

// in reports whether the connection is known to be in directory key.
func (pc *PooledConn) in(key string) bool {
	return pc.at == key && pc.cwds == pc.Conn.cwds
}

// home takes a connection that left the login directory back to it.
func (pc *PooledConn) home(ctx context.Context) error {
	if !pc.Conn.moved || pc.in(dirKey(nil)) {
		return nil
	}
	if pc.Home == "" {
		return errors.New("ftp: the login directory is unknown (no PWD)")
	}
	if _, err := pc.Conn.Cwd(ctx, pc.Home); err != nil {
		return err
	}
	pc.Conn.moved = false
	pc.at, pc.cwds = dirKey(nil), pc.Conn.cwds
	return nil
}

// take pops an idle connection of key, the most recently used one in
// directory at if there is one, else the most recently used; it closes
// those idle for too long.
func (p *Pool) take(key loginKey, at string) *PooledConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	timeout := p.IdleTimeout
	if timeout <= 0 {
		timeout = DefaultIdleTimeout
	}
	list := p.idle[key]
	for i := len(list) - 1; i >= 0 && at != dirKey(nil); i-- {
		if pc := list[i]; pc.in(at) && time.Since(pc.since) <= timeout {
			p.idle[key] = append(list[:i:i], list[i+1:]...)
			return pc
		}
	}
	for len(list) > 0 {
		pc := list[len(list)-1]
		list = list[:len(list)-1]
		p.idle[key] = list
		if time.Since(pc.since) > timeout {
			go pc.Conn.Close()
			continue
		}
		return pc
	}
	return nil
}

// Binary sends TYPE I once per connection: SIZE is refused under TYPE A
// by some servers (vsftpd), and RFC 3659 §4 defines it for TYPE I.
func (pc *PooledConn) Binary(ctx context.Context) error {
	if pc.binary {
		return nil
	}
	_, err := pc.Type(ctx, "I")
	pc.binary = err == nil
	return err
}

// Usable reports whether the connection can run another command: no
// earlier network or protocol error, not closed, no transfer open.
func (pc *PooledConn) Usable() bool {
	c := pc.Conn
	return c.broken == nil && !c.closed.Load() && c.body == nil
}

// Put returns pc to the pool: back to the login directory first (CWD
// Home) when it left it. A connection that is unusable, cannot go home, or
// finds the pool full is closed (with QUIT when it is healthy).
func (p *Pool) Put(ctx context.Context, pc *PooledConn) {
	if !pc.Usable() {
		pc.Conn.Close()
		return
	}
	switch {
	case p.StayInDirectory && pc.cwds == pc.Conn.cwds && pc.at != "":
		// Left where it is, for the next URL of the same directory.
	case pc.Conn.moved:
		if pc.Home == "" {
			pc.quit()
			return
		}
		if _, err := pc.Conn.Cwd(ctx, pc.Home); err != nil {
			pc.quit()
			return
		}
		pc.Conn.moved = false
		pc.at, pc.cwds = dirKey(nil), pc.Conn.cwds
	}
	max := p.MaxIdlePerLogin
	if max == 0 {
		max = DefaultMaxIdlePerLogin
	}
	p.mu.Lock()
	if p.closed || len(p.idle[pc.key]) >= max {
		p.mu.Unlock()
		pc.quit()
		return
	}
	if p.idle == nil {
		p.idle = map[loginKey][]*PooledConn{}
	}
	pc.since = time.Now()
	p.idle[pc.key] = append(p.idle[pc.key], pc)
	p.mu.Unlock()
}

// quit sends QUIT within a short time and closes.
func (pc *PooledConn) quit() {
	if !pc.Usable() {
		pc.Conn.Close()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	pc.Conn.Quit(ctx)
}

// Close sends QUIT on every idle connection and closes it; connections
// handed out and Put later are closed then.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, list := range idle {
		for _, pc := range list {
			wg.Add(1)
			go func() { defer wg.Done(); pc.quit() }()
		}
	}
	wg.Wait()
	return nil
}

// isRefusal reports a server's 4xx/5xx answer, after which the
// connection is still in step.
func isRefusal(err error) bool {
	var te *textproto.Error
	return errors.As(err, &te)
}
