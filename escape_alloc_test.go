package rfc1738

import "testing"

// TestEscapeAllocsOnce: Escape sizes its buffer for the escapes it
// counted, so escaping allocates once and never grows the buffer on the
// way.
func TestEscapeAllocsOnce(t *testing.T) {
	for _, in := range []string{"a b", "東京 notes;v2", "%%%%", "~joe/x y"} {
		n := testing.AllocsPerRun(100, func() { _ = Escape(in, FSegment) })
		if n != 1 {
			t.Errorf("Escape(%q) allocates %v times, want 1", in, n)
		}
	}
}
