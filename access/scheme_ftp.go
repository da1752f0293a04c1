package access

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
)

func init() { defaultHandlers["ftp"] = FTP{} }

// The placeholders of the PASS step (§3.2.1); Get tells them apart.
const (
	ftpPlaceholderEmail    = "<e-mail address>"
	ftpPlaceholderPassword = "<password>"
	ftpPlaceholderAsked    = "<asked>"
)

// ftpQuitTimeout bounds the QUIT sent after a refusal: the answer is only
// a courtesy, the error is already known.
const ftpQuitTimeout = 2 * time.Second

// FTP is the handler of ftp URLs (RFC 1738 §3.2): an FTP conversation
// that sends exactly the commands §3.2.2 derives from the URL, through
// access/ftp. The zero value logs in once per URL.
type FTP struct {
	// Pool, when set, serves the ftp logins: a connection the same login
	// (address, user, password) left is reused, in its login directory,
	// and a completed transfer gives it back instead of sending the
	// plan's QUIT. The caller closes the pool; Client.KeepFTPLogins
	// makes one. Nil: one login per URL, as the plan says. A copy of the
	// handler (Client.Clone) shares the pool.
	Pool *ftp.Pool
}

// Plan turns an ftp URL into its conversation (§3.2.1, §3.2.2, §3.2.3).
func (FTP) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
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
	ftpPlanTLS(c, p, u)
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
// a new one, or, with FTP.Pool, one the pool gives for the plan's
// login (see ftp.Pool): its USER and PASS are then already done, and it
// is back in the login directory.
func (h FTP) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
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

// planRequest adds a resume to the plan: "REST offset" right before the
// RETR (RFC 3659 §5), for TYPE I only, whose offset counts the bytes as
// stored (§5.3). A listing or a TYPE A transfer cannot resume; HEAD is
// http's.
func (FTP) planRequest(c *Client, p *Plan, r Request) error {
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

// ftpBaseURL returns the URL of the directory an NLST step lists, ending
// in "/", for the URLs of listed names (ftp.DirURL): the CWD arguments,
// and the NLST argument, when there is one, as the last segment.
func ftpBaseURL(p *Plan, before []Step, nlst Step) string {
	var dirs []string
	for _, s := range before {
		if s.Verb == "CWD" {
			dirs = append(dirs, s.Arg)
		}
	}
	if nlst.Arg != "" {
		dirs = append(dirs, nlst.Arg)
	}
	user, hasUser := p.Parsed.RawUser()
	port, _ := p.Parsed.Port()
	return ftp.DirURL(user, hasUser, p.Parsed.Host(), port, dirs)
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
			if url, ok := ftp.ItemURL(base, name); ok {
				return listingItem{Name: name, URL: url}, nil
			}
		}
	}}
}
