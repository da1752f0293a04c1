package access

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// proxyFunc is the Proxy of a transport with curl's -x and --noproxy:
// proxy ("" for $HTTP_PROXY or $HTTPS_PROXY, by the request's scheme) for
// every host that noProxy ("" for $NO_PROXY) does not name. Unlike
// net/http's reading of the environment, a loopback host goes through
// the proxy too unless it is named, as curl does.
func proxyFunc(proxy, noProxy string) func(*http.Request) (*url.URL, error) {
	if noProxy == "" {
		noProxy = getenvAny("NO_PROXY", "no_proxy")
	}
	return func(r *http.Request) (*url.URL, error) {
		p := proxy
		if p == "" {
			if strings.EqualFold(r.URL.Scheme, "https") {
				p = getenvAny("HTTPS_PROXY", "https_proxy")
			} else {
				p = getenvAny("HTTP_PROXY", "http_proxy")
			}
		}
		if p == "" || noProxyMatch(noProxy, r.URL.Hostname()) {
			return nil, nil
		}
		if !strings.Contains(p, "://") {
			p = "http://" + p // curl's default proxy scheme
		}
		u, err := url.Parse(p)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("proxy %q is not a URL", Redact(p))
		}
		return u, nil
	}
}

// noProxyMatch reports whether host is one the list names: "*", the
// host itself (a name or an address, without its port), or a domain it
// is in ("example.org" and ".example.org" both match www.example.org).
func noProxyMatch(list, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for _, e := range strings.Split(list, ",") {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "*" {
			return true
		}
		if h, _, err := net.SplitHostPort(e); err == nil {
			e = h
		}
		e = strings.Trim(strings.TrimPrefix(e, "."), "[]")
		if e != "" && (host == e || strings.HasSuffix(host, "."+e)) {
			return true
		}
	}
	return false
}

func getenvAny(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}
