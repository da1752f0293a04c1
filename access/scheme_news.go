package access

// The news: (RFC 1738 §3.6) and nntp: (§3.7) access methods, spoken with
// the NNTP client of access/nntp (RFC 3977).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/nntp"
)

func init() {
	defaultHandlers["news"] = News{}
	defaultHandlers["nntp"] = News{}
}

// ErrNoNewsServer is wrapped by the error of a news: URL when no news
// server is configured: §3.6 news URLs name no host, "the reader's own
// news server" resolves them, so without one there is nowhere to go.
var ErrNoNewsServer = errors.New("no news server configured for news: URLs (§3.6)")

// newsPage is how many overview lines a text group listing renders at a
// time: memory is bounded by the page, not by the group.
const newsPage = 64

// newsRangePlaceholder stands for the OVER range, known only once GROUP has
// answered with the group's low and high numbers.
const newsRangePlaceholder = "<range>"

// News is the handler of news: URLs (RFC 1738 §3.6) and nntp: URLs
// (§3.7), spoken with access/nntp (RFC 3977). NewClient registers one
// for both schemes, its Server taken from $NNTPSERVER; the zero value has
// no server, and a news: URL then fails with ErrNoNewsServer.
//
// Plans (the lines as sent; QUIT ends each):
//
//	news:group           GROUP group, OVER <range>       a listing of the group
//	news:id@host         ARTICLE <id@host>               the article
//	news:*               LIST ACTIVE                     the list of groups
//	nntp://h:p/group     GROUP group, OVER <range>       a listing of the group
//	nntp://h:p/group/n   GROUP group, ARTICLE n          the article
type News struct {
	// Server is the news server of news: URLs, host[:port] (§3.6: a
	// news URL names no host, the reader's own server resolves it);
	// nntp: URLs name their own (§3.7).
	Server string

	// User and Password are sent with AUTHINFO USER/PASS (RFC 4643) only
	// when a news server demands them with 480. They come from
	// configuration, never from a URL (§3.6 and §3.7 have no login part).
	User, Password string
}

// Plan implements Handler.
func (h News) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	p := &Plan{}
	url := Redact(u.String())
	switch u.Kind() {
	case rfc1738.KindNews:
		n, _ := u.News()
		addr, err := newsServer(h.Server)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", url, err)
		}
		p.Connect = addr
		p.Notes = append(p.Notes, "news: URLs are resolved by the reader's own news server (§3.6): "+addr+" (--nntp-server, else $NNTPSERVER)")
		raw, _ := u.Opaque()
		off := u.OpaqueOffset()
		switch {
		case n.All():
			// §3.6: "news:*" is used to refer to "all available news
			// groups"; RFC 3977 §7.6.3 LIST ACTIVE lists them.
			p.Steps = append(p.Steps, Step{Verb: "LIST", Arg: "ACTIVE", HasArg: true})
		case n.MessageID != "":
			// §6: the decoded id goes inside the ARTICLE line; a space
			// would split its argument as surely as CRLF ends it.
			if err := CheckLine(u, raw, off, "message-id", LineDelimiters+" \t"); err != nil {
				return nil, err
			}
			// §3.6: the URL carries the id without "<" and ">"; RFC 3977
			// §6.2.1 wants them on the wire.
			p.Steps = append(p.Steps, Step{Verb: "ARTICLE", Arg: "<" + n.MessageID + ">", HasArg: true})
		default:
			if err := CheckLine(u, raw, off, "newsgroup name", LineDelimiters); err != nil {
				return nil, err
			}
			p.Steps = append(p.Steps, newsGroupSteps(p, n.Group)...)
		}
	case rfc1738.KindNNTP:
		v, _ := u.NNTP()
		if err := c.guardPort(p, u); err != nil {
			return nil, err
		}
		// §3.7: "If :<port> is omitted, the port defaults to 119."
		p.Connect = net.JoinHostPort(u.Host(), strconv.Itoa(u.PortNumber()))
		off := u.PathOffset()
		if err := CheckLine(u, v.Group, off, "newsgroup name", LineDelimiters); err != nil {
			return nil, err
		}
		if !v.HasArticle {
			p.Steps = append(p.Steps, newsGroupSteps(p, v.Group)...)
			break
		}
		// §3.7: the article number is relative to the group, so GROUP
		// selects it first (RFC 3977 §6.2.1.2: ARTICLE n needs a group).
		n, err := strconv.ParseInt(v.Article, 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: offset %d: article number %s: RFC 3977 §6 numbers run from 1 to 2147483647", url, off+len(v.Group)+1, v.Article)
		}
		num := strconv.FormatInt(n, 10)
		if num != v.Article {
			p.Notes = append(p.Notes, "article number "+v.Article+" is sent as "+num)
		}
		p.Steps = append(p.Steps,
			Step{Verb: "GROUP", Arg: v.Group, HasArg: true},
			Step{Verb: "ARTICLE", Arg: num, HasArg: true})
	default:
		return nil, fmt.Errorf("%s: %w: the news handler serves news: and nntp: URLs only", url, ErrUnsupported)
	}
	p.Steps = append(p.Steps, Step{Verb: "QUIT"})
	p.Notes = append(p.Notes, "MODE READER is sent, and the refused command sent again, only if the server asks for it with 401 MODE-READER (RFC 3977 §5.3)")
	if h.User != "" {
		p.Notes = append(p.Notes, "if the server demands authentication (480), AUTHINFO USER "+h.User+" and AUTHINFO PASS <password> are sent and the command again (RFC 4643 §2.3)")
	}
	return p, nil
}

// newsGroupSteps plans the listing of a group: GROUP for its numbers, then
// OVER over all of them.
func newsGroupSteps(p *Plan, group string) []Step {
	p.Notes = append(p.Notes, "<range> is the group's low-high from the GROUP reply; OVER is not sent when the group is empty, and XOVER (RFC 2980 §2.8) replaces it if the server does not know OVER (500)")
	return []Step{
		{Verb: "GROUP", Arg: group, HasArg: true},
		// RFC 3977 §8.3: one OVER gives every article's overview line.
		{Verb: "OVER", Placeholder: newsRangePlaceholder},
	}
}

// newsServer checks the configured news server (nntp.ServerAddr).
func newsServer(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", fmt.Errorf("%w: give one with --nntp-server host[:port] or the NNTPSERVER environment variable", ErrNoNewsServer)
	}
	return nntp.ServerAddr(s)
}

// Get implements Handler: it dials p.Connect and executes p.Steps. The
// step that fetches (ARTICLE, OVER, LIST) becomes the response body; the
// steps after it (QUIT) run when the body is closed.
func (h News) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	host, portDigits, err := net.SplitHostPort(p.Connect)
	if err != nil {
		return nil, fmt.Errorf("%s: connect %q: %w", p.URL, p.Connect, err)
	}
	port, _ := strconv.Atoi(portDigits)
	r := &newsRun{c: c, h: h, p: p, host: host, port: port}
	conn, err := nntp.Dial(ctx, p.Connect, nntp.Config{
		Username: h.User,
		Password: h.Password,
		Trace:    r.see,
	})
	if err != nil {
		return nil, r.fail(err)
	}
	r.conn = conn
	for i, s := range p.Steps {
		var body io.ReadCloser
		var typ string
		switch s.Verb {
		case "GROUP":
			// RFC 3977 §6.1.1: "211 number low high group".
			r.group, err = conn.Group(ctx, s.Arg)
		case "ARTICLE":
			body, typ, err = r.article(ctx, s.Arg)
		case "OVER":
			body, typ, err = r.over(ctx)
		case "LIST":
			body, typ, err = r.listActive(ctx, s)
		case "QUIT":
			err = conn.Close()
			r.conn = nil
		default:
			err = fmt.Errorf("step %q is not one this handler executes", s.Line())
		}
		if err != nil {
			if r.conn != nil {
				r.conn.Close()
			}
			return nil, r.fail(err)
		}
		if body != nil {
			r.rest = p.Steps[i+1:]
			return &Response{Body: body, Size: -1, Type: typ}, nil
		}
	}
	return nil, fmt.Errorf("%s: the plan fetches nothing: no ARTICLE, OVER or LIST step", p.URL)
}

// newsRun is one execution of a news plan.
type newsRun struct {
	c    *Client
	h    News
	p    *Plan
	host string
	port int
	conn *nntp.Conn

	group nntp.GroupInfo // from the last GROUP
	rest  []Step         // steps after the fetching one, run by finish
	last  string         // the last line received: the raw listing line
}

// see is the client's trace: it passes lines on to Client.Trace and keeps
// what the raw listing needs.
func (r *newsRun) see(dir byte, line string) {
	if dir == '<' {
		r.last = line
	}
	r.c.trace(dir, Redact(line))
}

// fail turns err into the handler's error: the URL, what the server's
// code means for it (RFC 3977 §3.2, RFC 4643 §2.3), and the cause with the
// server's code and text.
func (r *newsRun) fail(err error) error {
	why := nntp.Explain(err, r.p.Connect, r.group.Name, r.h.User)
	if why == "" {
		return fmt.Errorf("%s: %w", r.p.URL, err)
	}
	return fmt.Errorf("%s: %s: %w", r.p.URL, why, err)
}

// finish runs the steps after the fetching one (QUIT closes the
// connection, RFC 3977 §5.4) and closes the connection in any case.
func (r *newsRun) finish() error {
	if r.conn == nil {
		return nil
	}
	var err error
	for _, s := range r.rest {
		if s.Verb != "QUIT" {
			err = fmt.Errorf("%s: step %q after the fetching one is not one this handler executes", r.p.URL, s.Line())
		}
	}
	r.conn.Close()
	r.conn = nil
	return err
}

// article sends ARTICLE n or ARTICLE <id> (RFC 3977 §6.2.1) and returns the
// article as it is, headers and body, dot-unstuffed.
func (r *newsRun) article(ctx context.Context, arg string) (io.ReadCloser, string, error) {
	var a *nntp.Article
	var err error
	if id, ok := strings.CutPrefix(arg, "<"); ok {
		a, err = r.conn.ArticleByID(ctx, strings.TrimSuffix(id, ">"))
	} else {
		n, perr := strconv.ParseInt(arg, 10, 64)
		if perr != nil {
			return nil, "", fmt.Errorf("ARTICLE %q: not a number or a <message-id>", arg)
		}
		a, err = r.conn.Article(ctx, n)
	}
	if err != nil {
		return nil, "", err
	}
	return &newsArticleBody{r: r, a: a}, "message/rfc822", nil
}

// newsArticleBody streams an article; Close ends the conversation.
type newsArticleBody struct {
	r      *newsRun
	a      *nntp.Article
	err    error
	closed bool
}

func (b *newsArticleBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.a.Read(p)
	if err != nil && err != io.EOF {
		b.err = fmt.Errorf("%s: reading the article: %w", b.r.p.URL, err)
		return n, b.err
	}
	return n, err
}

func (b *newsArticleBody) Close() error {
	if b.closed {
		return b.err
	}
	b.closed = true
	if err := b.a.Close(); err != nil && b.err == nil {
		b.err = fmt.Errorf("%s: reading the article: %w", b.r.p.URL, err)
	}
	if err := b.r.finish(); err != nil && b.err == nil {
		b.err = err
	}
	return b.err
}
