package main

import (
	"strings"
	"testing"
)

// trurlCases are trurl's documented behaviours, each run through the
// built binary with trurl's flag names. Where RFC 1738 gives another
// answer than trurl's, the case says which rule and the README's table
// lists it.
var trurlCases = []struct {
	name   string
	args   []string
	want   string
	status int
}{
	{"get host", []string{"--url", "https://curl.se/we/are.html", "--get", "{host}"}, "curl.se\n", 0},
	{"get path with its /", []string{"-g", "{path}", "https://curl.se/we/are.html"}, "/we/are.html\n", 0},
	{"get query without ?", []string{"-g", "{query}", "http://a.org/x?q=1&r=2"}, "q=1&r=2\n", 0},
	{"get every part", []string{"-g", "{scheme}|{user}|{password}|{host}|{port}|{path}|{query}|{fragment}|{url}", "ftp://me:pw@h.org:2121/a/b#top"},
		"ftp|me|pw|h.org|2121|/a/b||top|ftp://me:pw@h.org:2121/a/b#top\n", 0},
	// §3.3 gives http its default port; trurl's {port} is empty without
	// --default-port (README table).
	{"get default port", []string{"-g", "{port}", "http://a.org/"}, "80\n", 0},
	{"get decoded, {:part} encoded", []string{"-g", "{fragment} {:fragment}", "http://a.org/#a%20b"}, "a b a%20b\n", 0},
	{"urlencode", []string{"--urlencode", "-g", "{user}", "ftp://a%20b@h/"}, "a%20b\n", 0},
	{"set path keeps the query", []string{"--set", "path=/new/p", "http://a.org/x?q=1"}, "http://a.org/new/p?q=1\n", 0},
	{"set host", []string{"-s", "host=example.org", "http://a.org/x?q=1#f"}, "http://example.org/x?q=1#f\n", 0},
	{"set port", []string{"-s", "port=8080", "http://a.org/x"}, "http://a.org:8080/x\n", 0},
	{"set query", []string{"-s", "query=a b", "http://a.org/x?q=1"}, "http://a.org/x?a%20b\n", 0},
	{"set fragment", []string{"-s", "fragment=sec 2", "http://a.org/x"}, "http://a.org/x#sec%202\n", 0},
	{"clear the query", []string{"-s", "query=", "http://a.org/x?q=1"}, "http://a.org/x\n", 0},
	{"set two parts", []string{"-s", "host=b.org", "-s", "path=/p", "https://a.org/x?y"}, "https://b.org/p?y\n", 0},
	{"append path", []string{"--append", "path=new seg", "http://a.org/x/?q"}, "http://a.org/x/new%20seg?q\n", 0},
	{"append query", []string{"-a", "query=b=2", "http://a.org/x?a=1"}, "http://a.org/x?a=1&b=2\n", 0},
	{"append query, none yet", []string{"-a", "query=b=2", "http://a.org/x"}, "http://a.org/x?b=2\n", 0},
	{"sort query", []string{"--sort-query", "http://a.org/?z=1&a=2&m=3"}, "http://a.org/?a=2&m=3&z=1\n", 0},
	{"trim query", []string{"--trim", "query=utm_*", "http://a.org/?utm_source=x&id=7&utm_medium=y"}, "http://a.org/?id=7\n", 0},
	{"trim the whole query", []string{"--trim", "query=utm_*", "http://a.org/p?utm_source=x"}, "http://a.org/p\n", 0},
	{"iterate", []string{"--iterate", "host=a.org b.org", "http://x/p"}, "http://a.org/p\nhttp://b.org/p\n", 0},
	{"iterate two parts", []string{"--iterate", "host=a b", "--iterate", "port=1 2", "http://x/"},
		"http://a:1/\nhttp://a:2/\nhttp://b:1/\nhttp://b:2/\n", 0},
	// §3.1: "_" is not in a host name; trurl accepts it (README table).
	{"bad host", []string{"-s", "host=a_b", "http://a.org/"}, "\n", exitNegative},
	// §3.3: http has no user; trurl sets one (README table).
	{"http user", []string{"-s", "user=me", "http://a.org/"}, "\n", exitNegative},
	{"scheme is not set", []string{"-s", "scheme=ftp", "http://a.org/x?q"}, "\n", exitNegative},
	// --redirect: RFC 1808 §5's examples by default, RFC 3986 §5.4's
	// (trurl's reading) with --rfc3986; they differ past the root and
	// for ";params" (README table).
	{"redirect", []string{"--redirect", "../g", "http://a/b/c/d;p?q#f"}, "http://a/b/g\n", 0},
	{"redirect query", []string{"--redirect", "?y", "http://a/b/c/d;p?q#f"}, "http://a/b/c/d;p?y\n", 0},
	{"redirect past the root", []string{"--redirect", "../../../g", "http://a/b/c/d;p?q#f"}, "http://a/../g\n", 0},
	{"redirect past the root, RFC 3986", []string{"--rfc3986", "--redirect", "../../../g", "http://a/b/c/d;p?q#f"}, "http://a/g\n", 0},
	{"redirect params", []string{"--redirect", ";x", "http://a/b/c/d;p?q#f"}, "http://a/b/c/d;x\n", 0},
	{"redirect params, RFC 3986", []string{"--rfc3986", "--redirect", ";x", "http://a/b/c/d;p?q#f"}, "http://a/b/c/;x\n", 0},
	{"redirect, then set", []string{"--redirect", "/x/y?q", "-s", "path=/z", "http://a.org/b"}, "http://a.org/z?q\n", 0},
	{"json", []string{"--json", "http://a.org:81/p?a=1&b=x%20y#f"}, `[
  {
    "url": "http://a.org:81/p?a=1&b=x%20y#f",
    "parts": {
      "scheme": "http",
      "host": "a.org",
      "port": "81",
      "path": "/p",
      "query": "a=1&b=x%20y",
      "fragment": "f"
    },
    "params": [
      {
        "key": "a",
        "value": "1"
      },
      {
        "key": "b",
        "value": "x y"
      }
    ]
  }
]
`, 0},
	{"json, nothing valid", []string{"--json", "not a url"}, "[]\n", exitNegative},

	// curl/trurl's tests.json, verbatim but for a scheme and a "/" written
	// where trurl guesses them (§3.1: the scheme is not optional; §3.3:
	// the search follows the path's "/"). An empty value removes the part.
	{"tests.json: -s port= -s user=", []string{"https://daniel@curl.se:22/", "-s", "port=", "-s", "user="}, "https://curl.se/\n", 0},
	{"tests.json: --set port=", []string{"http://example.com:29/", "--set", "port="}, "http://example.com/\n", 0},
	{"set password=", []string{"ftp://daniel:secret@curl.se/", "-s", "password="}, "ftp://daniel@curl.se/\n", 0},
	{"tests.json: set fragment", []string{"https://curl.se/hello", "--set", "fragment= hello"}, "https://curl.se/hello#%20hello\n", 0},
	// A URL made from --set alone.
	{"tests.json: set host and scheme", []string{"--set", "host=moo", "--set", "scheme=http"}, "http://moo/\n", 0},
	{"tests.json: --set=", []string{"--set=host=moo", "--set=scheme=http"}, "http://moo/\n", 0},
	{"tests.json: set port too", []string{"--set", "host=moo", "--set", "scheme=https", "--set", "port=999"}, "https://moo:999/\n", 0},
	{"tests.json: set path too", []string{"--set", "host=moo", "--set", "scheme=ftps", "--set", "path=/hello"}, "ftps://moo/hello\n", 0},
	{"tests.json: ftp", []string{"--set", "host=example.com", "--set", "scheme=ftp"}, "ftp://example.com/\n", 0},
	{"set alone, path", []string{"-s", "scheme=https", "-s", "host=example.com", "-s", "path=/hello"}, "https://example.com/hello\n", 0},
	{"set alone, iterate", []string{"-s", "scheme=http", "-s", "host=a.org", "--iterate", "port=1 2"}, "http://a.org:1/\nhttp://a.org:2/\n", 0},
	{"tests.json: json from sets", []string{"--json", "-s", "scheme=irc", "-s", "host=curl.se"}, `[
  {
    "url": "irc://curl.se/",
    "parts": {
      "scheme": "irc",
      "host": "curl.se",
      "path": "/"
    }
  }
]
`, 0},
	// trurl: exit 7, "not enough input for a URL"; a usage error here.
	{"tests.json: scheme alone", []string{"-s", "scheme=imap"}, "", exitUsage},
	// §3.1: "_" is not in a host name.
	{"set alone, bad host", []string{"-s", "scheme=http", "-s", "host=a_b"}, "\n", exitNegative},
	// Templates: an unclosed brace as written, "[part]", backslash pairs.
	{"tests.json: unclosed {", []string{"http://localhost/", "-g", "{scheme} {host"}, "http {host\n", 0},
	{"tests.json: unclosed [", []string{"http://localhost/", "-g", "[scheme] [host"}, "http [host\n", 0},
	{"tests.json: \\{ and \\[", []string{"http://localhost/", "-g", `\{{scheme}\[`}, "{http[\n", 0},
	{"tests.json: \\\\", []string{"http://localhost/", "-g", `\\[`}, "\\[\n", 0},
	{"tests.json: [part]", []string{"https://u:s@foo/?moo", "-g", "[scheme][user][password][query]"}, "httpsusmoo\n", 0},
	{"{{ and }}", []string{"http://h/", "-g", "{{x}} {{{host}}}"}, "{x}} {h}}\n", 0},
	{"unknown part", []string{"http://h/", "-g", "{nope}"}, "\n", exitNegative},
	// {query:NAME}, {query-all:NAME}, {default:…}, {must:…}.
	{"tests.json: query:", []string{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "-g", "{query:utm_source}"}, "tra cker\n", 0},
	// trurl writes tra+cker: a "+" for a space is HTML forms', not §2.2's.
	{"tests.json: :query:", []string{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "-g", "{:query:utm_source}"}, "tra%20cker\n", 0},
	{"tests.json: query: no prefix match", []string{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "-g", "{:query:utm_}"}, "\n", 0},
	{"tests.json: query: with case", []string{"https://example.com/?utm_source=tra%20cker&address%20=home&here=now&thisthen", "-g", "{:query:UTM_SOURCE}"}, "\n", 0},
	{"tests.json: query-all:", []string{"http://hej/?a=b&a=c&a=d&b=a", "-g", "{query-all:a}"}, "b c d\n", 0},
	{"tests.json: query: empty name", []string{"-g", "{query:}", "http://localhost/?=bar"}, "bar\n", 0},
	{"tests.json: query: and query-all:", []string{"-g", `{query:b}\t{query-all:a}\n{:query:b}\t{:query-all:a}`, "https://example.org/foo?a=1&b=%23&a=%26#hello"}, "#\t1 &\n%23\t1 %26\n", 0},
	{"tests.json: query: urlencode", []string{"--urlencode", "-g", `{query:b}\t{query-all:a}\n{:query:b}\t{:query-all:a}`, "https://example.org/foo?a=1&b=%23&a=%26#hello"}, "%23\t1 %26\n%23\t1 %26\n", 0},
	// trurl writes mr.smith; a NUL is escaped as every control byte is.
	{"tests.json: query: NUL", []string{"https://curl.se/?name=mr%00smith", "--get", "{query:name}"}, "mr\\x00smith\n", 0},
	{"trurl.md: default:port", []string{"--url", "https://curl.se/we/are.html", "--get", "{default:port}"}, "443\n", 0},
	{"tests.json: default:port", []string{"http://example.com:8080/", "--get", "port: {port}, default:port: {default:port}"}, "port: 8080, default:port: 8080\n", 0},
	{"default:url", []string{"https://curl.se/we/are.html", "--get", "{default:url}"}, "https://curl.se:443/we/are.html\n", 0},
	// trurl: exit 10 and no line.
	{"tests.json: must:query", []string{"https://example.com/", "--get", "{must:query}"}, "\n", exitNegative},
	{"tests.json: must:query, empty", []string{"https://example.com/?", "--get", "{must:query}"}, "\n", 0},
	{"tests.json: must:fragment", []string{"https://example.com/", "--get", "{must:fragment}"}, "\n", exitNegative},
	// --replace and --replace-append.
	{"tests.json: replace", []string{"http://test.org/?key=val", "--replace", "key=foo"}, "http://test.org/?key=foo\n", 0},
	{"tests.json: replace, second", []string{"http://test.org/?that=thing&key=val", "--replace", "key=foo"}, "http://test.org/?that=thing&key=foo\n", 0},
	{"tests.json: replace no value", []string{"http://test.org/?that=thing&key", "--replace", "key=foo"}, "http://test.org/?that=thing&key=foo\n", 0},
	{"tests.json: replace with a name", []string{"http://test.org/?that=thing&key=foo", "--replace", "key"}, "http://test.org/?that=thing&key\n", 0},
	{"tests.json: replace duplicates", []string{"https://example.com/?a=123&b=321&b=987", "--replace", "b=foo"}, "https://example.com/?a=123&b=foo\n", 0},
	{"tests.json: replace encodes", []string{"http://example.org/?quest=best", "--replace", "quest=%00"}, "http://example.org/?quest=%2500\n", 0},
	{"replace, none", []string{"http://test.org/?that=thing", "--replace", "key=foo"}, "http://test.org/?that=thing\n", 0},
	{"tests.json: replace-append", []string{"http://test.org/?that=thing", "--replace-append", "key=foo"}, "http://test.org/?that=thing&key=foo\n", 0},
	// trurl matches a prefix of the name ("key" replaces "keyboard=1").
	{"replace a name, not a prefix", []string{"http://test.org/?keyboard=1", "--replace-append", "key=foo"}, "http://test.org/?keyboard=1&key=foo\n", 0},
	{"tests.json: replace, no data", []string{"http://example.com/", "--replace"}, "", exitUsage},
	// --verify: stop at the first invalid URL (trurl: exit 9).
	{"tests.json: verify", []string{"--verify", "--json", "ftp://example.org/", "", "git://curl.se/"}, `[
  {
    "url": "ftp://example.org/",
    "parts": {
      "scheme": "ftp",
      "host": "example.org",
      "port": "21",
      "path": "/"
    }
  }
]
`, exitNegative},
	{"tests.json: verify, no scheme", []string{"--verify", "hello"}, "", exitNegative},
	{"verify, stops", []string{"--verify", "http://a/", "nope", "http://b/"}, "http://a/\n", exitNegative},
	{"verify, all valid", []string{"--verify", "http://a/", "http://b/"}, "http://a/\nhttp://b/\n", 0},
	{"tests.json: append path", []string{"http://localhost/", "--append", "path=moo"}, "http://localhost/moo\n", 0},
	{"tests.json: append query", []string{"http://localhost/", "-a", "query=hello=foo"}, "http://localhost/?hello=foo\n", 0},
	{"tests.json: iterate", []string{"ftp://hello@localhost/", "--iterate", "host=one two", "-g", "{host} {user}"}, "one hello\ntwo hello\n", 0},
}

func TestBinaryURLTrurl(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, tc := range trurlCases {
		out, errOut, status := runBinary(t, "", append([]string{"url"}, tc.args...)...)
		if out != tc.want || status != tc.status {
			t.Errorf("%s: rfc1738 url %s\n got %d %q (stderr %q)\nwant %d %q", tc.name, strings.Join(tc.args, " "), status, out, errOut, tc.status, tc.want)
		}
	}
}

// --verify stops reading stdin at the first invalid URL; without it each
// input line has its output line.
func TestBinaryURLVerifyStdin(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	in := "http://a/\nnope\nhttp://b/\n"
	if out, errOut, status := runBinary(t, in, "url", "--verify"); out != "http://a/\n" || status != exitNegative || !strings.Contains(errOut, `"nope"`) {
		t.Errorf("url --verify: %d %q (stderr %q)", status, out, errOut)
	}
	if out, _, status := runBinary(t, in, "url"); out != "http://a/\n\nhttp://b/\n" || status != exitNegative {
		t.Errorf("url: %d %q", status, out)
	}
}
