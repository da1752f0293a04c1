package rfc1738

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testenv"
)

// TestClassesMatchRFC reads the §5 BNF from the RFC text and checks that
// the class strings the tables are generated from say the same.
func TestClassesMatchRFC(t *testing.T) {
	text, err := os.ReadFile(testenv.SharedFile(t, "spec/rfc1738.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bnf := string(text)
	bnf = bnf[strings.Index(bnf, "; Miscellaneous definitions"):strings.Index(bnf, "6. Security Considerations")]
	rules := map[string]string{}
	var name string
	rule := regexp.MustCompile(`^([a-z]+)\s+=\s+(.*)$`)
	for _, line := range strings.Split(bnf, "\n") {
		if m := rule.FindStringSubmatch(line); m != nil {
			name = m[1]
			rules[name] = m[2]
		} else if name != "" && strings.Contains(line, `"`) && !strings.Contains(line, "Berners-Lee") && !strings.HasPrefix(line, "RFC 1738") {
			rules[name] += " " + line
		}
	}
	lit := regexp.MustCompile(`"(.)"|<(")>`)
	chars := func(name string) string {
		var b []string
		for _, m := range lit.FindAllStringSubmatch(rules[name], -1) {
			b = append(b, m[1]+m[2])
		}
		sort.Strings(b)
		return strings.Join(b, "")
	}
	sorted := func(s string) string {
		b := strings.Split(s, "")
		sort.Strings(b)
		return strings.Join(b, "")
	}
	for name, ours := range map[string]string{
		"lowalpha": lowalphaChars, "hialpha": hialphaChars, "digit": digitChars,
		"safe": safeChars, "extra": extraChars, "national": nationalChars,
		"punctuation": punctuationChars, "reserved": reservedChars, "hex": "ABCDEFabcdef",
	} {
		if got := chars(name); got != sorted(ours) {
			t.Errorf("§5 %s = %q in the RFC, %q here", name, got, sorted(ours))
		}
	}
}

// TestClassTables checks the generated tables on every octet against the
// §5 definitions spelled out with the class strings.
func TestClassTables(t *testing.T) {
	in := func(set string, c byte) bool { return strings.IndexByte(set, c) >= 0 }
	for i := 0; i < 256; i++ {
		c := byte(i)
		unreserved := in(lowalphaChars+hialphaChars+digitChars+safeChars+extraChars, c)
		reserved := in(reservedChars, c)
		want := map[charset]bool{
			setUchar:    unreserved,
			setXchar:    unreserved || reserved,
			setUser:     unreserved || in(";?&=", c),
			setFsegment: unreserved || in("?:@&=", c),
			setHsegment: unreserved || in(";:@&=", c),
			setField:    unreserved || in("?:@&", c),
			setArticle:  unreserved || in(";/?:&=", c),
			setGroup:    in(lowalphaChars+hialphaChars+digitChars+"-.+_", c),
		}
		for set, ok := range want {
			if (charsets[c]&set != 0) != ok {
				t.Errorf("octet %#02x in set %b: %v, want %v", c, set, !ok, ok)
			}
		}
		if c == '%' && charsets[c] != 0 {
			t.Error("'%' is never allowed unencoded")
		}
	}
}
