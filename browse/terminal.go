package browse

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/rfc1738/rfc1738/internal/termquiet"
)

// Bubble Tea's own init asked no terminal anything (termquiet hid TERM
// from it); every package that bubbletea's init could touch is
// initialised by now, so TERM is the user's again.
func init() { termquiet.Restore() }

// askTerminal asks the terminal out for its background colour, once, as
// the browser starts and before Bubble Tea takes the terminal over (it
// would swallow the answer): the help line's adaptive colours need it.
// Only the browser asks; a terminal that never answers costs the
// browser termenv's timeout, and no other command anything.
func askTerminal(out io.Writer) {
	lipgloss.SetHasDarkBackground(termenv.NewOutput(out).HasDarkBackground())
}
