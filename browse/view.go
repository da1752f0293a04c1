package browse

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/rfc1738/rfc1738/internal/signals"
)

// keyMap is the browser's keys, shown by help.
type keyMap struct {
	Up, Down, PageUp, PageDown, Home, End      key.Binding
	Follow, Back, Forward, Go, Reload          key.Binding
	Search, Next, ShowURL, Info, Save          key.Binding
	Bookmark, Bookmarks, History, Cancel, Help key.Binding
	Quit                                       key.Binding
}

func newKeyMap() keyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return keyMap{
		Up:        b("↑/k", "previous link", "up", "k"),
		Down:      b("↓/j", "next link", "down", "j"),
		PageUp:    b("pgup", "page up", "pgup", "b"),
		PageDown:  b("pgdn/space", "page down", "pgdown", " "),
		Home:      b("home", "top", "home"),
		End:       b("end", "bottom", "end"),
		Follow:    b("enter/→", "follow", "enter", "right"),
		Back:      b("←/bksp", "back", "left", "backspace"),
		Forward:   b("f", "forward", "f"),
		Go:        b("g", "open URL", "g"),
		Reload:    b("r", "reload", "r"),
		Search:    b("/", "find", "/"),
		Next:      b("n", "find next", "n"),
		ShowURL:   b("u", "show URL", "u"),
		Info:      b("i", "Gopher+ attributes", "i"),
		Save:      b("d", "save", "d"),
		Bookmark:  b("a", "add bookmark", "a"),
		Bookmarks: b("B", "bookmarks", "B"),
		History:   b("H", "history", "H"),
		Cancel:    b("esc", "cancel", "esc"),
		Help:      b("?", "keys", "?"),
		Quit:      b("q", "quit", "q", "ctrl+c"),
	}
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Follow, k.Back, k.Go, k.Search, k.Save, k.Bookmarks, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Follow, k.Back, k.Forward, k.Go, k.Reload, k.Cancel},
		{k.Search, k.Next, k.ShowURL, k.Info, k.Save},
		{k.Bookmark, k.Bookmarks, k.History, k.Help, k.Quit},
	}
}

// styles are the looks of the screen. Without colour (NO_COLOR) only
// reverse video and bold remain; the selection also has its "›" mark.
type styles struct {
	title, status, selected, found, err, link lipgloss.Style
}

func newStyles(noColor bool) styles {
	// The terminal's profile from $TERM and whether stdout is a terminal
	// (termenv's EnvColorProfile would drop every attribute for
	// NO_COLOR): NO_COLOR takes the colours away, not reverse video.
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.NewOutput(os.Stdout).ColorProfile())
	s := styles{
		title:    r.NewStyle().Bold(true).Reverse(true),
		status:   r.NewStyle().Reverse(true),
		selected: r.NewStyle().Reverse(true),
		found:    r.NewStyle().Underline(true),
		err:      r.NewStyle().Bold(true),
		link:     r.NewStyle(),
	}
	if !noColor {
		s.title = s.title.Reverse(false).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("4"))
		s.status = s.status.Reverse(false).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("7"))
		s.err = s.err.Foreground(lipgloss.Color("9"))
		s.link = s.link.Foreground(lipgloss.Color("6"))
	}
	return s
}

// View draws the screen: the title, the page, the status line with the
// URL (password redacted), and the message, question or help line.
func (m *Model) View() string {
	if m.quit {
		return ""
	}
	var b strings.Builder
	w := m.width
	p := m.cur.page
	title := p.Title
	if title == "" {
		title = clean(p.URL)
	}
	b.WriteString(m.st.title.Render(pad(" "+title, w)))
	b.WriteByte('\n')

	sel := -1
	if l, ok := m.selected(); ok {
		sel = l.Line
	}
	rows := m.view()
	helpView := ""
	if m.help.ShowAll {
		helpView = m.help.View(m.keys)
		n := strings.Count(helpView, "\n") + 1
		if n >= rows {
			helpView, n = "", 0 // no room: the page comes first
		}
		rows -= n
	}
	for i := 0; i < rows; i++ {
		d := m.cur.top + i
		if d >= len(m.lines) {
			b.WriteByte('\n')
			continue
		}
		l := m.lines[d]
		text := ansi.Truncate(l.text, w-2, "…")
		isLink := p.Lines[l.line].Link >= 0
		switch {
		case l.line == sel:
			b.WriteString("› " + m.st.selected.Render(text))
		case d == m.foundAt:
			b.WriteString("  " + m.st.found.Render(text))
		case isLink:
			b.WriteString("  " + m.st.link.Render(text))
		default:
			b.WriteString("  " + text)
		}
		b.WriteByte('\n')
	}
	if helpView != "" {
		b.WriteString(helpView)
		b.WriteByte('\n')
	}

	b.WriteString(m.st.status.Render(pad(m.statusLine(), w)))
	b.WriteByte('\n')
	b.WriteString(m.bottomLine())
	return b.String()
}

// statusLine is the URL (redacted, escaped) with where the reader is.
func (m *Model) statusLine() string {
	p := m.cur.page
	url := clean(p.URL)
	if m.loading != nil {
		url = "loading " + clean(m.loading.url) + " … (esc cancels)"
	}
	pos := ""
	if n := len(p.Links); n > 0 {
		pos = fmt.Sprintf("link %d/%d  ", m.cur.sel+1, n)
	}
	if len(m.lines) > 0 {
		last := min(m.cur.top+m.view(), len(m.lines))
		pos += fmt.Sprintf("%d-%d/%d", m.cur.top+1, last, len(m.lines))
	}
	room := m.width - ansi.StringWidth(pos) - 2
	if ansi.StringWidth(url) > room {
		url = ansi.Truncate(url, max(room, 1), "…")
	}
	return " " + url + strings.Repeat(" ", max(room-ansi.StringWidth(url), 0)) + pos + " "
}

// bottomLine is the question being asked, the message, the progress of
// a download, or the keys.
func (m *Model) bottomLine() string {
	w := m.width
	switch {
	case m.mode != inputNone:
		return ansi.Truncate(m.input.View(), w, "")
	case m.msg != "":
		lines := m.msgLines()
		if m.msgErr {
			for i, l := range lines {
				lines[i] = m.st.err.Render(l)
			}
		}
		return strings.Join(lines, "\n")
	case m.progress != "":
		return ansi.Truncate(m.progress, w, "…")
	}
	if m.help.ShowAll {
		return ""
	}
	return ansi.Truncate(m.help.ShortHelpView(m.keys.ShortHelp()), w, "…")
}

// maxMsgLines is how many screen lines a message may take.
const maxMsgLines = 3

// msgLines returns the message wrapped to the width, at most
// maxMsgLines lines.
func (m *Model) msgLines() []string {
	if m.msg == "" || m.mode != inputNone {
		return nil
	}
	lines := strings.Split(ansi.Wrap(m.msg, m.width, " "), "\n")
	if len(lines) > maxMsgLines {
		lines = lines[:maxMsgLines]
		lines[maxMsgLines-1] = ansi.Truncate(lines[maxMsgLines-1]+" …", m.width, "…")
	}
	return lines
}

// pad fills s with spaces to the width w, or cuts it.
func pad(s string, w int) string {
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}

// Run runs the browser on the terminal in and out until the user quits.
func Run(startURL string, opts Options, in io.Reader, out io.Writer) error {
	setBackground(os.Getenv("COLORFGBG"))
	prog := tea.NewProgram(New(startURL, opts), tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out), tea.WithoutSignalHandler())
	defer forwardSignals(prog)()
	_, err := prog.Run()
	return err
}

// forwardSignals does what Bubble Tea's own signal handler does (SIGINT
// interrupts the program, SIGTERM quits it), for only the signals the
// parent did not ignore; the returned function stops it.
func forwardSignals(prog *tea.Program) (stop func()) {
	sigc := make(chan os.Signal, 1)
	signals.Notify(sigc, syscall.SIGINT, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			if s == syscall.SIGINT {
				prog.Send(tea.InterruptMsg{})
			} else {
				prog.Send(tea.QuitMsg{})
			}
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigc)
		close(done)
	}
}
