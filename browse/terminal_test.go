package browse

import "testing"

// TestDarkBackground reads $COLORFGBG as rxvt and Konsole set it; without
// it the background is taken as dark, and the terminal is never asked.
func TestDarkBackground(t *testing.T) {
	for _, c := range []struct {
		colorfgbg string
		dark      bool
	}{
		{"", true},
		{"15;0", true},
		{"0;15", false},
		{"0;7", false},
		{"7;8", true},
		{"0;default;15", false},
		{"15;default;0", true},
		{"default;default", true},
		{"0;16", true},
		{"garbage", true},
	} {
		if got := darkBackground(c.colorfgbg); got != c.dark {
			t.Errorf("COLORFGBG=%q: dark %v, want %v", c.colorfgbg, got, c.dark)
		}
	}
}
