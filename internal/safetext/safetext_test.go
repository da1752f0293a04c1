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
		// Trojan Source: every embedding, override and isolate; the
		// marks U+200E/U+200F around them only steer neutral text.
		"txt.\u202eexe":                                `txt.\u202eexe`,
		"\u202a\u202b\u202c\u202d\u202e":               `\u202a\u202b\u202c\u202d\u202e`,
		"\u2066\u2067\u2068\u2069 \u2065\u206a \u200f": `\u2066\u2067\u2068\u2069` + " \u2065\u206a \u200f",
		"\u2029 \u202f":                                "\u2029 \u202f",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLine(t *testing.T) {
	// A trace or a plan keeps the TAB of a gopher line and escapes every
	// other control: ESC, OSC, BEL, CSI, NUL and C1 CSI (0x9B).
	in := "sel\t+\x1b[2J\x1b]0;x\a\x00\u009b31m\x9b\r\n"
	want := `sel` + "\t" + `+\x1b[2J\x1b]0;x\a\x00\u009b31m\x9b\r\n`
	if got := Line(in); got != want {
		t.Errorf("Line(%q) = %q, want %q", in, got, want)
	}
	if got := Escape("a\tb"); got != `a\tb` {
		t.Errorf("Escape keeps a TAB: %q", got)
	}
}
