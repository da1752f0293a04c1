package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
)

func init() { defaultHandlers["ftp"] = ftpHandler{} }

// The placeholders of the PASS step (§3.2.1); Get tells them apart.
const (
	ftpPlaceholderEmail    = "<e-mail address>"
	ftpPlaceholderPassword = "<password>"
	ftpPlaceholderAsked    = "<asked>"
)

// ftpQuitTimeout bounds the QUIT sent after a refusal: the answer is only
// a courtesy, the error is already known.
const ftpQuitTimeout = 2 * time.Second

// ftpHandler is the access method of §3.2: an FTP conversation that sends
// exactly the commands §3.2.2 derives from the URL, through access/ftp.
type ftpHandler struct{}

// Plan turns an ftp URL into its conversation (§3.2.1, §3.2.2, §3.2.3).
func (ftpHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	f, ok := u.FTP()
	if !ok {
		return nil, fmt.Errorf("%s: not an ftp URL: %w", Redact(u.String()), ErrUnsupported)
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	if err := ftpGuards(u); err != nil {
		return nil, err
	}

	// §3.2.1: the login.
	user, password, ask := f.Login(c.Email)
	if user == "" {
		// §3.1 keeps ftp://@host/ (an empty user) apart from no user, but
		// RFC 959 §4.1.1 has USER <SP> <username> with a non-empty
		// string: there is nothing to send.
		return nil, fmt.Errorf("%s: the URL has an empty user name (§3.1), which cannot be sent in USER (RFC 959 §4.1.1); leave the \"@\" out for anonymous FTP", Redact(u.String()))
	}
	var stored bool
	if !f.HasUser && c.Credentials != nil {
		// A URL without a login, and a stored one for its host (a
		// ~/.netrc): that login instead of anonymous FTP.
		if cu, cp, ok := c.Credentials("ftp", u.Host()); ok && cu != "" {
			user, password, stored = cu, cp, true
		}
	}
	p.Steps = append(p.Steps, Step{Verb: "USER", Arg: user, HasArg: true})
	pass := Step{Verb: "PASS", Arg: password, HasArg: true}
	switch {
	case stored && password == "":
		pass.Placeholder = ftpPlaceholderAsked
		p.Notes = append(p.Notes, "the URL names no user: the login stored for "+u.Host()+" (netrc), whose password is asked if the server wants one")
	case stored:
		pass.Placeholder = ftpPlaceholderPassword
		p.Notes = append(p.Notes, "the URL names no user: the login stored for "+u.Host()+" (netrc) is used")
	case f.IsAnonymous():
		// §3.2.1: no user, or the anonymous user named without a
		// password ("anonymous", "ftp"): the e-mail address.
		pass.Placeholder = ftpPlaceholderEmail
		if strings.ContainsAny(c.Email, LineDelimiters) {
			return nil, &GuardError{URL: Redact(u.String()), Offset: -1, Rule: "line-delimiter",
				Reason: "the e-mail address sent as the anonymous password holds CR, LF or NUL"}
		}
		p.Notes = append(p.Notes, "anonymous FTP (§3.2.1): the password is the e-mail address "+c.Email)
	case ask:
		pass.Placeholder = ftpPlaceholderAsked
		p.Notes = append(p.Notes, "the URL has no password: if the server asks for one (331), it is asked for at run time (§3.2.1)")
	default:
		pass.Placeholder = ftpPlaceholderPassword
	}
	p.Steps = append(p.Steps, pass)
	p.Notes = append(p.Notes, "PASS is sent only when the server answers 331 to USER (RFC 959 §5.4)")

	// §3.2.2: each <cwd> is its own CWD, decoded, in order; an empty one
	// is a CWD with a null argument.
	for _, dir := range f.Cwd {
		p.Steps = append(p.Steps, Step{Verb: "CWD", Arg: dir, HasArg: true})
	}

	// §3.2.2 ;type=d → NLST; ;type=a|i → TYPE A|I and RETR. §3.2.3: with
	// no typecode the client guesses. The rule here: an empty <name>
	// names the directory the CWDs reached, so it is listed (NLST);
	// anything else is fetched as TYPE I, since binary is lossless (the
	// bytes arrive as stored), whereas guessing TYPE A from a name would
	// rewrite line ends of a file that was not text.
	typ := f.Type
	if typ == 0 {
		if f.Name == "" {
			typ = 'd'
			p.Notes = append(p.Notes, "no ;type= (§3.2.3): the name is empty, so it is a directory: NLST")
		} else {
			typ = 'i'
			p.Notes = append(p.Notes, "no ;type= (§3.2.3): guessed binary, TYPE I, which keeps the bytes as stored (TYPE A would rewrite line ends)")
		}
	}
	switch typ {
	case 'd', 'D':
		p.Steps = append(p.Steps, Step{Verb: "NLST", Arg: f.Name, HasArg: f.Name != ""})
	case 'a', 'A':
		p.Steps = append(p.Steps, Step{Verb: "TYPE", Arg: "A", HasArg: true}, Step{Verb: "RETR", Arg: f.Name, HasArg: true})
	default:
		p.Steps = append(p.Steps, Step{Verb: "TYPE", Arg: "I", HasArg: true}, Step{Verb: "RETR", Arg: f.Name, HasArg: true})
	}
	p.Steps = append(p.Steps, Step{Verb: "QUIT"})
	p.Notes = append(p.Notes, "each transfer opens a passive data connection first (EPSV, else PASV; not listed)")
	if typ == 'i' || typ == 'I' {
		p.Notes = append(p.Notes, "before RETR, FEAT and, when it lists SIZE, SIZE of the name (RFC 3659 §4; not listed): the size shows progress and checks the length received")
	}
	return p, nil
}

// ftpGuards applies the §6 delimiter guard to every part of an ftp URL
// that is sent decoded in a command line: the user (USER), the password
// (PASS), each <cwd> (CWD) and the <name> (RETR, NLST).
func ftpGuards(u rfc1738.URL) error {
	if raw, ok := u.RawUser(); ok {
		if err := CheckLine(u, raw, u.UserOffset(), "user", LineDelimiters); err != nil {
			return err
		}
	}
	if raw, ok := u.RawPassword(); ok {
		if err := CheckLine(u, raw, u.PasswordOffset(), "password", LineDelimiters); err != nil {
			return err
		}
	}
	path, ok := u.Path()
	if !ok {
		return nil
	}
	off := u.PathOffset()
	if i := strings.LastIndex(path, ";type="); i >= 0 {
		path = path[:i]
	}
	for n := 1; ; n++ {
		i := strings.IndexByte(path, '/')
		if i < 0 {
			return CheckLine(u, path, off, "name", LineDelimiters)
		}
		if err := CheckLine(u, path[:i], off, fmt.Sprintf("cwd segment %d", n), LineDelimiters); err != nil {
			return err
		}
		path, off = path[i+1:], off+i+1
	}
}

// Get executes the plan's steps in order on one control connection:
// a new one, or, with Client.FTPPool, one the pool gives for the plan's
// login (see ftp.Pool): its USER and PASS are then already done, and it
// is back in the login directory.
func (h ftpHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	for _, n := range p.Notes {
		c.trace('!', n)
	}
	resp, err, fresh := h.get(ctx, c, p)
	if err != nil && !fresh && ctx.Err() == nil {
		// A kept connection broke (the server timed it out): the plan
		// again, once.
		c.trace('!', "the kept connection failed: "+err.Error()+"; trying once more")
		resp, err, _ = h.get(ctx, c, p)
	}
	return resp, err
}

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
// more, on a new connection, or, with Client.FTPPool, on one the pool
// gives for the plan's login, already in that directory when the pool
// stays in directories (ftp.Pool.GetIn). fresh is false when it failed on
// a reused connection before the server answered anything of the plan's,
// so that a new connection may succeed.
func (ftpHandler) login(ctx context.Context, c *Client, p *Plan, more ...string) (_ *ftpSession, _ error, fresh bool) {
	s := &ftpSession{steps: p.Steps}
	loginErr := func(err error) error {
		if errors.Is(err, ftp.ErrPasswordRequired) {
			err = fmt.Errorf("%w; put it in the URL (ftp://user:password@host/) or run on a terminal to be asked", err)
		}
		return fmt.Errorf("%s: %w", p.URL, err)
	}
	i := 0
	for i < len(s.steps) && (s.steps[i].Verb == "USER" || s.steps[i].Verb == "PASS") {
		i++
	}
	var dirs []string
	for ; i < len(s.steps) && s.steps[i].Verb == "CWD"; i++ {
		dirs = append(dirs, s.steps[i].Arg)
	}
	s.rest = i
	dirs = append(dirs, more...)
	if c.FTPPool != nil {
		pc, err := c.FTPPool.GetIn(ctx, p.Connect, ftpLogin(c, p), dirs)
		if pc == nil {
			return nil, loginErr(err), true
		}
		s.conn, s.st = pc.Conn, ftpState{pool: c.FTPPool, pc: pc, reused: pc.Reused}
		if pc.Reused {
			c.trace('!', "reusing the logged-in connection to "+p.Connect+" (in "+pc.Home+")")
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
		return nil, fmt.Errorf("%s: %w", p.URL, err), true
	}
	if s.steps[0].Verb == "USER" {
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
func (h ftpHandler) get(ctx context.Context, c *Client, p *Plan) (_ *Response, _ error, fresh bool) {
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
		want := int64(-1)
		switch {
		case ftpTypeOf(before) == "A":
		case p.Listed != nil:
			want = p.Listed.Size // the listing's size: no FEAT, no SIZE
		default:
			if want, err = ftpSize(ctx, conn, s.Arg); err != nil {
				st.end(ctx, conn, err)
				return nil, fmt.Errorf("%s: %w", p.URL, err)
			}
		}
		var size int64
		b.body, size, err = conn.RetrFrom(ctx, s.Arg, p.Offset)
		var ce *ftp.CommandError
		if err != nil && errors.As(err, &ce) && strings.HasPrefix(ce.Cmd, "REST ") && ce.Reply.Code/100 == 5 {
			err = fmt.Errorf("%w: %w", ErrNoResume, err)
		}
		resp.Offset = p.Offset
		if size < 0 {
			size = want // pyftpdlib's 150 reply has no count
		}
		if want >= 0 {
			want -= p.Offset // SIZE counts the whole file; a resumed transfer starts at the offset
		}
		b.want = want
		resp.Type = "application/octet-stream"
		if ftpTypeOf(before) == "A" {
			// Under TYPE A the 150 reply's count is the size on the
			// server, not the count of bytes sent (line ends change).
			resp.Type = "text/plain"
			// RFC 959 §3.1.1.1: ASCII type is NVT-ASCII on the wire, and
			// the receiver converts it to its own form of text: the local
			// line end. ListingRaw keeps the wire's bytes.
			if err == nil && c.Listing != ListingRaw && !c.KeepLineEnds {
				b.render = newLocalText(b.body)
			}
		} else {
			resp.Size = size
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

// planRequest adds a resume to the plan: "REST offset" right before the
// RETR (RFC 3659 §5), for TYPE I only, whose offset counts the bytes as
// stored (§5.3). A listing or a TYPE A transfer cannot resume; HEAD is
// http's.
func (ftpHandler) planRequest(c *Client, p *Plan, r Request) error {
	if r.Head {
		return fmt.Errorf("%s: %w: a header-only request is http's (HEAD)", p.URL, ErrUnsupported)
	}
	if r.Offset == 0 {
		return nil
	}
	for i, s := range p.Steps {
		if s.Verb != "RETR" {
			continue
		}
		if ftpTypeOf(p.Steps[:i]) != "I" {
			return fmt.Errorf("%s: %w: REST offsets are defined for TYPE I only (RFC 3659 §5.3), and this is TYPE A", p.URL, ErrNoResume)
		}
		rest := Step{Verb: "REST", Arg: strconv.FormatInt(r.Offset, 10), HasArg: true}
		p.Steps = slices.Insert(p.Steps, i, rest)
		p.Notes = append(p.Notes, fmt.Sprintf("resuming at byte %d: REST before RETR (RFC 3659 §5); a refused REST means a whole download", r.Offset))
		return nil
	}
	return fmt.Errorf("%s: %w: a listing (NLST) has no restart", p.URL, ErrNoResume)
}

// ftpSize asks the size of name before a TYPE I transfer, when the
// server lists SIZE in FEAT (RFC 3659 §4, RFC 2389), so that progress can
// show a percentage and the length received can be checked even when the
// 150 reply gives no count. It returns -1 when the size is not known: no
// FEAT, no SIZE, or a refusal (the RETR that follows reports a missing
// file itself). Only a broken connection is an error.
func ftpSize(ctx context.Context, conn *ftp.Conn, name string) (int64, error) {
	var ce *ftp.CommandError
	feats, _, err := conn.Feat(ctx)
	if errors.As(err, &ce) {
		return -1, nil
	}
	if err != nil || !ftp.HasFeature(feats, "SIZE") {
		return -1, err
	}
	n, _, err := conn.Size(ctx, name)
	if errors.As(err, &ce) {
		return -1, nil
	}
	return n, err
}

// ftpTypeOf returns the argument of the last TYPE step, or "".
func ftpTypeOf(steps []Step) string {
	t := ""
	for _, s := range steps {
		if s.Verb == "TYPE" {
			t = strings.ToUpper(s.Arg)
		}
	}
	return t
}

// ftpAskPassword returns the AskPassword of a login whose URL has no
// password: it asks through c.Prompt, or is nil when nobody can be asked.
func ftpAskPassword(c *Client, user string, p *Plan) func() (string, error) {
	if c.Prompt == nil {
		return nil
	}
	host := p.Parsed.Host()
	if host == "" {
		host = p.Connect
	}
	return func() (string, error) {
		return c.Prompt(fmt.Sprintf("Password for %s@%s: ", user, host), true)
	}
}

// ftpQuit ends a session after a refusal: QUIT, briefly, then close.
func ftpQuit(ctx context.Context, conn *ftp.Conn) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ftpQuitTimeout)
	defer cancel()
	conn.Quit(ctx)
}

// ftpBody is the body of an ftp Response: the data (or the rendered
// listing); Close reads the final transfer reply and sends QUIT.
type ftpBody struct {
	ctx    context.Context
	conn   *ftp.Conn
	body   io.ReadCloser
	render io.Reader // what Read returns instead of body: the listing as rendered (NLST), local text (TYPE A)
	url    string
	want   int64 // the SIZE of a TYPE I file, or -1
	n      int64 // the bytes of body read

	state ftpState // for a connection kept for reuse

	closed bool
	err    error
}

// check compares the bytes received with the SIZE the server gave before
// the transfer: fewer is a transfer cut short, even when the server's
// final reply said it was complete.
func (b *ftpBody) check(err error) error {
	if err == io.EOF && b.want >= 0 && b.n < b.want {
		return fmt.Errorf("%s: ftp: %w: %d bytes received, though SIZE said %d", b.url, ftp.ErrShortTransfer, b.n, b.want)
	}
	return err
}

func (b *ftpBody) wrap(err error) error {
	if err == nil || err == io.EOF {
		return err
	}
	return fmt.Errorf("%s: %w", b.url, err)
}

// Read reads the data, or the rendered listing.
func (b *ftpBody) Read(p []byte) (int, error) {
	if b.render != nil {
		n, err := b.render.Read(p)
		return n, b.wrap(err)
	}
	n, err := b.body.Read(p)
	b.n += int64(n)
	return n, b.check(b.wrap(err))
}

// WriteTo hands a plain transfer to the ftp body's large-buffer copy.
func (b *ftpBody) WriteTo(w io.Writer) (int64, error) {
	if wt, ok := b.body.(io.WriterTo); ok && b.render == nil {
		n, err := wt.WriteTo(w)
		b.n += n
		if err == nil {
			err = b.check(io.EOF)
			if err == io.EOF {
				err = nil
			}
		}
		return n, b.wrap(err)
	}
	n, err := io.Copy(w, struct{ io.Reader }{b})
	return n, err
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

// ftpBaseURL returns the URL of the directory an NLST step lists, ending
// in "/", for the URLs of listed names: the same login (never the
// password, §6), host and port, the CWD arguments re-encoded, and the
// NLST argument, when there is one, as the last segment.
func ftpBaseURL(p *Plan, before []Step, nlst Step) string {
	u := p.Parsed
	var b []byte
	b = append(b, "ftp://"...)
	if raw, ok := u.RawUser(); ok {
		b = append(b, raw...)
		b = append(b, '@')
	}
	b = append(b, u.Host()...)
	if port, ok := u.Port(); ok {
		b = append(b, ':')
		b = append(b, port...)
	}
	b = append(b, '/')
	for _, s := range before {
		if s.Verb == "CWD" {
			b = appendFtpSegment(b, s.Arg)
			b = append(b, '/')
		}
	}
	if nlst.Arg != "" {
		b = appendFtpSegment(b, nlst.Arg)
		b = append(b, '/')
	}
	return string(b)
}

// appendFtpSegment appends s as one §3.2.2 segment: "/" and ";" encoded
// as fsegment requires, and "?" too, which fsegment allows but later URL
// syntaxes (RFC 3986) read as the start of a query.
func appendFtpSegment(b []byte, s string) []byte {
	start := len(b)
	b = rfc1738.AppendEscape(b, s, rfc1738.FSegment)
	if bytes.IndexByte(b[start:], '?') < 0 {
		return b
	}
	seg := bytes.ReplaceAll(b[start:], []byte("?"), []byte("%3F"))
	return append(b[:start], seg...)
}

// ftpItemURL returns the URL of a name an NLST of the directory base
// listed. RFC 959 §4.1.3 leaves the form of the names to the server: bare
// ("hello.txt", pyftpdlib, vsftpd for NLST without an argument) or with
// the argument in front ("pub/hello.txt", proftpd, pure-ftpd). Either way
// the entry is the name's last path segment inside base. ok is false for
// "." and ".." (pure-ftpd lists them) and for an empty name: they are not
// entries of the directory.
func ftpItemURL(base, name string) (url string, ok bool) {
	name = strings.TrimRight(name, "/")
	seg := name[strings.LastIndexByte(name, '/')+1:]
	if seg == "" || seg == "." || seg == ".." {
		return "", false
	}
	return string(appendFtpSegment([]byte(base), seg)), true
}

// newNLSTRenderer renders an NLST listing (RFC 959 §4.1.3: one name per
// CRLF line) per format; ListingRaw passes the server's bytes on.
func newNLSTRenderer(format Listing, base string, body io.Reader) io.Reader {
	if format == ListingRaw {
		return body
	}
	names := ftp.NewNameReader(body)
	return &listingReader{format: format, next: func() (listingItem, error) {
		for {
			name, err := names.Next()
			if err != nil {
				return listingItem{}, err
			}
			if url, ok := ftpItemURL(base, name); ok {
				return listingItem{Name: name, URL: url}, nil
			}
		}
	}}
}
