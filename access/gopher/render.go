package gopher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// MediaType returns the media type of an item type (RFC 1436 §3.8, and
// the types gopher menus use beyond it), "" when unknown.
func MediaType(t byte) string {
	switch t {
	case '0':
		return "text/plain"
	case '4':
		return "application/mac-binhex40"
	case '5', '9':
		return "application/octet-stream"
	case '6':
		return "text/x-uuencode"
	case 'g':
		return "image/gif"
	case 'h':
		return "text/html"
	case 'M':
		return "message/rfc822"
	case 'P':
		return "application/pdf"
	}
	return ""
}

// A MenuRenderer streams a menu as a listing, item by item: for people,
// lines as WriteListing writes them (type, title, URL), or JSON Lines
// (one JSONItem an item). A menu with lines it cannot parse ends in a
// *MenuError naming them, after the good items.
type MenuRenderer struct {
	m         *MenuReader
	jsonLines bool
	buf       bytes.Buffer
	err       error
}

// NewMenuRenderer returns a reader of m rendered for people, or as JSON
// Lines when jsonLines is set.
func NewMenuRenderer(m *MenuReader, jsonLines bool) *MenuRenderer {
	return &MenuRenderer{m: m, jsonLines: jsonLines}
}

// Read implements io.Reader.
func (m *MenuRenderer) Read(p []byte) (int, error) {
	for m.buf.Len() == 0 && m.err == nil {
		it, err := m.m.Next()
		switch {
		case err == io.EOF && len(m.m.Malformed) > 0:
			m.err = &MenuError{Lines: m.m.Malformed}
		case err != nil:
			m.err = err
		case m.jsonLines:
			enc := json.NewEncoder(&m.buf)
			enc.SetEscapeHTML(false)
			enc.Encode(NewJSONItem(it))
		default:
			writeItem(&m.buf, it)
		}
	}
	if m.buf.Len() > 0 {
		return m.buf.Read(p)
	}
	return 0, m.err
}

// writeItem writes one listing line (see WriteListing): type label,
// Gopher+ mark ("+", or "?" for a form), the display string with control
// bytes escaped, and the item's Link in the RFC 1738 Appendix "<URL:…>"
// wrapper.
func writeItem(w io.Writer, it Item) {
	mark := " "
	switch {
	case it.Ask:
		mark = "?"
	case it.Plus:
		mark = "+"
	}
	fmt.Fprintf(w, "%-6s%s %s", TypeName(it.Type), mark, safetext.Escape(it.Display))
	if u := it.Link(); u != "" {
		fmt.Fprintf(w, "  <URL:%s>", u)
	}
	io.WriteString(w, "\n")
}

// JSONItem is a menu item as a JSON Lines object.
type JSONItem struct {
	Type     string  `json:"type"`
	Display  string  `json:"display"`
	Selector string  `json:"selector"`
	Host     string  `json:"host"`
	Port     int     `json:"port"`
	Plus     bool    `json:"plus"`
	Ask      bool    `json:"ask"`
	URL      *string `json:"url"` // Item.Link: null for info and error lines
}

// NewJSONItem returns it as a JSON Lines object; a type byte beyond ASCII
// is written \xNN.
func NewJSONItem(it Item) JSONItem {
	j := JSONItem{Type: string(rune(it.Type)), Display: it.Display, Selector: it.Selector, Host: it.Host,
		Port: it.Port, Plus: it.Plus, Ask: it.Ask}
	if it.Type >= 0x80 {
		j.Type = fmt.Sprintf("\\x%02x", it.Type)
	}
	if u := it.Link(); u != "" {
		j.URL = &u
	}
	return j
}

// JSONAttrItem is one item of a "!" or "$" reply as a JSON Lines object:
// the item (from its +INFO block), its attribute blocks, and its views
// with the URL of each (RFC 1738 §3.4.8).
type JSONAttrItem struct {
	JSONItem
	Attributes []JSONBlock `json:"attributes"`
	Views      []JSONView  `json:"views"`
}

// JSONBlock is one attribute block of a JSONAttrItem.
type JSONBlock struct {
	Name  string   `json:"name"`
	Value string   `json:"value"`
	Lines []string `json:"lines"`
}

// JSONView is one view of a JSONAttrItem's +VIEWS block.
type JSONView struct {
	Type     string  `json:"type"`
	Language string  `json:"language"`
	Size     int64   `json:"size"` // bytes, -1 when unknown
	URL      *string `json:"url"`
}

// WriteAttributes renders the blocks of a "!" or "$" reply (RFC 1738
// §3.4.6, §3.4.7), item by item: for people, each item's listing line
// followed by its blocks and its views with their URLs, items apart by a
// blank line; or JSON Lines, one JSONAttrItem an item.
func WriteAttributes(w *bytes.Buffer, blocks []Block, jsonLines bool) {
	for i, group := range SplitItems(blocks) {
		var it Item
		if info, ok := Find(group, "INFO"); ok {
			it, _ = info.Item()
		}
		if jsonLines {
			writeJSONAttrs(w, it, group)
			continue
		}
		if i > 0 {
			w.WriteByte('\n')
		}
		writeTextAttrs(w, it, group)
	}
}

// ViewURL is the URL of an item's alternate view: the item's URL with an
// empty search and the view's Gopher+ string (RFC 1738 §3.4.8); "" when
// the item has no URL.
func ViewURL(it Item, v View) string {
	u := it.URL()
	if u == "" {
		return ""
	}
	return u + "%09%09" + rfc1738.Escape(v.Plus(), rfc1738.GopherPart)
}

func writeTextAttrs(w *bytes.Buffer, it Item, group []Block) {
	if it.Raw != "" {
		writeItem(w, it)
	}
	for _, b := range group {
		if b.Name == "INFO" {
			continue // the listing line above
		}
		fmt.Fprintf(w, "  +%s:", safetext.Escape(b.Name))
		if b.Value != "" {
			w.WriteString(" " + safetext.Escape(b.Value))
		}
		w.WriteByte('\n')
		if b.Name == "VIEWS" {
			for _, v := range b.Views() {
				fmt.Fprintf(w, "    %s", safetext.Escape(strings.TrimPrefix(v.Plus(), "+")))
				if v.Size != "" {
					fmt.Fprintf(w, " %s", safetext.Escape(v.Size))
				}
				if u := ViewURL(it, v); u != "" {
					fmt.Fprintf(w, "  <URL:%s>", u)
				}
				w.WriteByte('\n')
			}
			continue
		}
		for _, l := range b.Lines {
			fmt.Fprintf(w, "    %s\n", safetext.Escape(l))
		}
	}
}

func writeJSONAttrs(w *bytes.Buffer, it Item, group []Block) {
	j := JSONAttrItem{JSONItem: NewJSONItem(it), Attributes: []JSONBlock{}, Views: []JSONView{}}
	if it.Raw == "" {
		j.Type = ""
	}
	for _, b := range group {
		lines := b.Lines
		if lines == nil {
			lines = []string{}
		}
		j.Attributes = append(j.Attributes, JSONBlock{Name: b.Name, Value: b.Value, Lines: lines})
		if b.Name == "VIEWS" {
			for _, v := range b.Views() {
				jv := JSONView{Type: v.Type, Language: v.Language, Size: v.Bytes}
				if u := ViewURL(it, v); u != "" {
					jv.URL = &u
				}
				j.Views = append(j.Views, jv)
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(j)
}
