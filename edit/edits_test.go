package edit

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
)

// Each part a Set or an Append can reach, with the URL it gives or the
// error it reports (the whole message: it names the part and the rule).
func TestSetAppendEveryPart(t *testing.T) {
	for _, tc := range []struct{ url, op, part, value, want, err string }{
		{"http://h/", "set", "url", "x", "", "set url: the url is not set part by part; give a new URL"},
		{"http://h/", "set", "scheme", "x", "", "set scheme: the scheme is not set part by part; give a new URL"},
		{"http://h:8080/", "set", "port", "81", "http://h:81/", ""},
		{"http://h/", "set", "port", "", "http://h/", ""}, // no port: nothing to remove
		{"ftp://a@h/", "set", "user", "b c", "ftp://b%20c@h/", ""},
		{"ftp://a:x@h/", "set", "password", "y z", "ftp://a:y%20z@h/", ""},
		{"ftp://h/a", "set", "path", "/x/y", "ftp://h/x/y", ""},
		{"ftp://h", "set", "path", "x", "ftp://h/x", ""},
		{"foo://h/x?q", "set", "path", "/y", "foo://h/y?q", ""}, // RFC 1808 §2.4.4: the query stays
		{"foo://h", "set", "path", "y", "foo://h/y", ""},
		{"news:a", "set", "path", "b.c", "news:b.c", ""},
		{"foo://h/x", "set", "query", "a b", "foo://h/x?a%20b", ""},
		{"foo://h", "set", "query", "a", "foo://h/?a", ""},
		{"foo://h/x?q", "set", "query", "", "foo://h/x", ""},
		{"http://h/x?q", "set", "query", "", "http://h/x", ""},
		{"http://h/x", "set", "query", "", "http://h/x", ""},
		{"http://h/x#a", "set", "fragment", "b", "http://h/x#b", ""},
		{"ftp://h/f", "set", "type", "ab", "", `set ftp.type: a typecode is one character (§3.2.2), not "ab"`},
		{"ftp://h/a/f", "set", "cwd", "", "ftp://h/f", ""},
		{"ftp://h/f", "set", "cwd", "a/b", "ftp://h/a/b/f", ""},
		{"http://h/a?x", "set", "http.search", "y z", "http://h/a?y%20z", ""},
		{"gopher://h/0x", "set", "type", "", "", `set gopher.type: a gophertype is one character (§3.4.1), not ""`},
		{"gopher://h/0x", "set", "type", "ab", "", `set gopher.type: a gophertype is one character (§3.4.1), not "ab"`},
		{"gopher://h/0x", "set", "type", "1", "gopher://h/1x", ""},
		{"gopher://h/0x", "set", "plus", "+", "gopher://h/0x%09%09+", ""}, // §3.4: an empty search before the Gopher+ string
		{"gopher://h/0x", "set", "search", "q", "gopher://h/0x%09q", ""},
		{"gopher://h/0x", "set", "selector", "s", "gopher://h/0s", ""},
		{"mailto:a@b", "set", "address", "c@d", "mailto:c@d", ""},
		{"news:a", "set", "group", "b.c", "news:b.c", ""},
		{"news:a", "set", "message-id", "x@y", "news:x@y", ""},
		{"nntp://h/a/1", "set", "group", "b", "nntp://h/b/1", ""},
		{"nntp://h/a/1", "set", "article", "2", "nntp://h/a/2", ""},
		{"file://h/a", "set", "file.path", "/b c", "file://h/b%20c", ""},
		{"file://h/a", "set", "file.path", "rel", "", `set file.path: rfc1738: build file URL: Path "rel": offset 0: fpath: a file URL is built from an absolute path (§3.10)`},
		{"prospero://h/a;f=v", "set", "hsoname", "b c", "prospero://h/b%20c;f=v", ""}, // §3.11: the fields stay
		{"http://h/", "set", "nope", "x", "", "nope: no such part in a http URL; it has scheme, user, password, host, port, path, query, fragment, http.path, http.search"},
		{"ftp://h/a/f", "append", "cwd", "b", "ftp://h/a/b/f", ""},
		{"ftp://h/a/f", "append", "ftp.cwd", "b", "ftp://h/a/b/f", ""},
		{"ftp://h/a/", "append", "path", "b", "ftp://h/a/b", ""},
		{"http://h/a", "append", "path", "b", "http://h/a/b", ""},
		{"http://h/a", "append", "http.path", "b", "http://h/a/b", ""},
		{"http://h", "append", "path", "b", "http://h/b", ""},
		{"http://h/a", "append", "search", "x y", "http://h/a?x%20y", ""},
		{"http://h/a?", "append", "search", "x", "http://h/a?x", ""},
		{"http://h/a?q", "append", "http.search", "x", "http://h/a?q&x", ""},
		{"foo://h/x", "append", "query", "a b", "foo://h/x?a%20b", ""},
		{"foo://h/x?", "append", "query", "a", "foo://h/x?a", ""},
		{"foo://h/x?q", "append", "query", "a", "foo://h/x?q&a", ""},
		{"gopher://h/0a/", "append", "selector", "b", "gopher://h/0a/b", ""},
		{"gopher://h/0a", "append", "gopher.selector", "b", "gopher://h/0a/b", ""},
		{"file:///a/", "append", "file.path", "b", "file:///a/b", ""},
		{"file:///a", "append", "path", "b", "file:///a/b", ""},
		{"foo:x", "append", "query", "a", "", "append query: query: a foo URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"mailto:a@b", "append", "path", "x", "", "append path: path: a mailto URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"wais://h/d", "append", "path", "x", "", "append path: path: a wais URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"ftp://h/a", "append", "query", "x", "", "append query: query: a ftp URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"http://h/a", "append", "fragment", "x", "", "append fragment: fragment: a http URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"gopher://h/0a", "append", "search", "x", "", "append search: search: a gopher URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"gopher://h/0a", "append", "selectors", "x", "", "append selectors: selectors: a gopher URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
		{"file:///a", "append", "query", "x", "", "append query: query: a file URL has no part that can be appended to by this name (path, query, ftp.cwd)"},
	} {
		u := mustParse(t, tc.url)
		got, err := apply(u, tc.op, tc.part, tc.value)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s %s %s=%q = %s, %v; want error %q", tc.url, tc.op, tc.part, tc.value, got, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %s=%q = %s, %v; want %s", tc.url, tc.op, tc.part, tc.value, got, err, tc.want)
		}
	}
}

// expand runs ExpandFunc with a deadline: a template that makes it loop
// for ever fails the test instead of hanging it.
func expand(t *testing.T, u rfc1738.URL, tmpl string, esc func(string) string) (string, error) {
	t.Helper()
	type result struct {
		s   string
		err error
	}
	done := make(chan result, 1)
	go func() {
		s, err := ExpandFunc(u, tmpl, esc)
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.s, r.err
	case <-time.After(time.Second):
		t.Fatalf("ExpandFunc(%s, %q) has not returned after a second", u, tmpl)
		return "", nil
	}
}

// Braces, as trurl's --get reads them (curl/trurl tests.json): "{{" is
// a literal brace, a "}" is itself, a "{" with no "}" after it is
// itself, and "{part}" is the part; {:part} is the part as written;
// "[part]" opens a part when "[" comes first; backslash pairs are
// trurl's; esc sees each value and nothing else; an error names the
// template offset of the "{" at fault.
func TestExpandTemplates(t *testing.T) {
	u := mustParse(t, "ftp://u%3A@h:21/a%20b?c#f%20g")
	for _, tc := range []struct{ tmpl, want, upper string }{
		{"{{x}}", "{x}}", "{x}}"},
		{"a}b", "a}b", "a}b"},
		{"}}", "}}", "}}"},
		{"}}{{", "}}{", "}}{"},
		{"{{{host}}}", "{h}}", "{H}}"},
		{"{:user}|{user}|{:fragment}|{fragment}|{:host}", "u%3A|u:|f%20g|f g|h", "U%3A|U:|F%20G|F G|H"},
		{"{url:user}|{default:port}|{must:host}|{puny:host}", "u%3A|21|h|h", "U%3A|21|H|H"},
		{"{port}{query}", "21", "21"},
		{"x{ftp.name}y", "xa b?cy", "xA B?Cy"}, // §3.2.2: "?" is part of an ftp name
		{"", "", ""},
		{"x{", "x{", "x{"},
		{"{{{", "{{", "{{"},
		{"{host} {port", "h {port", "H {port"}, // tests.json: "{scheme} {host"
		{"[host]:[port] {host}", "h:21 {host}", "H:21 {host}"},
		{"[[host] [host", "[host] [host", "[host] [host"},
		{`\{{host}\[`, "{h[", "{H["}, // tests.json: "\\{{scheme}\\["
		{`\\[`, `\[`, `\[`},
		{`a\tb\nc\rd\x`, "a\tb\nc\rd\\x", "a\tb\nc\rd\\x"},
		{`{host}\`, `h\`, `H\`}, // a backslash at the end is itself
	} {
		got, err := expand(t, u, tc.tmpl, nil)
		if err != nil || got != tc.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", tc.tmpl, got, err, tc.want)
		}
		got, err = expand(t, u, tc.tmpl, strings.ToUpper)
		if err != nil || got != tc.upper {
			t.Errorf("ExpandFunc(%q, ToUpper) = %q, %v; want %q", tc.tmpl, got, err, tc.upper)
		}
	}
	const has = "; it has url, scheme, user, password, host, port, path, fragment, ftp.cwd, ftp.name, ftp.type"
	for tmpl, want := range map[string]string{
		"ab{nope}":       "template offset 2: {nope}: no such part in a ftp URL" + has,
		"{:nope}":        "template offset 0: {nope}: no such part in a ftp URL" + has,
		"{}":             "template offset 0: {}: no such part in a ftp URL" + has,
		"{must:query}":   "template offset 0: {must:query}: the URL has no query",
		"{bad:host}":     `template offset 0: {bad:host}: "bad:" is not a prefix (:, url:, default:, must:, strict:, puny:, query:NAME, query-all:NAME)`,
		"{idn:host}":     `template offset 0: {idn:host}: "idn:" is not a prefix (:, url:, default:, must:, strict:, puny:, query:NAME, query-all:NAME)`,
		"[host] {x}[no]": "template offset 10: {no}: no such part in a ftp URL" + has,
	} {
		if got, err := expand(t, u, tmpl, nil); err == nil || err.Error() != want {
			t.Errorf("Expand(%q) = %q, %v; want error %q", tmpl, got, err, want)
		}
	}
}

// {query:NAME} and {query-all:NAME}, trurl's (curl/trurl tests.json):
// the first value, or all, of the pairs named NAME, matched with case;
// decoded, or as written with ":"; {default:url} writes the default port
// (§3.1); {strict:…} refuses a NUL.
func TestExpandQueryAndPrefixes(t *testing.T) {
	for _, tc := range []struct{ url, tmpl, want string }{
		{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "{query:utm_source}", "tra cker"},
		{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "{:query:utm_source}", "tra%20cker"}, // trurl: tra+cker
		{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "{:query:utm_}", ""},
		{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "{:query:UTM_SOURCE}", ""},
		{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "{query:address }|{:query:address%20}|{query:thisthen}", "home|home|"},
		{"http://hej/?a=b&a=c&a=d&b=a", "{query-all:a}", "b c d"},
		{"http://localhost/?=bar", "{query:}", "bar"},
		{"https://example.org/foo?a=1&b=%23&a=%26#hello", `{query:b}\t{query-all:a}\n{:query:b}\t{:query-all:a}`, "#\t1 &\n%23\t1 %26"},
		{"https://example.org/?a=1", "{query:a:b}", ""},
		{"ftp://h/x", "{query:a}", ""}, // §3.2.2: no query
		{"https://example.com/", "{default:url}|{url}", "https://example.com:443/|https://example.com/"},
		{"http://example.com:8080/", "port: {port}, default:port: {default:port}", "port: 8080, default:port: 8080"},
		{"http://example.com:8080/", "{default:url}", "http://example.com:8080/"},
		{"news:comp.x", "{default:url}", "news:comp.x"},
		{"https://example.com/?", "{must:query}", ""},
	} {
		got, err := expand(t, mustParse(t, tc.url), tc.tmpl, nil)
		if err != nil || got != tc.want {
			t.Errorf("Expand(%s, %q) = %q, %v; want %q", tc.url, tc.tmpl, got, err, tc.want)
		}
	}
	enc, err := ExpandWith(mustParse(t, "https://example.org/foo?a=1&b=%23&a=%26#hello"), "{query:b}|{query-all:a}|{fragment}", Options{Encoded: true})
	if want := "%23|1 %26|hello"; err != nil || enc != want {
		t.Errorf("ExpandWith(Encoded) = %q, %v; want %q", enc, err, want)
	}
	u := mustParse(t, "https://curl.se/?name=mr%00smith")
	if got, err := Expand(u, "{query:name}"); err != nil || got != "mr\x00smith" {
		t.Errorf("{query:name} with a NUL = %q, %v", got, err)
	}
	if got, err := Expand(u, "{strict:query:name}"); err == nil {
		t.Errorf("{strict:query:name} with a NUL = %q, no error", got)
	}
	// A NUL that opens the value is refused too.
	if got, err := Expand(mustParse(t, "https://curl.se/?name=%00smith"), "{strict:query:name}"); err == nil {
		t.Errorf("{strict:query:name} with a leading NUL = %q, no error", got)
	}
}

// The query as "&"-separated pairs: names and values decoded (§2.2),
// each pair kept as written.
func TestQueryPairsAsWritten(t *testing.T) {
	got := Pairs(mustParse(t, "http://h/p?a%20b=c%3Dd&e&=f"))
	want := []Pair{{"a b", "c=d", "a%20b=c%3Dd"}, {"e", "", "e"}, {"", "f", "=f"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pairs = %q; want %q", got, want)
	}
	if p := Pairs(mustParse(t, "http://h/p?")); p != nil {
		t.Errorf("Pairs of an empty query = %q", p)
	}
}

// ReplaceQuery is trurl's --replace and --replace-append; the cases are
// curl/trurl's tests.json, with the scheme written out.
func TestReplaceQuery(t *testing.T) {
	for _, tc := range []struct {
		url, name, value string
		hasValue, add    bool
		want             string
	}{
		{"http://test.org/?key=val", "key", "foo", true, false, "http://test.org/?key=foo"},
		{"http://test.org/?that=thing&key=val", "key", "foo", true, false, "http://test.org/?that=thing&key=foo"},
		{"http://test.org/?that=thing&key", "key", "foo", true, false, "http://test.org/?that=thing&key=foo"},
		{"http://test.org/?that=thing&key=foo", "key", "", false, false, "http://test.org/?that=thing&key"},
		{"https://example.com/?a=123&b=321&b=987", "b", "foo", true, false, "https://example.com/?a=123&b=foo"},
		{"http://example.org/?quest=best", "quest", "%00", true, false, "http://example.org/?quest=%2500"},
		{"http://test.org/?that=thing", "key", "foo", true, false, "http://test.org/?that=thing"},
		{"http://test.org/?that=thing", "key", "foo", true, true, "http://test.org/?that=thing&key=foo"},
		{"http://test.org/", "key", "foo", true, true, "http://test.org/?key=foo"},
		{"http://test.org/?keyboard=1", "key", "a&b=c", true, true, "http://test.org/?keyboard=1&key=a%26b%3Dc"}, // a name, not a prefix
		{"http://test.org/?a%20b=1", "a b", "x y", true, false, "http://test.org/?a%20b=x%20y"},
		{"ftp://h/f", "key", "foo", true, false, "ftp://h/f"}, // §3.2.2: no query
	} {
		got, err := ReplaceQuery(mustParse(t, tc.url), tc.name, tc.value, tc.hasValue, tc.add)
		if err != nil || got.String() != tc.want {
			t.Errorf("ReplaceQuery(%s, %q, %q, %v, %v) = %s, %v; want %s", tc.url, tc.name, tc.value, tc.hasValue, tc.add, got, err, tc.want)
		}
	}
	if got, err := ReplaceQuery(mustParse(t, "ftp://h/f"), "key", "foo", true, true); err == nil {
		t.Errorf("ReplaceQuery added a query to an ftp URL: %s", got)
	}
}
