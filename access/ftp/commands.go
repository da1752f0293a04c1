package ftp

import (
	"context"
	"fmt"
)

// AnonymousPassword is sent as the password of an anonymous login when
// Credentials.Password is empty. RFC 1738 §3.2.1 asks for the user's
// e-mail address; callers that know it should set it.
const AnonymousPassword = "anonymous@"

// Credentials say how to log in (RFC 1738 §3.2.1).
//
// The zero value logs in anonymously: USER anonymous, then, if the
// server asks (331), PASS with Password or AnonymousPassword.
//
// With a User, Password is sent when HasPassword is true (it may be
// empty: the URL "ftp://me:@host/" has an empty password). When
// HasPassword is false and the server asks for one, AskPassword is
// called ("the program interpreting the FTP URL should request one from
// the user"); if it is nil, Login fails with ErrPasswordRequired.
type Credentials struct {
	User        string
	Password    string
	HasPassword bool
	AskPassword func() (string, error)
}

// Login sends USER and, when the server asks for it (331), PASS
// (RFC 959 §4.1.1, the login sequence of §5.4). It returns the final
// reply: 230, or 202 to PASS. A 332 (account needed) is
// ErrAccountRequired; 4xx/5xx are *textproto.Error. The password never
// appears in a trace or an error.
func (c *Conn) Login(ctx context.Context, cred Credentials) (Reply, error) {
	user, pass, hasPass := cred.User, cred.Password, cred.HasPassword
	if user == "" {
		user, hasPass = "anonymous", true
		if pass == "" {
			pass = AnonymousPassword
		}
	}
	// RFC 4217 §12.1: with SecurityRequire, no login goes out unprotected.
	if c.cfg.Security == SecurityRequire && !c.Protection().Control {
		return Reply{}, fmt.Errorf("ftp: USER %s: not sent: %w", user, ErrTLSRequired)
	}
	// Refuse everything before the first byte is sent.
	if err := checkArg("USER", user); err != nil {
		return Reply{}, err
	}
	if hasPass {
		if err := checkArg("PASS", pass); err != nil {
			return Reply{}, err
		}
	}
	rep, err := c.simple(ctx, "USER", user, true, func(code int) bool {
		return code == 230 || code == 331 || code == 332
	})
	if err != nil || rep.Code == 230 {
		return rep, err
	}
	if rep.Code == 332 {
		return rep, fmt.Errorf("ftp: USER %s: %s: %w", user, rep, ErrAccountRequired)
	}
	// 331: user name okay, need password.
	if !hasPass {
		if cred.AskPassword == nil {
			return rep, fmt.Errorf("ftp: USER %s: %s: %w", user, rep, ErrPasswordRequired)
		}
		if pass, err = cred.AskPassword(); err != nil {
			return rep, fmt.Errorf("ftp: USER %s: asking for the password: %w", user, err)
		}
	}
	rep, err = c.simple(ctx, "PASS", pass, true, func(code int) bool {
		return code == 230 || code == 202 || code == 332
	})
	if err == nil && rep.Code == 332 {
		err = fmt.Errorf("ftp: PASS ****: %s: %w", rep, ErrAccountRequired)
	}
	return rep, err
}

// Cwd sends exactly "CWD <dir>" and returns the reply (250 expected;
// RFC 959 §4.1.1). RFC 1738 §3.2.2 sends each <cwd> segment, decoded,
// as its own CWD, in order.
//
// An empty dir is sent as "CWD " with the space: RFC 1738 §3.2.2 asks
// for "CWD" with a null argument (ftp://host//etc/motd), and RFC 959's
// grammar is "CWD <SP> <pathname>", so the verb, the SP, then the empty
// pathname. Servers differ: vsftpd answers 550 and proftpd 501 (with or
// without the space), pure-ftpd goes to the login directory.
func (c *Conn) Cwd(ctx context.Context, dir string) (Reply, error) {
	c.moved = true
	c.cwds++
	return c.simple(ctx, "CWD", dir, true, func(code int) bool { return code/100 == 2 })
}

// Type sends "TYPE <t>" (RFC 959 §4.1.2, 200 expected). RFC 1738 §3.2.2
// uses "A" for ;type=a and "I" for ;type=i. After a TYPE I, a transfer
// that ends short of the size announced in its 150 reply is an error.
func (c *Conn) Type(ctx context.Context, t string) (Reply, error) {
	rep, err := c.simple(ctx, "TYPE", t, true, func(code int) bool { return code/100 == 2 })
	if err == nil {
		c.binary = t == "I" || t == "i"
	}
	return rep, err
}
