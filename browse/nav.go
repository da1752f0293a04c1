package browse

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Page navigation.

// view is the number of page lines on the screen: all but the title,
// status and message lines.
func (m *Model) view() int { return max(m.height-2-max(len(m.msgLines()), 1), 1) }

// relayout wraps the page to the width, keeping the selection in view.
func (m *Model) relayout() {
	w := max(m.width-2, 10) // 2 columns of gutter for the selection mark
	m.lines = m.lines[:0]
	for i, l := range m.cur.page.Lines {
		if ansi.StringWidth(l.Text) <= w {
			m.lines = append(m.lines, dispLine{text: l.Text, line: i})
			continue
		}
		for _, part := range strings.Split(ansi.Wrap(l.Text, w, ""), "\n") {
			m.lines = append(m.lines, dispLine{text: part, line: i})
		}
	}
	m.cur.top = min(m.cur.top, max(len(m.lines)-1, 0))
	m.foundAt = -1
	m.reveal()
}

// firstDisp returns the first screen line of page line i.
func (m *Model) firstDisp(i int) int {
	for d, l := range m.lines {
		if l.line >= i {
			return d
		}
	}
	return max(len(m.lines)-1, 0)
}

// reveal scrolls so that the selected link is on the screen.
func (m *Model) reveal() {
	l, ok := m.selected()
	if !ok {
		return
	}
	d := m.firstDisp(l.Line)
	switch {
	case d < m.cur.top:
		m.cur.top = d
	case d >= m.cur.top+m.view():
		m.cur.top = d - m.view() + 1
	}
}

func (m *Model) selectLink(i int) {
	m.cur.sel = i
	m.reveal()
}

// moveLink moves the selection to the next link (dir 1) or the one before
// (-1); on a page without links, or past its last link, it scrolls.
func (m *Model) moveLink(dir int) {
	links := m.cur.page.Links
	next := m.cur.sel + dir
	if m.cur.sel < 0 || next < 0 || next >= len(links) {
		m.scroll(dir)
		return
	}
	// Stay on the screen when the next link is beyond it: scroll first,
	// as lynx does on long documents.
	d := m.firstDisp(links[next].Line)
	if d >= m.cur.top+m.view()+m.view()/2 || d < m.cur.top-m.view()/2 {
		m.scroll(dir * m.view() / 2)
		return
	}
	m.selectLink(next)
}

// scroll moves the screen by n lines and selects a link on it.
func (m *Model) scroll(n int) {
	m.cur.top = max(min(m.cur.top+n, len(m.lines)-m.view()), 0)
	if l, ok := m.selected(); ok {
		d := m.firstDisp(l.Line)
		if d >= m.cur.top && d < m.cur.top+m.view() {
			return
		}
	}
	if len(m.lines) == 0 {
		return
	}
	from := m.lines[min(m.cur.top, len(m.lines)-1)].line
	if s := m.firstLinkFrom(from, 1); s >= 0 && m.firstDisp(m.cur.page.Links[s].Line) < m.cur.top+m.view() {
		m.cur.sel = s
	}
}

// firstLinkFrom returns the first link on page line i or after it (dir 1)
// or before it (dir -1), or -1.
func (m *Model) firstLinkFrom(i, dir int) int {
	links := m.cur.page.Links
	if dir > 0 {
		for k, l := range links {
			if l.Line >= i {
				return k
			}
		}
		return -1
	}
	for k := len(links) - 1; k >= 0; k-- {
		if links[k].Line <= i {
			return k
		}
	}
	return -1
}

// find moves to the next screen line holding s (case-insensitive), after
// the current one when next is set.
func (m *Model) find(s string, next bool) {
	if s == "" {
		m.note("nothing to find: / to search")
		return
	}
	needle := strings.ToLower(s)
	start := m.cur.top
	if l, ok := m.selected(); ok {
		start = m.firstDisp(l.Line)
	}
	if m.foundAt >= 0 {
		start = m.foundAt
	}
	if next {
		start++
	}
	for k := 0; k < len(m.lines); k++ {
		d := (start + k) % len(m.lines)
		if strings.Contains(strings.ToLower(m.lines[d].text), needle) {
			line := m.lines[d].line
			if li := m.cur.page.Lines[line].Link; li >= 0 {
				m.cur.sel = li
			}
			if d < m.cur.top || d >= m.cur.top+m.view() {
				m.cur.top = max(min(d, len(m.lines)-m.view()), 0)
			}
			if d < start {
				m.note(fmt.Sprintf("%q found again from the top", clean(s)))
			} else {
				m.msg = ""
			}
			m.foundAt = d
			return
		}
	}
	m.fail(fmt.Errorf("%q is not on this page", s))
}
