package browse

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/htmlref"
)

// maxHTMLTokens bounds the work on one page: a page with more tokens is
// cut, with a note.
const maxHTMLTokens = 1 << 20

// renderHTML reads an HTML page as text: paragraphs and headings as lines,
// <pre> as written, and each <a href> followed by its number "[n]" so that
// number keys follow it. Links resolve against base; the ones that are
// not RFC 1738 URLs (javascript:, or http URLs the grammar refuses) are
// numbered but noted instead of followed. A <base href> changes the base
// of the links after it (HTML: the first one counts).
func renderHTML(p *Page, r io.Reader, base string) error {
	h := htmlRenderer{p: p, z: html.NewTokenizer(io.LimitReader(r, maxDocument))}
	h.base, _ = htmlref.Base(base) // the zero URL resolves absolute links only
	for n := 0; ; n++ {
		if n == maxHTMLTokens {
			h.flush(false)
			return fmt.Errorf("the page has more than %d HTML tokens: the rest is not shown", maxHTMLTokens)
		}
		switch tt := h.z.Next(); tt {
		case html.ErrorToken:
			h.flush(false)
			if err := h.z.Err(); err != io.EOF {
				return err
			}
			return nil
		case html.TextToken:
			h.text(string(h.z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			h.tag(tt)
		}
	}
}

// htmlRenderer is renderHTML's state: the page it adds lines to, the line
// being made and the links on it, and where in the document it is.
type htmlRenderer struct {
	p        *Page
	z        *html.Tokenizer
	base     rfc1738.URL
	haveBase bool // a <base href> was taken (the first one counts)
	line     strings.Builder
	pre      int
	skip     int // inside <script>, <style>, <head> text other than <title>
	title    bool
	links    []Link // links of the current line
}

// flush ends the current line; an empty one only when force.
func (h *htmlRenderer) flush(force bool) {
	text := strings.TrimRight(h.line.String(), " ")
	if h.pre > 0 {
		text = h.line.String()
	}
	if !force && strings.TrimSpace(text) == "" && len(h.links) == 0 {
		h.line.Reset()
		return
	}
	h.p.add(text, nil)
	for _, l := range h.links {
		h.p.addLink(l)
	}
	h.links = h.links[:0]
	h.line.Reset()
}

// text adds a text node: the title, nothing inside <script> and <style>,
// lines as they are inside <pre>, else words with single spaces.
func (h *htmlRenderer) text(text string) {
	switch {
	case h.title:
		h.p.Title = clean(strings.Join(strings.Fields(text), " "))
	case h.skip > 0:
	case h.pre > 0:
		for i, part := range strings.Split(text, "\n") {
			if i > 0 {
				h.flush(true)
			}
			h.line.WriteString(part)
		}
	default:
		words := strings.Fields(text)
		if len(words) == 0 {
			if text != "" && h.line.Len() > 0 {
				h.line.WriteByte(' ')
			}
			return
		}
		if startsSpace(text) && h.line.Len() > 0 && !strings.HasSuffix(h.line.String(), " ") {
			h.line.WriteByte(' ')
		}
		h.line.WriteString(strings.Join(words, " "))
		if endsSpace(text) {
			h.line.WriteByte(' ')
		}
	}
}

// tag acts on a start, end or self-closing tag.
func (h *htmlRenderer) tag(tt html.TokenType) {
	name, hasAttr := h.z.TagName()
	a := atom.Lookup(name)
	end := tt == html.EndTagToken
	switch a {
	case atom.Script, atom.Style:
		if end {
			h.skip = max(h.skip-1, 0)
		} else if tt == html.StartTagToken {
			h.skip++
		}
	case atom.Title:
		h.title = !end && tt == html.StartTagToken
	case atom.Pre:
		h.flush(false)
		if end {
			h.pre = max(h.pre-1, 0)
		} else {
			h.pre++
		}
	case atom.Br:
		h.flush(true)
	case atom.Base:
		if end || !hasAttr || h.haveBase {
			return
		}
		if href, ok := h.attr("href"); ok {
			if u, ok := htmlref.Resolve(h.base, href); ok {
				h.base, h.haveBase = u, true
			}
		}
	case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Li, atom.Tr, atom.Dt, atom.Dd, atom.Blockquote, atom.Ul, atom.Ol, atom.Table,
		atom.Hr, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Nav, atom.Form:
		h.flush(false)
		if a == atom.Li && !end {
			h.line.WriteString("  * ")
		}
		if a == atom.Hr {
			h.p.add(strings.Repeat("-", 40), nil)
		}
	case atom.A:
		if end || !hasAttr {
			return
		}
		href, _ := h.attr("href")
		if href == "" || strings.HasPrefix(href, "#") {
			return
		}
		h.links = append(h.links, htmlLink(h.base, href))
		// The number goes before the anchor text, as lynx shows it.
		fmt.Fprintf(&h.line, "[%d]", len(h.p.Links)+len(h.links))
	}
}

// attr returns the value of the current tag's attribute key: the first,
// when it is repeated, as an HTML parser keeps it (a duplicate attribute
// is dropped).
func (h *htmlRenderer) attr(key string) (string, bool) {
	v, found := "", false
	for {
		k, val, more := h.z.TagAttr()
		if !found && string(k) == key {
			v, found = string(val), true
		}
		if !more {
			return v, found
		}
	}
}

// htmlLink resolves href against base as browsers do (htmlref) into a
// link whose URL is an RFC 1738 URL; one that is not keeps its text as the label and an empty
// URL, which the browser refuses to follow with the reason.
func htmlLink(base rfc1738.URL, href string) Link {
	label := clean(href)
	href = strings.TrimSpace(href)
	// Gopher's HTML items point out of gopherspace with "URL:…" (the
	// RFC 1738 Appendix prefix, as gopher servers write it).
	if len(href) > 4 && strings.EqualFold(href[:4], "URL:") {
		href = href[4:]
	}
	u, ok := htmlref.Resolve(base, href)
	if !ok {
		return Link{Label: label}
	}
	return Link{URL: u.String(), Label: clean(u.String())}
}

func startsSpace(s string) bool { return s != "" && strings.IndexByte(" \t\r\n\f", s[0]) >= 0 }
func endsSpace(s string) bool   { return s != "" && strings.IndexByte(" \t\r\n\f", s[len(s)-1]) >= 0 }
