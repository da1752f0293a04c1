package rfc1738

import (
	"net/url"
	"testing"
)

// TestToNetURL: what each RFC 1738 URL becomes in net/url, and what its
// String gives back; the comments name what net/url cannot express.
func TestToNetURL(t *testing.T) {
	tests := []struct {
		in     string
		path   string // nu.Path
		raw    string // nu.EscapedPath()
		query  string
		opaque string
		out    string // nu.String()
	}{
		// §3.2.2: Path cannot tell %2F from "/"; RawPath keeps it.
		{"ftp://myname@host.dom/%2Fetc/motd;type=a", "//etc/motd;type=a", "/%2Fetc/motd;type=a", "", "", "ftp://myname@host.dom/%2Fetc/motd;type=a"},
		// §3.1: empty user and empty password survive.
		{"ftp://@host.com/", "/", "/", "", "", "ftp://@host.com/"},
		{"ftp://foo:@host.com/", "/", "/", "", "", "ftp://foo:@host.com/"},
		// "?" is data in an ftp path; net/url would read a query: %3F.
		{"ftp://h/a?b", "/a?b", "/a%3Fb", "", "", "ftp://h/a%3Fb"},
		// §3.3: the search is the query.
		{"http://x.org/a%20b?q=1#f%20g", "/a b", "/a%20b", "q=1", "", "http://x.org/a%20b?q=1#f%20g"},
		{"http://x.org/?", "/", "/", "", "", "http://x.org/?"},
		{"http://x.org", "", "", "", "", "http://x.org"},
		// §3.4.1: %09 becomes a TAB in Path.
		{"gopher://h/7x%09a%20b", "/7x\ta b", "/7x%09a%20b", "", "", "gopher://h/7x%09a%20b"},
		// Opaque forms.
		{"mailto:a%25b@x.org", "", "", "", "a%25b@x.org", "mailto:a%25b@x.org"},
		{"news:*", "", "", "", "*", "news:*"},
		// Upper-case scheme: net/url keeps the lower-case name (§2.1).
		{"HTTP://x.org/", "/", "/", "", "", "http://x.org/"},
		// A port above 65535: kept as written.
		{"http://x.org:99999/", "/", "/", "", "", "http://x.org:99999/"},
		{"file:///etc/motd", "/etc/motd", "/etc/motd", "", "", "file:///etc/motd"},
	}
	for _, tt := range tests {
		u := mustParse(t, tt.in)
		nu := ToNetURL(u)
		if nu.Path != tt.path || nu.EscapedPath() != tt.raw || nu.RawQuery != tt.query || nu.Opaque != tt.opaque || nu.String() != tt.out {
			t.Errorf("ToNetURL(%q) = path %q escaped %q query %q opaque %q string %q", tt.in, nu.Path, nu.EscapedPath(), nu.RawQuery, nu.Opaque, nu.String())
		}
		// net/url's own reading of the same text agrees where it can.
		if p, err := url.Parse(tt.in); err == nil && tt.in == tt.out && p.String() != nu.String() {
			t.Errorf("url.Parse(%q).String() = %q, ToNetURL gives %q", tt.in, p.String(), nu.String())
		}
		// And back.
		v, err := FromNetURL(nu)
		if err != nil || !Equal(u, v) && tt.in == tt.out {
			t.Errorf("FromNetURL(ToNetURL(%q)) = %q, %v", tt.in, v, err)
		}
	}
}

func TestFromNetURL(t *testing.T) {
	tests := []struct {
		in, want string // want "" for an error
		rule     string
	}{
		{"http://x.org/~joe", "http://x.org/%7Ejoe", ""},           // RFC 3986 leaves "~" unencoded
		{"ftp://u:p@h/a%2Fb", "ftp://u:p@h/a%2Fb", ""},             // RawPath
		{"http://[::1]:8080/", "", "host"},                         // IPv6: not in RFC 1738
		{"http://user@x.org/", "", "httpurl"},                      // §3: no user in http
		{"http://a_b.org/", "", "domainlabel"},                     // §5 hostname
		{"http://x.org:/", "", "port"},                             // empty port
		{"gopher://h/0a%0Db", "gopher://h/0a%0Db", ""},             //
		{"http://x.org/a#b#c", "http://x.org/a#b%23c", ""},         // net/url keeps the second "#"
		{"mailto:joe@x.org", "mailto:joe@x.org", ""},               //
		{"http://x.org/caf%C3%A9", "http://x.org/caf%C3%A9", ""},   //
		{"http://xn--caf-dma.org/", "http://xn--caf-dma.org/", ""}, // punycode is a hostname
		{"http://café.org/", "", "domainlabel"},                    // an IDN is not
	}
	for _, tt := range tests {
		nu, err := url.Parse(tt.in)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", tt.in, err)
		}
		u, err := FromNetURL(nu)
		if tt.want == "" {
			if e, ok := err.(*Error); !ok || e.Rule != tt.rule {
				t.Errorf("FromNetURL(%q) = %q, %v; want a %s error", tt.in, u, err, tt.rule)
			}
			continue
		}
		if err != nil || u.String() != tt.want {
			t.Errorf("FromNetURL(%q) = %q, %v; want %q", tt.in, u, err, tt.want)
		}
	}
}
