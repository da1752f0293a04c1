package rfc1738

import (
	"strings"
	"testing"
	"unsafe"
)

// normalizeTests: one row per rule of Normalize, with its §.
var normalizeTests = []struct {
	in, want string
}{
	// Rule 1, §2.1: the scheme in lower case.
	{"HTTP://x.org/", "http://x.org/"},
	{"Ftp://h/", "ftp://h/"},
	{"X-Foo:bar", "x-foo:bar"},
	// Rule 2, §2.2: escapes of unreserved octets are decoded.
	{"http://x.org/%7Ejoe", "http://x.org/%7Ejoe"}, // "~" is unsafe, not unreserved: kept
	{"http://x.org/%41%62%63%2D%5F%2E%21%2A%27%28%29%2C%24", "http://x.org/Abc-_.!*'(),$"},
	{"ftp://%75ser:p%61ss@h/%70ub", "ftp://user:pass@h/pub"},
	{"mailto:%6Aoe@x.org", "mailto:joe@x.org"},
	{"news:%31234@x.org", "news:1234@x.org"},
	{"wais://h/d%62/T%45XT/x%31", "wais://h/db/TEXT/x1"},
	{"prospero://h/%61;n%61me=v%61lue", "prospero://h/a;name=value"},
	{"x-foo://h/%61", "x-foo://h/a"},
	{"http://x.org/#%61", "http://x.org/#a"}, // the fragment too (Appendix)
	// Rule 2 exception: %2B stays in a search (RFC 1866 §8.2.1 form data).
	{"http://x.org/a%2Bb?c%2Bd", "http://x.org/a+b?c%2Bd"},
	{"wais://h/db?a%2bb", "wais://h/db?a%2Bb"},
	{"gopher://h/7x%09a%2Bb", "gopher://h/7x%09a+b"}, // gopher searches are sent as they are
	// Rule 3, §2.2: reserved and unsafe octets stay encoded, hex in upper case.
	{"ftp://h/%2fetc/motd", "ftp://h/%2Fetc/motd"},
	{"http://x.org/a%3bb%3f%2f%3a%40%3d%26", "http://x.org/a%3Bb%3F%2F%3A%40%3D%26"},
	{"gopher://h/0a%0d%0ab", "gopher://h/0a%0D%0Ab"},
	{"file:///%e6%9d%b1", "file:///%E6%9D%B1"},
	{"http://x.org/%25%20", "http://x.org/%25%20"},
	// Rule 4, §3.1: the host in lower case.
	{"http://WWW.Example.COM/A", "http://www.example.com/A"},
	{"telnet://User@HOST/", "telnet://User@host/"}, // the user keeps its case
	// Rule 5, §3.1: the default port dropped, leading zeros dropped.
	{"http://x.org:80/", "http://x.org/"},
	{"http://x.org:0080/", "http://x.org/"},
	{"http://x.org:8080/", "http://x.org:8080/"},
	{"http://x.org:008080/", "http://x.org:8080/"},
	{"ftp://h:21/", "ftp://h/"},
	{"gopher://h:70/", "gopher://h/"},
	{"nntp://h:119/a.b", "nntp://h/a.b"},
	{"telnet://h:23/", "telnet://h/"},
	{"wais://h:210/db", "wais://h/db"},
	{"prospero://h:1525/x", "prospero://h/x"},
	{"x-foo://h:80/", "x-foo://h:80/"}, // no default port is known
	{"http://x.org:00/", "http://x.org:0/"},
	// Rule 6, §3.3 and friends: the "/" after the host.
	{"http://x.org", "http://x.org/"},
	{"http://x.org#f", "http://x.org/#f"},
	{"ftp://h", "ftp://h/"},
	{"telnet://h:2323", "telnet://h:2323/"},
	{"x-foo://h", "x-foo://h"},
	// Rule 7, §3.4.1: an empty gopher-path is type 1.
	{"gopher://h", "gopher://h/"},
	{"gopher://h/1", "gopher://h/"},
	{"gopher://h/%31", "gopher://h/"},
	{"gopher://h/11", "gopher://h/11"},         // type 1, selector "1"
	{"gopher://h/0", "gopher://h/0"},           // another type
	{"gopher://h/1%09", "gopher://h/1%09"},     // a type-1 search
	{"gopher://h/%31/pub", "gopher://h/1/pub"}, // rule 2
	// Rule 8, §3.10: localhost is this machine.
	{"file://localhost/etc/motd", "file:///etc/motd"},
	{"file://LOCALHOST/etc/motd", "file:///etc/motd"},
	{"file://Vms.Host.Edu/disk$user", "file://vms.host.edu/disk$user"},
	// Rule 9, RFC 959 §5.3: the typecode in lower case.
	{"ftp://h/a;type=I", "ftp://h/a;type=i"},
	{"ftp://h/%41;type=D", "ftp://h/A;type=d"},
	// Kept as written.
	{"ftp://@h/", "ftp://@h/"},
	{"ftp://u:@h/", "ftp://u:@h/"},
	{"nntp://h/comp.lang.c/0042", "nntp://h/comp.lang.c/0042"},
	{"news:comp.LANG.c", "news:comp.LANG.c"},
	{"mailto:Joe@X.ORG", "mailto:Joe@X.ORG"},
	{"http://010.1.1.1/", "http://010.1.1.1/"},
	// Rule 5: a port beyond 65535 is kept as written, never wrapped round.
	{"gopher://h:4294967366/0x", "gopher://h:4294967366/0x"},
	{"gopher://h:4295014374/0x", "gopher://h:4295014374/0x"},
	{"ftp://h:000099999999999999999999/", "ftp://h:000099999999999999999999/"},
	{"ftp://h:0021/", "ftp://h/"},
	{"ftp://h:02121/", "ftp://h:2121/"},
	// §5 schemepart = *xchar: an opaque schemepart keeps its case; decoding
	// an escape can make it an ip-schemepart, whose host is then lower case.
	{"foo://EXAM$PLE.net/%41", "foo://EXAM$PLE.net/A"},
	{"foo://EX%41MPLE.net/", "foo://example.net/"},
}

func TestNormalize(t *testing.T) {
	for _, tt := range normalizeTests {
		u := mustParse(t, tt.in)
		got := Normalize(u)
		if got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
			continue
		}
		if b := AppendNormalize([]byte("x"), u); string(b) != "x"+tt.want {
			t.Errorf("AppendNormalize(%q) = %q", tt.in, b)
		}
		n := mustParse(t, got)
		if again := Normalize(n); again != got {
			t.Errorf("Normalize is not idempotent on %q: %q", got, again)
		}
		if !IsNormal(n) || IsNormal(u) != (tt.in == tt.want) {
			t.Errorf("IsNormal(%q) = %v, IsNormal(%q) = %v", got, IsNormal(n), tt.in, IsNormal(u))
		}
		if !Equal(u, n) {
			t.Errorf("Equal(%q, %q) = false", tt.in, got)
		}
	}
}

// TestNormalizeNormalNoAllocs: an already-normal URL comes back as the
// input string itself, without allocating.
func TestNormalizeNormalNoAllocs(t *testing.T) {
	for _, s := range []string{"http://www.example.com/a%20b?c%2Bd#e", "ftp://u:p@h:2121/%2Fetc/motd;type=a",
		"gopher://h/7x%09y", "file:///etc/motd", "mailto:joe@x.org", "news:*", "x-foo:bar"} {
		u := mustParse(t, s)
		var got string
		allocs := testing.AllocsPerRun(100, func() { got = Normalize(u) })
		if allocs != 0 || got != s {
			t.Errorf("Normalize(%q) = %q with %v allocs, want the input and 0", s, got, allocs)
		}
		if unsafe.StringData(got) != unsafe.StringData(s) {
			t.Errorf("Normalize(%q) returned a copy, not the input", s)
		}
		buf := make([]byte, 0, 128)
		if a := testing.AllocsPerRun(100, func() { buf = AppendNormalize(buf[:0], u) }); a != 0 {
			t.Errorf("AppendNormalize(%q): %v allocs", s, a)
		}
		if a := testing.AllocsPerRun(100, func() { Equal(u, u) }); a != 0 {
			t.Errorf("Equal(%q, itself): %v allocs", s, a)
		}
	}
}

func TestEqualAndDiff(t *testing.T) {
	tests := []struct {
		a, b  string
		equal bool
		why   string // part of Diff's sentence
	}{
		// §2.2: an encoded unreserved octet equals the literal.
		{"http://x.org/%41", "http://x.org/A", true, ""},
		{"HTTP://X.ORG:80", "http://x.org/", true, ""},
		{"gopher://h", "gopher://h/1", true, ""},                    // §3.4.1
		{"file://localhost/etc/motd", "file:///etc/motd", true, ""}, // §3.10
		{"ftp://h/a%2fb", "ftp://h/a%2Fb", true, ""},
		// §2.2: an encoded reserved character does not.
		{"ftp://h/%2Fetc/motd", "ftp://h//etc/motd", false, "encoded reserved character"},
		{"http://x.org/a%3Bb", "http://x.org/a;b", false, "encoded reserved character"},
		{"http://x.org/?a%2Bb", "http://x.org/?a+b", false, "paths differ"},
		// §3.1: empty and absent users differ.
		{"ftp://@h/", "ftp://h/", false, "an empty user is not an absent one"},
		{"ftp://u:@h/", "ftp://u@h/", false, "password"},
		{"ftp://h/", "ftp://h:2121/", false, "ports differ: 21 and 2121"},
		{"ftp://a.org/", "ftp://b.org/", false, "hosts differ"},
		{"ftp://h/", "http://h/", false, "schemes differ"},
		{"gopher://h/0", "gopher://h/", false, "paths differ"},
		{"news:a.b", "news:a.c", false, "scheme-specific part"},
		{"http://x.org/#a", "http://x.org/#b", false, "only the fragments differ"},
		{"http://x.org/", "http://x.org/#", false, "fragment"},
	}
	for _, tt := range tests {
		a, b := mustParse(t, tt.a), mustParse(t, tt.b)
		if got := Equal(a, b); got != tt.equal {
			t.Errorf("Equal(%q, %q) = %v", tt.a, tt.b, got)
		}
		if Equal(b, a) != tt.equal {
			t.Errorf("Equal is not symmetric on %q, %q", tt.a, tt.b)
		}
		d := Diff(a, b)
		if (d == "") != tt.equal || !strings.Contains(d, tt.why) {
			t.Errorf("Diff(%q, %q) = %q, want it to mention %q", tt.a, tt.b, d, tt.why)
		}
	}
}

// FuzzNormalize: for every valid input, Normalize gives a valid URL that is
// Equal to the input, is normal (idempotence), and keeps the scheme.
func FuzzNormalize(f *testing.F) {
	for _, tt := range normalizeTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		if err != nil {
			return
		}
		n := Normalize(u)
		v, err := Parse(n)
		if err != nil {
			t.Fatalf("Normalize(%q) = %q, which does not parse: %v", s, n, err)
		}
		if again := Normalize(v); again != n {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, n, again)
		}
		if !IsNormal(v) || v.Kind() != u.Kind() || !Equal(u, v) || Diff(u, v) != "" {
			t.Fatalf("%q -> %q: IsNormal %v, kinds %v %v", s, n, IsNormal(v), u.Kind(), v.Kind())
		}
		if string(AppendNormalize(nil, u)) != n {
			t.Fatalf("AppendNormalize(%q) differs from Normalize", s)
		}
		if IsNormal(u) != (n == s) {
			t.Fatalf("IsNormal(%q) = %v but Normalize gives %q", s, IsNormal(u), n)
		}
	})
}
