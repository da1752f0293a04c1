package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/textproto"
	"strconv"
	"syscall"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// A Request is a Get with options: what a download tool needs beyond
// "fetch this URL". The zero value of each option is a plain Get.
type Request struct {
	URL rfc1738.URL

	// Offset resumes a fetch at this byte of the resource: ftp sends
	// REST before RETR (TYPE I only, RFC 3659 §5.3), http asks for
	// "Range: bytes=Offset-". Response.Offset says where the body
	// really starts: a server may ignore the range and send everything.
	// A scheme or form that cannot resume fails with ErrNoResume.
	Offset int64

	// Head asks only for the header (http HEAD); other schemes refuse it
	// with ErrUnsupported.
	Head bool

	// KeepErrorBody keeps the body of an http error status: the
	// *HTTPStatusError then carries it in its Response, open, for the
	// caller to read and close.
	KeepErrorBody bool

	// MaxBytes, when positive, bounds the body: a size announced beyond
	// it fails Do, and the body's Read fails with ErrTooLarge as soon as
	// one byte more than MaxBytes has come, whatever the server
	// announced (a listing's size, SIZE, a 150 reply): the bytes are
	// counted as they arrive. A resumed fetch (Offset) counts from the
	// offset on.
	MaxBytes int64

	// Listed, when set, is what a listing said of the resource (see
	// Client.List): a handler takes its Size for the size announced
	// instead of asking (ftp sends no FEAT and SIZE before RETR), and
	// checks the bytes received against it all the same.
	Listed *Entry
}

// ErrNoResume is wrapped by the error of a Request whose Offset cannot
// be honoured: the scheme has no restart, the transfer is not binary,
// or the server refused (a REST answered 5xx). Nothing was fetched;
// the caller may fetch the whole resource instead.
var ErrNoResume = errors.New("cannot resume")

// ErrTooLarge is wrapped by the error of a Request whose body is longer
// than its MaxBytes.
var ErrTooLarge = errors.New("more bytes than the limit")

// ErrLongTransfer is wrapped by the body error of a transfer that brought
// more bytes than the size announced before it (ftp SIZE, or
// Request.Listed): after a resume (Request.Offset), the server did not
// start where it was asked, so the bytes kept before are no prefix of
// what came; the caller drops them and fetches the whole resource again.
var ErrLongTransfer = ftp.ErrLongTransfer

// HTTPStatusError is the error of an http response whose status is not
// 2xx (a server's refusal is an error, as for the other schemes).
type HTTPStatusError struct {
	URL    string // the final URL, password redacted
	Proto  string // "HTTP/1.1"
	Status string // "404 Not Found"
	Code   int
	Header http.Header
	// Response holds the error page when Request.KeepErrorBody was set;
	// its Body is then open and the caller closes it. Else it is nil.
	Response *Response
}

// The status line is the server's text: escaped before any terminal sees
// it.
func (e *HTTPStatusError) Error() string {
	return e.URL + ": " + e.Proto + " " + safetext.Escape(e.Status)
}

// requestPlanner is a Handler that can apply a Request's options to the
// plan its Plan made: the steps a resume or a HEAD adds are part of the
// plan, so the dry run shows them too.
type requestPlanner interface {
	planRequest(c *Client, p *Plan, r Request) error
}

// PlanRequest returns the conversation that Do would have for r.
func (c *Client) PlanRequest(r Request) (*Plan, error) {
	p, err := c.Plan(r.URL)
	if err != nil {
		return nil, err
	}
	p.Listed = r.Listed
	if r.Offset == 0 && !r.Head && !r.KeepErrorBody {
		return p, nil
	}
	if r.Offset < 0 {
		return nil, fmt.Errorf("%s: offset %d: %w", p.URL, r.Offset, ErrNoResume)
	}
	rp, ok := p.handler.(requestPlanner)
	if !ok {
		if r.Offset > 0 {
			return nil, fmt.Errorf("%s: %w: the %s access method has no restart", p.URL, ErrNoResume, p.Scheme)
		}
		if r.Head {
			return nil, fmt.Errorf("%s: %w: a header-only request is http's (HEAD)", p.URL, ErrUnsupported)
		}
		return p, nil
	}
	p.Offset, p.Head, p.KeepErrorBody = r.Offset, r.Head, r.KeepErrorBody
	if err := rp.planRequest(c, p, r); err != nil {
		return nil, err
	}
	return p, nil
}

// Do fetches what r names with r's options; see Get and Request.
func (c *Client) Do(ctx context.Context, r Request) (*Response, error) {
	p, err := c.PlanRequest(r)
	if err != nil {
		return nil, err
	}
	resp, err := c.execute(ctx, p)
	if err != nil || r.MaxBytes <= 0 {
		return resp, err
	}
	if r.Offset == 0 && resp.Size > r.MaxBytes {
		resp.Body.Close()
		return nil, fmt.Errorf("%s: %w: %d bytes announced, the limit is %d", resp.URL, ErrTooLarge, resp.Size, r.MaxBytes)
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: r.MaxBytes, max: r.MaxBytes, url: resp.URL}
	return resp, nil
}

// limitedBody is a body bounded by Request.MaxBytes: it reads at most
// one byte beyond the bound, to tell a body of exactly MaxBytes from a
// longer one, and never hands that byte on.
type limitedBody struct {
	io.ReadCloser
	left, max int64
	url       string
	err       error
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) > b.left {
		n = int(b.left)
		b.err = fmt.Errorf("%s: %w: more than %d bytes came", b.url, ErrTooLarge, b.max)
		err = b.err
	}
	b.left -= int64(n)
	return n, err
}

// Transient reports whether err is a failure that may go away when the
// same request is tried again a little later: a server's "try again"
// (ftp and other line protocols: 4xx, RFC 959 §4.2 "transient negative
// completion", 421 included; http 408, 429 and 5xx), a connection reset
// or cut short, a timeout. A refusal (5xx of a line protocol, http 4xx),
// a §6 guard, a bad URL or an interrupt is not.
func Transient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	var he *HTTPStatusError
	if errors.As(err, &he) {
		return he.Code == http.StatusRequestTimeout || he.Code == http.StatusTooManyRequests || he.Code >= 500
	}
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code/100 == 4
	}
	var ge *GuardError
	if errors.As(err, &ge) || errors.Is(err, ErrUnsupported) || errors.Is(err, ftp.ErrUnsafeArgument) {
		return false
	}
	if errors.Is(err, ftp.ErrShortTransfer) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// RetryAfter returns the wait an http error status asked for with
// Retry-After in seconds (RFC 9110 §10.2.3), or 0. (The HTTP-date form is
// read too.)
func RetryAfter(err error) time.Duration {
	var he *HTTPStatusError
	if !errors.As(err, &he) || he.Header == nil {
		return 0
	}
	v := he.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}
