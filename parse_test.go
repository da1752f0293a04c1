package rfc1738

import (
	"errors"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/cpuid"
)

// parseTests: each case names the section it comes from. A valid case has
// rule ""; an invalid one names the rule and offset of the first violation.
var parseTests = []struct {
	in     string
	rule   string
	offset int
	note   string
}{
	// §3.1: the three userinfo examples, verbatim.
	{"ftp://@host.com/", "", 0, "§3.1 empty user, no password"},
	{"ftp://host.com/", "", 0, "§3.1 no user"},
	{"ftp://foo:@host.com/", "", 0, "§3.1 user foo, empty password"},
	// §3.2.2: the three ftp paths, verbatim.
	{"ftp://myname@host.dom/%2Fetc/motd", "", 0, "§3.2.2"},
	{"ftp://myname@host.dom/etc/motd", "", 0, "§3.2.2"},
	{"ftp://myname@host.dom//etc/motd", "", 0, "§3.2.2"},
	// §3.2.2 typecodes.
	{"ftp://h/a;type=a", "", 0, "§3.2.2"},
	{"ftp://h/a;type=I", "", 0, "§5 ftptype is case-insensitive in the BNF"},
	{"ftp://h/;type=d", "", 0, "§3.2.2 empty name"},
	{"ftp://h/a;type=x", "ftptype", 15, "§5 ftptype"},
	{"ftp://h/a;type=", "ftptype", 15, "§5 ftptype"},
	{"ftp://h/a;type=ai", "ftpurl", 16, "§3.2.2 nothing after the typecode"},
	{"ftp://h/a;b", "fsegment", 9, "§3.2.2 ';' is reserved"},
	{"ftp://h/a%3Bb", "", 0, "§3.2.2 encoded ';'"},
	{"ftp://h", "", 0, "§3.2.2 the whole url-path may be omitted"},
	{"ftp://h:2121/x", "", 0, "§3.2 port"},
	{"ftp:example", "ftpurl", 4, "§3.2 ftp needs //"},
	{"ftp://h/a b", "fsegment", 9, "§2.2 space is unsafe"},
	{"ftp://h/%zz", "escape", 8, "§2.2 bad escape"},
	{"ftp://h/%4", "escape", 8, "§2.2 short escape"},
	{"ftp://u:p:q@h/", "password", 9, "§3.1 ':' in a password must be encoded"},
	{"ftp://u@v@h/", "toplabel", 9, "§3.1 '@' in a user must be encoded"},
	// §3.3 http.
	{"http://x.org", "", 0, "§3.3 no path"},
	{"http://x.org/", "", 0, "§3.3"},
	{"http://x.org/a/b;c?d=e&f", "", 0, "§3.3"},
	{"http://x.org:8080/?", "", 0, "§3.3 empty search"},
	{"http://user@host/", "httpurl", 7, "§3.3 no user or password"},
	{"http://x.org/a?b?c", "search", 16, "§3.3 '?' is reserved in the search"},
	{"http://x.org/a?b/c", "search", 16, "§5 search has no '/'"},
	{"http://x.org/~joe", "hsegment", 13, "§2.2 '~' is unsafe"},
	{"http://x.org/a#frag", "", 0, "Appendix fragment"},
	{"http://x.org/a#fr ag", "fragment", 17, "fragment = *xchar"},
	{"http://a_b/#x y", "toplabel", 8, "errors in input order: the host before the fragment"},
	{"http://x.org?q", "toplabel", 12, "§5 '?' only after '/'"},
	{"HTTP://x.org/", "", 0, "§2.1 upper-case scheme"},
	// §3.4 gopher.
	{"gopher://h", "", 0, "§3.4.1 empty gopher-path"},
	{"gopher://h/", "", 0, "§3.4.1"},
	{"gopher://h/11/pub", "", 0, "§3.4.1 type doubled in the selector"},
	{"gopher://h/7search%09foo%20bar", "", 0, "§3.4.2"},
	{"gopher://h/0x%09%09+", "", 0, "§3.4.3"},
	{"gopher://user@h/", "gopherurl", 9, "§3.4 no user"},
	{"gopher://h/0a b", "selector", 13, "§2.2"},
	// §3.5 mailto.
	{"mailto:joe@x.org", "", 0, "§3.5"},
	{"mailto:", "encoded822addr", 7, "§5 1*xchar"},
	{"mailto:a%25b@x.org", "", 0, "§3.5 '%' encoded"},
	{"mailto:<a@b>", "encoded822addr", 7, "§2.2 '<' is unsafe"},
	// §3.6 news.
	{"news:*", "", 0, "§3.6 all groups"},
	{"news:comp.infosystems.www.misc", "", 0, "§3.6"},
	{"news:1234@x.org", "", 0, "§3.6 message-id"},
	{"news:", "grouppart", 5, "§5 grouppart"},
	{"news:1comp", "group", 5, "§5 group starts with alpha"},
	{"news:comp lang", "group", 9, "§5 group"},
	{"news:@x.org", "article", 5, "§5 article = 1*[...] @ host"},
	{"news:a@", "host", 7, "§5 article needs a host"},
	{"news://h/comp", "group", 5, "§3.6 news has no //"},
	// §3.7 nntp.
	{"nntp://h/comp.lang.c", "", 0, "§3.7"},
	{"nntp://h:119/comp.lang.c/42", "", 0, "§3.7"},
	{"nntp://h", "nntpurl", 8, "§5 nntpurl needs / group"},
	{"nntp://h/", "group", 9, "§5 group"},
	{"nntp://h/g/", "digits", 11, "§5 digits"},
	{"nntp://h/g/4a", "digits", 12, "§5 digits"},
	// §3.8 telnet.
	{"telnet://h", "", 0, "§3.8"},
	{"telnet://u:p@h:23/", "", 0, "§3.8"},
	{"telnet://h/path", "telneturl", 11, "§3.8 only a final /"},
	// §3.9 wais.
	{"wais://h/db", "", 0, "§3.9 waisdatabase"},
	{"wais://h/db?a+b", "", 0, "§3.9 waisindex"},
	{"wais://h:210/db/TEXT/doc%2Fid", "", 0, "§3.9 waisdoc"},
	{"wais://h/db/TEXT", "waisdoc", 16, "§5 waisdoc"},
	{"wais://h/db/t/p/q", "wpath", 15, "§5 wpath = *uchar"},
	{"wais://h", "waisurl", 8, "§5 / database"},
	// §3.10 file.
	{"file://vms.host.edu/disk$user/my/notes/note12345.txt", "", 0, "§3.10 VMS example"},
	{"file:///etc/motd", "", 0, "§3.10 empty host"},
	{"file://localhost/etc/motd", "", 0, "§3.10 localhost"},
	{"file://h", "fileurl", 8, "§5 fileurl needs / fpath"},
	{"file://h:1/x", "fileurl", 8, "§5 file has no port"},
	{"file://u@h/x", "fileurl", 7, "§5 file has no user"},
	{"file://:1/x", "fileurl", 7, "§5 file has no port, with no host either"},
	// §3.11 prospero.
	{"prospero://host.dom//pros/name", "", 0, "§3.11"},
	{"prospero://h/n;OBJECT-VERSION=3;x=y", "", 0, "§3.11 fields"},
	{"prospero://h/n;x", "fieldspec", 16, "§5 fieldspec"},
	{"prospero://h/n;a=b=c", "fieldvalue", 18, "§5 fieldvalue has no '='"},
	{"prospero://h", "prosperourl", 12, "§5 / ppath"},
	// §3.1 hosts and ports.
	{"ftp://a-b.c-d.org/", "", 0, "§3.1"},
	{"ftp://1.2.3.4/", "", 0, "§5 hostnumber"},
	{"ftp://1.2.3/", "hostnumber", 6, "§5 hostnumber has four parts"},
	{"ftp://1.2..4/", "hostnumber", 10, "§5 hostnumber"},
	{"ftp://x.1a/", "toplabel", 8, "§3.1 toplabel never starts with a digit"},
	{"ftp://-a.org/", "domainlabel", 6, "§5 domainlabel"},
	{"ftp://a-.org/", "domainlabel", 7, "§5 domainlabel"},
	{"ftp://a.org./", "toplabel", 12, "§5 toplabel"},
	{"ftp://a_b.org/", "domainlabel", 7, "§5 domainlabel"},
	{"ftp://h:/", "port", 8, "§3.1 no empty port"},
	{"ftp://h:8a/", "port", 9, "§5 port = digits"},
	{"ftp:///x", "host", 6, "§3.1 host required"},
	// §2.1, §5 scheme and genericurl.
	{"x-foo:bar", "", 0, "§4 experimental"},
	{"afs://h/x", "", 0, "§4 reserved, generic syntax"},
	{"z39.50s:x", "", 0, "§5 scheme may hold '.'"},
	{"https://www.example.com/a", "", 0, "§5 otherurl ip-schemepart"},
	{"https://www.example.com/a b", "schemepart", 25, "§5 neither *xchar nor ip-schemepart"},
	// §5 schemepart = *xchar | ip-schemepart: either reading makes it valid.
	{"foo://?q=1", "", 0, "§5 *xchar: no host, but every byte is an xchar"},
	{"jdbc://a,b/c", "", 0, "§5 *xchar: ',' is not in a host"},
	{"x-app://h$t/p", "", 0, "§5 *xchar: '$' is not in a host"},
	{"scheme://exam$ple.net", "", 0, "§5 *xchar"},
	{"foo:///x", "", 0, "§5 *xchar: an empty host"},
	{"https://exa_mple.com/a", "", 0, "§5 *xchar: '_' is not in a host"},
	{"foo://h:99999999999999999999/", "", 0, "§5 ip-schemepart: port = digits, any size"},
	{"foo://exa mple.com/", "schemepart", 9, "§2.2 a space is in neither reading"},
	{"foo://a_b/%zz", "escape", 10, "§2.2 a bad escape is in neither reading"},
	{"foo://a_b/#x y", "fragment", 12, "fragment = *xchar after an opaque schemepart"},
	// §3.1 ports are digits of any size; none wraps round into a valid port.
	{"gopher://127.0.0.1:4295014374/0x", "", 0, "§5 port = digits"},
	{"ftp://h:99999999999999999999999/", "", 0, "§5 port = digits"},
	{"no-colon", "genericurl", 8, "§5 genericurl"},
	{"www.x.org/a:b", "scheme", 9, "§5 scheme"},
	{":x", "scheme", 0, "§5 scheme = 1*[...]"},
	{"a_b:x", "scheme", 1, "§5 scheme"},
	{"x:", "", 0, "§5 schemepart = *xchar"},
	{"x:\x00", "schemepart", 2, "§2.2 control"},
	{"x:\xe6", "schemepart", 2, "§2.2 8-bit"},
	{"x:a#b#c", "fragment", 5, "fragment = *xchar: one '#' only"},
	{"#x", "genericurl", 0, "Appendix: a fragment with no URL before it has no ':'"},
	{"x#:y", "genericurl", 1, "Appendix: the URL ends at the first '#'"},
}

func TestParse(t *testing.T) { bothReadings(t, testParse) }

func testParse(t *testing.T) {
	for _, tt := range parseTests {
		u, err := Parse(tt.in)
		if tt.rule == "" {
			if err != nil {
				t.Errorf("%s: Parse(%q) = %v, want valid", tt.note, tt.in, err)
				continue
			}
			if u.String() != tt.in {
				t.Errorf("%s: String() = %q, want %q", tt.note, u.String(), tt.in)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: Parse(%q) = %v, want *Error with rule %s", tt.note, tt.in, err, tt.rule)
			continue
		}
		if e.Rule != tt.rule || e.Offset != tt.offset {
			t.Errorf("%s: Parse(%q): rule %s at %d (%s), want %s at %d", tt.note, tt.in, e.Rule, e.Offset, e.Message(), tt.rule, tt.offset)
		}
		if e.Input != tt.in || !strings.Contains(e.Error(), tt.rule) {
			t.Errorf("%s: error %q lacks the input or rule", tt.note, e.Error())
		}
	}
}

// TestCheckAgreesWithParse: Check's first error is Parse's error, and
// Check is valid exactly when Parse is.
func TestCheckAgreesWithParse(t *testing.T) { bothReadings(t, testCheckAgreesWithParse) }

func testCheckAgreesWithParse(t *testing.T) {
	for _, tt := range parseTests {
		checkAgrees(t, tt.in)
		errs := Check(tt.in).Errors
		for i := 1; i < len(errs); i++ {
			if errs[i].Offset < errs[i-1].Offset {
				t.Errorf("Check(%q) errors out of input order: %v", tt.in, errs)
			}
		}
	}
}

func checkAgrees(t *testing.T, in string) {
	t.Helper()
	u, err := Parse(in)
	if Valid(in) != (err == nil) {
		t.Fatalf("Valid(%q) = %v but Parse error = %v", in, Valid(in), err)
	}
	r := Check(in)
	if (err == nil) != r.Valid() {
		t.Fatalf("Check(%q).Valid() = %v but Parse error = %v", in, r.Valid(), err)
	}
	if err != nil {
		e := err.(*Error)
		if r.Errors[0] != e.Diagnostic() {
			t.Fatalf("Check(%q) first error %v, Parse %v", in, r.Errors[0], e.Diagnostic())
		}
		return
	}
	if r.URL != u {
		t.Fatalf("Check(%q).URL differs from Parse", in)
	}
}

// TestCharacterMessage: the message of a character beyond US-ASCII names
// it, its code point and its escapes (§2.2), in Parse and in Check.
func TestCharacterMessage(t *testing.T) {
	want := `'東' (U+6771) is not US-ASCII and must be encoded as %E6%9D%B1 (§2.2)`
	_, err := Parse("http://h/東")
	var e *Error
	if !errors.As(err, &e) || e.Offset != 9 || e.Message() != want {
		t.Errorf("Parse: %v", err)
	}
	if r := Check("http://h/東"); len(r.Errors) != 1 || r.Errors[0].Message != want {
		t.Errorf("Check: %v", r.Errors)
	}
	if r := Check("http://h/\xe6"); len(r.Errors) != 1 || r.Errors[0].Message != "octet 0xE6 is not US-ASCII and must be encoded as %E6 (§2.2)" {
		t.Errorf("Check of a lone octet: %v", r.Errors)
	}
}

func TestCheckReportsEveryViolation(t *testing.T) {
	type at struct {
		off  int
		rule string
	}
	for _, tt := range []struct {
		in   string
		want []at
	}{
		{"http://a_b.org/x y/~z?q{r}", []at{{8, "domainlabel"}, {16, "hsegment"}, {19, "hsegment"}, {23, "search"}, {25, "search"}}},
		// §3.2.2: each ';' of a path once, then what follows it.
		{"ftp://h/a;b c", []at{{9, "fsegment"}, {11, "fsegment"}}},
		{"file://h/a;b;c d", []at{{10, "fsegment"}, {12, "fsegment"}, {14, "fsegment"}}},
		// §2.2: a character beyond US-ASCII is one violation, however
		// many octets UTF-8 gives it, in a path and in a host's label, first
		// or not; octets that are no UTF-8 are one each.
		{"http://bücher.de/東京 x", []at{{8, "domainlabel"}, {18, "hsegment"}, {21, "hsegment"}, {24, "hsegment"}}},
		{"http://ü.de/é\xff\xc3", []at{{7, "domainlabel"}, {13, "hsegment"}, {15, "hsegment"}, {16, "hsegment"}}},
		{"ftp://h/ü\xc3", []at{{8, "fsegment"}, {10, "fsegment"}}},
		// A scheme outside §3 read in one pass (generic): every violation
		// after the first, in the rest of the schemepart and in the
		// fragment after the first '#'.
		{"https://h.org/a~b#c^d", []at{{15, "schemepart"}, {19, "fragment"}}},
		{"https://h.org/a~b~", []at{{15, "schemepart"}, {17, "schemepart"}}},
		{"https://h.org/~#", []at{{14, "schemepart"}}},
		{"https://h.org/~#^#", []at{{14, "schemepart"}, {16, "fragment"}, {17, "fragment"}}},
		{"https://h.org/a#b^c^", []at{{17, "fragment"}, {19, "fragment"}}},
	} {
		// An upper-case scheme is read rule by rule, never in one pass:
		// both readings give the same violations.
		if up := strings.ToUpper(tt.in[:5]) + tt.in[5:]; strings.HasPrefix(tt.in, "https:") {
			if a, b := Check(tt.in).Errors, Check(up).Errors; !slices.Equal(a, b) {
				t.Errorf("Check(%q) = %v, but Check(%q) = %v", tt.in, a, up, b)
			}
		}
		r := Check(tt.in)
		if len(r.Errors) != len(tt.want) {
			t.Errorf("Check(%q) = %v, want %d errors", tt.in, r.Errors, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if r.Errors[i].Offset != w.off || r.Errors[i].Rule != w.rule {
				t.Errorf("Check(%q) error %d = %v, want %s at %d", tt.in, i, r.Errors[i], w.rule, w.off)
			}
		}
	}
}

func TestAccessors(t *testing.T) {
	type part struct {
		v  string
		ok bool
	}
	tests := []struct {
		in                         string
		scheme                     string
		user, password, port, path part
		host                       string
		portNumber                 int
		opaque, fragment           part
	}{
		// §3.1 verbatim: empty vs absent user and password.
		{in: "ftp://@host.com/", scheme: "ftp", user: part{"", true}, host: "host.com", portNumber: 21, path: part{"", true}},
		{in: "ftp://host.com/", scheme: "ftp", host: "host.com", portNumber: 21, path: part{"", true}},
		{in: "ftp://foo:@host.com/", scheme: "ftp", user: part{"foo", true}, password: part{"", true}, host: "host.com", portNumber: 21, path: part{"", true}},
		{in: "ftp://a%40b:p%3Aq@h:2121", scheme: "ftp", user: part{"a@b", true}, password: part{"p:q", true}, host: "h", port: part{"2121", true}, portNumber: 2121},
		{in: "HTTP://x.org/a?b#c", scheme: "http", host: "x.org", portNumber: 80, path: part{"a?b", true}, fragment: part{"c", true}},
		{in: "news:comp.lang.c", scheme: "news", opaque: part{"comp.lang.c", true}},
		{in: "mailto:a@b.org#", scheme: "mailto", opaque: part{"a@b.org", true}, fragment: part{"", true}},
		{in: "X-Y://h:9/p", scheme: "x-y", host: "h", port: part{"9", true}, portNumber: 9, path: part{"p", true}},
		{in: "gopher://h", scheme: "gopher", host: "h", portNumber: 70},
		{in: "prospero://h/x", scheme: "prospero", host: "h", portNumber: 1525, path: part{"x", true}},
		{in: "wais://h/x", scheme: "wais", host: "h", portNumber: 210, path: part{"x", true}},
		{in: "telnet://h", scheme: "telnet", host: "h", portNumber: 23},
		{in: "nntp://h/g", scheme: "nntp", host: "h", portNumber: 119, path: part{"g", true}},
		{in: "file:///x", scheme: "file", host: "", path: part{"x", true}},
		// §5 schemepart = *xchar: an opaque schemepart has no host, port or user.
		{in: "x-app://h$t:1/p", scheme: "x-app", opaque: part{"//h$t:1/p", true}},
		{in: "jdbc://a,b/c#f", scheme: "jdbc", opaque: part{"//a,b/c", true}, fragment: part{"f", true}},
		// §5 port = digits: PortNumber is never a number the digits do not spell.
		{in: "gopher://127.0.0.1:4295014374/0x", scheme: "gopher", host: "127.0.0.1", port: part{"4295014374", true}, portNumber: 4295014374, path: part{"0x", true}},
		{in: "ftp://h:0021/", scheme: "ftp", host: "h", port: part{"0021", true}, portNumber: 21, path: part{"", true}},
		{in: "ftp://h:2147483647/", scheme: "ftp", host: "h", port: part{"2147483647", true}, portNumber: 2147483647, path: part{"", true}},
		{in: "ftp://h:99999999999999999999999/", scheme: "ftp", host: "h", port: part{"99999999999999999999999", true}, portNumber: math.MaxInt, path: part{"", true}},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		got := func(v string, ok bool) part { return part{v, ok} }
		if u.Scheme() != tt.scheme || u.Host() != tt.host || u.PortNumber() != tt.portNumber {
			t.Errorf("%s: scheme %q host %q port %d", tt.in, u.Scheme(), u.Host(), u.PortNumber())
		}
		for _, c := range []struct {
			name      string
			got, want part
		}{
			{"user", got(u.User()), tt.user},
			{"password", got(u.Password()), tt.password},
			{"port", got(u.Port()), tt.port},
			{"path", got(u.Path()), tt.path},
			{"opaque", got(u.Opaque()), tt.opaque},
			{"fragment", got(u.Fragment()), tt.fragment},
		} {
			if c.got != c.want {
				t.Errorf("%s: %s = %v, want %v", tt.in, c.name, c.got, c.want)
			}
		}
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		in    string
		rules []string
	}{
		{"HTTP://x.org/", []string{"scheme"}},                     // §2.1
		{"afs://h/x", []string{"scheme"}},                         // §4 reserved
		{"mid:123", []string{"scheme"}},                           // §4 reserved
		{"x-test:foo", []string{"scheme"}},                        // §4 experimental
		{"ftp://u:secret@h/", []string{"password"}},               // §6
		{"ftp://u:@h/", nil},                                      // §6: an empty password is no secret
		{"ftp://h:21/", nil},                                      // the default port is fine
		{"gopher://h:25/", []string{"port"}},                      // §6 non-default port
		{"http://h:70000/", []string{"port"}},                     // beyond 65535
		{"ftp://1.2.3.256/", []string{"hostnumber"}},              // §3.1
		{"gopher://h/0a%0Db", []string{"selector"}},               // §3.4.1
		{"gopher://h/7a%09b%0Ac", []string{"search"}},             // §3.4.1
		{"gopher://h/%09", []string{"gtype"}},                     // §3.4.1
		{"gopher://h/0a%09%09+%091%0D%0A+-1%0D%0A.%0D%0A", nil},   // §3.4.9 form is fine
		{"ftp://h/a%0D%0ADELE%20x", []string{"escape", "escape"}}, // §6
		{"nntp://h/g%00", nil},                                    // invalid: group has no escapes
		{"news:a%0Ab@h.org", []string{"escape"}},                  // §6
		{"mailto:joe", []string{"encoded822addr"}},                // §3.5
		{"mailto:joe@x.org,ann@y.org", []string{"encoded822addr"}},
		{"mailto:%22a%20b%22@x.org", nil},                    // quoted local part
		{"HTTP://x.org/~a", []string{"scheme"}},              // invalid, but its scheme is still read
		{"X Y:z", nil},                                       // no scheme name, so no scheme warning
		{"foo://exam$ple.net/", []string{"domainlabel"}},     // §3.1: read as *xchar, no host
		{"foo:///x", []string{"host"}},                       // §3.1: read as *xchar, no host
		{"gopher://h:4295014374/0x", []string{"port"}},       // beyond 65535, not 47078
		{"http://h:99999999999999999999/", []string{"port"}}, // beyond any int
	}
	for _, tt := range tests {
		r := Check(tt.in)
		var rules []string
		for _, w := range r.Warnings {
			rules = append(rules, w.Rule)
			if w.Offset < 0 || w.Offset >= len(tt.in) {
				t.Errorf("%s: warning offset %d out of range", tt.in, w.Offset)
			}
		}
		if !reflect.DeepEqual(rules, tt.rules) {
			t.Errorf("Check(%q) warnings = %v, want rules %v", tt.in, r.Warnings, tt.rules)
		}
	}
}

// TestNoAllocs: Parse allocates nothing, on valid input (nor do the raw
// accessors) and on invalid input (the *Error's message is formatted only
// when asked for); Valid allocates nothing; Check allocates nothing on a
// valid URL that draws no warning.
func TestNoAllocs(t *testing.T) {
	valid := []string{
		"ftp://myname@host.dom/%2Fetc/motd;type=a",
		"ftp://h:21/x",
		"http://www.example.com/a/b;c?d=e&f",
		"gopher://h/0x%09%09+",
		"news:comp.lang.c",
		"prospero://host.dom//pros/name;a=b",
		"https://www.example.com/x/y",
		"file:///etc/motd#frag",
		"wais://h/db?a+b",
	}
	invalid := []string{
		"http://x.org/~joe",  // a byte message
		"http://user@host/",  // a message naming the scheme
		"ftp:example",        // a message naming the scheme
		"ftp://h:8a/",        // a fixed message
		"https://a b.org/",   // both readings of a generic schemepart fail
		"x:\xe6",             // 8-bit
		"news:comp lang",     // group
		"nntp://h/g/4a",      // digits
		"http://x.org/a#b c", // fragment
		"gopher://h:4294967366/0\x00",
	}
	for _, in := range valid {
		if n := testing.AllocsPerRun(100, func() {
			u, err := Parse(in)
			if err != nil {
				t.Fatal(err)
			}
			_ = u.Scheme()
			_, _ = u.RawUser()
			_, _ = u.Path()
			_ = u.Host()
			_, _ = u.PortValue()
		}); n != 0 {
			t.Errorf("Parse(%q) allocates %v times, want 0", in, n)
		}
		if n := testing.AllocsPerRun(100, func() {
			if r := Check(in); !r.Valid() || len(r.Warnings) != 0 {
				t.Fatalf("Check(%q) = %v", in, r)
			}
		}); n != 0 {
			t.Errorf("Check(%q) allocates %v times, want 0", in, n)
		}
	}
	// §5: read as *xchar; Check's warning says why it has no host.
	if n := testing.AllocsPerRun(100, func() { Parse("https://exa_mple.com/x") }); n != 0 {
		t.Errorf("Parse of an opaque schemepart allocates %v times, want 0", n)
	}
	for _, in := range invalid {
		if n := testing.AllocsPerRun(100, func() {
			if _, err := Parse(in); err == nil {
				t.Fatalf("Parse(%q) accepted it", in)
			}
		}); n != 0 {
			t.Errorf("Parse(%q) allocates %v times on a rejection, want 0", in, n)
		}
	}
	for _, in := range append(valid, invalid...) {
		if n := testing.AllocsPerRun(100, func() { Valid(in) }); n != 0 {
			t.Errorf("Valid(%q) allocates %v times, want 0", in, n)
		}
	}
}

func TestKindAndPorts(t *testing.T) {
	want := map[string]int{"ftp": 21, "http": 80, "gopher": 70, "mailto": 0, "news": 0, "nntp": 119, "telnet": 23, "wais": 210, "file": 0, "prospero": 1525}
	for name, port := range want {
		k := KindOf(strings.ToUpper(name))
		if k.String() != name || k.DefaultPort() != port {
			t.Errorf("KindOf(%q) = %v port %d, want %s %d", name, k, k.DefaultPort(), name, port)
		}
	}
	if KindOf("https") != KindOther {
		t.Error("https is not an RFC 1738 scheme")
	}
}

// FuzzParse: no panic; String returns the input; Check agrees with Parse;
// views of a valid URL are stable; every offset lies inside the input.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.in)
	}
	f.Add("gopher://h/1%09%09$+ABSTRACT")
	f.Fuzz(func(t *testing.T, in string) {
		u, err := Parse(in)
		if Valid(in) != (err == nil) {
			t.Fatalf("Valid(%q) = %v, Parse error %v", in, Valid(in), err)
		}
		if cpuid.AVX2 { // the other reading (parse_vector_test.go) gives the same
			other := withReading(!vector, func() parsed { u, err := Parse(in); return parsed{u, err} })
			if other.u != u || (other.err == nil) != (err == nil) || err != nil && other.err.(*Error).Diagnostic() != err.(*Error).Diagnostic() {
				t.Fatalf("Parse(%q) = %+v, %v; with the other reading %+v, %v", in, u, err, other.u, other.err)
			}
			if withReading(!vector, func() bool { return Valid(in) }) != (err == nil) {
				t.Fatalf("Valid(%q) with the other reading differs", in)
			}
		}
		r := Check(in)
		if (err == nil) != r.Valid() {
			t.Fatalf("Check(%q).Valid() = %v, Parse error %v", in, r.Valid(), err)
		}
		for _, d := range append(r.Errors, r.Warnings...) {
			if d.Offset < 0 || d.Offset > len(in) || d.Rule == "" || d.Message == "" {
				t.Fatalf("Check(%q): bad diagnostic %+v", in, d)
			}
		}
		if err != nil {
			if err.(*Error).Diagnostic() != r.Errors[0] {
				t.Fatalf("Check(%q) first error differs from Parse", in)
			}
			return
		}
		if u.String() != in {
			t.Fatalf("String() = %q, want %q", u.String(), in)
		}
		v1, v2 := views(u), views(u)
		if !reflect.DeepEqual(v1, v2) {
			t.Fatalf("views of %q are not stable", in)
		}
		if u2, err := Parse(u.String()); err != nil || u2 != u {
			t.Fatalf("re-parse of %q differs", in)
		}
		agreeWithNetURL(t, u, in)
	})
}

func views(u URL) []any {
	var out []any
	add := func(v any, ok bool) {
		if ok {
			out = append(out, v)
		}
	}
	add(u.FTP())
	add(u.HTTP())
	add(u.Gopher())
	add(u.Mailto())
	add(u.News())
	add(u.NNTP())
	add(u.Telnet())
	add(u.WAIS())
	add(u.File())
	add(u.Prospero())
	return out
}

// TestCheckCapsDiagnostics: a 2 MB input with a violation (or a warning) at
// every few bytes yields the first MaxDiagnostics of them and a count of
// the rest, and Check's memory stays far below the size of the input.
func TestCheckCapsDiagnostics(t *testing.T) {
	const n = 2 << 20
	tests := []struct {
		in               string
		errors, warnings int // expected totals, collected or counted
		wantValid        bool
		rule             string
	}{
		{"http://x.org/" + strings.Repeat("~", n), n, 0, false, "hsegment"}, // §2.2: '~' is unsafe
		{"foo://" + strings.Repeat("%", n), n, 0, false, "escape"},          // §2.2: '%' begins an escape
		{"ftp://h/" + strings.Repeat("%0A", n/3), 0, n / 3, true, "escape"}, // §6: a decoded LF
	}
	for _, tt := range tests {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := Check(tt.in)
		runtime.ReadMemStats(&after)
		list, more := r.Errors, r.MoreErrors
		total := tt.errors
		if tt.wantValid {
			list, more, total = r.Warnings, r.MoreWarnings, tt.warnings
		}
		if r.Valid() != tt.wantValid || len(list) != MaxDiagnostics || len(list)+more != total || list[0].Rule != tt.rule {
			t.Errorf("Check(%.20q…): valid %v, %d diagnostics + %d more, want %d in all", tt.in, r.Valid(), len(list), more, total)
		}
		for i := 1; i < len(list); i++ {
			if list[i].Offset <= list[i-1].Offset {
				t.Errorf("Check(%.20q…): diagnostics are not the first ones, in input order: %v", tt.in, list)
				break
			}
		}
		if used := after.TotalAlloc - before.TotalAlloc; used > 64<<10 {
			t.Errorf("Check(%.20q…) allocated %d bytes for a %d-byte input, want at most 64 KiB", tt.in, used, len(tt.in))
		}
	}
}

// TestHostMessages: each fault of a host name is explained in words that
// name it (§3.1, §5 hostname), not only by its rule and offset.
func TestHostMessages(t *testing.T) {
	for _, tt := range []struct {
		in, rule string
		offset   int
		msg      string
	}{
		{"ftp://a..b/", "domainlabel", 8, "has an empty label"},
		{"ftp://a.org./", "toplabel", 12, "may not end with '.'"},
		{"ftp://-a.org/", "domainlabel", 6, "starts with a letter or a digit"},
		{"ftp://a.-b/", "toplabel", 8, "the last label of a host name starts with a letter"},
		{"ftp://a-.org/", "domainlabel", 7, "may not end with '-'"},
		{"ftp://a.b-/", "toplabel", 9, "may not end with '-'"},
		{"ftp://a_b.org/", "domainlabel", 7, "only letters, digits, '-' and '.'"},
		{"ftp://1a.b_c/", "toplabel", 10, "only letters, digits, '-' and '.'"}, // a domainlabel may start with a digit
	} {
		_, err := Parse(tt.in)
		var e *Error
		if !errors.As(err, &e) || e.Rule != tt.rule || e.Offset != tt.offset || !strings.Contains(e.Message(), tt.msg) {
			t.Errorf("Parse(%q) = %v, want %s at %d saying %q", tt.in, err, tt.rule, tt.offset, tt.msg)
		}
	}
}
