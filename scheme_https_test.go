package rfc1738

import "testing"

// httpsViewTests: RFC 2818 §2.4: an https URL is an http URL over TLS; the
// http view of §3.3 reads it, and its default port is 443 (§2.3).
var httpsViewTests = []struct {
	in           string
	ok           bool
	path, search string
	hostPort     string
}{
	{"https://www.example.com/a/b?x=1", true, "a/b", "x=1", "www.example.com:443"},
	{"HTTPS://h", true, "", "", "h:443"}, // §2.1: the scheme's case does not matter
	{"https://h:8443/", true, "", "", "h:8443"},
	{"https://u:p@h/", false, "", "", "h:443"},   // §3.3 httpurl has no login
	{"https://exa_mple.com/", false, "", "", ""}, // §5 *xchar: no RFC 1738 host
	{"httpsx://h/", false, "", "", ""},           // not https
	{"http://h/", true, "", "", "h:80"},          // http itself, unchanged
}

func TestHTTPSView(t *testing.T) {
	for _, c := range httpsViewTests {
		u := mustParse(t, c.in)
		h, ok := u.HTTP()
		if ok != c.ok || h.Path != c.path || h.Search != c.search {
			t.Errorf("%s: HTTP() = %+v, %v; want path %q search %q, %v", c.in, h, ok, c.path, c.search, c.ok)
		}
		if got := u.HostPort(); got != c.hostPort {
			t.Errorf("%s: HostPort() = %q, want %q", c.in, got, c.hostPort)
		}
	}
	if got := Normalize(mustParse(t, "HTTPS://H:443/a")); got != "https://h/a" {
		t.Errorf("Normalize drops https's default port (RFC 2818 §2.3): got %q", got)
	}
	if !Equal(mustParse(t, "https://h:443/"), mustParse(t, "https://h/")) {
		t.Error("https://h:443/ and https://h/ are not Equal")
	}
	if mustParse(t, "https://h/").Kind() != KindOther {
		t.Error("https is not one of RFC 1738's schemes: its Kind is KindOther")
	}
}
