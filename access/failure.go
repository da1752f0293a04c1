package access

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"syscall"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/access/nntp"
	"github.com/rfc1738/rfc1738/access/smtp"
	"github.com/rfc1738/rfc1738/access/wais"
)

// The kinds of failure, one vocabulary for every scheme: FailureOf says which
// one an error of a handler, a protocol client, a local file or the
// network is, so that a caller (the CLI's exit statuses, a report) needs
// no protocol package. ErrTooLarge (a body over its limit) and
// ErrNotVerified (what the server cannot prove) are kinds too.
var (
	// ErrNotAttempted: nothing was sent, by choice: a scheme or form with
	// no access method (ErrUnsupported), no news server, a §6 refusal
	// (*GuardError).
	ErrNotAttempted = errors.New("not attempted")
	// ErrLocal: this machine's files: the output, a file: URL's file.
	ErrLocal = errors.New("local file I/O")
	// ErrNetwork: refused, unreachable, timed out, reset or cut short.
	ErrNetwork = errors.New("network failure")
	// ErrTLS: a certificate that does not verify, a failed handshake, TLS
	// required and not offered.
	ErrTLS = errors.New("TLS failure")
	// ErrAuth: a login refused or required (ftp 530/532, http 401/407,
	// nntp 480/481, smtp 530/535).
	ErrAuth = errors.New("authentication refused or required")
	// ErrProtocol: a peer that broke its protocol: a reply that makes no
	// sense.
	ErrProtocol = errors.New("protocol error")
	// ErrRefused: the server said no: http 4xx/5xx, ftp 550, a gopher
	// error item, no such article, a WAIS refusal.
	ErrRefused = errors.New("refused by the server")
)

// FailureOf returns the kind of failure err is: one of ErrNotAttempted,
// ErrLocal, ErrNetwork, ErrTLS, ErrAuth, ErrProtocol, ErrRefused,
// ErrTooLarge and ErrNotVerified; nil for nil and for an error of no known kind. Where err's
// tree holds several, the most basic cause wins: a refusal to try before
// TLS, a timeout before the local file it cut short, the network before
// what a server answered.
func FailureOf(err error) error {
	if err == nil {
		return nil
	}
	var (
		pathErr  *fs.PathError
		linkErr  *os.LinkError
		guardErr *GuardError
		dnsErr   *net.DNSError
		opErr    *net.OpError
		httpErr  *HTTPStatusError
		reply    *textproto.Error
	)
	// (An if chain in the order of the kinds' precedence.)
	switch {
	case errors.Is(err, ErrUnsupported), errors.Is(err, ErrNoNewsServer), errors.As(err, &guardErr):
		return ErrNotAttempted
	case isTLSFailure(err), errors.Is(err, ftp.ErrTLSRequired):
		// ftp.ErrTLSRequired: TLS required, and the server offers none.
		return ErrTLS
	case isTimeout(err):
		// Before the local file: a copy into it that a deadline or the
		// idle watchdog stopped is a network failure.
		return ErrNetwork
	case errors.As(err, &pathErr), errors.As(err, &linkErr):
		return ErrLocal
	case errors.As(err, &dnsErr), errors.As(err, &opErr), isNetworkFailure(err):
		return ErrNetwork
	case errors.Is(err, ftp.ErrPasswordRequired), errors.Is(err, ftp.ErrAccountRequired):
		return ErrAuth
	case errors.As(err, &httpErr):
		// RFC 9110 §15.5.2 401 Unauthorized, §15.5.8 407 Proxy
		// Authentication Required.
		if httpErr.Code == http.StatusUnauthorized || httpErr.Code == http.StatusProxyAuthRequired {
			return ErrAuth
		}
		return ErrRefused
	case errors.As(err, &reply):
		// A line protocol's refusal: ftp, nntp and smtp replies, and a
		// gopher error item (gopher.ServerError unwraps to one).
		switch {
		case authReply(reply.Code):
			return ErrAuth
		case reply.Code == 425 || reply.Code == 426:
			// RFC 959 §4.2: "Can't open data connection", "Connection
			// closed; transfer aborted": the network, as the server saw it.
			return ErrNetwork
		}
		return ErrRefused
	case isProtocolError(err):
		return ErrProtocol
	case errors.Is(err, ErrTooLarge):
		return ErrTooLarge
	case errors.Is(err, ErrNotVerified):
		return ErrNotVerified
	}
	var wr *wais.RetrieveError
	var wi *wais.InitRefusedError
	if errors.As(err, &wr) || errors.As(err, &wi) {
		return ErrRefused
	}
	return nil
}

// authReply reports whether a line protocol's reply code refuses or asks
// for a login: RFC 959 530 "Not logged in" and 532 "Need account";
// RFC 4954 §6 530 "Authentication required" and 535 "Authentication
// credentials invalid"; RFC 4643 §2.3 480 "Authentication required" and
// 481 "Authentication failed". (The codes of the three protocols do not
// clash: ftp and smtp have no 480 or 481, nntp no 53x.)
func authReply(code int) bool {
	switch code {
	case 530, 532, 535, 480, 481:
		return true
	}
	return false
}

// isTLSFailure reports a certificate that did not verify or a TLS
// handshake that failed.
func isTLSFailure(err error) bool {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		alert    tls.AlertError
		record   tls.RecordHeaderError
	)
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &alert) || errors.As(err, &record)
}

// isNetworkFailure reports a connection that failed under the protocol:
// refused, unreachable, reset, cut short, or a timeout (a deadline, the
// idle watchdog) anywhere in err's tree.
func isNetworkFailure(err error) bool {
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED, syscall.EPIPE,
		syscall.EHOSTUNREACH, syscall.ENETUNREACH, syscall.ETIMEDOUT,
		os.ErrDeadlineExceeded, context.DeadlineExceeded, io.ErrUnexpectedEOF, ftp.ErrShortTransfer} {
		if errors.Is(err, e) {
			return true
		}
	}
	return isTimeout(err)
}

// isTimeout reports a timeout anywhere in err's tree: a deadline, the
// idle watchdog, an error whose Timeout method says so.
func isTimeout(err error) bool {
	return anyError(err, func(e error) bool {
		t, ok := e.(interface{ Timeout() bool })
		return ok && t.Timeout()
	})
}

// isProtocolError reports a peer that broke its protocol.
func isProtocolError(err error) bool {
	var (
		f *ftp.ProtocolError
		g *gopher.ProtocolError
		m *gopher.MenuError
		n *nntp.ProtocolError
		s *smtp.ProtocolError
		w *wais.ProtocolError
	)
	return errors.As(err, &f) || errors.As(err, &g) || errors.As(err, &m) || errors.As(err, &n) ||
		errors.As(err, &s) || errors.As(err, &w)
}

// anyError reports whether match holds for err or any error in its tree
// (errors.As stops at the first error of a type, whatever it says).
func anyError(err error, match func(error) bool) bool {
	if err == nil {
		return false
	}
	if match(err) {
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return anyError(u.Unwrap(), match)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if anyError(e, match) {
				return true
			}
		}
	}
	return false
}
