// Package access fetches what a URL names by speaking its scheme's
// protocol, exactly as RFC 1738 §3 prescribes, with the guards of §6.
//
// The flow is one way: a parsed URL becomes a Plan — the protocol lines the
// URL implies, as data — and the scheme's Handler executes that plan. A dry
// run (Client.Plan, "rfc1738 plan") and a real run (Client.Get, "rfc1738
// get") therefore cannot disagree.
//
// Handlers are registered per scheme, as net/http's Transport.RegisterProtocol
// does; the built-in ones are installed by NewClient, and a scheme without
// a handler but with a gateway locator in Client.Gateways (§4) resolves to
// the gateway handler. The plan keeps the handler that made it, and that
// handler executes it: URL → Plan → handler → protocol client → output.
// A handler type is exported when it has settings of its own (Mailto's
// relay, WAIS's record count and syntax, Telnet's terminal type, News's
// server, Gopher's unstuffing, FTP's pool of logins, HTTP's proxy,
// header and redirects); the others (file, prospero) have none, and
// Client.Handler returns them for a caller that wraps one. The Client
// keeps only what every scheme shares. Each protocol's client, errors and
// rendering live in its own package (access/ftp, gopher, nntp, smtp,
// telnet, wais); a handler is the glue between the URL, its plan and that
// client.
package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/user"
	"strings"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// A Handler serves one URL scheme.
//
// Plan must be pure: it computes the conversation from the URL and the
// client's settings and touches no network and no file. It returns a
// *GuardError when a §6 guard refuses the URL, and an error wrapping
// ErrUnsupported when the handler cannot serve this form of URL.
//
// Get executes a plan that this handler's Plan returned, sending exactly
// its steps. It returns a Response whose Body the caller must close; a
// server's refusal is an error that carries the server's code and text.
type Handler interface {
	Plan(c *Client, u rfc1738.URL) (*Plan, error)
	Get(ctx context.Context, c *Client, p *Plan) (*Response, error)
}

// A Step is one protocol line of a plan.
type Step struct {
	// Verb is the command (USER, CWD, RETR, GROUP …), or "" when the line
	// is free text such as a gopher selector.
	Verb string
	// Arg is the argument exactly as it will be sent, decoded from the
	// URL. It may be a secret; Line shows Placeholder instead.
	Arg string
	// HasArg distinguishes "CWD " (a null argument, §3.2.2) from "CWD".
	HasArg bool
	// Placeholder, when set, stands for Arg in Line: a secret or a value
	// known only at run time, such as "<asked>" or "<password>".
	Placeholder string
}

// Line returns the step as it appears on the wire, without CRLF, with the
// placeholder for a secret or run-time argument.
func (s Step) Line() string {
	arg := s.Arg
	if s.Placeholder != "" {
		arg = s.Placeholder
	}
	switch {
	case s.Verb == "":
		return arg
	case s.HasArg || s.Placeholder != "":
		return s.Verb + " " + arg
	default:
		return s.Verb
	}
}

// A Plan is the conversation a URL implies, as data.
type Plan struct {
	URL      string // the URL with any password redacted
	Scheme   string
	Connect  string // "host:port" to dial; "" when nothing is dialled
	Steps    []Step
	Warnings []string // §6 cautions and other advice
	Notes    []string // decisions the plan made, e.g. a guessed ftp typecode

	// Offset, Head, KeepErrorBody and Listed are the options of the
	// Request the plan was made for (see Request); zero for a plain Get.
	Offset        int64
	Head          bool
	KeepErrorBody bool
	Listed        *Entry

	// Parsed is the URL the plan was made from, for the handler's Get.
	Parsed rfc1738.URL
	// Data is the handler's own execution detail (e.g. the gopher+ form
	// data), opaque to everyone else.
	Data any

	// handler is the handler that made the plan (Client.Plan), and the
	// one that executes it (Client.Get).
	handler Handler
}

// Lines returns the lines of the plan's steps.
func (p *Plan) Lines() []string {
	out := make([]string, len(p.Steps))
	for i, s := range p.Steps {
		out[i] = s.Line()
	}
	return out
}

// A Response is what Get fetched.
type Response struct {
	Body io.ReadCloser // the data; the caller closes it
	Size int64         // the size in bytes when known, else -1
	Type string        // a media type when known, e.g. "text/plain"
	URL  string        // the final URL (after redirects), password redacted
	Plan *Plan         // the plan that was executed

	// Offset is the byte of the resource the body starts at: the
	// Request's Offset when the server resumed, 0 when it sends the
	// whole resource.
	Offset int64
	// Status and Header are the status line ("HTTP/1.1 200 OK") and the
	// header of an http response; empty for other schemes.
	Status string
	Header http.Header
}

// ErrUnsupported is wrapped by errors for a URL no handler can serve.
var ErrUnsupported = errors.New("no access method")

// Client holds the handler of each scheme and the settings every scheme
// shares: the e-mail address of anonymous ftp, the prompt, listings and
// line ends, the terminal, the trace, the §6 port guard, stored logins,
// the TLS policy, warnings, and the gateways of §4 (routing, not a
// protocol). The settings of a single protocol are on its handler: News
// (news and nntp), Gopher, FTP, HTTP (http and https, see SetHTTP and
// HTTPSettings), Mailto, Telnet, WAIS; change one with Handler and
// RegisterProtocol.
//
// NewClient makes a Client with settings from the environment. The zero
// value works too: it has the default handlers (News without a server)
// and guards the default ports. Fields may be set before first use.
type Client struct {
	// Email is the password of anonymous FTP (§3.2.1): the end user's
	// Internet e-mail address. NewClient takes it from $EMAIL, else
	// user@hostname.
	Email string

	// Prompt asks the user a question and returns the answer; secret
	// answers (passwords, §3.2.1; AskP fields of Gopher+ forms) must not
	// be echoed. Nil means nobody can be asked: a login that needs a
	// password, or a form that needs answers, fails with a clear error.
	Prompt func(question string, secret bool) (string, error)

	// Listing chooses how handlers render listings — gopher menus, news
	// group overviews, directory listings: for people (ListingText, the
	// default), as JSON Lines, or as the raw protocol bytes.
	Listing Listing

	// KeepLineEnds keeps the line ends of text as the server sent them
	// (gopher text, RFC 1436; ftp TYPE A, RFC 959 §3.1.1.1) rather than
	// writing local text: a copy (mirror) wants the bytes as served.
	KeepLineEnds bool

	// Stdin and Stdout are the terminal for interactive schemes (telnet,
	// §3.8); nil means there is none.
	Stdin, Stdout *os.File

	// ShowPassword lets advice print a password a URL suggests (telnet,
	// §3.8); by default passwords are never printed (§6).
	ShowPassword bool

	// Trace, when set, sees every protocol line: dir '>' sent, '<'
	// received, '!' a note. Passwords are redacted.
	Trace func(dir byte, line string)

	// BlockedPorts are the ports of other well-known line protocols that
	// the §6 guard refuses, by name: NewClient sets a copy of
	// DefaultBlockedPorts(), which the caller may change for this client
	// alone; nil (a zero Client) guards the default ports. AllowPorts
	// lists ports that the guard lets through all the same; AllowAnyPort
	// turns it off.
	BlockedPorts map[int]string
	AllowPorts   []int
	AllowAnyPort bool

	// Credentials, when set, gives the stored login for a host whose URL
	// names none (a ~/.netrc, as curl, wget and lftp read it): ftp logs
	// in with it instead of anonymously (§3.2.1), http sends it as Basic
	// authorization (never in the URL: §3.3 has no login part). ok is
	// false when there is none.
	Credentials func(scheme, host string) (user, password string, ok bool)

	// TLS is the TLS policy of https (RFC 2818) and ftp (RFC 4217):
	// which certificate authorities are trusted, or none checked, and
	// whether ftp asks for TLS. The zero value uses the system's roots,
	// and ftp in clear.
	TLS TLS

	// Warn, when set, is told of what a running plan meets that the user
	// should know: an https redirect to http, a certificate that is not
	// verified. Nil: only Trace sees it.
	Warn func(msg string)

	// Gateways maps a scheme to a gateway URL template for schemes
	// without a native handler (§4), e.g. "prospero" →
	// "http://gw.example/fetch?url={url}".
	Gateways map[string]string

	mu       sync.RWMutex
	handlers map[string]Handler // nil: defaultHandlers
	gateway  Handler            // serves the schemes of Gateways that have no handler; nil: defaultGateway
}

// defaultHandlers are installed by NewClient, and serve a Client whose
// handlers are nil (the zero Client); each scheme's file adds its own in
// an init function.
var defaultHandlers = map[string]Handler{}

// defaultGateway is installed by NewClient as the handler of a scheme
// that has no handler of its own but a gateway locator in Client.Gateways
// (§4); scheme_gateway.go sets it in an init function, as each scheme's
// file adds its handler.
var defaultGateway Handler

// NewClient returns a Client with the built-in handlers and settings taken
// from the environment.
func NewClient() *Client {
	c := &Client{
		Email:        defaultEmail(),
		BlockedPorts: DefaultBlockedPorts(),
		handlers:     maps.Clone(defaultHandlers),
		gateway:      defaultGateway,
	}
	// §3.6: news URLs are resolved by the reader's own news server.
	news := News{Server: os.Getenv("NNTPSERVER")}
	c.handlers["news"], c.handlers["nntp"] = news, news
	return c
}

func defaultEmail() string {
	if e := os.Getenv("EMAIL"); e != "" {
		return e
	}
	name := "anonymous"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	return name + "@" + host
}

// Clone returns a copy of c with the same settings and handlers, which
// can be changed without changing c: a tool that needs its own ftp logins
// or handler settings clones the caller's client. Handler values are
// copied (a News, an HTTP); what they point to (FTP.Pool, HTTP.Client,
// HTTP.Header) is shared.
func (c *Client) Clone() *Client {
	c.mu.RLock()
	defer c.mu.RUnlock()
	d := &Client{
		Email: c.Email, Prompt: c.Prompt, Listing: c.Listing, KeepLineEnds: c.KeepLineEnds,
		Stdin: c.Stdin, Stdout: c.Stdout, ShowPassword: c.ShowPassword, Trace: c.Trace,
		BlockedPorts: maps.Clone(c.BlockedPorts), AllowPorts: c.AllowPorts, AllowAnyPort: c.AllowAnyPort,
		Credentials: c.Credentials, Gateways: c.Gateways, TLS: c.TLS, Warn: c.Warn,
		handlers: maps.Clone(c.handlers), gateway: c.gateway,
	}
	return d
}

// KeepFTPLogins installs on the client's ftp handler (FTP.Pool, the
// handler's other settings kept) a new pool that keeps up to n idle
// logins per server and user, made with the client's FTPConfig, and
// returns it for the caller to close when done (QUIT on every idle
// login). An ftp handler of the caller's own type is left alone: the
// caller installs the pool in the FTP it wraps.
//
// With stay, a login is left in the directory of its last URL and
// serves the next URL of that directory without a CWD, and TYPE I is
// sent once per login (ftp.Pool.StayInDirectory): what a walk of a tree
// wants, file after file of one directory.
func (c *Client) KeepFTPLogins(n int, stay bool) io.Closer {
	pool := &ftp.Pool{Config: c.FTPConfig(), MaxIdlePerLogin: n, StayInDirectory: stay}
	if h, ok := c.Handler("ftp").(FTP); ok {
		h.Pool = pool
		c.RegisterProtocol("ftp", h)
	}
	return pool
}

// RegisterProtocol installs h for scheme (lower case), replacing any
// handler the scheme had.
func (c *Client) RegisterProtocol(scheme string, h Handler) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.handlers == nil {
		c.handlers = maps.Clone(defaultHandlers) // a zero Client
	}
	c.handlers[strings.ToLower(scheme)] = h
}

// Handler returns the handler for a scheme: the one registered for it
// (for a zero Client, the default one), else the gateway handler when
// Gateways has a locator for the scheme (§4), else nil.
func (c *Client) Handler(scheme string) Handler {
	scheme = strings.ToLower(scheme)
	c.mu.RLock()
	hs, gw := c.handlers, c.gateway
	c.mu.RUnlock()
	if hs == nil {
		hs = defaultHandlers
	}
	if gw == nil {
		gw = defaultGateway
	}
	if h := hs[scheme]; h != nil {
		return h
	}
	if _, ok := c.Gateways[scheme]; ok {
		return gw
	}
	return nil
}

// Plan returns the conversation that Get would have for u.
func (c *Client) Plan(u rfc1738.URL) (*Plan, error) {
	h := c.Handler(u.Scheme())
	if h == nil {
		return nil, fmt.Errorf("%s: %w for the %s scheme (and no gateway locator, §4)", Redact(u.String()), ErrUnsupported, u.Scheme())
	}
	p, err := h.Plan(c, u)
	if err != nil {
		return nil, err
	}
	p.Parsed = u
	p.handler = h
	if p.URL == "" {
		p.URL = Redact(u.String())
	}
	if p.Scheme == "" {
		p.Scheme = u.Scheme()
	}
	return p, nil
}

// Get fetches what u names: it makes the plan and has the handler that
// made it execute it.
func (c *Client) Get(ctx context.Context, u rfc1738.URL) (*Response, error) {
	p, err := c.Plan(u)
	if err != nil {
		return nil, err
	}
	return c.execute(ctx, p)
}

// execute has the handler that made the plan p execute it.
func (c *Client) execute(ctx context.Context, p *Plan) (*Response, error) {
	resp, err := p.handler.Get(ctx, c, p)
	if err != nil {
		return nil, getError(ctx, p.URL, err)
	}
	if resp.Plan == nil {
		resp.Plan = p
	}
	if resp.URL == "" {
		resp.URL = p.URL
	}
	// Every error of the body names the URL and what was going on.
	rb := &reportingBody{rc: resp.Body, ctx: ctx, url: resp.URL, size: resp.Size}
	resp.Body = rb
	if _, ok := rb.rc.(io.WriterTo); ok {
		// Only a body that has its own WriteTo (the ftp and gopher ones
		// splice) keeps one: a caller that copies in its own chunks,
		// counting them for a progress bar, must still see Read.
		resp.Body = &reportingWriterTo{rb}
	}
	return resp, nil
}

// Listing is how listings are rendered.
type Listing uint8

// The listing formats.
const (
	ListingText Listing = iota // a readable listing, one item a line
	ListingJSON                // JSON Lines, one object an item
	ListingRaw                 // the protocol's own bytes, untouched
)

// mediaType is the Response.Type of a listing rendered in format l; raw
// is the type of the protocol's own bytes.
func (l Listing) mediaType(raw string) string {
	switch l {
	case ListingJSON:
		return "application/jsonl"
	case ListingRaw:
		return raw
	}
	return "text/plain; charset=utf-8"
}

// trace sends a line to c.Trace when it is set, through safetext: a
// trace is output, and a peer's reply or a decoded URL part may hold
// terminal escapes (ESC, OSC, CSI, BEL, NUL, C1 0x9B).
func (c *Client) trace(dir byte, line string) {
	if c.Trace != nil {
		c.Trace(dir, safetext.Line(line))
	}
}

// tracer is the Trace given to a protocol client: nil when c has none,
// else c.trace, which escapes every line.
// FTPConfig is the configuration of every ftp connection the client makes
// or that a pool makes for it (FTP.Pool's Config): its trace, the
// §6 port guard on the data ports a server names in 227 and 229 replies,
// and TLS as Client.TLS says (RFC 4217). Its warnings go to Client.Warn,
// not to a request's WithWarn: a pool's logins outlive the request that
// made them.
func (c *Client) FTPConfig() ftp.Config {
	return ftp.Config{
		Trace:         c.tracer(),
		CheckDataPort: func(port int) error { return c.CheckDataPort("ftp", port) },
		Security:      c.TLS.FTP,
		Warn:          func(msg string) { c.warn(context.Background(), msg) },
		TLS:           c.TLS.Config(""),
	}
}

func (c *Client) tracer() func(dir byte, line string) {
	if c.Trace == nil {
		return nil
	}
	return c.trace
}
