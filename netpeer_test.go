package rfc1738

import (
	"net/url"
	"strings"
	"testing"
)

// agreeWithNetURL checks u, the parse of s, against net/url where both
// parsers accept s: the scheme, and for a //login (§3.1; RFC 3986 §3.2) the
// host, the port digits and the user and password, decoded and with empty
// kept apart from absent. net/url follows RFC 3986 and may reject what RFC
// 1738 allows (then there is nothing to compare); a generic URL that only
// matches *xchar has no login in RFC 1738 terms and is compared by scheme.
func agreeWithNetURL(t testing.TB, u URL, s string) {
	t.Helper()
	nu, err := url.Parse(s)
	if err != nil {
		return
	}
	if !strings.EqualFold(nu.Scheme, u.Scheme()) {
		t.Fatalf("%q: scheme %q, net/url %q", s, u.Scheme(), nu.Scheme)
	}
	if !u.HasAuthority() {
		return
	}
	// §3.1: a user or password may hold '?' (user = *[ uchar | ";" |
	// "?" | "&" | "=" ]), and the login runs to the '/' of the url-path;
	// RFC 3986 §3.2, which net/url follows, ends the authority at the
	// first '?'. There the two readings differ by design ("A://?@A": user
	// "?", host "A"; net/url: an empty host, query "@A").
	if auth, _, _ := strings.Cut(s[strings.Index(s, "//")+2:], "/"); strings.Contains(auth, "?") {
		return
	}
	if nu.Hostname() != u.Host() {
		t.Fatalf("%q: host %q, net/url %q", s, u.Host(), nu.Hostname())
	}
	if port, _ := u.Port(); nu.Port() != port {
		t.Fatalf("%q: port %q, net/url %q", s, port, nu.Port())
	}
	user, hasUser := u.User()
	if hasUser != (nu.User != nil) || hasUser && user != nu.User.Username() {
		t.Fatalf("%q: user %q (%v), net/url %v", s, user, hasUser, nu.User)
	}
	if hasUser {
		pw, hasPW := u.Password()
		npw, nHasPW := nu.User.Password()
		if pw != npw || hasPW != nHasPW {
			t.Fatalf("%q: password %q (%v), net/url %q (%v)", s, pw, hasPW, npw, nHasPW)
		}
	}
}

// TestAgreesWithNetURL runs the comparison over the datasets and over the
// login shapes where RFC 1738 keeps empty and absent apart.
func TestAgreesWithNetURL(t *testing.T) {
	compared := 0
	lines := []string{
		"ftp://u:p@h:21/x", "ftp://u:@h/x", "ftp://@h/x", "ftp://u@h/x", "ftp://h/x",
		"ftp://u%40x:p%3Aq@h/", "telnet://joe:pw@host.dom:2323/", "http://h:8080/p?q",
		"file:///etc/motd", "file://localhost/x", "gopher://h:70/0x", "x-y://u:p@h:1/z",
	}
	for _, name := range datasets {
		lines = append(lines, loadDataset(t, name)...)
	}
	for _, in := range lines {
		u, err := Parse(in)
		if err != nil {
			continue
		}
		agreeWithNetURL(t, u, in)
		if u.HasAuthority() {
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no URL with a login was compared")
	}
}
