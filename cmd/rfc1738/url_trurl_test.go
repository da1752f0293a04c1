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
