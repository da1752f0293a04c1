package edit

import (
	"testing"

	"github.com/rfc1738/rfc1738"
)

// TestHTTPSHasHTTPParts: https is http's syntax over TLS (RFC 2818 §2.4),
// so an https URL has http's parts: http.path, http.search, and "path"
// and "query" that work as http's do.
func TestHTTPSHasHTTPParts(t *testing.T) {
	u := mustParse(t, "https://curl.se/hello/a%20b?q=1")
	if got, err := Expand(u, "{http.path}|{http.search}"); err != nil || got != "hello/a b|q=1" {
		t.Errorf("Expand = %q, %v", got, err)
	}
	for _, tc := range []struct {
		in, op, part, value, want string
	}{
		{"https://curl.se/hello", "append", "path", "you", "https://curl.se/hello/you"},
		{"https://curl.se/hello?x", "append", "path", "you", "https://curl.se/hello/you?x"},
		{"https://curl.se/hello", "append", "query", "a=b", "https://curl.se/hello?a=b"},
		{"https://curl.se/hello?x=1", "append", "query", "a b", "https://curl.se/hello?x=1&a%20b"},
		{"https://curl.se/hello", "set", "http.path", "a b/c", "https://curl.se/a%20b/c"},
		{"https://curl.se/hello?x", "set", "path", "/new", "https://curl.se/new?x"},
		{"https://curl.se/", "set", "search", "k=v", "https://curl.se/?k=v"},
	} {
		var got rfc1738.URL
		var err error
		if tc.op == "append" {
			got, err = Append(mustParse(t, tc.in), tc.part, tc.value)
		} else {
			got, err = Set(mustParse(t, tc.in), tc.part, tc.value)
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %s=%s = %q, %v; want %q", tc.in, tc.op, tc.part, tc.value, got, err, tc.want)
		}
	}
}

// TestEditReadURL: a URL only rfc1738.Read takes (an IPv6 literal, RFC
// 3986 §3.2.2) can be edited; its host stays as written.
func TestEditReadURL(t *testing.T) {
	u, _, err := rfc1738.Read("http://[::1]:8080/a?x")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Append(u, "path", "b")
	if err != nil || got.String() != "http://[::1]:8080/a/b?x" || got.Host() != "[::1]" {
		t.Errorf("Append = %q, %v", got, err)
	}
	if got, err = Set(u, "port", "9090"); err != nil || got.String() != "http://[::1]:9090/a?x" {
		t.Errorf("Set port = %q, %v", got, err)
	}
	// A "/" in the search (RFC 3986 §3.4) is kept as Read took it.
	v, _, err := rfc1738.Read("http://[::1]/p?a/b")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Set(v, "port", "9090"); err != nil || got.String() != "http://[::1]:9090/p?a/b" {
		t.Errorf("Set port with a \"/\" in the search = %q, %v", got, err)
	}
	// Nothing else Parse refuses gets through: a host that is no name.
	if got, err = Set(u, "host", "a_b"); err == nil {
		t.Errorf("Set host a_b = %q", got)
	}
}
