package access

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// Stat implements Stater: the plan's login and CWDs (§3.2.1, §3.2.2),
// then the lightest proof of its <name> that the server allows (see
// ftp.Conn.Stat). With FTP.Pool, a kept login the server has since
// dropped is replaced by a fresh one, as often as the pool keeps idle
// logins.
func (h FTP) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	return ftpTries(ctx, c, h.Pool, func() (*Info, error, bool) { return h.stat(ctx, c, p) })
}

// ftpTries runs once, and again while it failed on a kept login the
// server has since dropped (fresh false), as often as the pool keeps idle
// logins: each try takes another.
func ftpTries[T any](ctx context.Context, c *Client, pool *ftp.Pool, once func() (T, error, bool)) (T, error) {
	tries := 1
	if pool != nil {
		tries += max(pool.MaxIdlePerLogin, ftp.DefaultMaxIdlePerLogin)
	}
	for i := 1; ; i++ {
		v, err, fresh := once()
		if err == nil || fresh || i >= tries || ctx.Err() != nil {
			return v, err
		}
		c.trace('!', "the kept connection failed: "+err.Error()+"; trying once more")
	}
}

func (h FTP) stat(ctx context.Context, c *Client, p *Plan) (_ *Info, _ error, fresh bool) {
	s, err, fresh := h.login(ctx, c, p)
	if errors.Is(err, ftp.ErrPasswordRequired) {
		return nil, &NotVerifiedError{URL: p.URL, Reason: "the server asks for a password and the URL has none (§3.2.1)"}, true
	}
	if err != nil {
		return nil, err, fresh
	}
	var name string
	var dir bool
	for _, st := range s.steps[s.rest:] {
		switch st.Verb {
		case "RETR":
			name = st.Arg
		case "NLST":
			name, dir = st.Arg, true
		}
	}
	if name == "" {
		// §3.2.2: an empty <name> is the directory the CWDs reached.
		s.st.end(ctx, s.conn, nil)
		return &Info{Kind: KindDirectory, Size: -1, Detail: "directory"}, nil, true
	}
	probe, err := s.conn.Stat(ctx, name, dir)
	if err != nil {
		err, fresh := s.fail(ctx, p, err)
		return nil, err, fresh
	}
	s.st.end(ctx, s.conn, nil)
	info := &Info{Kind: KindFile, Size: probe.Size, Time: probe.Time, Detail: probe.String()}
	if probe.Dir {
		info.Kind = KindDirectory
	}
	return info, nil, true
}

// ModTime implements Timer: the plan's login and CWDs, then MDTM of its
// <name> (RFC 3659 §3: the time in UTC, to the second). A server that
// does not know MDTM (500-502) is ErrUnsupported.
func (h FTP) ModTime(ctx context.Context, c *Client, p *Plan) (time.Time, error) {
	return ftpTries(ctx, c, h.Pool, func() (time.Time, error, bool) { return h.modTime(ctx, c, p) })
}

func (h FTP) modTime(ctx context.Context, c *Client, p *Plan) (_ time.Time, _ error, fresh bool) {
	s, err, fresh := h.login(ctx, c, p)
	if err != nil {
		return time.Time{}, err, fresh
	}
	name := ""
	for _, st := range s.steps[s.rest:] {
		if st.Verb == "RETR" {
			name = st.Arg
		}
	}
	if name == "" {
		s.st.end(ctx, s.conn, nil)
		return time.Time{}, fmt.Errorf("%s: %w: MDTM is for a file", p.URL, ErrUnsupported), true
	}
	t, _, err := s.conn.Mdtm(ctx, name)
	var ce *ftp.CommandError
	if errors.As(err, &ce) && ce.Reply.Code >= 500 && ce.Reply.Code <= 502 {
		s.st.end(ctx, s.conn, nil)
		return time.Time{}, fmt.Errorf("%s: %w: %v", p.URL, ErrUnsupported, err), true
	}
	if err != nil {
		err, fresh := s.fail(ctx, p, err)
		return time.Time{}, err, fresh
	}
	s.st.end(ctx, s.conn, nil)
	if t.IsZero() {
		return time.Time{}, fmt.Errorf("%s: %w: MDTM gave no time", p.URL, ErrUnsupported), true
	}
	return t, nil, true
}

// NotVerifiedError is the error of a Stat that cannot prove the URL's
// object (see ErrNotVerified); it prints the URL and the reason.
type NotVerifiedError struct {
	URL    string // password redacted
	Reason string
}

func (e *NotVerifiedError) Error() string { return fmt.Sprintf("%s: %s", e.URL, e.Reason) }

// Is makes errors.Is(err, ErrNotVerified) true.
func (e *NotVerifiedError) Is(target error) bool { return target == ErrNotVerified }

// List implements Lister: the plan's login and CWDs, a CWD into its
// <name> when it has one (ftp://host/pub lists pub), then the directory
// read by ftp.DirReader — MLSD where the server has it, else LIST, else
// NLST with a CWD probe per name, each form falling back to the next when
// no line of it can be read. With FTP.Pool, a kept login the
// server has since dropped is replaced by a fresh one, as for Stat.
func (h FTP) List(ctx context.Context, c *Client, p *Plan) (*Entries, error) {
	return ftpTries(ctx, c, h.Pool, func() (*Entries, error, bool) { return h.list(ctx, c, p) })
}

func (h FTP) list(ctx context.Context, c *Client, p *Plan) (_ *Entries, _ error, fresh bool) {
	last := p.Steps[len(p.Steps)-1]
	if len(p.Steps) >= 2 {
		last = p.Steps[len(p.Steps)-2] // the step before QUIT
	}
	if last.Verb != "NLST" {
		return nil, fmt.Errorf("%s: %w: a file (RETR), not a directory; list it as ftp://…/name/ or with ;type=d", p.URL, ErrNotListable), true
	}
	var more []string
	if last.Arg != "" {
		more = append(more, last.Arg)
	}
	s, err, fresh := h.login(ctx, c, p, more...)
	if err != nil {
		return nil, err, fresh
	}
	mlsd, err := s.conn.Features(ctx)
	var dr *ftp.DirReader
	if err == nil {
		dr, err = s.conn.ReadDir(ctx, mlsd)
	}
	if err != nil {
		err, fresh := s.fail(ctx, p, err)
		return nil, err, fresh
	}
	base := ftpBaseURL(p, s.steps[:s.rest], last)
	next := func() (Entry, error) {
		e, err := dr.Next()
		var le *ftp.ListLineError
		switch {
		case errors.As(err, &le):
			return Entry{}, &LineError{Line: le.Line, Reason: "unreadable " + le.Form + " line"}
		case err != nil:
			return Entry{}, err
		}
		ent := Entry{Name: e.Name, Kind: KindFile, Size: e.Size, Time: e.Time, Precision: e.Precision}
		url, ok := ftp.ItemURL(base, e.Name)
		if ok {
			ent.URL = url
		}
		if e.IsLink {
			ent.Kind, ent.Attrs = KindLink, map[string]string{"target": e.Link}
		}
		if e.Dir {
			ent.Kind = KindDirectory
			if ok {
				ent.URL += "/"
			}
		}
		return ent, nil
	}
	closed := false
	end := func() error {
		if closed {
			return nil
		}
		closed = true
		err := dr.Close()
		s.st.end(ctx, s.conn, err)
		if err != nil {
			return fmt.Errorf("%s: %w", p.URL, err)
		}
		return nil
	}
	return NewEntries(next, end), nil, true
}
