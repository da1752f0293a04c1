package linkcheck

import (
	"context"
	"errors"
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// TestDNSCache: a host is looked up once for all its checks, a "no such
// host" answer included; a failure that is no answer (a timeout) is asked
// again.
func TestDNSCache(t *testing.T) {
	var queries atomic.Int32
	// A resolver whose server never answers.
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		queries.Add(1)
		return nil, &net.DNSError{Err: "timeout", IsTimeout: true}
	}}
	c := &dnsCache{resolver: r}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for range 3 {
		if _, err := c.lookup(ctx, "timeout.invalid"); err == nil {
			t.Fatal("lookup of a host whose server does not answer succeeded")
		}
	}
	if n := queries.Load(); n < 3 {
		t.Errorf("%d queries for 3 lookups that timed out: a timeout was kept", n)
	}
	if a, err := c.lookup(ctx, "127.0.0.1"); err != nil || len(a) != 1 || a[0] != "127.0.0.1" {
		t.Errorf("an IP address: %q, %v", a, err)
	}
}

// TestDNSCacheNotFound: "no such host" is kept: the second lookup asks
// nobody.
func TestDNSCacheNotFound(t *testing.T) {
	var queries atomic.Int32
	c := &dnsCache{resolver: &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		queries.Add(1)
		client, server := net.Pipe()
		go nxdomain(server)
		return client, nil
	}}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.lookup(ctx, "gone.example")
	var de *net.DNSError
	if !errors.As(err, &de) || !de.IsNotFound {
		t.Fatalf("lookup: %v, want no such host", err)
	}
	n := queries.Load()
	if _, err := c.lookup(ctx, "gone.example"); !errors.As(err, &de) || !de.IsNotFound {
		t.Fatalf("second lookup: %v", err)
	}
	if queries.Load() != n {
		t.Errorf("the second lookup asked the server again (%d queries, then %d)", n, queries.Load())
	}
}

// nxdomain answers each DNS query read from c with NXDOMAIN. The
// resolver frames its messages as over TCP (a 2-byte length first), c
// being no packet connection.
func nxdomain(c net.Conn) {
	defer c.Close()
	for {
		var b [514]byte
		n, err := c.Read(b[:])
		if err != nil || n < 14 {
			return
		}
		msg := append([]byte(nil), b[2:n]...)
		msg[2] |= 0x80        // QR: a response
		msg[3] = 0x80 | 3     // RA, and RCODE 3: NXDOMAIN
		msg[6], msg[7] = 0, 0 // no answers
		if _, err := c.Write(append([]byte{byte(len(msg) >> 8), byte(len(msg))}, msg...)); err != nil {
			return
		}
	}
}
