package rfc1738

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// diag writes a diagnostic as "offset rule: message", the form the
// tables below use.
func diag(d Diagnostic) string { return fmt.Sprintf("%d %s: %s", d.Offset, d.Rule, d.Message) }

func diags(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, diag(d))
	}
	return out
}

const lineWarning = ", which would end or split a protocol line; clients must not send it (§6)"

// Each warning of Check, whole: its byte offset, its rule and its
// sentence, in input order (two at one offset keep the order they are
// found in: the case of the scheme, then what §4 says of the name).
func TestCheckWarningsExact(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		// §2.1: the first upper-case letter is named.
		{"HTTP://x.org/", []string{`0 scheme: scheme names are lower case; "HTTP" is read as "http" (§2.1)`}},
		{"hTtp://x.org/", []string{`1 scheme: scheme names are lower case; "hTtp" is read as "http" (§2.1)`}},
		{"Z39.50s:x", []string{`0 scheme: scheme names are lower case; "Z39.50s" is read as "z39.50s" (§2.1)`}},
		// §4: the reserved names, in any case, and "x-" experiments.
		{"Afs://h/x", []string{`0 scheme: scheme names are lower case; "Afs" is read as "afs" (§2.1)`,
			`0 scheme: "afs" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"mid:1", []string{`0 scheme: "mid" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"cid:1", []string{`0 scheme: "cid" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"nfs://h/", []string{`0 scheme: "nfs" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"tn3270://h/", []string{`0 scheme: "tn3270" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"mailserver:x", []string{`0 scheme: "mailserver" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"z39.50:x", []string{`0 scheme: "z39.50" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"X-Test:foo", []string{`0 scheme: scheme names are lower case; "X-Test" is read as "x-test" (§2.1)`,
			`0 scheme: "x-test" is an experimental scheme (§4): used only by mutual agreement`}},
		{"MailServer:x", []string{`0 scheme: scheme names are lower case; "MailServer" is read as "mailserver" (§2.1)`,
			`0 scheme: "mailserver" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"afz:y", nil}, {"tn3271:y", nil}, {"mailservex:y", nil}, {"z39.5a:y", nil},
		{"xx-a:b", nil}, {"-x:y", nil}, {"afsx:y", nil}, {"x-:y", []string{`0 scheme: "x-" is an experimental scheme (§4): used only by mutual agreement`}},
		// §6: a password; an empty one is no secret.
		{"ftp://u:secret@h/", []string{"8 password: the URL holds a password; passwords in URLs are unwise (§6)"}},
		{"ftp://u:@h/", nil},
		// §6 ports: the default (however written) is fine, another is
		// named, one beyond 65535 is no TCP port; a scheme without a
		// default port draws nothing.
		{"ftp://h:0021/", nil},
		{"gopher://h:25/", []string{"11 port: port 25 is not gopher's default 70; another protocol may listen there (§6)"}},
		{"http://h:65535/", []string{"9 port: port 65535 is not http's default 80; another protocol may listen there (§6)"}},
		{"http://h:65536/", []string{"9 port: port 65536 is beyond 65535, the largest TCP port"}},
		{"http://h:99999999999999999999/", []string{"9 port: port 99999999999999999999 is beyond 65535, the largest TCP port"}},
		{"foo://h:99/", nil},
		{"foo://h:65536/", []string{"8 port: port 65536 is beyond 65535, the largest TCP port"}},
		// §3.1: each part of a host number above 255, at its own offset;
		// sorted with the port's warning, which is found first.
		{"ftp://1.2.3.255/", nil},
		{"ftp://1.2.3.256/", []string{"12 hostnumber: host number part 256 is above 255"}},
		{"ftp://256.2.3.4:22/", []string{"6 hostnumber: host number part 256 is above 255",
			"16 port: port 22 is not ftp's default 21; another protocol may listen there (§6)"}},
		{"http://12.0256.300.4/", []string{"10 hostnumber: host number part 0256 is above 255", "15 hostnumber: host number part 300 is above 255"}},
		{"http://1.2.3.99999999999999999999/", []string{"13 hostnumber: host number part 99999999999999999999 is above 255"}},
		// §3.5
		{"mailto:joe", []string{"7 encoded822addr: the address is not one RFC 822 addr-spec, local-part@domain (§3.5)"}},
		{"mailto:j@x.org", nil},
		{"mailto://a_b", []string{"7 encoded822addr: the address is not one RFC 822 addr-spec, local-part@domain (§3.5)"}}, // not a "//" host: mailto is opaque
		{"file:///x", nil}, // no host, so no host number
		// §3.4.1: TAB also ends a gophertype; the selector and search
		// may not hold CR, LF or NUL; the Gopher+ string may.
		{"gopher://h/%09", []string{"11 gtype: the escape %09 decodes to '\\t'" + lineWarning}},
		{"gopher://h/%0D", []string{"11 gtype: the escape %0D decodes to '\\r'" + lineWarning}},
		{"gopher://h/0%00%09", []string{"12 selector: the escape %00 decodes to '\\x00'" + lineWarning}},
		{"gopher://h/0a%09%0d", []string{"16 search: the escape %0d decodes to '\\r'" + lineWarning}},
		{"gopher://h/0a%09%00%09+x%0A", []string{"16 search: the escape %00 decodes to '\\x00'" + lineWarning}},
		{"gopher://h/0%0A", []string{"12 selector: the escape %0A decodes to '\\n'" + lineWarning}},
		{"gopher://h/0a%0D%09x", []string{"13 selector: the escape %0D decodes to '\\r'" + lineWarning}}, // the search starts after %09
		// §6: ftp, news and nntp parts are sent inside protocol lines; a
		// TAB is not a line end there.
		{"ftp://h/a%0D%0ADELE%20x%09", []string{"9 escape: the escape %0D decodes to '\\r'" + lineWarning,
			"12 escape: the escape %0A decodes to '\\n'" + lineWarning}},
		{"news:a%0Ab@h.org", []string{"6 escape: the escape %0A decodes to '\\n'" + lineWarning}},
		{"http://h/a%0A", nil}, // http: no protocol line holds the path as is
		// §3.1: why a "//" schemepart is not an ip-schemepart.
		{"foo://exam$ple.net/", []string{"10 domainlabel: not an ip-schemepart: a host name has only letters, digits, '-' and '.' (§3.1); it is read as *xchar (§5), so the URL has no host, port or user"}},
		{"foo:///x", []string{"6 host: not an ip-schemepart: the host name is missing (§3.1); it is read as *xchar (§5), so the URL has no host, port or user"}},
		{"foo://h:x/", []string{"8 port: not an ip-schemepart: a port has only decimal digits (§3.1); it is read as *xchar (§5), so the URL has no host, port or user"}},
		{"foo:/x", nil}, {"foo:x//", nil}, {"foo:", nil},
		// An invalid URL: its errors, and what can be said of its scheme.
		{"MID:x y", []string{`0 scheme: scheme names are lower case; "MID" is read as "mid" (§2.1)`,
			`0 scheme: "mid" is reserved by §4 for future definition; RFC 1738 defines no syntax for it`}},
		{"X Y:z", nil}, {":x", nil}, {"Ab!:x", nil}, {"AB", nil},
	} {
		r := Check(tc.in)
		if got := diags(r.Warnings); !reflect.DeepEqual(got, tc.want) || r.MoreWarnings != 0 {
			t.Errorf("Check(%q) warnings = %q (+%d); want %q", tc.in, got, r.MoreWarnings, tc.want)
		}
		if u, err := Parse(tc.in); err == nil {
			if got := diags(u.Warnings()); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parse(%q).Warnings() = %q; want %q", tc.in, got, tc.want)
			}
		}
	}
	if w := (URL{}).Warnings(); w != nil {
		t.Errorf("the zero URL warns: %v", w)
	}
}

// An invalid URL's report: every error, no URL, and its scheme's
// warnings; a valid one's: the URL Parse gives and no error.
func TestCheckReport(t *testing.T) {
	r := Check("HTTP://u:p@h:81/a b")
	want := []string{"7 httpurl: an http URL allows no user name or password (§3)"}
	if got := diags(r.Errors); !reflect.DeepEqual(got[:1], want) || r.Valid() || r.URL != (URL{}) || len(r.Warnings) != 1 {
		t.Errorf("Check = %q, valid %v, URL %v, warnings %q", got, r.Valid(), r.URL, diags(r.Warnings))
	}
	r = Check("ftp://h/")
	if !r.Valid() || r.URL.String() != "ftp://h/" || r.Errors != nil || r.Warnings != nil {
		t.Errorf("Check(ftp://h/) = %+v", r)
	}
}

// The cap on diagnostics: check(s, n) keeps the first n of each kind
// and counts the rest; 0 keeps them all. The escapes beyond the cap are
// counted one each, not three times nor skipped.
func TestCheckLimit(t *testing.T) {
	s := "FTP://u:pw@h:2/" + strings.Repeat("%0A", 5)
	for _, tc := range []struct {
		limit, kept, more int
	}{{0, 8, 0}, {1, 1, 7}, {3, 3, 5}, {7, 7, 1}, {8, 8, 0}, {9, 8, 0}} {
		r := check(s, tc.limit)
		if len(r.Warnings) != tc.kept || r.MoreWarnings != tc.more {
			t.Errorf("check(%q, %d): %d warnings + %d more; want %d + %d", s, tc.limit, len(r.Warnings), r.MoreWarnings, tc.kept, tc.more)
		}
		if tc.kept > 0 && r.Warnings[0].Offset != 0 {
			t.Errorf("check(%q, %d): the first warning is at %d, not the scheme's", s, tc.limit, r.Warnings[0].Offset)
		}
	}
	// Found in input order, the ones kept are the first.
	r := check("ftp://h/"+strings.Repeat("%0D", 4), 2)
	if got := diags(r.Warnings); len(got) != 2 || r.Warnings[0].Offset != 8 || r.Warnings[1].Offset != 11 || r.MoreWarnings != 2 {
		t.Errorf("check(…, 2) = %q + %d", got, r.MoreWarnings)
	}
	e := check("http://h/"+strings.Repeat(" ", 5), 2)
	if len(e.Errors) != 2 || e.MoreErrors != 3 {
		t.Errorf("check(5 spaces, 2): %d errors + %d more", len(e.Errors), e.MoreErrors)
	}
}

// A second reading of the §6 line warnings: in an ftp, news or nntp URL
// every escape of CR, LF or NUL (in either case of hex) before the
// fragment is one "escape" warning at its "%", and nothing else is.
func TestLineEscapesOracle(t *testing.T) {
	re := regexp.MustCompile(`%(?:0[aAdD]|00)`)
	parts := []string{"a", "%0A", "%0a", "%0D", "%0d", "%00", "%09", "%20", "%2F", "%0B", "%1A", "%A0", "%DA"}
	n := 0
	for _, prefix := range []string{"ftp://h/", "news:x", "ftp://h/d/"} {
		for _, a := range parts {
			for _, b := range parts {
				for _, c := range parts {
					s := prefix + a + b + c + "@h.org"
					if strings.HasPrefix(prefix, "ftp") {
						s = prefix + a + b + c
					}
					u, err := Parse(s)
					if err != nil {
						continue
					}
					var want []int
					for _, m := range re.FindAllStringIndex(s, -1) {
						want = append(want, m[0])
					}
					var got []int
					for _, w := range u.Warnings() {
						if w.Rule != "escape" {
							t.Fatalf("%s: %s", s, diag(w))
						}
						got = append(got, w.Offset)
						if w.Message != "the escape "+s[w.Offset:w.Offset+3]+" decodes to "+fmt.Sprintf("%q", rune(unhex(s[w.Offset+1])<<4|unhex(s[w.Offset+2])))+lineWarning {
							t.Errorf("%s: %s", s, diag(w))
						}
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s: escape warnings at %v, want %v", s, got, want)
					}
					n++
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d URLs read", n)
	}
}
