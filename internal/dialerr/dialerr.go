// Package dialerr shortens the error of a failed dial for the protocol
// clients: "ftp: dial h:21: connect: connection refused" instead of
// "ftp: dial h:21: dial tcp h:21: connect: connection refused".
package dialerr

import (
	"errors"
	"net"
)

// Trim returns err with the "dial tcp ADDR: " prefix of a *net.OpError
// left out of its text, for a caller that names the address already.
// The error chain is kept: errors.As still finds the *net.OpError and
// errors.Is the system error beneath it. Any other error is returned as
// it is.
func Trim(err error) error {
	var oe *net.OpError
	if !errors.As(err, &oe) || oe.Op != "dial" || oe.Err == nil {
		return err
	}
	return &dialError{op: oe}
}

type dialError struct{ op *net.OpError }

func (e *dialError) Error() string { return e.op.Err.Error() }
func (e *dialError) Unwrap() error { return e.op }

// Timeout and Temporary keep the net.Error view of the dial error.
func (e *dialError) Timeout() bool   { return e.op.Timeout() }
func (e *dialError) Temporary() bool { return e.op.Temporary() }
