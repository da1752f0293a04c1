package access

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// TLS is the TLS policy of every connection a Client secures: https (RFC
// 2818) and ftp's AUTH TLS (RFC 4217). Its zero value verifies each
// server's certificate against the system's roots (which crypto/x509
// reads from SSL_CERT_FILE and SSL_CERT_DIR when they are set), checks the
// host name, sends it as SNI, and speaks TLS 1.2 or later; ftp stays in
// clear.
type TLS struct {
	// Roots, when set, are the only certificate authorities trusted, in
	// place of the system's (curl --cacert). LoadRoots reads a PEM file.
	Roots *x509.CertPool
	// RootsFrom names where Roots came from, for plans ("ca.pem").
	RootsFrom string
	// Insecure turns certificate verification off (curl -k): anyone on
	// the path can then read and change the transfer.
	Insecure bool
	// FTP says whether ftp sessions ask for TLS (RFC 4217): not at all
	// (the zero value), asked for and in clear only when refused (ftp.SecurityTry, curl
	// --ssl), or always, failing without it (ftp.SecurityRequire, curl
	// --ssl-reqd).
	FTP ftp.Security
}

// LoadRoots reads a PEM bundle of certificate authorities (as curl's
// --cacert) for TLS.Roots. A file with no certificate in it is an error.
func LoadRoots(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s: no PEM certificate in it", path)
	}
	return pool, nil
}

// Config returns the crypto/tls configuration of a connection to
// serverName (its SNI and the name its certificate must hold; "" lets
// net/http fill it in).
func (t TLS) Config(serverName string) *tls.Config {
	return &tls.Config{
		ServerName:         serverName,
		RootCAs:            t.Roots,
		InsecureSkipVerify: t.Insecure,
		MinVersion:         tls.VersionTLS12, // RFC 9325 §3.1.1: TLS 1.2 at least
	}
}

// describe says how certificates are checked, for a plan.
func (t TLS) describe(host string) string {
	sni := "SNI " + host
	// An IPv6 literal keeps its brackets in a URL (RFC 3986 §3.2.2).
	if net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")) != nil {
		sni = "no SNI for an IP address (RFC 6066 §3)"
	}
	switch {
	case t.Insecure:
		return "TLS 1.2 or later, " + sni + "; the certificate is NOT verified"
	case t.Roots != nil:
		from := t.RootsFrom
		if from == "" {
			from = "the given CA bundle"
		}
		return "TLS 1.2 or later, " + sni + "; the certificate must name " + host + " and chain to " + from
	}
	return "TLS 1.2 or later, " + sni + "; the certificate must name " + host + " and chain to the system's roots (SSL_CERT_FILE, SSL_CERT_DIR)"
}

// insecureWarning is the plan's warning, and the run's, when
// certificates are not verified.
const insecureWarning = "certificate verification is off: anyone on the path can read and change the transfer"

// CertificateError is a TLS handshake that failed because the server's
// certificate could not be verified: an unknown authority, a name that
// is not the host's, an expired certificate.
type CertificateError struct {
	Host string // the host whose certificate it is
	Err  error  // crypto/x509's reason
}

func (e *CertificateError) Error() string {
	return "TLS: the certificate of " + e.Host + " is not trusted: " + e.Err.Error()
}

func (e *CertificateError) Unwrap() error { return e.Err }

// certificateError returns a *CertificateError for err when it is a
// failed certificate verification with host, else err itself.
func certificateError(host string, err error) error {
	var ce *CertificateError
	if errors.As(err, &ce) {
		return err
	}
	var reason error
	var ve *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	switch {
	case errors.As(err, &ve):
		reason = ve.Err
	case errors.As(err, &ua):
		reason = ua
	case errors.As(err, &he):
		reason = he
	case errors.As(err, &ci):
		reason = ci
	default:
		return err
	}
	return &CertificateError{Host: host, Err: reason}
}

// warn tells the user about something a running plan met (an https
// redirect to http): through the function of ctx (WithWarn), else
// Client.Warn, else the trace.
func (c *Client) warn(ctx context.Context, msg string) {
	if f, ok := ctx.Value(warnKey{}).(func(string)); ok {
		f(safetext.Line(msg))
		return
	}
	if c.Warn != nil {
		c.Warn(safetext.Line(msg))
		return
	}
	c.trace('!', "warning: "+msg)
}

type warnKey struct{}

// WithWarn returns a copy of ctx whose requests tell warn, in place of
// Client.Warn, what they meet that the user should know (an https
// redirect to http or ftp, a certificate not verified): a caller with
// many requests at once (a link checker) learns which of them met what.
// A nil warn is ignored.
func WithWarn(ctx context.Context, warn func(msg string)) context.Context {
	if warn == nil {
		return ctx
	}
	return context.WithValue(ctx, warnKey{}, warn)
}

// tlsTransports are the http transports of Clients whose TLS policy,
// proxy or connections per host are not the default, one per setting, so
// that connections are shared.
var tlsTransports struct {
	sync.Mutex
	m map[tlsKey]*http.Transport
}

type tlsKey struct {
	roots          *x509.CertPool
	insecure       bool
	proxy, noProxy string
	connsPerHost   int
}

// transport returns the http transport for c's TLS policy and the http
// handler h's proxy and connections per host. Transports are cached by
// these settings, never per Client: a handler installed later
// (Client.SetHTTP) with other settings gets the transport of its own.
func (c *Client) transport(h HTTP) *http.Transport { return c.transportPerHost(h, h.ConnsPerHost) }

// transportPerHost is transport with at most n connections to one host,
// every one of them kept for reuse (0: net/http's defaults).
func (c *Client) transportPerHost(h HTTP, n int) *http.Transport {
	n = max(n, 0)
	if c.TLS.Roots == nil && !c.TLS.Insecure && h.Proxy == "" && h.NoProxy == "" && n == 0 {
		return httpTransport
	}
	k := tlsKey{c.TLS.Roots, c.TLS.Insecure, h.Proxy, h.NoProxy, n}
	tlsTransports.Lock()
	defer tlsTransports.Unlock()
	if t := tlsTransports.m[k]; t != nil {
		return t
	}
	t := c.newTransport(h, n)
	if tlsTransports.m == nil {
		tlsTransports.m = map[tlsKey]*http.Transport{}
	}
	tlsTransports.m[k] = t
	return t
}

// newTransport makes an http transport for c's TLS policy and h's proxy,
// with at most n connections to one host when n > 0. It is the one
// constructor of the repository's http transports.
func (c *Client) newTransport(h HTTP, n int) *http.Transport {
	t := httpTransport.Clone()
	// RFC 2818 §3.1: the host name is checked and sent as SNI; net/http
	// fills in ServerName per connection.
	t.TLSClientConfig = c.TLS.Config("")
	if h.Proxy != "" || h.NoProxy != "" {
		t.Proxy = proxyFunc(h.Proxy, h.NoProxy)
	}
	if n > 0 {
		// N at once, N connections: each one kept when its response is
		// read, for the next URL of the host (net/http keeps 2 and
		// closes the rest, a new TCP and TLS handshake per URL beyond
		// them). Over HTTP/2 (ForceAttemptHTTP2, kept from net/http's
		// default transport with our TLS config) one connection carries
		// them all.
		t.MaxConnsPerHost, t.MaxIdleConnsPerHost = n, n
		t.MaxIdleConns = max(t.MaxIdleConns, n)
	}
	return t
}

// ftpPlanTLS adds the RFC 4217 steps of Client.TLS.FTP to an ftp plan,
// before USER: ftp.Dial sends them.
func ftpPlanTLS(c *Client, p *Plan, u rfc1738.URL) {
	steps := []Step{{Verb: "AUTH", Arg: "TLS", HasArg: true}, {Verb: "PBSZ", Arg: "0", HasArg: true}, {Verb: "PROT", Arg: "P", HasArg: true}}
	switch c.TLS.FTP {
	case ftp.SecurityTry:
		// RFC 4217 §4: AUTH TLS is sent whether or not FEAT lists it.
		p.Steps = append(p.Steps, steps...)
		p.Notes = append(p.Notes, "AUTH TLS is sent whatever FEAT lists (RFC 4217 §4); only when the server refuses it does the session go on in clear, with a warning")
	case ftp.SecurityRequire:
		p.Steps = append(p.Steps, steps...)
		p.Notes = append(p.Notes, "TLS is required (RFC 4217): unless the server protects the control and the data connections, the session ends before USER and PASS are sent")
	default:
		return
	}
	p.Notes = append(p.Notes, c.TLS.describe(u.Host()), "each data connection is TLS and resumes the control connection's session (RFC 4217 §10.2)")
	if c.TLS.Insecure {
		p.Warnings = append(p.Warnings, insecureWarning)
	}
}

// ftpCheckTLS checks, at the plan's TLS steps, that the connection is as
// protected as Client.TLS.FTP requires (ftp.Dial has already refused
// otherwise; a pooled connection was dialled with the same policy).
func ftpCheckTLS(c *Client, conn *ftp.Conn) error {
	if pr := conn.Protection(); c.TLS.FTP == ftp.SecurityRequire && (!pr.Control || !pr.Data) {
		return fmt.Errorf("ftp: %w", ftp.ErrTLSRequired)
	}
	return nil
}

// The values of TLSConfig.FTP (RFC 4217), for callers that import no
// protocol package.
const (
	FTPClear      = ftp.SecurityNone    // RFC 959 in clear
	FTPTryTLS     = ftp.SecurityTry     // curl --ssl
	FTPRequireTLS = ftp.SecurityRequire // curl --ssl-reqd
)
