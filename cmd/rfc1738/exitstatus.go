package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/access/nntp"
	"github.com/rfc1738/rfc1738/access/smtp"
	"github.com/rfc1738/rfc1738/access/wais"
)

// The exit statuses of the commands that reach servers (get, mirror,
// mail, plan, browse), after wget's: what failed, not only that something
// did. exitOK, exitNegative (1) and exitUsage (2) are in main.go.
const (
	exitLocalIO  = 3 // the output file or folder, a file: URL's file
	exitNetwork  = 4 // refused, unreachable, timed out, reset, cut short
	exitTLS      = 5 // a certificate that does not verify, a failed handshake
	exitAuth     = 6 // a login refused or required
	exitProtocol = 7 // a reply that makes no sense
	exitRefused  = 8 // the server said no: http 4xx/5xx, ftp 550, a gopher error item, no such article
)

// exitStatuses is the table of exitStatus, for --help, the man page and
// the README.
var exitStatuses = []struct{ code, meaning string }{
	{"0", "success"},
	{"1", "generic failure"},
	{"2", "usage: a bad flag, a URL that does not parse, a scheme with no access method, a §6 refusal"},
	{"3", "local file I/O: the output file or folder, a file: URL's file"},
	{"4", "network failure: connection refused, unreachable, timed out, reset or cut short"},
	{"5", "TLS: a certificate that does not verify, a failed handshake, TLS required and not offered"},
	{"6", "authentication refused or required (ftp 530, http 401, nntp 480/481, smtp 535)"},
	{"7", "protocol error: a reply that makes no sense"},
	{"8", "the server said no: http 4xx/5xx, ftp 550, a gopher error item, no such article"},
	{"130", "interrupted (SIGINT)"},
	{"143", "terminated (SIGTERM)"},
}

// worstRule says which status a run of several URLs (or a mirror of
// several items) ends with.
const worstRule = "With several URLs the status is the worst one's, as wget ranks them: a signal first, " +
	"then the lowest of 2 to 8 (the most basic failure), then 1; the summary line names it."

// writeExitStatuses writes the table for --help.
func writeExitStatuses(w io.Writer) {
	fmt.Fprintln(w, "\nexit status (as wget's):")
	for _, s := range exitStatuses {
		fmt.Fprintf(w, "  %-4s %s\n", s.code, s.meaning)
	}
	fmt.Fprintln(w, worstRule)
}

// exitStatus returns the exit status that says what err is: one
// classification of the typed errors the access methods and protocol
// clients return, for every command that fetches. nil is exitOK.
func exitStatus(err error) int {
	if err == nil {
		return exitOK
	}
	var (
		pathErr  *fs.PathError
		linkErr  *os.LinkError
		guardErr *access.GuardError
		dnsErr   *net.DNSError
		opErr    *net.OpError
		httpErr  *access.HTTPStatusError
		reply    *textproto.Error
	)
	switch {
	case errors.Is(err, access.ErrUnsupported), errors.Is(err, access.ErrNoNewsServer), errors.As(err, &guardErr):
		return exitUsage
	case isTLSFailure(err), errors.Is(err, ftp.ErrTLSRequired):
		// ftp.ErrTLSRequired: --ssl-reqd, and the server offers no TLS.
		return exitTLS
	case isTimeout(err):
		// Before the local file: a copy into it that --timeout or the
		// idle watchdog stopped is a network failure.
		return exitNetwork
	case errors.As(err, &pathErr), errors.As(err, &linkErr):
		return exitLocalIO
	case errors.As(err, &dnsErr), errors.As(err, &opErr), isNetworkFailure(err):
		return exitNetwork
	case errors.Is(err, ftp.ErrPasswordRequired), errors.Is(err, ftp.ErrAccountRequired):
		return exitAuth
	case errors.As(err, &httpErr):
		// RFC 9110 §15.5.2 401 Unauthorized, §15.5.8 407 Proxy
		// Authentication Required.
		if httpErr.Code == http.StatusUnauthorized || httpErr.Code == http.StatusProxyAuthRequired {
			return exitAuth
		}
		return exitRefused
	case errors.As(err, &reply):
		// A line protocol's refusal: ftp, nntp and smtp replies, and a
		// gopher error item (gopher.ServerError unwraps to one).
		switch {
		case authReply(reply.Code):
			return exitAuth
		case reply.Code == 425 || reply.Code == 426:
			// RFC 959 §4.2: "Can't open data connection", "Connection
			// closed; transfer aborted": the network, as the server saw it.
			return exitNetwork
		}
		return exitRefused
	case isProtocolError(err):
		return exitProtocol
	}
	var wr *wais.RetrieveError
	var wi *wais.InitRefusedError
	if errors.As(err, &wr) || errors.As(err, &wi) {
		return exitRefused
	}
	return exitNegative
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
// idle watchdog, --timeout) anywhere in err's tree.
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
// idle watchdog, --timeout (timeoutError).
func isTimeout(err error) bool {
	return anyError(err, func(e error) bool {
		t, ok := e.(interface{ Timeout() bool })
		return ok && t.Timeout()
	})
}

// timeoutError is an error that is a timeout (as a net.Error says), for
// the cause of a context that a time limit ends.
type timeoutError struct{ error }

func (e timeoutError) Timeout() bool { return true }
func (e timeoutError) Unwrap() error { return e.error }

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

// worseStatus returns the worse of two exit statuses, as wget ranks them:
// a signal's status first, then the lowest of 2 to 8 (a usage error
// before local I/O, before the network, before what a server answered),
// then 1, then 0.
func worseStatus(a, b int) int {
	rank := func(s int) int {
		switch {
		case s >= 128:
			return 1000 + s
		case s >= exitUsage:
			return 100 - s
		}
		return s
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// statusName says in a few words what an exit status means, for a
// summary line.
func statusName(s int) string {
	switch s {
	case exitOK:
		return "success"
	case exitUsage:
		return "usage or URL error"
	case exitLocalIO:
		return "local file I/O error"
	case exitNetwork:
		return "network failure"
	case exitTLS:
		return "TLS failure"
	case exitAuth:
		return "authentication refused"
	case exitProtocol:
		return "protocol error"
	case exitRefused:
		return "the server said no"
	case 128 + int(syscall.SIGINT):
		return "interrupted"
	case 128 + int(syscall.SIGTERM):
		return "terminated"
	}
	return "failure"
}

// signalStatus is the exit status after the signal s: 128 + its number,
// 130 for SIGINT and 143 for SIGTERM.
func signalStatus(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitNegative
}

// interruptible returns a context that SIGINT or SIGTERM cancels, with
// the signal as its cause; caught returns that signal, or nil. stop
// stops listening.
func interruptible(parent context.Context) (ctx context.Context, caught func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	var got atomic.Value
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			got.Store(s)
			cancel(fmt.Errorf("interrupted by %s", signalName(s)))
		case <-done:
		}
	}()
	caught = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	var once atomic.Bool
	stop = func() {
		if once.CompareAndSwap(false, true) {
			signal.Stop(sigc)
			close(done)
			cancel(nil)
		}
	}
	return ctx, caught, stop
}
