package rfc1738

import "testing"

// Rules of Normalize at their edges, each form checked through
// Normalize, AppendNormalize and IsNormal.
func TestNormalizeEdges(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// Rule 5, §3.1: leading zeros go from a port up to 65535, the
		// largest TCP port; one beyond stays as written. A scheme
		// without a default port keeps port 0.
		{"http://h:065535/", "http://h:65535/"},
		{"http://h:065536/", "http://h:065536/"},
		{"http://h:0/", "http://h:0/"},
		{"x-foo://h:0/", "x-foo://h:0/"},
		{"x-foo://h:00/", "x-foo://h:0/"},
		{"foo://h:0080/", "foo://h:80/"},
		// Rule 9, §3.2.2: the typecode only; a path ending in a capital
		// is no typecode, and ";type=" may be the whole path.
		{"ftp://h/;type=A", "ftp://h/;type=a"},
		{"ftp://h/pub/README", "ftp://h/pub/README"},
		{"ftp://h/%41;type=i", "ftp://h/A;type=i"},
		// Rules 2 and 3 in each part: the search keeps %2B (RFC 1866
		// §8.2.1), the path does not; the escape at the very end is read.
		{"wais://h/d?a%2b%41", "wais://h/d?a%2BA"},
		{"http://h/a%2b?%41", "http://h/a+?A"},
		{"http://h/%3a%3A", "http://h/%3A%3A"},
		{"http://h/%7e%7E", "http://h/%7E%7E"},
		{"ftp://U%41:P%41@H:21", "ftp://UA:PA@h/"},
		{"ftp://u:p%2f@h/", "ftp://u:p%2F@h/"},
		// Rule 7, §3.4.1: only a path that is the type 1 alone.
		{"gopher://h/1%31", "gopher://h/11"},
		{"gopher://h/%31%09", "gopher://h/1%09"},
		// Rules 1, 4 and 6 together; rule 8 only for "localhost" itself.
		{"HTTP://H", "http://h/"},
		{"file://localhost.x/", "file://localhost.x/"},
		{"file://LocalHost/A", "file:///A"},
		// The shortest URLs: an output buffer is made for them too.
		{"A:b", "a:b"},
		// §3.1 login: the user's escapes begin right after "//", the
		// password's after ":", in a scheme of one letter too.
		{"x://%41@h/", "x://A@h/"},
		{"X://%41:%42%2f@H/", "x://A:B%2F@h/"},
	} {
		u := mustParse(t, tc.in)
		if got := Normalize(u); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := string(AppendNormalize([]byte("<"), u)); got != "<"+tc.want {
			t.Errorf("AppendNormalize(%q) = %q", tc.in, got)
		}
		if IsNormal(u) != (tc.in == tc.want) {
			t.Errorf("IsNormal(%q) = %v", tc.in, IsNormal(u))
		}
		if n := mustParse(t, tc.want); !IsNormal(n) || Normalize(n) != tc.want {
			t.Errorf("%q is not normal", tc.want)
		}
	}
}

// Diff's sentences, whole: the first part that differs, how, and the
// note of the rule at stake (§2.2 for an encoded reserved character,
// §3.1 for an empty versus an absent user or password, the Appendix for
// the fragment).
func TestDiffExact(t *testing.T) {
	const reserved = " (§2.2: an encoded reserved character is not the character itself)"
	const fragment = " (only the fragments differ; they are not part of the URL, Appendix)"
	for _, tc := range [][3]string{
		{"ftp://h/%2Fetc/motd", "ftp://h//etc/motd", `the paths differ: "%2Fetc/motd" and "/etc/motd"` + reserved},
		{"http://x.org/a%3Bb", "http://x.org/a;b", `the paths differ: "a%3Bb" and "a;b"` + reserved},
		{"http://h/a%2F", "http://h/a/", `the paths differ: "a%2F" and "a/"` + reserved},
		{"http://h/;a", "http://h/%3Ba", `the paths differ: ";a" and "%3Ba"` + reserved},
		{"http://x.org/?a%2Bb", "http://x.org/?a+b", `the paths differ: "?a%2Bb" and "?a+b"`}, // "+" is not reserved
		{"http://h/a", "http://h/ab", `the paths differ: "a" and "ab"`},
		{"http://h/ab", "http://h/a", `the paths differ: "ab" and "a"`},
		{"http://h/a%3B", "http://h/a", `the paths differ: "a%3B" and "a"`},
		{"http://h/a", "http://h/a%3B", `the paths differ: "a" and "a%3B"`},
		{"http://h/a%3B", "http://h/a%3F", `the paths differ: "a%3B" and "a%3F"`},
		{"ftp://@h/", "ftp://h/", "one URL has a user and the other has none (§3.1: an empty user is not an absent one)"},
		{"ftp://u:@h/", "ftp://u@h/", "one URL has a password and the other has none (§3.1: an empty password is not an absent one)"},
		{"ftp://u:a@h/", "ftp://u:b@h/", `the passwords differ: "a" and "b"`},
		{"ftp://u@h/", "ftp://v@h/", `the users differ: "u" and "v"`},
		{"ftp://h/", "ftp://h:2121/", "the ports differ: 21 and 2121"},
		{"ftp://a.org/", "ftp://b.org/", `the hosts differ: "a.org" and "b.org"`},
		{"file:///a", "file://h/a", `the hosts differ: "" and "h"`},
		{"ftp://h/", "http://h/", `the schemes differ: "ftp" and "http"`},
		{"gopher://h/0", "gopher://h/", `the paths differ: "0" and ""`},
		{"foo://h", "foo://h/", "one URL has a path and the other has none"},
		{"foo://h/x", "foo:/x", "one URL has a //host part and the other has none (§3.1)"},
		{"news:a.b", "news:a.c", `the scheme-specific parts differ: "a.b" and "a.c"`},
		{"mailto:a@b", "mailto:a@B", `the scheme-specific parts differ: "a@b" and "a@B"`},
		{"http://x.org/#a", "http://x.org/#b", `the fragments differ: "a" and "b"` + fragment},
		{"http://x.org/", "http://x.org/#", "one URL has a fragment and the other has none" + fragment},
		{"HTTP://X.org:80", "http://x.org/", ""},
		// A port beyond 65535 is kept as written (rule 5): the parts
		// compare equal, the forms do not.
		{"http://h:70000/", "http://h:070000/", `the normalized forms differ: "http://h:70000/" and "http://h:070000/"`},
	} {
		a, b := mustParse(t, tc[0]), mustParse(t, tc[1])
		if got := Diff(a, b); got != tc[2] {
			t.Errorf("Diff(%q, %q) = %q\nwant %q", tc[0], tc[1], got, tc[2])
		}
		if Equal(a, b) != (tc[2] == "") || Equal(b, a) != (tc[2] == "") {
			t.Errorf("Equal(%q, %q) = %v", tc[0], tc[1], Equal(a, b))
		}
	}
}
