package dialerr

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
)

// TestTrim dials a closed loopback port: the text loses the repeated
// "dial tcp ADDR" and the chain keeps ECONNREFUSED and the *net.OpError.
func TestTrim(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, derr := (&net.Dialer{}).DialContext(context.Background(), "tcp", addr)
	if derr == nil {
		t.Skip("something listens on the port just closed")
	}
	got := Trim(derr)
	if strings.Contains(got.Error(), "dial tcp") || !strings.Contains(got.Error(), "connection refused") {
		t.Errorf("Trim = %q; want the cause without \"dial tcp\"", got)
	}
	if !errors.Is(got, syscall.ECONNREFUSED) {
		t.Errorf("errors.Is(Trim(err), ECONNREFUSED) = false")
	}
	var oe *net.OpError
	if !errors.As(got, &oe) {
		t.Errorf("errors.As(Trim(err), *net.OpError) = false")
	}
	other := errors.New("x")
	if Trim(other) != other {
		t.Errorf("Trim changed an error that is not a dial error")
	}
}
