package gopher

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/rfc1738/rfc1738"
	"io"
	"strconv"
	"strings"
)

// Default bounds for replies read from a server.
const (
	DefaultMaxLineLength = 64 << 10 // bytes in one menu, header or attribute line
	DefaultMaxMenuItems  = 100000   // lines in one menu or attribute reply
	// DefaultMaxMenuBytes bounds one menu or attribute reply, its line
	// ends included: 16 MiB, 100,000 lines of 160 bytes. The line and
	// line-count bounds alone would admit 6.4 GB, and a reader that keeps
	// a menu's lines (a mirror saves them) would hold it all.
	DefaultMaxMenuBytes = 16 << 20
)

// Item is one line of a Gopher menu (RFC 1436 §3.8 "Item"):
// type, display string, selector, host and port, and for Gopher+ menus a
// fifth field "+" (a Gopher+ item) or "?" (a Gopher+ item with a +ASK form).
type Item struct {
	Type     byte
	Display  string
	Selector string
	Host     string
	Port     int
	Plus     bool   // fifth field "+" or "?" (RFC 1738 §3.4.4)
	Ask      bool   // fifth field "?": the item has a +ASK form (§3.4.5)
	Raw      string // the line as received, without its line ending
}

// ParseItem parses one menu line (without its line ending). Info lines
// (type "i") and error lines (type "3") may have fewer fields, as many
// servers send them; every other type needs display, selector, host and
// port. A line it cannot use is reported as a *LineError.
func ParseItem(line string) (Item, error) {
	it := Item{Raw: line}
	if line == "" {
		return it, &LineError{Text: line, Reason: "empty line"}
	}
	it.Type = line[0]
	var f [5]string
	n := 0
	rest := line[1:]
	for n < len(f) {
		field, after, found := strings.Cut(rest, "\t")
		f[n] = field
		n++
		if !found {
			break
		}
		rest = after
	}
	it.Display, it.Selector, it.Host = f[0], f[1], f[2]
	lenient := it.Type == 'i' || it.Type == '3'
	if n < 4 && !lenient {
		return it, &LineError{Text: line, Reason: fmt.Sprintf("%d fields, want display, selector, host and port", n)}
	}
	if n >= 4 {
		p := strings.TrimSpace(f[3])
		port, err := strconv.Atoi(p)
		switch {
		case err == nil && port >= 0 && port <= 65535:
			it.Port = port
		case !lenient:
			return it, &LineError{Text: line, Reason: fmt.Sprintf("bad port %q", f[3])}
		}
	}
	if n == 5 {
		switch strings.TrimSpace(f[4]) {
		case "+":
			it.Plus = true
		case "?":
			it.Plus, it.Ask = true, true
		}
	}
	return it, nil
}

// LineError is a menu line that was skipped because it could not be parsed.
type LineError struct {
	Line   int    // 1-based line number in the menu
	Text   string // the line, shortened
	Reason string
}

// Error implements error.
func (e *LineError) Error() string {
	return fmt.Sprintf("gopher: menu line %d %q: %s", e.Line, shorten(e.Text), e.Reason)
}

// MenuError lists the malformed lines that ParseMenu skipped.
type MenuError struct {
	Lines []*LineError
}

// Error implements error.
func (e *MenuError) Error() string {
	if len(e.Lines) == 1 {
		return e.Lines[0].Error()
	}
	return fmt.Sprintf("%v (and %d more malformed menu lines)", e.Lines[0], len(e.Lines)-1)
}

// MenuReader reads menu items one at a time from a menu body. It stops at a
// lone "." line or at EOF (pygopherd's menus have no final "."), and skips
// malformed lines, keeping them in Malformed: a menu with one broken line is
// still a menu, and the caller decides whether the broken lines matter.
// A line longer than MaxLineLength, more than MaxItems lines or more than
// MaxBytes bytes end the read with a *ProtocolError (ErrLineTooLong,
// ErrTooManyItems, ErrTooLarge).
type MenuReader struct {
	MaxLineLength int   // 0 means DefaultMaxLineLength
	MaxItems      int   // 0 means DefaultMaxMenuItems; counts every line read
	MaxBytes      int64 // 0 means DefaultMaxMenuBytes; counts every byte read
	Malformed     []*LineError

	br    *bufio.Reader
	line  int
	bytes int64
	done  bool
	trace func(dir byte, line string)
}

// NewMenuReader returns a MenuReader on r with the default bounds.
func NewMenuReader(r io.Reader) *MenuReader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 4096)
	}
	return &MenuReader{br: br}
}

// Next returns the next item, or io.EOF at the end of the menu.
func (m *MenuReader) Next() (Item, error) {
	maxLine := m.MaxLineLength
	if maxLine <= 0 {
		maxLine = DefaultMaxLineLength
	}
	maxItems := m.MaxItems
	if maxItems <= 0 {
		maxItems = DefaultMaxMenuItems
	}
	maxBytes := m.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxMenuBytes
	}
	for !m.done {
		line, n, err := readLineN(m.br, maxLine)
		if err == io.EOF {
			m.done = true
			break
		}
		m.line++
		if err != nil {
			m.done = true
			return Item{}, &ProtocolError{Op: "read menu", Line: m.line, Err: err}
		}
		if m.bytes += int64(n); m.bytes > maxBytes {
			m.done = true
			return Item{}, &ProtocolError{Op: "read menu", Line: m.line,
				Err: fmt.Errorf("more than %d bytes: %w", maxBytes, ErrTooLarge)}
		}
		if m.line > maxItems {
			m.done = true
			return Item{}, &ProtocolError{Op: "read menu", Line: m.line,
				Err: fmt.Errorf("more than %d lines: %w", maxItems, ErrTooManyItems)}
		}
		if m.trace != nil {
			m.trace('<', line)
		}
		if line == "." { // RFC 1436: the menu ends with a lone "."
			m.done = true
			break
		}
		it, err := ParseItem(line)
		if err != nil {
			le := err.(*LineError)
			le.Line, le.Text = m.line, shorten(le.Text)
			m.Malformed = append(m.Malformed, le)
			continue
		}
		return it, nil
	}
	return Item{}, io.EOF
}

// ParseMenu reads a whole menu body. It returns every well-formed item and,
// when lines were skipped, also a *MenuError listing them with their line
// numbers; on a bound being exceeded it returns the items so far and the
// *ProtocolError.
func ParseMenu(r io.Reader) ([]Item, error) {
	return readMenu(NewMenuReader(r))
}

func readMenu(m *MenuReader) ([]Item, error) {
	var items []Item
	for {
		it, err := m.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return items, err
		}
		items = append(items, it)
	}
	if len(m.Malformed) > 0 {
		return items, &MenuError{Lines: m.Malformed}
	}
	return items, nil
}

// URL returns the gopher URL of the item (RFC 1738 §3.4.1):
// gopher://host[:port]/<type><selector>, the port left out when it is 70,
// and every byte of the type and selector that is not an RFC 1738 §5
// "xchar" (unreserved or reserved) written as %XX — so "%", space,
// controls, 8-bit bytes and the unsafe <>"#{}|\^~[]` are escaped.
//
// The URL names the item itself, also for Gopher+ items: it carries no
// Gopher+ string, so any client can use it (see PlusURL for the §3.4.4
// form). It returns "" for info and error lines (types "i" and "3") and for
// items whose host is not an RFC 1738 hostname or hostnumber.
func (it Item) URL() string {
	if it.Type == 'i' || it.Type == '3' || it.Port <= 0 || it.Port > 65535 {
		return ""
	}
	port := it.Port
	if port == 70 {
		port = 0 // the default is left out
	}
	// The core builder escapes per §5 and refuses what no gopher URL can
	// say (a host outside the grammar, a TAB in the selector).
	buf := make([]byte, 0, len("gopher://:65535/")+len(it.Host)+3*(1+len(it.Selector)))
	typ := it.Type
	if typ == 0 {
		// The builder reads Type 0 as "unset", a directory (§3.4.1); a
		// menu item whose type byte is NUL is not a directory. Build it
		// with type %01 and write the NUL over it: the URL names the
		// item's own type, "%00".
		typ = 1
	}
	b, err := rfc1738.GopherURL{Host: it.Host, Port: port, Type: typ, Selector: it.Selector}.Append(buf)
	if err != nil {
		return ""
	}
	if it.Type == 0 {
		// The type is the first byte of the gopher-path, right after the
		// first "/" past "gopher://" (a host and port hold no "/").
		slash := len("gopher://") + bytes.IndexByte(b[len("gopher://"):], '/')
		b[slash+3] = '0' // "%01" -> "%00"
	}
	return string(b)
}

// Link returns the URL a listing shows for the item: for an "h" item
// whose selector is "URL:" and a URL (the convention gopher servers use
// for links out of gopherspace, e.g. "hURL:http://example.org/"), the URL
// it points to; for every other item, URL. The target is peer-controlled
// text: it is shown only as a strictly valid RFC 1738 URL (repaired by
// rfc1738.ParseLenient where §2.2 says how: spaces, unsafe and 8-bit
// bytes encoded), which holds no control byte; a target that cannot be
// read so falls back to the item's gopher URL.
func (it Item) Link() string {
	if t, ok := it.Target(); ok {
		return t
	}
	return it.URL()
}

// Target returns the URL an "h" item with a "URL:" selector points to, as
// Link describes; ok is false for every other item and for a target that
// is no URL.
func (it Item) Target() (string, bool) {
	rest, ok := strings.CutPrefix(it.Selector, "URL:")
	if it.Type != 'h' || !ok || rest == "" {
		return "", false
	}
	u, _, err := rfc1738.ParseLenient(rest)
	if err != nil {
		return "", false
	}
	return u.String(), true
}

// PlusURL returns URL with the Gopher+ string the menu tagged the item with:
// "%09%09+" for a "+" item (its default view, §3.4.4) and "%09%09?" for a
// "?" item (an item with a form, §3.4.5). For a plain Gopher item it equals
// URL.
func (it Item) PlusURL() string {
	u := it.URL()
	switch {
	case u == "" || !it.Plus:
		return u
	case it.Ask:
		return u + "%09%09?"
	}
	return u + "%09%09+"
}

// TypeName returns the short label a listing shows for an item type, in the
// style of lynx: (FILE), (DIR), (BIN), (?) for a search, (INFO)….
func TypeName(t byte) string {
	switch t {
	case '0':
		return "(FILE)"
	case '1':
		return "(DIR)"
	case '2':
		return "(CSO)"
	case '3':
		return "(ERR)"
	case '4':
		return "(HQX)"
	case '5':
		return "(DOS)"
	case '6':
		return "(UUE)"
	case '7':
		return "(?)"
	case '8':
		return "(TEL)"
	case '9':
		return "(BIN)"
	case '+':
		return "(DUP)"
	case 'T':
		return "(3270)"
	case 'g':
		return "(GIF)"
	case 'I':
		return "(IMG)"
	case 'h':
		return "(HTML)"
	case 'i':
		return "(INFO)"
	case 's':
		return "(SND)"
	case 'd':
		return "(DOC)"
	case ';':
		return "(MOV)"
	case 'M':
		return "(MIME)"
	case 'P':
		return "(PDF)"
	}
	return "(UNK)"
}

// WriteListing renders items for people, one line each: the type label, the
// display string (control bytes shown as \xNN so a menu cannot drive the
// terminal) and, for items that have one, the URL in the RFC 1738
// Appendix "<URL:…>" wrapper. Gopher+ items are marked "+" and items with a
// form "?".
func WriteListing(w io.Writer, items []Item) error {
	bw := bufio.NewWriter(w)
	for _, it := range items {
		writeItem(bw, it)
	}
	return bw.Flush()
}
