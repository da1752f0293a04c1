package linkcheck

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// dnsCacheAge is how long a host's answer serves a run's later checks.
const dnsCacheAge = 5 * time.Minute

// A dnsCache resolves each host name once for the checks of a run: a
// document set links to one host thousands of times (a code forge, a bug
// tracker), and each check asking the resolver again costs a round trip,
// or a lost query's whole timeout. Addresses and "no such host" answers
// (a negative answer, cached as RFC 2308 lets a resolver cache it) are
// kept for dnsCacheAge; a failure that may pass (a timeout, a server
// failure) is not kept.
type dnsCache struct {
	resolver *net.Resolver
	mu       sync.Mutex
	m        map[string]*dnsEntry
}

type dnsEntry struct {
	ready chan struct{}
	addrs []string
	err   error
	at    time.Time
}

// lookup returns the addresses of host, from the cache when it has them.
func (c *dnsCache) lookup(ctx context.Context, host string) ([]string, error) {
	if net.ParseIP(host) != nil {
		return []string{host}, nil
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]*dnsEntry{}
	}
	e := c.m[host]
	if e != nil {
		select {
		case <-e.ready:
			if time.Since(e.at) > dnsCacheAge {
				e = nil
			}
		default:
		}
	}
	if e == nil {
		e = &dnsEntry{ready: make(chan struct{})}
		c.m[host] = e
		c.mu.Unlock()
		e.addrs, e.err = c.resolver.LookupHost(ctx, host)
		e.at = time.Now()
		var de *net.DNSError
		if e.err != nil && !(errors.As(e.err, &de) && de.IsNotFound) {
			// Not an answer: the next check asks again.
			c.mu.Lock()
			if c.m[host] == e {
				delete(c.m, host)
			}
			c.mu.Unlock()
		}
		close(e.ready)
		return e.addrs, e.err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.addrs, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dial connects to addr ("host:port") through the cache, trying each
// address in the resolver's order.
func (c *dnsCache) dial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs, err := c.lookup(ctx, host)
		if err != nil {
			return nil, &net.OpError{Op: "dial", Net: network, Err: err}
		}
		var first error
		for _, a := range addrs {
			conn, err := d.DialContext(ctx, network, net.JoinHostPort(a, port))
			if err == nil {
				return conn, nil
			}
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		if first == nil {
			first = &net.OpError{Op: "dial", Net: network, Err: &net.AddrError{Err: "no address", Addr: host}}
		}
		return nil, first
	}
}
