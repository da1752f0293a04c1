package htmlref

import (
	"testing"

	"github.com/rfc1738/rfc1738"
)

func TestResolve(t *testing.T) {
	for _, tt := range []struct {
		base, ref, want string
	}{
		// RFC 3986 §5.4.1 and §5.4.2, as browsers read them.
		{"http://a/b/c/d;p?q", "g", "http://a/b/c/g"},
		{"http://a/b/c/d;p?q", "../../../g", "http://a/g"},
		{"http://a/b/c/d;p?q", ";x", "http://a/b/c/;x"},
		{"http://a/b/c/d;p?q", "", "http://a/b/c/d;p?q"},
		{"http://a/b/c/d;p?q", "g#s", "http://a/b/c/g"},
		{"http://a/b/c/d;p?q", "#s", "http://a/b/c/d;p?q"},
		// What a browser encodes before sending.
		{"http://a/b/", "my page.html", "http://a/b/my%20page.html"},
		{"http://a/b/", "../~joe/", "http://a/%7Ejoe/"},
		{"http://a/~joe/x.html", "y.html", "http://a/%7Ejoe/y.html"},
		{"https://a:8443/b/c", "/d?e=f", "https://a:8443/d?e=f"},
		// An absolute reference needs no base.
		{"", "http://b/c", "http://b/c"},
		{"", "  http://b/c  ", "http://b/c"},
	} {
		var base rfc1738.URL
		if tt.base != "" {
			b, ok := Base(tt.base)
			if !ok {
				t.Fatalf("Base(%q) failed", tt.base)
			}
			base = b
		}
		got, ok := Resolve(base, tt.ref)
		if !ok || got.String() != tt.want {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q", tt.base, tt.ref, got.String(), ok, tt.want)
		}
	}
	for _, tt := range []struct{ base, ref string }{
		{"", "relative.html"},              // no base
		{"http://a/b", "http://exa mple/"}, // a host is never repaired
		{"http://a/b", "http://a/\x00"},    // a control character
	} {
		b, _ := Base(tt.base)
		if got, ok := Resolve(b, tt.ref); ok {
			t.Errorf("Resolve(%q, %q) = %q, want no URL", tt.base, tt.ref, got.String())
		}
	}
}
