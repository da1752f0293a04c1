package access

import (
	"errors"
	"fmt"
	"io/fs"
	"net/textproto"
	"syscall"
	"testing"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/access/gopher"
)

// TestFailureOf: one vocabulary for every scheme's errors, each wrapped as
// a handler wraps it; where a tree holds two kinds, the more basic wins.
func TestFailureOf(t *testing.T) {
	wrap := func(e error) error { return fmt.Errorf("ftp://h/x: %w", e) }
	for _, tt := range []struct {
		name string
		err  error
		want error
	}{
		{"nil", nil, nil},
		{"unknown", errors.New("something"), nil},
		{"unsupported", wrap(ErrUnsupported), ErrNotAttempted},
		{"guard", wrap(&GuardError{}), ErrNotAttempted},
		{"no news server", wrap(ErrNoNewsServer), ErrNotAttempted},
		{"ftp 530 (RFC 959)", wrap(&textproto.Error{Code: 530, Msg: "Login incorrect."}), ErrAuth},
		{"nntp 481 (RFC 4643)", wrap(&textproto.Error{Code: 481, Msg: "no"}), ErrAuth},
		{"ftp 550", wrap(&textproto.Error{Code: 550, Msg: "No such file"}), ErrRefused},
		{"ftp 425 (RFC 959 §4.2)", wrap(&textproto.Error{Code: 425, Msg: "Can't open data connection"}), ErrNetwork},
		{"http 401", wrap(&HTTPStatusError{Code: 401}), ErrAuth},
		{"http 404", wrap(&HTTPStatusError{Code: 404}), ErrRefused},
		{"refused connection", wrap(syscall.ECONNREFUSED), ErrNetwork},
		{"short transfer", wrap(ftp.ErrShortTransfer), ErrNetwork},
		{"tls required", wrap(ftp.ErrTLSRequired), ErrTLS},
		{"password required", wrap(ftp.ErrPasswordRequired), ErrAuth},
		{"local file", wrap(&fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}), ErrLocal},
		{"gopher protocol", wrap(&gopher.ProtocolError{}), ErrProtocol},
		{"too large", wrap(ErrTooLarge), ErrTooLarge},
		{"not verified", wrap(ErrNotVerified), ErrNotVerified},
		// A guard refusal beside a network error: nothing was attempted.
		{"guard and network", errors.Join(syscall.ECONNRESET, &GuardError{}), ErrNotAttempted},
		// A local file's error under a timeout: the network cut it short.
		{"timeout over a file", errors.Join(&fs.PathError{Op: "write", Path: "x", Err: fs.ErrClosed}, syscall.ETIMEDOUT, timeout{}), ErrNetwork},
	} {
		if got := FailureOf(tt.err); got != tt.want {
			t.Errorf("%s: FailureOf(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

type timeout struct{}

func (timeout) Error() string { return "i/o timeout" }
func (timeout) Timeout() bool { return true }
