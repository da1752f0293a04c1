package ftp

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"time"
)

// Security says whether a connection protects itself with TLS, as RFC
// 4217 (explicit FTP over TLS, through RFC 2228's AUTH, PBSZ and PROT)
// describes.
type Security uint8

const (
	// SecurityNone is RFC 959 in clear: no TLS is asked for.
	SecurityNone Security = iota
	// SecurityTry secures the session when the server agrees: AUTH TLS,
	// PBSZ 0, PROT P, sent whether or not FEAT lists AUTH (RFC 4217 §4:
	// a client that wants protection sends AUTH; FEAT only advertises it,
	// and a server, or anyone on the path, that leaves it out must not
	// get the login in clear for it). When the server refuses a step the
	// session goes on with what it has, in clear when AUTH TLS was
	// refused, and Config.Warn is told (curl --ssl).
	SecurityTry
	// SecurityRequire sends AUTH TLS, PBSZ 0 and PROT P, and fails unless
	// the control connection and every data connection are protected:
	// no USER or PASS is sent otherwise (curl --ssl-reqd).
	SecurityRequire
)

// ErrTLSRequired is matched (errors.Is) by the error of a connection that
// Config.Security requires to be protected and is not: the server does not
// speak AUTH TLS, or refused PBSZ or PROT P.
var ErrTLSRequired = errors.New("the session must be protected with TLS (RFC 4217) and the server does not protect it")

// Protection says what TLS protects on a connection.
type Protection struct {
	Control bool // the control connection is TLS (AUTH TLS, RFC 4217 §4)
	Data    bool // data connections are TLS too (PROT P, RFC 4217 §9)
	// Version is the control connection's TLS version, e.g. "TLS 1.3".
	Version string
}

// Protection returns what TLS protects on c.
func (c *Conn) Protection() Protection {
	p := Protection{Data: c.dataTLS != nil}
	if tc, ok := c.nc.(*tls.Conn); ok {
		p.Control = true
		p.Version = tls.VersionName(tc.ConnectionState().Version)
	}
	return p
}

// secure runs RFC 4217's steps right after the greeting, as its §12.1 shows
// a session: AUTH TLS (234), the TLS handshake on the control connection,
// PBSZ 0 and PROT P (both 200), before USER; so that with
// SecurityRequire no login goes out in clear.
func (c *Conn) secure(ctx context.Context, addr string) error {
	mode := c.cfg.Security
	// RFC 4217 §4: "AUTH TLS"; 234 means the TLS negotiation starts.
	if _, err := c.simple(ctx, "AUTH", "TLS", true, func(code int) bool { return code == 234 }); err != nil {
		if mode == SecurityTry && isRefusal(err) {
			c.warn("AUTH TLS refused (" + err.Error() + "): the session, login and password included, goes on in clear")
			return nil
		}
		return requiredErr(mode, err)
	}
	// Nothing may come between the 234 and the handshake: bytes already
	// buffered were sent in clear by someone, and would be read as if
	// protected (the STARTTLS injection of RFC 3207 §6, CVE-2011-0411).
	if n := c.r.Buffered(); n > 0 {
		err := protoErr("AUTH TLS", fmt.Sprintf("%d bytes arrived after the 234 reply, before the TLS handshake", n), "", nil)
		c.fail(err)
		return err
	}
	cfg := c.tlsConfig(addr)
	tc := tls.Client(c.nc, cfg)
	w := c.watch(ctx)
	err := tc.HandshakeContext(ctx)
	w.done()
	if err != nil {
		err = fmt.Errorf("ftp: AUTH TLS: handshake with %s: %w", cfg.ServerName, ctxErr(ctx, err))
		c.fail(err)
		return err
	}
	_ = tc.SetDeadline(time.Time{})
	c.nc = tc
	c.r = bufio.NewReaderSize(tc, c.cfg.MaxLineLength+2)
	c.note(fmt.Sprintf("%s with %s: the control connection is protected", tls.VersionName(tc.ConnectionState().Version), cfg.ServerName))

	// RFC 4217 §9 (after RFC 2228): PBSZ 0 precedes PROT; TLS has no buffer.
	if _, err := c.simple(ctx, "PBSZ", "0", true, func(code int) bool { return code/100 == 2 }); err != nil {
		return c.clearData(mode, err)
	}
	// RFC 4217 §9: PROT P, every data connection is TLS.
	if _, err := c.simple(ctx, "PROT", "P", true, func(code int) bool { return code/100 == 2 }); err != nil {
		return c.clearData(mode, err)
	}
	c.dataTLS = cfg
	return nil
}

// clearData handles a refused PBSZ or PROT: data stays in clear, which
// SecurityRequire does not allow.
func (c *Conn) clearData(mode Security, err error) error {
	if mode == SecurityTry && isRefusal(err) {
		c.warn("data connections stay in clear: " + err.Error())
		return nil
	}
	return requiredErr(mode, err)
}

// requiredErr marks a refusal under SecurityRequire as ErrTLSRequired.
func requiredErr(mode Security, err error) error {
	if mode == SecurityRequire && isRefusal(err) {
		return fmt.Errorf("%w: %w", ErrTLSRequired, err)
	}
	return err
}

// tlsConfig is the configuration of the control connection and of every
// data connection of c: ServerName is the host of addr unless set (it is
// the name the certificate must hold, and the key under which Go keeps
// the session to resume), and one ClientSessionCache serves them all, so
// that the data connections resume the control connection's session
// (RFC 4217 §10.2; vsftpd's require_ssl_reuse refuses any other).
func (c *Conn) tlsConfig(addr string) *tls.Config {
	var cfg *tls.Config
	if c.cfg.TLS != nil {
		cfg = c.cfg.TLS.Clone()
	} else {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	if cfg.ClientSessionCache == nil {
		cfg.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	}
	if cfg.MinVersion == 0 {
		cfg.MinVersion = tls.VersionTLS12
	}
	return cfg
}

// warn tells Config.Warn, and the trace, that the session is less
// protected than asked for.
func (c *Conn) warn(s string) {
	c.note(s)
	if c.cfg.Warn != nil {
		c.cfg.Warn(s)
	}
}

// note sends a client note to the trace.
func (c *Conn) note(s string) {
	if c.cfg.Trace != nil {
		c.cfg.Trace('!', s)
	}
}

// dataHandshake runs the TLS handshake of a protected data connection once
// the server has answered the transfer command with 1xx (vsftpd accepts
// TLS on the data connection only then), and checks that it resumed the
// control connection's session. A failed handshake is reported with the
// server's final reply when one comes (vsftpd: "522 SSL connection
// failed: session reuse required").
func (c *Conn) dataHandshake(ctx context.Context, dc net.Conn, line string) error {
	tc, ok := dc.(*tls.Conn)
	if !ok {
		return nil
	}
	err := tc.HandshakeContext(ctx)
	if err == nil {
		if tc.ConnectionState().DidResume {
			c.note("data connection: TLS, the control connection's session resumed")
		} else {
			c.note("data connection: TLS, a new session (the server did not resume the control connection's)")
		}
		return nil
	}
	err = fmt.Errorf("ftp: %s: data connection: TLS handshake: %w", line, ctxErr(ctx, err))
	c.closeDC()
	if rep, rerr := c.readReply(line); rerr == nil && rep.Code >= 400 {
		return fmt.Errorf("%w (the server said %s)", err, rep)
	}
	c.fail(err)
	return err
}
