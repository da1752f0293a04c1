package rfc1738

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// readTests: each form Read takes, with the URL it reads and the rule and
// offset of each departure from RFC 1738.
var readTests = []struct {
	in, read string
	rules    []string // rule of each departure, in offset order
	offsets  []int
	host     string // Host of the read URL
	port     string
}{
	// A valid RFC 1738 URL is read as it is.
	{"http://x.org/a%20b", "http://x.org/a%20b", nil, nil, "x.org", ""},
	// RFC 3986 §3.2.2 IP-literal, RFC 4291 §2.2 text forms.
	{"http://[::1]:8080/f.txt", "http://[::1]:8080/f.txt", []string{"host"}, []int{7}, "[::1]", "8080"},
	{"http://[::ffff:127.0.0.1]/", "http://[::ffff:127.0.0.1]/", []string{"host"}, []int{7}, "[::ffff:127.0.0.1]", ""},
	{"ftp://[2001:DB8:0:0:8:800:200C:417A]/pub", "ftp://[2001:DB8:0:0:8:800:200C:417A]/pub", []string{"host"}, []int{6}, "[2001:DB8:0:0:8:800:200C:417A]", ""},
	{"gopher://[::1]:7070/1x", "gopher://[::1]:7070/1x", []string{"host"}, []int{9}, "[::1]", "7070"},
	// RFC 6874 §2: a zone ID after "%25".
	{"http://[fe80::1%25eth0]:80/", "http://[fe80::1%25eth0]:80/", []string{"host"}, []int{7}, "[fe80::1%25eth0]", "80"},
	// An IPv6 literal with an unsafe octet later: the literal is put back
	// where it stood, the octet encoded.
	{"http://[::1]/a b", "http://[::1]/a%20b", []string{"host", "hsegment"}, []int{7, 14}, "[::1]", ""},
	// IDNA2008 (RFC 5891 §5) with the UTS #46 mapping: the A-label is sent.
	{"http://bücher.test/x", "http://xn--bcher-kva.test/x", []string{"hostname"}, []int{7}, "xn--bcher-kva.test", ""},
	{"https://測試/?abc", "https://xn--g6w251d/?abc", []string{"hostname"}, []int{8}, "xn--g6w251d", ""},
	{"http://BÜCHER.test:8080/", "http://xn--bcher-kva.test:8080/", []string{"hostname"}, []int{7}, "xn--bcher-kva.test", "8080"},
	// RFC 3986 §3.3: a search with no path before it.
	{"https://example.com?search=hello", "https://example.com/?search=hello", []string{"hpath"}, []int{19}, "example.com", ""},
	{"http://h:37180?x=1", "http://h:37180/?x=1", []string{"hpath"}, []int{14}, "h", "37180"},
	{"http://a.org?q=1", "http://a.org/?q=1", []string{"hpath"}, []int{12}, "a.org", ""},
	{"http://h?q", "http://h/?q", []string{"hpath"}, []int{8}, "h", ""},
	// RFC 3986 §3.4: "/" and "?" in a search.
	{"http://h/?a/b?c", "http://h/?a/b?c", []string{"search"}, []int{11}, "h", ""},
	{"http://h/?a/b c", "http://h/?a/b%20c", []string{"search", "search"}, []int{11, 13}, "h", ""},
	// §2.2 unsafe octets sent %-encoded, each kind once.
	{"http://h/a|b|c", "http://h/a%7Cb%7Cc", []string{"hsegment"}, []int{10}, "h", ""},
	{"http://h/~joe", "http://h/%7Ejoe", []string{"hsegment"}, []int{9}, "h", ""},
	// RFC 3986 §3.1: scheme case.
	{"HTTP://h/", "http://h/", []string{"scheme"}, []int{0}, "h", ""},
	// Appendix wrappers, then a form: offsets count in the input.
	{" <URL:http://h?q> ", "http://h/?q", []string{"url", "url", "url", "hpath", "url"}, []int{0, 1, 2, 14, 17}, "h", ""},
	// An empty path before "#" is RFC 1738 already.
	{"http://h#f", "http://h#f", nil, nil, "h", ""},
}

func TestRead(t *testing.T) {
	for _, tt := range readTests {
		u, deps, err := Read(tt.in)
		if err != nil {
			t.Errorf("Read(%q): %v", tt.in, err)
			continue
		}
		if u.String() != tt.read {
			t.Errorf("Read(%q) = %q, want %q", tt.in, u, tt.read)
		}
		var rules []string
		var offs []int
		for _, d := range deps {
			rules = append(rules, d.Rule)
			offs = append(offs, d.Offset)
			if d.Allows == "" || d.Wants == "" || d.Message == "" {
				t.Errorf("Read(%q): departure %+v lacks what allows it or what RFC 1738 wants", tt.in, d)
			}
		}
		if strings.Join(rules, ",") != strings.Join(tt.rules, ",") || len(offs) != len(tt.offsets) {
			t.Errorf("Read(%q) departures = %+v, want rules %v", tt.in, deps, tt.rules)
		} else {
			for i := range offs {
				if offs[i] != tt.offsets[i] {
					t.Errorf("Read(%q) departure %d at %d, want %d", tt.in, i, offs[i], tt.offsets[i])
				}
			}
		}
		if u.Host() != tt.host {
			t.Errorf("Read(%q).Host() = %q, want %q", tt.in, u.Host(), tt.host)
		}
		if p, _ := u.Port(); p != tt.port {
			t.Errorf("Read(%q).Port() = %q, want %q", tt.in, p, tt.port)
		}
		// What Read sends, net/url (an RFC 3986 reader) reads the same.
		nu, err := url.Parse(u.String())
		if err != nil {
			t.Errorf("net/url cannot read %q: %v", u, err)
		} else if want := u.Host() + map[bool]string{true: ":" + tt.port}[tt.port != ""]; nu.Host != want && !strings.Contains(want, "%25") {
			// net/url decodes a zone ID (RFC 6874 §2); the rest agrees.
			t.Errorf("%q: net/url reads the host %q, Read %q", u, nu.Host, want)
		}
		if len(deps) == 0 {
			if _, err := Parse(tt.in); err != nil {
				t.Errorf("Read(%q): no departures, but Parse refuses it: %v", tt.in, err)
			}
		}
	}
}

// TestReadViews: the scheme views take the read URL apart, an IPv6 host
// with its brackets and port included.
func TestReadViews(t *testing.T) {
	u, _, err := Read("http://[::1]:8080/f.txt?x/y")
	if err != nil {
		t.Fatal(err)
	}
	h, ok := u.HTTP()
	if !ok || h.Path != "f.txt" || h.Search != "x/y" || h.RequestURI() != "/f.txt?x/y" {
		t.Errorf("HTTP() = %+v, %v", h, ok)
	}
	if u.HostPort() != "[::1]:8080" || u.PortNumber() != 8080 {
		t.Errorf("HostPort() = %q, PortNumber() = %d", u.HostPort(), u.PortNumber())
	}
	u, _, err = Read("https://[::1]?q")
	if err != nil {
		t.Fatal(err)
	}
	h, ok = u.HTTP()
	if !ok || h.RequestURI() != "/?q" || u.HostPort() != "[::1]:443" {
		t.Errorf("https view = %+v, %v, %q", h, ok, u.HostPort())
	}
	u, _, err = Read("ftp://[::1]:2121/pub/a%20b.txt")
	if err != nil {
		t.Fatal(err)
	}
	f, ok := u.FTP()
	if !ok || f.Name != "a b.txt" || len(f.Cwd) != 1 || u.HostPort() != "[::1]:2121" {
		t.Errorf("FTP() = %+v, %v, %q", f, ok, u.HostPort())
	}
}

// TestReadRefuses: what nothing reads is an *Error at its offset in the
// input; the departures found before it come with it, so a message can
// name the real cause.
func TestReadRefuses(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		rule string
	}{
		{"http://", 7, "host"},                                            // no host at all
		{"ftp://h:99999/", 8, "port"},                                     // RFC 793 §3.1: 16 bits
		{"http://[::1]:65536/", 13, "port"},                               //
		{"http://[::1/", 7, "IP-literal"},                                 // RFC 3986 §3.2.2: "]"
		{"http://[1.2.3.4]/", 8, "IP-literal"},                            // brackets hold IPv6
		{"http://[::g]/", 8, "IP-literal"},                                // RFC 4291 §2.2
		{"http://[v1.x]/", 8, "IP-literal"},                               // IPvFuture
		{"http://[fe80::1%eth0]/", 15, "IP-literal"},                      // RFC 6874 §2: "%25"
		{"http://[fe80::1%25]/", 15, "IP-literal"},                        // an empty zone
		{"http://[::1]x/", 12, "IP-literal"},                              // what follows "]"
		{"http://a_b.org/~x", 8, "domainlabel"},                           // hosts are never escaped
		{"http://x.org/a\nb", 14, "hsegment"},                             // a line break may have cut it
		{"http://ex\u00ADample\u200d.org/", 7, "hostname"},                // IDNA refuses a joiner here
		{"ftp://h/a;b", 9, "fsegment"},                                    // §3.2.2: data or a typecode?
		{"http://u@x.org/", 7, "httpurl"},                                 // §3: no user in http
		{"  http://[::1:99999/", 9, "IP-literal"},                         // offsets count the white space
		{"https://[::1]:99999/", 14, "port"},                              //
		{"http://bücher.test:99999/", len("http://bücher.test:"), "port"}, //
	}
	for _, tt := range tests {
		_, _, err := Read(tt.in)
		e, ok := err.(*Error)
		if !ok {
			t.Errorf("Read(%q): err = %v, want an *Error", tt.in, err)
			continue
		}
		if e.Offset != tt.off || e.Rule != tt.rule || e.Input != tt.in {
			t.Errorf("Read(%q): offset %d rule %s (%v), want offset %d rule %s", tt.in, e.Offset, e.Rule, e, tt.off, tt.rule)
		}
	}
}

// TestReadRefusalNamesCause: each form the strict grammar refuses has the
// sentence that names its real cause.
func TestReadRefusalNamesCause(t *testing.T) {
	for in, want := range map[string]string{
		"http://[::1]:8080/f.txt":          "IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1",
		"http://bücher.test/x":             "international name; its A-label is xn--bcher-kva.test",
		"https://example.com?search=hello": "the search follows the path: add `/` before `?`",
	} {
		_, deps, err := Read(in)
		if err != nil || len(deps) != 1 || deps[0].Refusal != want {
			t.Errorf("Read(%q) = %+v, %v; want the refusal %q", in, deps, err, want)
		}
		// https://example.com?search=hello is a valid genericurl, but
		// an opaque one: RFC 1738 gives it no host.
		if u, err := Parse(in); err == nil && u.HasAuthority() {
			t.Errorf("Parse(%q) accepts it with a host", in)
		}
	}
	_, deps, _ := Read("http://h?q")
	if got := deps[0].String(); got != `the search follows a path; read as http://h/?q (RFC 3986 §3.3; RFC 1738 §3.3 wants "/")` {
		t.Errorf("departure = %s", got)
	}
}

// TestReadNoAllocs: a valid RFC 1738 URL costs Read no more than Parse.
func TestReadNoAllocs(t *testing.T) {
	for _, s := range []string{"http://x.org/a%20b?q", "ftp://u:p@h:21/a/b;type=a", "https://h/x"} {
		if a := testing.AllocsPerRun(100, func() { Read(s) }); a != 0 {
			t.Errorf("Read(%q) allocates %v times", s, a)
		}
	}
}

// FuzzRead: whatever Read accepts, net/url reads too, and reading the
// result again departs from nothing but the forms RFC 3986 adds.
func FuzzRead(f *testing.F) {
	for _, tt := range readTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, _, err := Read(s)
		if err != nil {
			return
		}
		// net/url is the peer for the schemes a browser or curl fetches;
		// elsewhere it differs by design (a scheme "0", RFC 1738 §5; an
		// escape in a generic host).
		if k := u.Kind(); !u.HasAuthority() || k != KindHTTP && k != KindFTP && k != KindGopher && !u.IsHTTPS() {
			return
		}
		if _, err := url.Parse(u.String()); err != nil && !strings.Contains(u.String(), "%25") {
			t.Errorf("Read(%q) = %q, which net/url refuses: %v", s, u, err)
		}
		v, deps, err := Read(u.String())
		if err != nil || v.String() != u.String() {
			t.Fatalf("Read(Read(%q)) = %q, %v; want %q", s, v, err, u)
		}
		for _, d := range deps {
			if d.Rule != "host" && d.Rule != "search" {
				t.Errorf("Read(%q) read again departs: %+v", u, d)
			}
		}
	})
}

// BenchmarkRead: the cost of Read beside net/url.Parse, on a valid URL
// and on each form it reads.
func BenchmarkRead(b *testing.B) {
	for _, s := range []string{"http://x.org/a/b?q=1", "http://[::1]:8080/f.txt", "https://example.com?search=hello", "http://bücher.test/x", "http://h/~joe/a b"} {
		b.Run("Read/"+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Read(s)
			}
		})
		b.Run("net-url/"+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				url.Parse(s)
			}
		})
	}
}

// TestNormalizeIPv6: Normalize writes an IPv6 literal in RFC 5952's
// canonical text (§4.1 leading zeros, §4.2 the longest run of zeros, §4.3
// lower case, §5 an IPv4-mapped address dotted); the zone stays.
func TestNormalizeIPv6(t *testing.T) {
	for in, want := range map[string]string{
		"http://[::1]/":                           "http://[::1]/",
		"http://[0:0:0:0:0:0:0:1]:80/x":           "http://[::1]/x",
		"HTTP://[2001:DB8:0000:0:1:0:0:1]:08080/": "http://[2001:db8::1:0:0:1]:8080/",
		"ftp://[2001:db8:0:0:1:0:0:1]":            "ftp://[2001:db8::1:0:0:1]/",
		"http://[::FFFF:7f00:1]/":                 "http://[::ffff:127.0.0.1]/",
		"http://[FE80::01%25Eth0]/":               "http://[fe80::1%25Eth0]/",
		"gopher://[2001:db8::1]/1":                "gopher://[2001:db8::1]/",
	} {
		u, _, err := Read(in)
		if err != nil {
			t.Fatal(err)
		}
		got := Normalize(u)
		if got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
		if IsNormal(u) != (got == in) {
			t.Errorf("IsNormal(%q) = %v", in, IsNormal(u))
		}
		v, _, err := Read(got)
		if err != nil || Normalize(v) != got {
			t.Errorf("Normalize is not idempotent on %q: %v", got, err)
		}
	}
	u, _, _ := Read("http://[2001:db8::1]:8080/a")
	if a := testing.AllocsPerRun(100, func() { Normalize(u) }); a != 0 {
		t.Errorf("Normalize of a normal IPv6 URL allocates %v times", a)
	}
}

// TestReadConfusable: the U-label is shown beside the A-label unless a
// label mixes scripts (UTS #39 §5.1), a name made to look like another.
func TestReadConfusable(t *testing.T) {
	for in, shown := range map[string]bool{
		"http://bücher.test/":       true,  // Latin
		"http://пример.испытание/":  true,  // Cyrillic
		"http://日本語ドメイン.jp/":        true,  // Han with Katakana: Japanese
		"http://한국어.kr/":            true,  // Hangul
		"http://pаypal.com/":        false, // a Cyrillic "а" among Latin letters
		"http://ραypal.com/":        false, // Greek with Latin
		"http://ok.bücher.pаy.com/": false, // one label mixes
	} {
		_, deps, err := Read(in)
		if err != nil || len(deps) != 1 {
			t.Fatalf("Read(%q) = %v, %v", in, deps, err)
		}
		host := strings.TrimSuffix(strings.TrimPrefix(in, "http://"), "/")
		if got := strings.Contains(deps[0].Message, host); got != shown {
			t.Errorf("Read(%q): %q shows the U-label: %v, want %v", in, deps[0].Message, got, shown)
		}
		if !strings.Contains(deps[0].Message, "xn--") {
			t.Errorf("Read(%q): %q names no A-label", in, deps[0].Message)
		}
	}
}

func ExampleRead() {
	for _, s := range []string{"http://[::1]:8080/f.txt", "https://example.com?search=hello", "http://bücher.test/x"} {
		u, deps, err := Read(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(u, u.HostPort())
		for _, d := range deps {
			fmt.Printf("  offset %d: %s: %s\n", d.Offset, d.Rule, d)
		}
	}
	// Output:
	// http://[::1]:8080/f.txt [::1]:8080
	//   offset 7: host: IPv6 literal [::1] (RFC 3986 §3.2.2, RFC 4291 §2.2; RFC 1738 §3.1 wants a host name or an IPv4 number)
	// https://example.com/?search=hello example.com:443
	//   offset 19: hpath: the search follows a path; read as https://example.com/?search=hello (RFC 3986 §3.3; RFC 1738 §3.3 wants "/")
	// http://xn--bcher-kva.test/x xn--bcher-kva.test:80
	//   offset 7: hostname: international name "bücher.test"; sent as its A-label xn--bcher-kva.test (IDNA2008: RFC 5891 §5, UTS #46; RFC 1738 §3.1 wants letters, digits and "-")
}
