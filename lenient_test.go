package rfc1738

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

var lenientTests = []struct {
	in, repaired string
	rules        []string // rule of each deviation, in offset order
	offsets      []int
}{
	// Valid input: no deviation.
	{"http://x.org/a%20b", "http://x.org/a%20b", nil, nil},
	// §2.2 unsafe characters, each at its offset.
	{"http://x.org/~joe/a b", "http://x.org/%7Ejoe/a%20b", []string{"hsegment", "hsegment"}, []int{13, 19}},
	{"http://x.org/a|b^c`d{e}f[g]h\\i", "http://x.org/a%7Cb%5Ec%60d%7Be%7Df%5Bg%5Dh%5Ci", []string{"hsegment", "hsegment", "hsegment", "hsegment", "hsegment", "hsegment", "hsegment", "hsegment"}, []int{14, 16, 18, 20, 22, 24, 26, 28}},
	{`ftp://h/"a"<b>`, "ftp://h/%22a%22%3Cb%3E", []string{"fsegment", "fsegment", "fsegment", "fsegment"}, []int{8, 10, 11, 13}},
	{"http://x.org/?q=a b", "http://x.org/?q=a%20b", []string{"search"}, []int{17}},
	// 8-bit octets, UTF-8 encoded octet by octet.
	{"file:///tmp/東", "file:///tmp/%E6%9D%B1", []string{"fsegment"}, []int{12}},                     // one character, one deviation (§2.2)
	{"file:///tmp/\xff\xc3", "file:///tmp/%FF%C3", []string{"fsegment", "fsegment"}, []int{12, 13}}, // invalid UTF-8: octet by octet
	{"gopher://h/0caf\xe9", "gopher://h/0caf%E9", []string{"selector"}, []int{15}},
	// A "%" that is no escape; a second "#".
	{"http://x.org/100%", "http://x.org/100%25", []string{"escape"}, []int{16}},
	{"http://x.org/a#b#c", "http://x.org/a#b%23c", []string{"fragment"}, []int{16}},
	// User, password, mailto, news message-id, prospero fields.
	{"ftp://a~b:c d@h/", "ftp://a%7Eb:c%20d@h/", []string{"user", "password"}, []int{7, 11}},
	{"mailto:joe q@x.org", "mailto:joe%20q@x.org", []string{"encoded822addr"}, []int{10}},
	{"news:a~b@x.org", "news:a%7Eb@x.org", []string{"article"}, []int{6}},
	{"prospero://h/a;b=c~", "prospero://h/a;b=c%7E", []string{"fieldvalue"}, []int{18}},
	{"wais://h/d b?x y", "wais://h/d%20b?x%20y", []string{"database", "search"}, []int{10, 14}},
	{"x-foo:a b", "x-foo:a%20b", []string{"schemepart"}, []int{7}},
	// Appendix: white space and the <URL:…> wrapper around a URL.
	{"  <URL:http://x.org/a b>\n", "http://x.org/a%20b", []string{"url", "url", "url", "hsegment", "url"}, []int{0, 2, 3, 21, 24}},
	{"<http://x.org/>", "http://x.org/", []string{"url"}, []int{0}},
}

func TestParseLenient(t *testing.T) {
	for _, tt := range lenientTests {
		u, devs, err := ParseLenient(tt.in)
		if err != nil {
			t.Errorf("ParseLenient(%q): %v", tt.in, err)
			continue
		}
		if u.String() != tt.repaired {
			t.Errorf("ParseLenient(%q) = %q, want %q", tt.in, u, tt.repaired)
		}
		if _, err := Parse(u.String()); err != nil {
			t.Errorf("the repaired %q does not parse: %v", u, err)
		}
		var rules []string
		var offs []int
		for _, d := range devs {
			rules = append(rules, d.Rule)
			offs = append(offs, d.Offset)
		}
		if fmt.Sprint(rules) != fmt.Sprint(tt.rules) || fmt.Sprint(offs) != fmt.Sprint(tt.offsets) {
			t.Errorf("ParseLenient(%q) deviations = %v", tt.in, devs)
		}
	}
}

// TestParseLenientRefuses: when the meaning is not clear, nothing is
// repaired and the error names the offset in the input.
func TestParseLenientRefuses(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		rule string
	}{
		{"http://a_b.org/~x", 8, "domainlabel"},       // hosts are never escaped
		{"http://exa mple.org/", 10, "domainlabel"},   //
		{"ftp://h/a;b", 9, "fsegment"},                // §3.2.2: data or a typecode?
		{"http://x.org/a\nb", 14, "hsegment"},         // a line break may have cut it
		{"http://x.org:8o/", 14, "port"},              //
		{"news:comp lang", 9, "group"},                // group names have no escapes
		{" http://[::1]/ ", 8, "toplabel"},            // offsets count the white space
		{"http://u@x.org/ ~", 7, "httpurl"},           // §3: no user in http
		{"telnet://h/x y", 11, "telneturl"},           //
		{"nntp://h/a.b/1 2", 14, "digits"},            //
		{"https://exa mple.org/~x", 11, "schemepart"}, // §5: nor in a generic login
	}
	for _, tt := range tests {
		u, _, err := ParseLenient(tt.in)
		e, ok := err.(*Error)
		if !ok || e.Offset != tt.off || e.Rule != tt.rule || e.Input != tt.in || !u.IsZero() {
			t.Errorf("ParseLenient(%q) = %q, %v; want offset %d rule %s", tt.in, u, err, tt.off, tt.rule)
		}
	}
}

// FuzzParseLenient: whatever ParseLenient accepts is a strictly valid URL;
// what Parse accepts comes back unchanged with no deviation.
func FuzzParseLenient(f *testing.F) {
	for _, tt := range lenientTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, devs, err := ParseLenient(s)
		if _, strictErr := Parse(s); strictErr == nil {
			if err != nil || u.String() != s || len(devs) != 0 {
				t.Fatalf("valid %q: %q, %v, %v", s, u, devs, err)
			}
			return
		}
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("ParseLenient(%q) error %v", s, err)
			}
			return
		}
		if _, err := Parse(u.String()); err != nil || len(devs) == 0 {
			t.Fatalf("ParseLenient(%q) = %q (%d deviations), which Parse rejects: %v", s, u, len(devs), err)
		}
		for _, d := range devs {
			if d.Offset < 0 || d.Offset > len(s) {
				t.Fatalf("deviation offset %d out of %q", d.Offset, s)
			}
		}
	})
}

// TestLenientDatasets measures the lenient reading on the real datasets:
// lines accepted strictly, accepted after repair, and still rejected, with
// the top remaining reasons. go test -run TestLenientDatasets -v prints the
// table the README carries.
func TestLenientDatasets(t *testing.T) {
	var table strings.Builder
	table.WriteString("| dataset | lines | strict | lenient (repaired) | rejected | top remaining reasons |\n|---|---:|---:|---:|---:|---|\n")
	for _, name := range datasets {
		urls := loadDataset(t, name)
		strict, lenient := 0, 0
		reasons := map[string]int{}
		repairs := map[string]int{}
		for _, in := range urls {
			if _, err := Parse(in); err == nil {
				strict++
				continue
			}
			u, devs, err := ParseLenient(in)
			if err != nil {
				reasons[reason(in, err.(*Error))]++
				continue
			}
			if _, err := Parse(u.String()); err != nil {
				t.Fatalf("%s: the repair of %q, %q, does not parse: %v", name, in, u, err)
			}
			lenient++
			for _, d := range devs {
				repairs[d.Rule+" "+byteName(in, d.Offset)]++
			}
		}
		rejected := len(urls) - strict - lenient
		fmt.Fprintf(&table, "| %s | %d | %d (%.1f%%) | %d (%.1f%%) | %d (%.1f%%) | %s |\n", name, len(urls),
			strict, pct(strict, len(urls)), lenient, pct(lenient, len(urls)), rejected, pct(rejected, len(urls)), top(reasons, 4))
		t.Logf("%s: repairs made: %s", name, top(repairs, 6))
		if strict+lenient < strict || lenient == 0 && len(repairs) > 0 {
			t.Errorf("%s: counts do not add up", name)
		}
	}
	t.Logf("strict vs lenient acceptance:\n%s", table.String())
}

func pct(n, total int) float64 { return 100 * float64(n) / float64(total) }

func byteName(in string, off int) string {
	if off >= len(in) {
		return "(end)"
	}
	switch c := in[off]; {
	case c == ' ':
		return "(space)"
	case c >= 0x80:
		return "(8-bit)"
	case c < ' ':
		return "(control)"
	default:
		return fmt.Sprintf("%q", c)
	}
}

func top(m map[string]int, n int) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, v := range m {
		all = append(all, kv{k, v})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || all[i].n == all[j].n && all[i].k < all[j].k })
	var parts []string
	for i, r := range all {
		if i == n {
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", r.k, r.n))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}
