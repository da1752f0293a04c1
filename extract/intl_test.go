package extract

import (
	"strings"
	"testing"
)

// TestInternationalNames: a bare URL whose host is an international name
// (IDNA2008, RFC 5891) is found whole, marked not RFC 1738 (§3.1) with a
// note naming its A-label, and read as the A-label. An 8-bit octet
// anywhere else still ends a URL, and so does punctuation in the host.
func TestInternationalNames(t *testing.T) {
	tests := []struct {
		in, url, repaired, alabel string
	}{
		{"see https://測試/?abc in the docs", "https://測試/?abc", "https://xn--g6w251d/?abc", "xn--g6w251d"},
		{"curl http://bücher.test/x now", "http://bücher.test/x", "http://xn--bcher-kva.test/x", "xn--bcher-kva.test"},
		{"<URL:http://bücher.test:8080/>", "http://bücher.test:8080/", "http://xn--bcher-kva.test:8080/", "xn--bcher-kva.test"},
		{"(http://пример.испытание)", "http://пример.испытание", "http://xn--e1afmkfd.xn--80akhbyknj4f", "xn--e1afmkfd.xn--80akhbyknj4f"},
		{"http://bu\u0308cher.test/", "http://bu\u0308cher.test/", "http://xn--bcher-kva.test/", "xn--bcher-kva.test"}, // a combining mark: UTS #46 maps it to ü
		{"http://bücher.test«", "http://bücher.test", "http://xn--bcher-kva.test", "xn--bcher-kva.test"},               // « is no letter
		{"go to http://測試", "http://測試", "http://xn--g6w251d", "xn--g6w251d"},                                          // its letters end the text
	}
	for _, tt := range tests {
		ms := All(tt.in)
		if len(ms) != 1 || ms[0].URL != tt.url {
			t.Errorf("All(%q) = %+v, want %s", tt.in, ms, tt.url)
			continue
		}
		m := ms[0]
		if m.Valid || m.Repaired != tt.repaired {
			t.Errorf("All(%q): valid %v, repaired %q, want invalid, %q", tt.in, m.Valid, m.Repaired, tt.repaired)
		}
		found := false
		host := int64(strings.Index(tt.in, "://") + len("://"))
		for _, n := range m.Notes {
			found = found || strings.Contains(n.Message, "its A-label is "+tt.alabel) && strings.Contains(n.Message, "§3.1") && n.Offset == host
		}
		if !found {
			t.Errorf("All(%q): notes %+v name no A-label %s at offset %d (the host)", tt.in, m.Notes, tt.alabel, host)
		}
	}
	for in, want := range map[string]string{
		"http://a.org/café":       "http://a.org/caf", // the path: as before
		"http://u@é.org/":         "http://u@",        // the login is no host name
		"http://@é.org/":          "http://@",         // nor is an empty login
		"http:///é.org/":          "http:///",         // nor a path
		"http://a.org?é":          "http://a.org",     // the search
		"mailto:josé@example.org": "mailto:jos",
	} {
		ms := All(in)
		if len(ms) != 1 || ms[0].URL != want {
			t.Errorf("All(%q) = %+v, want %s", in, ms, want)
		}
	}
}
