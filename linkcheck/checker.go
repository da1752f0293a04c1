package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// DefaultTimeout bounds one attempt at a check when Checker.Timeout is
// zero.
const DefaultTimeout = 20 * time.Second

// DefaultBackoff is the wait before the first retry when
// Checker.Backoff is zero; it doubles with each retry.
const DefaultBackoff = 250 * time.Millisecond

// A Checker checks single URLs. Its zero value works, with the settings of
// access.NewClient; it is safe for concurrent use. Close it to end the
// logins it keeps.
//
// Every scheme but http, https and file is checked through its access
// handler's Stat (access.Stater): the lightest exchange that proves the URL
// names something, so a scheme registered in the Client is checked as it
// is fetched.
// http and https are checked through the Client's http client
// (access.Client.NewHTTPSender): its TLS policy, stored logins, and its
// http handler's proxy, User-Agent and redirect policy are get's.
type Checker struct {
	// Client holds the settings of the access methods (the anonymous ftp
	// password, the news server, gateways, the §6 port guard); nil means
	// access.NewClient(). When its ftp handler (access.FTP) has no
	// Pool, the Checker installs one that keeps PerHost idle logins per
	// host and user, and Close ends them.
	Client *access.Client
	// PerHost is the number of connections kept per host (ftp logins,
	// http connections); zero means 2.
	PerHost int
	// Timeout bounds one attempt; zero means DefaultTimeout.
	Timeout time.Duration
	// Retries is the number of further attempts after a transient
	// failure (an ftp or nntp 4xx, http 429 or 503, a timeout, a dropped
	// connection); Backoff is the first wait, doubling each time.
	Retries int
	Backoff time.Duration
	// MaxRetryWait bounds the wait a Retry-After of a 429 or 503 answer
	// asks for (RFC 9110 §10.2.3); zero means DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// Accept is the set of http status codes that are ok; nil means any
	// 2xx.
	Accept Codes
	// SMTPRelay, "host:port", makes mailto checks ask the relay with
	// RCPT TO (no DATA is ever sent); SMTPFrom is the MAIL FROM address.
	// Empty: mailto addresses are only checked for syntax, and skipped.
	SMTPRelay, SMTPFrom string
	// MaxPage bounds what a recursive Run reads of a page, listing or
	// document to find its links; zero means MaxRetrieve. A document read
	// in part is said so (Run.Warn, and its detail).
	MaxPage int64

	once   sync.Once
	hc     *access.HTTPSender
	logins io.Closer // the ftp pool the Checker set in Client, or nil
}

func (k *Checker) init() {
	k.once.Do(func() {
		if k.Client == nil {
			k.Client = access.NewClient()
		}
		if k.PerHost <= 0 {
			k.PerHost = 2
		}
		if f, ok := k.Client.Handler("ftp").(access.FTP); ok && f.Pool == nil {
			k.logins = k.Client.KeepFTPLogins(k.PerHost, false)
		}
		k.hc = k.httpClient()
	})
}

// maxPage is MaxPage, or its default.
func (k *Checker) maxPage() int64 {
	if k.MaxPage > 0 {
		return k.MaxPage
	}
	return MaxRetrieve
}

// Close ends the kept ftp logins (QUIT) and idle http connections.
func (k *Checker) Close() error {
	k.init()
	k.hc.CloseIdleConnections()
	if k.logins == nil {
		return nil
	}
	return k.logins.Close()
}

// outcome is the result of one attempt.
type outcome struct {
	status    Status
	detail    string
	transient bool          // worth another attempt
	timeout   bool          // the attempt ran out of time
	refused   bool          // the host refused the connection or could not be reached
	wait      time.Duration // the peer asked to wait this long before another
	code      int           // the server's status or reply code, when it answered
}

func okay(format string, args ...any) outcome {
	return outcome{status: OK, detail: fmt.Sprintf(format, args...)}
}

func skipped(format string, args ...any) outcome {
	return outcome{status: Skipped, detail: fmt.Sprintf(format, args...)}
}

// broken makes the outcome of an error; transient says whether another
// attempt may succeed.
func broken(err error) outcome {
	o := outcome{status: Broken, detail: err.Error(), transient: transient(err), timeout: isTimeout(err), refused: unreachable(err)}
	var te *textproto.Error
	if errors.As(err, &te) {
		o.code = te.Code
	}
	return o
}

// unreachable reports an error that says the host took no connection:
// refused, reset before a word, or no route to it.
func unreachable(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH)
}

// Check checks s: read as browsers and curl read it (rfc1738.Read; what
// nothing reads is Invalid with the error's offset and rule), then checked
// by its scheme's method with retries. The detail is one line, safe to
// print.
func (k *Checker) Check(ctx context.Context, s string) (Status, string) {
	u, _, err := readURL(s, false)
	if err != nil {
		return Invalid, invalidDetail(err)
	}
	return k.CheckURL(ctx, u)
}

// invalidDetail says where and why a URL is invalid, without repeating
// the URL (which may hold a password).
func invalidDetail(err error) string {
	var pe *rfc1738.Error
	if errors.As(err, &pe) {
		return oneLine(fmt.Sprintf("offset %d: %s: %s", pe.Offset, pe.Rule, pe.Message()))
	}
	return oneLine(err.Error())
}

// CheckURL checks a parsed URL.
func (k *Checker) CheckURL(ctx context.Context, u rfc1738.URL) (Status, string) {
	s, d, _ := k.checkURL(ctx, u, false)
	return s, d
}

// checkURL is CheckURL; with read, an http or https URL is checked with
// one GET whose document, when the answer is ok, is returned too.
func (k *Checker) checkURL(ctx context.Context, u rfc1738.URL, read bool) (Status, string, *document) {
	k.init()
	backoff := k.backoff()
	for attempt := 0; ; attempt++ {
		o, doc := k.attempt(ctx, u, read)
		if !o.transient || attempt >= k.Retries || ctx.Err() != nil {
			return o.status, afterAttempts(o.detail, attempt+1), doc
		}
		t := time.NewTimer(k.retryWait(backoff, attempt, o.wait))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
}

// backoff is Backoff, or its default.
func (k *Checker) backoff() time.Duration {
	if k.Backoff > 0 {
		return k.Backoff
	}
	return DefaultBackoff
}

// afterAttempts is the detail of a verdict reached after n attempts.
func afterAttempts(detail string, n int) string {
	if n > 1 {
		detail += fmt.Sprintf(" (after %d attempts)", n)
	}
	return oneLine(detail)
}

// attempt makes one attempt at u, bounded by the Checker's timeout; an
// attempt that ran out of time is broken and transient.
func (k *Checker) attempt(ctx context.Context, u rfc1738.URL, read bool) (outcome, *document) {
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var o outcome
	var doc *document
	if read && isHTTP(u) {
		if o = k.guard(u); o.status == OK {
			o, doc = k.checkHTTPRead(actx, u, 0, true)
		}
	} else {
		o = k.check(actx, u)
	}
	// The connection's deadline (the attempt's) may fire before the
	// context notices.
	timedOut := (actx.Err() != nil || o.timeout) && ctx.Err() == nil
	if timedOut && o.status == Broken {
		o.transient, o.timeout = true, true
		if !strings.HasPrefix(o.detail, "timeout") {
			o.detail = fmt.Sprintf("timeout after %v: %s", timeout, o.detail)
		}
	}
	return o, doc
}

// check makes one attempt, by scheme.
func (k *Checker) check(ctx context.Context, u rfc1738.URL) outcome {
	switch u.Kind() {
	case rfc1738.KindMailto:
		return k.checkMailto(ctx, u)
	case rfc1738.KindGopher:
		if g, _ := u.Gopher(); g.Type == '8' || g.Type == 'T' {
			// RFC 1436: a telnet session; §3.8 checks it by its TCP accept,
			// once the §6 guard has passed the telnet URL it stands for
			// (its port is a telnet port: 23 is its own, 11211 is not).
			t, o := k.guardGopherSession(u)
			if o.status != OK {
				return o
			}
			return k.stat(ctx, k.Client, t)
		}
	}
	if n, ok := k.Client.Handler("news").(access.News); ok && u.Kind() == rfc1738.KindNews && n.Server == "" {
		return skipped("no news server configured (§3.6: news URLs are resolved by the reader's own server; set --nntp-server or $NNTPSERVER)")
	}
	native := u.IsHTTPS() // RFC 2818: http over TLS, checked as http is
	switch u.Kind() {
	case rfc1738.KindFTP, rfc1738.KindHTTP, rfc1738.KindGopher, rfc1738.KindNews,
		rfc1738.KindNNTP, rfc1738.KindWAIS, rfc1738.KindTelnet, rfc1738.KindFile:
		native = true
	}
	if !native {
		return k.checkGateway(ctx, u)
	}
	if o := k.guard(u); o.status != OK {
		return o
	}
	if isHTTP(u) {
		return k.checkHTTP(ctx, u, 0)
	}
	return k.stat(ctx, k.Client, u)
}

// guard plans u, which applies the §6 guards (ports, decoded CR/LF/NUL/
// TAB) and the scheme's own rules before anything is sent: OK when they
// pass.
func (k *Checker) guard(u rfc1738.URL) outcome {
	if _, err := k.Client.Plan(u); err != nil {
		var ge *access.GuardError
		switch {
		case errors.As(err, &ge):
			return skipped("refused by the §6 guard: %v", err)
		case errors.Is(err, access.ErrUnsupported) && !u.IsHTTPS():
			// The report names the URL already.
			return skipped("%s", strings.TrimPrefix(err.Error(), access.Redact(u.String())+": "))
		}
		// An https URL the http view refuses (a user or password, which
		// §3.3 does not allow) is invalid as the same http URL is. The
		// URL is printed beside the detail already.
		detail := strings.TrimPrefix(err.Error(), access.Redact(u.String())+": ")
		return outcome{status: Invalid, detail: strings.TrimSuffix(detail, ": "+access.ErrUnsupported.Error())}
	}
	return outcome{status: OK}
}

// guardGopherSession applies the §6 port guard to a gopher item of type
// 8 or T (RFC 1436: a telnet session) as to the telnet URL it names, before
// anything connects: §6's own example is a gopher URL aimed at another
// protocol's port. It returns that telnet URL, checked as one (§3.8).
func (k *Checker) guardGopherSession(u rfc1738.URL) (rfc1738.URL, outcome) {
	tu := rfc1738.TelnetURL{Host: u.Host()}
	if digits, ok := u.Port(); ok {
		port, err := strconv.Atoi(digits)
		if err != nil || port < 1 || port > 65535 {
			return rfc1738.URL{}, skipped("refused by the §6 guard: port %s is not a TCP port (1 to 65535)", digits)
		}
		tu.Port = port
	}
	b, err := tu.Append(nil)
	if err != nil {
		return rfc1738.URL{}, outcome{status: Invalid, detail: err.Error()}
	}
	t, err := rfc1738.Parse(string(b))
	if err != nil {
		return rfc1738.URL{}, outcome{status: Invalid, detail: err.Error()}
	}
	if _, err := k.Client.CheckPort(t); err != nil {
		return rfc1738.URL{}, skipped("refused by the §6 guard: %v", err)
	}
	return t, outcome{status: OK}
}

// isHTTP reports an http (§3.3) or https (RFC 2818) URL.
func isHTTP(u rfc1738.URL) bool { return u.Kind() == rfc1738.KindHTTP || u.IsHTTPS() }

// stat checks u with its handler's Stat (access.Stater), through c.
func (k *Checker) stat(ctx context.Context, c *access.Client, u rfc1738.URL) outcome {
	info, err := c.Stat(ctx, u)
	if err == nil {
		return okay("%s", info.Detail)
	}
	// The report names the URL already.
	detail := strings.TrimPrefix(err.Error(), access.Redact(u.String())+": ")
	if errors.Is(err, access.ErrNotVerified) {
		return skipped("%s", detail)
	}
	o := broken(err)
	o.detail = detail
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 420 && te.Code < 460 && u.Kind() == rfc1738.KindFTP {
		o.transient = true // RFC 959 §4.2: 4yz is transient
	}
	if errors.As(err, &te) && te.Code/100 == 4 && u.Kind() == rfc1738.KindMailto {
		o.transient = true // RFC 5321 §4.2.1: 4yz is transient
	}
	return o
}

// checkGateway checks a scheme without a native method through its
// configured gateway (§4), reading the first byte of the answer.
func (k *Checker) checkGateway(ctx context.Context, u rfc1738.URL) outcome {
	scheme := u.Scheme()
	if _, ok := k.Client.Gateways[scheme]; !ok {
		return skipped("no access method for %s and no gateway configured (§4)", scheme)
	}
	resp, err := k.Client.Get(ctx, u)
	if err != nil {
		return broken(err)
	}
	defer resp.Body.Close()
	var b [1]byte
	if _, err := io.ReadFull(resp.Body, b[:]); err != nil && err != io.EOF {
		return broken(err)
	}
	return okay("through the %s gateway", scheme)
}

// transient reports a failure that another attempt may not meet: a 4xx
// reply of a line protocol (RFC 959 §4.2 "transient negative completion",
// RFC 3977 400), a timeout, a connection dropped mid-exchange.
func transient(err error) bool {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code == 400
	}
	return isTimeout(err) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// isTimeout reports a deadline that ran out.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// oneLine returns s on one line, safe to print.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r\n", " / ")
	s = strings.ReplaceAll(s, "\n", " / ")
	return safetext.Escape(s)
}
