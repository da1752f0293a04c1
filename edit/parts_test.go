package edit

import (
	"slices"
	"strings"
	"testing"
)

// Every part of every scheme, read from one URL each: "name=value" for
// a part Get finds, "name!" for one it reports absent. Decoded parts
// are decoded once (§2.2); the port is the scheme's default when none
// is written (§3.2.2 21, §3.3 80, §3.4 70, §3.7 119, §3.9 210, §3.11
// 1525, §3.8 23); file has no default (§3.10).
func TestGetEveryPart(t *testing.T) {
	for _, tc := range []struct {
		url   string
		parts []string
	}{
		{"ftp://u%3A:p%40@h.dom:2121/%2Fetc/motd;type=A#fr%20ag", []string{"user=u:", "password=p@", "host=h.dom", "port=2121",
			"path=/%2Fetc/motd;type=A", "fragment=fr ag", "ftp.cwd=/etc", "ftp.name=motd", "ftp.type=A"}}, // §3.2.2
		{"ftp://h.dom/", []string{"user!", "password!", "host=h.dom", "port=21", "path=/", "fragment!", "ftp.cwd!", "ftp.name=", "ftp.type!"}},
		{"ftp://h/a/b/c", []string{"path=/a/b/c", "ftp.cwd=a/b", "ftp.name=c"}},
		{"http://h/a%20b/c?x=%26&y#f", []string{"user!", "password!", "host=h", "port=80", "path=/a%20b/c", "query=x=%26&y",
			"fragment=f", "http.path=a b/c", "http.search=x=%26&y"}}, // §3.3
		{"http://h", []string{"user!", "password!", "host=h", "port=80", "path!", "query!", "fragment!", "http.path!", "http.search!"}},
		{"http://h:80/", []string{"port=80", "path=/", "query!", "http.path=", "http.search!"}},
		{"http://h/?", []string{"path=/", "query=", "http.path=", "http.search="}},
		{"gopher://h/7sel%09find%20me%09+plus", []string{"host=h", "port=70", "path=/7sel%09find%20me%09+plus", "fragment!",
			"gopher.type=7", "gopher.selector=sel", "gopher.search=find me", "gopher.plus=+plus"}}, // §3.4
		{"gopher://h", []string{"port=70", "path!", "gopher.type=1", "gopher.selector=", "gopher.search!", "gopher.plus!"}},
		{"mailto:joe@x.org", []string{"user!", "host!", "port!", "path=joe@x.org", "query!", "fragment!", "mailto.address=joe@x.org"}}, // §3.5
		{"news:comp.lang", []string{"path=comp.lang", "news.group=comp.lang", "news.message-id!"}},                                     // §3.6
		{"news:abc@def", []string{"path=abc@def", "news.group!", "news.message-id=abc@def"}},
		{"nntp://h/comp.x/12", []string{"port=119", "path=/comp.x/12", "nntp.group=comp.x", "nntp.article=12"}}, // §3.7
		{"nntp://h/comp.x", []string{"path=/comp.x", "nntp.group=comp.x", "nntp.article!"}},
		{"wais://h/db?find%20it", []string{"port=210", "path=/db?find%20it", "wais.database=db", "wais.search=find%20it",
			"wais.wtype!", "wais.wpath!"}}, // §3.9 waisindex
		{"wais://h/db/TEXT/p%20q", []string{"path=/db/TEXT/p%20q", "wais.database=db", "wais.search!", "wais.wtype=TEXT", "wais.wpath=p q"}}, // §3.9 waisdoc
		{"wais://h/db", []string{"wais.database=db", "wais.search!", "wais.wtype!", "wais.wpath!"}},
		{"file://h/a%20b/c", []string{"host=h", "port!", "path=/a%20b/c", "file.path=/a b/c"}},       // §3.10
		{"prospero://h/a%20b;f=v", []string{"port=1525", "path=/a%20b;f=v", "prospero.hsoname=a b"}}, // §3.11
		{"telnet://u@h:23/", []string{"user=u", "password!", "host=h", "port=23", "path=/"}},         // §3.8
		{"https://u:@h/a?b#c", []string{"user=u", "password=", "port=443", "path=/a", "query=b", "fragment=c"}},
		{"foo://h/x?q", []string{"host=h", "port!", "path=/x", "query=q"}}, // RFC 1808 §2.4.4
		{"foo://h", []string{"host=h", "path!", "query!"}},
		{"foo://h/?q", []string{"path=/", "query=q"}},
		{"foo:bar?x", []string{"path=bar?x", "query!"}},
		// Another scheme's part, a name no scheme has, a name without a scheme.
		{"http://h/", []string{"ftp.name!", "http.nothing!", "nothing!", "http!"}},
		{"ftp://h/f", []string{"ftp.nothing!", "http.path!"}},
		{"gopher://h/0x", []string{"gopher.nothing!"}},
		{"mailto:a@b", []string{"mailto.nothing!"}},
		{"news:a", []string{"news.nothing!"}},
		{"nntp://h/a", []string{"nntp.nothing!"}},
		{"wais://h/a", []string{"wais.nothing!"}},
		{"file:///a", []string{"file.nothing!", "host=", "path=/a", "file.path=/a"}},
		{"prospero://h/a", []string{"prospero.nothing!"}},
	} {
		u := mustParse(t, tc.url)
		for _, p := range tc.parts {
			name, want, present := strings.Cut(p, "=")
			if !present {
				name = strings.TrimSuffix(name, "!")
			}
			got, ok := Get(u, name)
			if ok != present || ok && got != want {
				t.Errorf("Get(%s, %s) = %q, %v; want %q, %v", tc.url, name, got, ok, want, present)
			}
		}
	}
}

// Raw gives the user, the password and the fragment as written; every
// other part as Get.
func TestRaw(t *testing.T) {
	u := mustParse(t, "ftp://u%3A:p%40@h/a%20b#f%20g")
	for part, want := range map[string]string{"user": "u%3A", "password": "p%40", "fragment": "f%20g", "ftp.name": "a b", "host": "h"} {
		if got, ok := Raw(u, part); !ok || got != want {
			t.Errorf("Raw(%s) = %q, %v; want %q", part, got, ok, want)
		}
	}
	if got, ok := Raw(mustParse(t, "ftp://h/a"), "user"); ok {
		t.Errorf("Raw(user) of a URL without one = %q, true", got)
	}
}

// Names lists the common parts a URL has, then its scheme's: a URL
// without "//" has no user, host or port (§3.1); only http and the
// "//" URLs of other schemes have a query.
func TestNames(t *testing.T) {
	for url, want := range map[string]string{
		"ftp://h/":       "url scheme user password host port path fragment ftp.cwd ftp.name ftp.type",
		"http://h/":      "url scheme user password host port path query fragment http.path http.search",
		"gopher://h/":    "url scheme user password host port path fragment gopher.type gopher.selector gopher.search gopher.plus",
		"mailto:a@b":     "url scheme path fragment mailto.address",
		"news:a":         "url scheme path fragment news.group news.message-id",
		"nntp://h/a":     "url scheme user password host port path fragment nntp.group nntp.article",
		"wais://h/d":     "url scheme user password host port path fragment wais.database wais.search wais.wtype wais.wpath",
		"file:///":       "url scheme user password host port path fragment file.path",
		"prospero://h/x": "url scheme user password host port path fragment prospero.hsoname",
		"telnet://h":     "url scheme user password host port path fragment",
		"foo://h/x":      "url scheme user password host port path query fragment",
		"foo:x":          "url scheme path fragment",
	} {
		if got := strings.Join(Names(mustParse(t, url)), " "); got != want {
			t.Errorf("Names(%s) = %s; want %s", url, got, want)
		}
	}
	for _, n := range []string{"ftp.type", "http.search", "gopher.plus", "mailto.address", "news.message-id", "nntp.article", "wais.wpath", "file.path", "prospero.hsoname"} {
		if !schemePart(n) {
			t.Errorf("schemePart(%s) = false", n)
		}
	}
	if schemePart("host") || schemePart("ftp.typo") || slices.Contains(Names(mustParse(t, "http://h/")), "ftp.name") {
		t.Error("a common part or a typo is taken for a scheme part")
	}
}
