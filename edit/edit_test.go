package edit

import (
	"errors"
	"testing"

	"github.com/rfc1738/rfc1738"
)

func mustParse(t *testing.T, s string) rfc1738.URL {
	t.Helper()
	u, err := rfc1738.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct{ url, tmpl, want string }{
		{"ftp://myname@host.dom/%2Fetc/motd;type=a", "{user}@{host}:{port} {ftp.cwd} {ftp.name} {ftp.type}", "myname@host.dom:21 /etc motd a"}, // §3.2.2
		{"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles", "{gopher.type} {gopher.selector}", "0 0/Weather/California/Los Angeles"},
		{"http://x.org:8080/a%20b/c?q=%26&r", "{host}:{port} {http.path} {http.search}", "x.org:8080 a b/c q=%26&r"},
		{"news:comp.infosystems.www", "{news.group}", "comp.infosystems.www"},
		{"mailto:joe%40x@y.org", "{mailto.address}", "joe@x@y.org"},
		{"file://vms.host.edu/disk$user/my/notes/note12345.txt", "{file.path}", "/disk$user/my/notes/note12345.txt"}, // §3.10
		{"http://h/", "{{{host}}}", "{h}}"}, // trurl: "{{" is "{", "}" is itself
		// trurl's common parts: the path with its "/" and without the
		// search (§3.3), the query without "?", the fragment decoded
		// (Appendix) and, as "{:fragment}", as written.
		{"http://x.org/a%20b?q=1&r#f%20g", "{path}|{query}|{fragment}|{:fragment}", "/a%20b|q=1&r|f g|f%20g"},
		{"https://x.org/a?b?c", "{path}|{query}", "/a|b?c"},      // RFC 1808 §2.4.4: from the first "?"
		{"ftp://h/a?b;type=i", "{path}|{query}", "/a?b;type=i|"}, // §3.2.2: no searchpart in ftp
		{"news:comp.x", "{path}|{query}|{host}", "comp.x||"},
	} {
		got, err := expand(t, mustParse(t, tc.url), tc.tmpl, nil)
		if err != nil || got != tc.want {
			t.Errorf("Expand(%s, %q) = %q, %v; want %q", tc.url, tc.tmpl, got, err, tc.want)
		}
	}
	// Another scheme's part is empty (one template for mixed lists); a
	// name no scheme has is an error.
	if got, err := expand(t, mustParse(t, "http://h/"), "<{ftp.type}>", nil); err != nil || got != "<>" {
		t.Errorf("an ftp part of an http URL: %q, %v", got, err)
	}
	if _, err := expand(t, mustParse(t, "http://h/"), "{ftp.typo}", nil); !errors.Is(err, ErrUnknownPart) {
		t.Errorf("an unknown part: %v", err)
	}
	if got, err := expand(t, mustParse(t, "http://h/"), "{host", nil); err != nil || got != "{host" {
		t.Errorf("an unclosed brace: %q, %v; want it as written, as trurl writes it", got, err)
	}
}

func TestSetAppend(t *testing.T) {
	for _, tc := range []struct {
		url, op, part, value, want string
	}{
		// Only the part changes: the search keeps its encoding.
		{"http://a.org/x?q=%26&r", "set", "host", "b.org", "http://b.org/x?q=%26&r"},
		{"http://a.org/x", "set", "port", "8080", "http://a.org:8080/x"},
		// An empty value removes an optional part, as trurl does
		// (curl/trurl tests.json: -s port= -s user=), with its
		// delimiter (§3.1 "@" and ":", §3.3 "?", §3.4 tab).
		{"ftp://daniel@curl.se:22/", "set", "user", "", "ftp://curl.se:22/"},
		{"ftp://daniel:pw@curl.se/", "set", "password", "", "ftp://daniel@curl.se/"},
		{"ftp://daniel:pw@curl.se/", "set", "user", "", "ftp://:pw@curl.se/"},
		{"ftp://curl.se/", "set", "user", "", "ftp://curl.se/"},
		{"ftp://daniel@curl.se/", "set", "password", "", "ftp://daniel@curl.se/"},
		{"http://a.org/x?q", "set", "http.search", "", "http://a.org/x"},
		{"gopher://h/7sel%09find", "set", "gopher.search", "", "gopher://h/7sel"},
		{"gopher://h/7sel%09find%09+x", "set", "gopher.search", "", "gopher://h/7sel%09%09+x"}, // §3.4: the plus string keeps the search's tab
		{"gopher://h/7sel%09find%09+x", "set", "gopher.plus", "", "gopher://h/7sel%09find"},
		{"http://a.org:8080/x", "set", "port", "", "http://a.org/x"},
		{"ftp://h/pub/f", "set", "user", "me@home", "ftp://me%40home@h/pub/f"}, // §3.1: "@" in a user is encoded
		{"ftp://me@h/pub/f", "set", "password", "p:w/d", "ftp://me:p%3Aw%2Fd@h/pub/f"},
		{"ftp://h/pub/f", "set", "name", "a b;c", "ftp://h/pub/a%20b%3Bc"}, // §3.2.2: ";" is reserved in a segment
		{"ftp://h/pub/f", "set", "ftp.cwd", "/etc", "ftp://h/%2Fetc/f"},    // §3.2.2: "/" inside a cwd is %2F
		{"ftp://h/pub/f", "set", "type", "a", "ftp://h/pub/f;type=a"},
		{"ftp://h/pub/f;type=a", "set", "type", "", "ftp://h/pub/f"},
		{"http://h/a/b?x", "set", "http.path", "c d/e", "http://h/c%20d/e?x"},
		{"http://h/a", "set", "search", "a b", "http://h/a?a%20b"},
		{"gopher://h/0/file", "set", "selector", "/other file", "gopher://h/0/other%20file"},
		{"gopher://h/7/find", "set", "gopher.search", "rfc 1738", "gopher://h/7/find%09rfc%201738"}, // §3.4.2
		{"nntp://h/comp.lang.go/12", "set", "nntp.article", "13", "nntp://h/comp.lang.go/13"},
		{"ftp://h/pub/f", "append", "path", "g h", "ftp://h/pub/f/g%20h"},
		{"ftp://h/pub/", "append", "path", "g", "ftp://h/pub/g"},
		{"http://h/a/", "append", "path", "b?c", "http://h/a/b%3Fc"},
		{"http://h/a?x=1", "append", "query", "y=2&3", "http://h/a?x=1&y=2&3"},
		{"gopher://h/1/dir", "append", "path", "f", "gopher://h/1/dir/f"},
		{"file:///tmp", "append", "path", "a b", "file:///tmp/a%20b"},
		// "path" is the path alone: the search and fragment stay (§3.3).
		{"http://a.org/x?q=1", "set", "path", "/new/p", "http://a.org/new/p?q=1"},
		{"http://a.org/x?q=1#f", "set", "path", "/a b", "http://a.org/a%20b?q=1#f"},
		{"https://a.org/x?q=1#f", "set", "path", "/new", "https://a.org/new?q=1#f"}, // RFC 1808 §2.4.4
		{"http://a.org/x?q=1", "set", "query", "a b=c", "http://a.org/x?a%20b=c"},
		{"http://a.org/x", "set", "query", "a;b", "http://a.org/x?a%3Bb"}, // §3.3: ";" is reserved in an http searchpart
		{"http://a.org", "set", "query", "a", "http://a.org/?a"},          // §3.3: the "/" before "?"
		{"http://a.org/x?q=1#f", "set", "query", "", "http://a.org/x#f"},
		{"https://a.org/x#f", "set", "query", "a&b", "https://a.org/x?a&b#f"},
		{"https://a.org/x?a", "append", "query", "b c", "https://a.org/x?a&b%20c"},
		{"http://a.org/x", "set", "fragment", "x y", "http://a.org/x#x%20y"}, // Appendix: fragment = *xchar
		{"http://a.org/x#old", "set", "fragment", "", "http://a.org/x"},
	} {
		u := mustParse(t, tc.url)
		got, err := apply(u, tc.op, tc.part, tc.value)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %s=%q = %s, %v; want %s", tc.url, tc.op, tc.part, tc.value, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ url, part, value string }{
		{"http://h/", "user", "me"},         // §3.3: http has no login
		{"ftp://h/f", "password", "x"},      // a password needs a user
		{"ftp://h/f", "host", "a_b"},        // §3.1 hosts: no "_"
		{"ftp://h/f", "type", "x"},          // §3.2.2 typecodes
		{"gopher://h/0x", "search", "a\tb"}, // §3.4.1: a TAB would end it
	} {
		if got, err := Set(mustParse(t, tc.url), tc.part, tc.value); err == nil {
			t.Errorf("%s set %s=%q = %s; want an error", tc.url, tc.part, tc.value, got)
		}
	}
}

func TestQueryPairs(t *testing.T) {
	for _, tc := range []struct{ url, op, arg, want string }{
		{"http://h/p?b=2&a=1&b=1&A%20=3#f", "sort", "", "http://h/p?A%20=3&a=1&b=2&b=1#f"},
		{"http://h/p?utm_source=x&id=1&UTM_medium=y", "trim", "utm_*", "http://h/p?id=1"},
		{"http://h/p?utm=x&id=1", "trim", "utm", "http://h/p?id=1"},
		{"http://h/p?utm_a=x#f", "trim", "utm_*", "http://h/p#f"}, // no pair left: no "?"
		{"https://h/p?id=1&id=2", "trim", "id", "https://h/p"},    // RFC 1808 §2.4.4 query
		{"http://h/p?x=1", "trim", "y", "http://h/p?x=1"},
		{"http://h/?b&a", "sort", "", "http://h/?a&b"}, // two pairs are sorted
		{"http://h/?b", "sort", "", "http://h/?b"},
		{"http://h/?utm&utmost=1&ut=2", "trim", "utm*", "http://h/?ut=2"}, // "utm*" matches "utm" itself
		{"foo://h/?q=1", "trim", "q", "foo://h/"},
	} {
		u := mustParse(t, tc.url)
		var got rfc1738.URL
		var err error
		if tc.op == "sort" {
			got, err = SortQuery(u)
		} else {
			got, err = TrimQuery(u, tc.arg)
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %q = %s, %v; want %s", tc.url, tc.op, tc.arg, got, err, tc.want)
		}
	}
	if got, err := TrimQuery(mustParse(t, "ftp://h/f?a=1"), "a*"); err != nil || got.String() != "ftp://h/f?a=1" {
		t.Errorf("trim on an ftp URL, whose \"?\" is in its name (§3.2.2): %s, %v", got, err)
	}
}

// apply runs Set or Append, as op says.
func apply(u rfc1738.URL, op, part, value string) (rfc1738.URL, error) {
	if op == "set" {
		return Set(u, part, value)
	}
	return Append(u, part, value)
}
