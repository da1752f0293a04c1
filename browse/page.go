// Package browse is a full-screen, keyboard-driven browser for the schemes
// of RFC 1738: gopher menus and Gopher+ forms, ftp and local directories,
// news groups and articles, WAIS results, text documents and HTML pages,
// fetched through the access layer (access.Client), so that every link
// followed passes the §6 guards of a typed URL.
//
// The screen is a Bubble Tea model (Model); cmd/rfc1738's "browse" command
// only runs it. Every byte a server sent is escaped by internal/safetext
// before it reaches the screen.
package browse

import (
	"strings"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// A Page is what one URL showed: lines of text, some of them carrying
// links. Text is escaped already (safe to print).
type Page struct {
	URL   string // the URL as fetched, password redacted (§6)
	Title string // a short description for the title bar
	Lines []Line
	Links []Link
	// Document is set for a text or HTML page, whose links are in its
	// text: d saves the page itself, not the selected link.
	Document bool
	// Err, when set, is an error that ended the page early (a menu with
	// bad lines, a listing cut short): the page holds what came before.
	Err error
}

// A Line is one line of a page.
type Line struct {
	Text string // escaped by safetext, tabs expanded
	Link int    // index in Page.Links of the link the line is, or -1
}

// A Link is something the page points at.
type Link struct {
	URL   string // an RFC 1738 URL, as the access layer will fetch it
	Label string // escaped text shown for it
	// Title is the title the page it opens gets when that page has none
	// of its own (a menu item's display string, a listed name), for the
	// title bar and the history, as lynx titles a gopher page.
	Title string
	Line  int // index in Page.Lines of the line it is on
	// Gopher is the gopher item type of a menu item, 0 for other links.
	Gopher byte
	Plus   bool // a Gopher+ item: its attributes can be shown (§3.4.6)
	Ask    bool // a Gopher+ item with a form (§3.4.5)
}

// add appends a line of text, escaped; link is its link or nil.
func (p *Page) add(text string, link *Link) {
	l := Line{Text: clean(text), Link: -1}
	if link != nil {
		link.Line = len(p.Lines)
		if link.Label == "" {
			link.Label = l.Text
		}
		l.Link = len(p.Links)
		p.Links = append(p.Links, *link)
	}
	p.Lines = append(p.Lines, l)
}

// addLink appends a link that sits on the last line (a line of text with
// several links, as in a document).
func (p *Page) addLink(link Link) {
	link.Line = len(p.Lines) - 1
	if p.Lines[link.Line].Link < 0 {
		p.Lines[link.Line].Link = len(p.Links)
	}
	p.Links = append(p.Links, link)
}

// tabWidth is where tabs stop when a text is shown.
const tabWidth = 8

// clean returns s ready for the screen: tabs expanded, a line's CR
// dropped, and every other control byte or bad UTF-8 escaped by safetext
// (a server's bytes never drive the terminal).
func clean(s string) string {
	s = strings.TrimSuffix(s, "\r")
	if strings.IndexByte(s, '\t') >= 0 {
		var b strings.Builder
		col := 0
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\t':
				n := tabWidth - col%tabWidth
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			case c&0xC0 != 0x80: // not a UTF-8 continuation byte
				col++
			}
			b.WriteByte(c)
		}
		s = b.String()
	}
	return safetext.Escape(s)
}
