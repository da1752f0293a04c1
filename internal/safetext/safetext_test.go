package safetext

import "testing"

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"plain text":        "plain text",
		"Ünïcode ok":        "Ünïcode ok",
		"a\rb\nc":           `a\rb\nc`,
		"\x1b[2J clear":     `\x1b[2J clear`,
		"bad \xff utf8":     `bad \xff utf8`,
		"c1 \u009b control": `c1 \u009b control`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
