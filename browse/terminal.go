package browse

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/rfc1738/rfc1738/internal/termquiet"
)

// Bubble Tea's own init asked no terminal anything (termquiet hid TERM
// from it); every package that bubbletea's init could touch is
// initialised by now, so TERM is the user's again.
func init() { termquiet.Restore() }

// setBackground tells lipgloss whether the terminal's background is dark,
// for the help line's adaptive colours, without asking the terminal.
//
// Asking (OSC 11, then a cursor report to know the question was heard)
// reads the terminal's input for the answer: the keys typed meanwhile
// were read as part of it and lost, and a terminal that answers nothing
// (script(1), expect) held every key of the first five seconds. The
// answer decides only how gray the help line's grays are, and the dark
// background's grays read on a light one too; so the terminal is not
// asked: $COLORFGBG says it where the terminal sets it (rxvt, Konsole),
// else the background is taken as dark. lipgloss is told either way, so
// that it never asks on its own when it first draws.
func setBackground(colorfgbg string) {
	lipgloss.SetHasDarkBackground(darkBackground(colorfgbg))
}

// darkBackground reads $COLORFGBG, "fg;bg" or "fg;default;bg" with ANSI
// colour numbers: a background of 0-6 or 8 is dark, 7 or 9-15 light (as
// rxvt and Vim read it); anything else is taken as dark.
func darkBackground(colorfgbg string) bool {
	bg := colorfgbg[strings.LastIndexByte(colorfgbg, ';')+1:]
	if n, err := strconv.Atoi(bg); err == nil && (n == 7 || n >= 9 && n <= 15) {
		return false
	}
	return true
}
