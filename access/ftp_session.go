package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// The execution of an ftp plan on one control connection, shared by the
// ftp handler's Get, Stat and List (scheme_ftp.go, scheme_ftp_list.go):
// the login and the §3.2.2 CWD sequence (on a new connection or one of
// FTP.Pool's, see ftp_pool.go), the transfer step, and the body
// whose Close reads the final reply and sends QUIT or gives the
// connection back.
// ftpLogin returns the credentials of the plan's USER and PASS steps.
func ftpLogin(c *Client, p *Plan) ftp.Credentials {
	var cred ftp.Credentials
	for i, s := range p.Steps {
		if s.Verb != "USER" {
			continue
		}
		cred.User = s.Arg
		if i+1 < len(p.Steps) && p.Steps[i+1].Verb == "PASS" {
			pass := p.Steps[i+1]
			if pass.Placeholder == ftpPlaceholderAsked {
				cred.AskPassword = ftpAskPassword(c, s.Arg, p)
			} else {
				cred.Password, cred.HasPassword = pass.Arg, true
			}
		}
		break
	}
	return cred
}

// ftpSession is a plan's connection once its login and CWD steps ran:
// the steps that remain start at rest.
type ftpSession struct {
	conn  *ftp.Conn
	st    ftpState
	steps []Step // the plan's steps
	rest  int    // the index of the first step after the login and the CWDs
}

// fail ends the session after err and returns err naming the URL, and
// whether a new connection may do better (see get).
func (s *ftpSession) fail(ctx context.Context, p *Plan, err error) (error, bool) {
	s.st.end(ctx, s.conn, err)
	return fmt.Errorf("%s: %w", p.URL, err), !(s.st.reused && !ftpAnswered(err))
}

// login runs the plan's USER, PASS and CWD steps, then a CWD to each of
// more, on a new connection, or, with FTP.Pool, on one the pool
// gives for the plan's login, already in that directory when the pool
// stays in directories (ftp.Pool.GetIn). fresh is false when it failed on
// a reused connection before the server answered anything of the plan's,
// so that a new connection may succeed.
func (h FTP) login(ctx context.Context, c *Client, p *Plan, more ...string) (_ *ftpSession, _ error, fresh bool) {
	s := &ftpSession{steps: p.Steps}
	loginErr := func(err error) error {
		if errors.Is(err, ftp.ErrPasswordRequired) {
			err = fmt.Errorf("%w; put it in the URL (ftp://user:password@host/) or run on a terminal to be asked", err)
		}
		return fmt.Errorf("%s: %w", p.URL, err)
	}
	i, tlsSteps := 0, false
	for ; i < len(s.steps); i++ {
		if v := s.steps[i].Verb; v == "FEAT" || v == "AUTH" || v == "PBSZ" || v == "PROT" {
			tlsSteps = true // RFC 4217: sent by ftp.Dial (or the pool's), before USER
		} else if v != "USER" && v != "PASS" {
			break
		}
	}
	var dirs []string
	for ; i < len(s.steps) && s.steps[i].Verb == "CWD"; i++ {
		dirs = append(dirs, s.steps[i].Arg)
	}
	s.rest = i
	dirs = append(dirs, more...)
	if c.TLS.FTP != ftp.SecurityNone && c.TLS.Insecure {
		c.warn(ctx, p.URL+": "+insecureWarning)
	}
	if h.Pool != nil {
		pc, err := h.Pool.GetIn(ctx, p.Connect, ftpLogin(c, p), dirs)
		if pc == nil {
			return nil, loginErr(certificateError(p.Parsed.Host(), err)), true
		}
		s.conn, s.st = pc.Conn, ftpState{pool: h.Pool, pc: pc, reused: pc.Reused}
		if pc.Reused {
			c.trace('!', "reusing the logged-in connection to "+p.Connect+" (in "+pc.Home+")")
		}
		if err == nil && tlsSteps {
			err = ftpCheckTLS(c, s.conn)
		}
		if err != nil {
			err, fresh := s.fail(ctx, p, err)
			return nil, err, fresh
		}
		return s, nil, true
	}
	var err error
	s.conn, err = ftp.Dial(ctx, p.Connect, c.FTPConfig())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, certificateError(p.Parsed.Host(), err)), true
	}
	if tlsSteps {
		if err := ftpCheckTLS(c, s.conn); err != nil {
			err, fresh := s.fail(ctx, p, err)
			return nil, err, fresh
		}
	}
	if slices.ContainsFunc(s.steps, func(st Step) bool { return st.Verb == "USER" }) {
		if _, err := s.conn.Login(ctx, ftpLogin(c, p)); err != nil {
			ftpQuit(ctx, s.conn)
			return nil, loginErr(err), true
		}
	}
	for _, dir := range dirs {
		if _, err := s.conn.Cwd(ctx, dir); err != nil {
			err, fresh := s.fail(ctx, p, err)
			return nil, err, fresh
		}
	}
	return s, nil, true
}

// get runs the plan once; fresh is as for login.
func (h FTP) get(ctx context.Context, c *Client, p *Plan) (_ *Response, _ error, fresh bool) {
	s, err, fresh := h.login(ctx, c, p)
	if err != nil {
		return nil, err, fresh
	}
	conn, st, steps := s.conn, s.st, s.steps
	fail := func(err error) (*Response, error, bool) {
		err, fresh := s.fail(ctx, p, err)
		return nil, err, fresh
	}
	for i := s.rest; i < len(steps); i++ {
		s := steps[i]
		switch s.Verb {
		case "TYPE":
			var err error
			if st.pool != nil && st.pool.StayInDirectory && strings.EqualFold(s.Arg, "I") {
				err = st.pc.Binary(ctx) // once per login
			} else {
				_, err = conn.Type(ctx, s.Arg)
			}
			if err != nil {
				return fail(err)
			}
		case "REST":
			// Sent by RetrFrom with the RETR that follows (RFC 3659
			// §5: REST must come right before it).
			if i+1 >= len(steps) || steps[i+1].Verb != "RETR" {
				return fail(errors.New("the plan has REST without RETR after it"))
			}
		case "RETR", "NLST":
			if rest := steps[i+1:]; len(rest) != 1 || rest[0].Verb != "QUIT" {
				return fail(fmt.Errorf("the plan has %d steps after %s; want only QUIT", len(rest), s.Verb))
			}
			resp, err := ftpResponse(ctx, c, p, conn, steps[:i], s, st)
			return resp, err, !(st.reused && err != nil && !ftpAnswered(err))
		case "QUIT":
			// A plan without a transfer: nothing to fetch.
			if st.pool != nil {
				st.end(ctx, conn, nil)
				return &Response{Body: io.NopCloser(strings.NewReader("")), Size: 0, URL: p.URL, Plan: p}, nil, true
			}
			if err := conn.Quit(ctx); err != nil {
				return nil, fmt.Errorf("%s: %w", p.URL, err), true
			}
			return &Response{Body: io.NopCloser(strings.NewReader("")), Size: 0, URL: p.URL, Plan: p}, nil, true
		default:
			return fail(fmt.Errorf("the plan holds %q, which the ftp handler does not send", s.Line()))
		}
	}
	return fail(errors.New("the plan has no RETR, NLST or QUIT"))
}

// ftpResponse starts the transfer step s and wraps its body so that
// closing it reads the final reply and sends the plan's QUIT.
func ftpResponse(ctx context.Context, c *Client, p *Plan, conn *ftp.Conn, before []Step, s Step, st ftpState) (*Response, error) {
	b := &ftpBody{ctx: ctx, conn: conn, url: p.URL, state: st}
	resp := &Response{Body: b, Size: -1, URL: p.URL, Plan: p}
	var err error
	if s.Verb == "RETR" {
		typeA := ftpTypeOf(before) == "A"
		r := ftp.FetchRequest{Name: s.Arg, Offset: p.Offset, Size: -1, AskSize: !typeA}
		if p.Listed != nil && !typeA {
			r.Size = p.Listed.Size // the listing's size: no FEAT, no SIZE
		}
		var d *ftp.Download
		d, err = conn.Fetch(ctx, r)
		var ce *ftp.CommandError
		if err != nil && (errors.As(err, &ce) && strings.HasPrefix(ce.Cmd, "REST ") && ce.Reply.Code/100 == 5 || errors.Is(err, ftp.ErrOffsetBeyondEnd)) {
			err = fmt.Errorf("%w: %w", ErrNoResume, err)
		}
		resp.Offset = p.Offset
		resp.Type = "application/octet-stream"
		switch {
		case err != nil:
		case typeA:
			b.body = d
			// Under TYPE A the 150 reply's count is the size on the
			// server, not the count of bytes sent (line ends change).
			resp.Type = "text/plain"
			// RFC 959 §3.1.1.1: ASCII type is NVT-ASCII on the wire, and
			// the receiver converts it to its own form of text: the local
			// line end. ListingRaw keeps the wire's bytes.
			if c.Listing != ListingRaw && !c.KeepLineEnds {
				b.render = newLocalText(b.body)
			}
		default:
			b.body, resp.Size = d, d.Size
		}
	} else {
		b.body, err = conn.Nlst(ctx, s.Arg)
		resp.Type = "text/plain"
		if err == nil {
			b.render = newNLSTRenderer(c.Listing, ftpBaseURL(p, before, s), b.body)
			resp.Type = c.Listing.mediaType("text/plain")
		}
	}
	if err != nil {
		st.end(ctx, conn, err)
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	return resp, nil
}

// ftpQuit ends a session after a refusal: QUIT, briefly, then close.
func ftpQuit(ctx context.Context, conn *ftp.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ftpQuitTimeout)
	defer cancel()
	conn.Quit(ctx)
}

// ftpBody is the body of an ftp Response: the data (an ftp.Download,
// checked against the size announced) or the rendered listing; Close
// reads the final transfer reply and sends QUIT.
type ftpBody struct {
	ctx    context.Context
	conn   *ftp.Conn
	body   io.ReadCloser
	render io.Reader // what Read returns instead of body: the listing as rendered (NLST), local text (TYPE A)
	url    string

	state ftpState // for a connection kept for reuse

	closed bool
	err    error
}

func (b *ftpBody) wrap(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("%s: %w", b.url, err)
}

// Read reads the data, or the rendered listing.
func (b *ftpBody) Read(p []byte) (int, error) {
	r := b.render
	if r == nil {
		r = b.body
	}
	n, err := r.Read(p)
	return n, b.wrap(err)
}

// WriteTo hands a plain transfer to the download's large-buffer copy.
func (b *ftpBody) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := b.body.(io.WriterTo); ok && b.render == nil {
		n, err := wt.WriteTo(w)
		return n, b.wrap(err)
	}
	return io.Copy(w, struct{ io.Reader }{b})
}

// Close ends the transfer (reading the server's final reply, RFC 959
// §5.4) and sends QUIT, the plan's last step. It returns the transfer's
// error; the QUIT reply no longer matters once the transfer is settled.
func (b *ftpBody) Close() error {
	if b.closed {
		return b.err
	}
	b.closed = true
	b.err = b.wrap(b.body.Close())
	if b.state.pool != nil {
		// Back to the pool for the next URL of this login, instead of
		// QUIT (Put closes a connection the transfer broke).
		b.state.end(b.ctx, b.conn, b.err)
		return b.err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(b.ctx), ftpQuitTimeout)
	defer cancel()
	b.conn.Quit(ctx)
	return b.err
}
