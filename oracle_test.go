package rfc1738

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The §5 grammar written a second time, as regular expressions built
// production by production from the BNF, apart from the parser: a reading
// that shares no code with Parse, Valid or Check, so that a fast path of
// theirs that goes wrong cannot go wrong here the same way. Every
// production of §5 is regular, so the translation is literal.
var oracle, oracleXchars = func() (map[Kind]*regexp.Regexp, *regexp.Regexp) {
	const (
		unreserved = `A-Za-z0-9$\-_.+!*'(),` // alpha | digit | safe | extra
		escape     = `%[0-9A-Fa-f]{2}`       // escape = "%" hex hex
	)
	// chars returns *[ uchar | extra ] as a group: the unreserved octets,
	// escapes, and the reserved octets extra names.
	chars := func(extra string) string { return `(?:[` + unreserved + extra + `]|` + escape + `)` }
	var (
		uchar       = chars("")
		xchar       = chars(`;/?:@&=`)
		userchars   = chars(`;?&=`) // user, password
		fsegment    = chars(`?:@&=`) + "*"
		hsegment    = chars(`;:@&=`) + "*" // hsegment and http's search
		fieldchars  = chars(`?:@&`)
		articlechar = chars(`;/?:&=`)
		alphadigit  = `[A-Za-z0-9]`
		domainlabel = alphadigit + `(?:[A-Za-z0-9-]*` + alphadigit + `)?`
		toplabel    = `[A-Za-z](?:[A-Za-z0-9-]*` + alphadigit + `)?`
		hostname    = `(?:` + domainlabel + `\.)*` + toplabel
		hostnumber  = `[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+`
		host        = `(?:` + hostname + `|` + hostnumber + `)`
		hostport    = `(?P<host>` + host + `)(?::(?P<port>[0-9]+))?`
		login       = `(?:(?P<user>` + userchars + `*)(?::(?P<password>` + userchars + `*))?@)?` + hostport
		fpath       = fsegment + `(?:/` + fsegment + `)*`
		group       = `[A-Za-z][A-Za-z0-9\-.+_]*`
		psegment    = fsegment
	)
	m := map[Kind]string{
		KindOther:    `//` + login + `(?:/(?P<path>` + xchar + `*))?`, // ip-schemepart
		KindFTP:      `//` + login + `(?:/(?P<path>` + fpath + `(?:;type=[AIDaid])?))?`,
		KindFile:     `//(?P<host>` + host + `)?/(?P<path>` + fpath + `)`,
		KindHTTP:     `//` + hostport + `(?:/(?P<path>` + hsegment + `(?:/` + hsegment + `)*(?:\?` + hsegment + `)?))?`,
		KindGopher:   `//` + hostport + `(?:/(?P<path>` + xchar + `*))?`,
		KindMailto:   `(?P<opaque>` + xchar + `+)`,
		KindNews:     `(?P<opaque>\*|` + group + `|` + articlechar + `+@` + host + `)`,
		KindNNTP:     `//` + hostport + `/(?P<path>` + group + `(?:/[0-9]+)?)`,
		KindTelnet:   `//` + login + `(?P<path>/)?`,
		KindWAIS:     `//` + hostport + `/(?P<path>` + uchar + `*(?:\?` + hsegment + `|/` + uchar + `*/` + uchar + `*)?)`,
		KindProspero: `//` + hostport + `/(?P<path>` + psegment + `(?:/` + psegment + `)*(?:;` + fieldchars + `*=` + fieldchars + `*)*)`,
	}
	out := make(map[Kind]*regexp.Regexp, len(m))
	for k, re := range m {
		out[k] = regexp.MustCompile(`^` + re + `$`)
	}
	return out, regexp.MustCompile(`^` + xchar + `*$`) // schemepart = *xchar; fragment = *xchar
}()

// oracleParts is what the second reading finds in a URL.
type oracleParts struct {
	valid                                              bool
	kind                                               Kind
	authority                                          bool
	user, password, host, port, path, opaque, fragment *string
}

// oracleParse reads s by the regular expressions above alone.
func oracleParse(s string) oracleParts {
	var o oracleParts
	base, frag, hasFrag := strings.Cut(s, "#") // Appendix: "#" fragment
	colon := strings.IndexByte(base, ':')
	if colon <= 0 || strings.TrimLeft(base[:colon], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.") != "" {
		return o // §5 scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] ":", upper case read as lower
	}
	if hasFrag {
		if !oracleXchars.MatchString(frag) {
			return o
		}
		o.fragment = &frag
	}
	o.kind = KindOf(strings.ToLower(base[:colon]))
	rest := base[colon+1:]
	re := oracle[o.kind]
	m := re.FindStringSubmatchIndex(rest)
	if m == nil {
		if o.kind != KindOther || !oracleXchars.MatchString(rest) {
			return o
		}
		// §5 schemepart = *xchar | ip-schemepart: *xchar alone.
		o.valid, o.opaque = true, &rest
		return o
	}
	o.valid = true
	o.authority = o.kind != KindMailto && o.kind != KindNews // §3.1 "//" login
	for i, name := range re.SubexpNames() {
		if name == "" || m[2*i] < 0 {
			continue
		}
		v := rest[m[2*i]:m[2*i+1]]
		switch name {
		case "user":
			o.user = &v
		case "password":
			o.password = &v
		case "host":
			o.host = &v
		case "port":
			o.port = &v
		case "path":
			if o.kind == KindTelnet {
				v = "" // the final "/" is not part of the (empty) url-path
			}
			o.path = &v
		case "opaque":
			o.opaque = &v
		}
	}
	return o
}

// oracleSeeds are URLs of every scheme and every part, valid and not, from
// which oracleNeighbours grows its inputs.
var oracleSeeds = []string{
	"ftp://u:p@h.example.com:21/a/b%2Fc;type=a#f", "ftp://@host.com/", "ftp://foo:@host.com/",
	"ftp://1.2.3.4:2121//etc/motd;type=D", "ftp://h/;type=i", "ftp://a-b.c-d.org", "ftp://h:0/x",
	"file:///etc/motd", "file://localhost/a/b", "file://vms.host.edu/disk$user/my/notes/note12345.txt",
	"file://10.0.0.1/x", "http://x.org:8080/a/b;c?d=e&f#g", "http://a.b.c/%7Ejoe?q", "http://h",
	"http://9.9.9.9/", "gopher://h.org:70/7search%09foo%20bar", "gopher://h/0x%09%09+", "gopher://h:7/",
	"mailto:joe@x.org", "mailto:a%25b", "news:*", "news:comp.infosystems.www.misc", "news:a1+_.-b",
	"news:1234@x.org", "news:a;/?:&=b@1.2.3.4", "nntp://h:119/comp.lang.c/42", "nntp://h/g",
	"telnet://u:p@h:23/", "telnet://h", "wais://h:210/db/TEXT/doc%2Fid", "wais://h/db?a+b", "wais://h/db",
	"prospero://host.dom//pros/name;OBJECT-VERSION=3;x=y", "prospero://h/n",
	"https://www.example.com/a?b#c", "https://www.example.com:443", "x-foo://u:p@a.b:1/c", "foo:///x",
	"foo://?q=1", "HTTP://X.ORG/", "Gopher://H/", "z39.50s:x", "x:", "x-y:ab%4cc", "foo://1.2.3.4/",
	"foo://a.b-c.d9/x#", "mid:a@b", "foo://h:/", "ftp://a.b./", "ftp://x.1a/", "ftp://a..b/",
	"https://exa_mple.com/a", "http://h:99999999999999999999/", "x://h.org/p", "ab://h:1/q#r",
	"file:///a#f", "file://h.org/b/#", "FILE://localhost/c#d",
}

// oracleAlphabet holds the bytes the neighbours insert or substitute: one
// of each class the grammar tells apart.
const oracleAlphabet = "%#/:@;?=&.-_+*$~ 09aAfFgGzZ\x00\x80"

// oracleNeighbours returns each seed and every string one edit away from
// it: a byte of oracleAlphabet inserted or substituted at each place, or a
// byte deleted.
func oracleNeighbours(seeds []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, s := range seeds {
		add(s)
		for i := 0; i <= len(s); i++ {
			if i < len(s) {
				add(s[:i] + s[i+1:])
			}
			for j := 0; j < len(oracleAlphabet); j++ {
				c := oracleAlphabet[j : j+1]
				add(s[:i] + c + s[i:])
				if i < len(s) {
					add(s[:i] + c + s[i+1:])
				}
			}
		}
	}
	return out
}

// TestOracle: on every seed and every neighbour, Parse, Valid and Check
// give the verdict of the second reading, and a valid URL's parts are the
// ones it finds.
func TestOracle(t *testing.T) { bothReadings(t, testOracle) }

func testOracle(t *testing.T) {
	in := oracleNeighbours(append(oracleSeeds, parseTestInputs()...))
	valid := 0
	for _, s := range in {
		o := oracleParse(s)
		u, err := Parse(s)
		if (err == nil) != o.valid {
			t.Errorf("Parse(%q): error %v; §5 says valid=%v", s, err, o.valid)
			continue
		}
		if Valid(s) != o.valid {
			t.Errorf("Valid(%q) = %v; §5 says %v", s, !o.valid, o.valid)
		}
		if r := Check(s); r.Valid() != o.valid || o.valid && r.URL != u {
			t.Errorf("Check(%q) = valid %v, URL %+v; Parse gives %+v", s, r.Valid(), r.URL, u)
		}
		if !o.valid {
			continue
		}
		valid++
		if u.Kind() != o.kind || u.HasAuthority() != o.authority {
			t.Errorf("Parse(%q): kind %v authority %v, want %v %v", s, u.Kind(), u.HasAuthority(), o.kind, o.authority)
		}
		same := func(part string, got string, ok bool, want *string) {
			if ok != (want != nil) || ok && got != *want {
				w := "absent"
				if want != nil {
					w = strconv.Quote(*want)
				}
				t.Errorf("Parse(%q): %s = %q (%v), want %s", s, part, got, ok, w)
			}
		}
		user, ok := u.RawUser()
		same("user", user, ok, o.user)
		pass, ok := u.RawPassword()
		same("password", pass, ok, o.password)
		same("host", u.Host(), u.HasAuthority() && (u.Host() != "" || o.host != nil), o.host)
		port, ok := u.Port()
		same("port", port, ok, o.port)
		if ok {
			n, err := strconv.Atoi(port)
			if v, fits := u.PortValue(); fits != (err == nil) || fits && v != n {
				t.Errorf("Parse(%q): PortValue = %d, %v; the digits spell %d (%v)", s, v, fits, n, err)
			}
		}
		path, ok := u.Path()
		same("path", path, ok, o.path)
		opaque, ok := u.Opaque()
		same("opaque", opaque, ok && !o.authority, o.opaque)
		frag, ok := u.Fragment()
		same("fragment", frag, ok, o.fragment)
	}
	if valid < len(in)/10 || valid == len(in) {
		t.Fatalf("%d of %d inputs valid: the neighbourhood does not reach both verdicts", valid, len(in))
	}
	t.Logf("%d inputs, %d valid", len(in), valid)
}

func parseTestInputs() []string {
	var out []string
	for _, tt := range parseTests {
		out = append(out, tt.in)
	}
	return out
}
