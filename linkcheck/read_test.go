package linkcheck

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReadURL: by default a link is read as browsers read it, with one
// warning per departure from RFC 1738; strict holds it to RFC 1738; a
// zone ID (RFC 6874 §1) and what nothing reads are errors.
func TestReadURL(t *testing.T) {
	tests := []struct {
		in       string
		strict   bool
		warnings int
		err      string
	}{
		{"http://x.org/", false, 0, ""},
		{"http://[::1]:8080/f.txt", false, 1, ""},
		{"http://[::1]:8080?q", false, 2, ""},
		{"https://example.com?search=hello", false, 1, ""},
		{"http://bücher.test/", false, 1, ""},
		{"http://[::1]:8080/f.txt", true, 0, "IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1"},
		{"http://bücher.test/", true, 0, "international name; its A-label is xn--bcher-kva.test"},
		{"http://h?q", true, 0, "the search follows the path: add `/` before `?`"},
		{"http://a_b/", true, 0, "toplabel"},
		{"http://[fe80::1%25eth0]/", false, 0, "zone ID"},
		{"http://", false, 0, "host"},
		{"ftp://h:99999/", false, 0, "port"},
	}
	for _, tt := range tests {
		_, warnings, err := readURL(tt.in, tt.strict)
		if len(warnings) != tt.warnings {
			t.Errorf("readURL(%q, %v) warnings = %q", tt.in, tt.strict, warnings)
		}
		if (err != nil) != (tt.err != "") || err != nil && !strings.Contains(invalidDetail(err), tt.err) {
			t.Errorf("readURL(%q, %v) = %v, want an error naming %q", tt.in, tt.strict, err, tt.err)
		}
	}
	// A password never reaches a warning.
	_, warnings, err := readURL("https://u:secret@h?q", false)
	if err != nil || len(warnings) != 1 || strings.Contains(warnings[0], "secret") {
		t.Errorf("warnings = %q, %v", warnings, err)
	}
}

// TestResultWarningsJSON: a warning is its own field, never the verdict;
// absent when there is none.
func TestResultWarningsJSON(t *testing.T) {
	b, _ := json.Marshal(Result{URL: "http://h?q", Status: OK, Warnings: []string{"w"}})
	if !strings.Contains(string(b), `"result":"ok"`) || !strings.Contains(string(b), `"warnings":["w"]`) {
		t.Errorf("%s", b)
	}
	b, _ = json.Marshal(Result{URL: "http://h/", Status: OK})
	if strings.Contains(string(b), "warnings") {
		t.Errorf("%s", b)
	}
}
