package ftp

import "testing"

func TestParse257(t *testing.T) {
	for msg, want := range map[string]string{
		`"/home/joe" is the current directory`: "/home/joe",
		`"/a ""quoted"" dir" created`:          `/a "quoted" dir`, // RFC 959 Appendix II
		`"/"`:                                  "/",
	} {
		if got, ok := parse257(msg); !ok || got != want {
			t.Errorf("parse257(%q) = %q, %v; want %q", msg, got, ok, want)
		}
	}
	for _, msg := range []string{"no quotes", `"unterminated`} {
		if got, ok := parse257(msg); ok {
			t.Errorf("parse257(%q) = %q, true", msg, got)
		}
	}
}
