package linkcheck

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/extract"
	"github.com/rfc1738/rfc1738/internal/htmlref"
)

// An htmlLink is the value of an href or src attribute of an HTML
// document, where it stands.
type htmlLink struct {
	ref          string
	line, column int
}

// htmlLinks returns the URLs of the HTML document b, in document order
// — every URL attribute, srcset, meta refresh and the url() of CSS, read
// by the scanner that reads a tree's pages — and the value of its first
// <base href> (HTML: the document's base URL is set by the first base
// element with an href), or "" when there is none.
func htmlLinks(b []byte) (links []htmlLink, base string) {
	d := docScan{ids: anchors{}}
	scanHTMLBytes(b, position{line: 1}, &d) // its only error is a token over MaxToken: what came before it is kept
	links = make([]htmlLink, len(d.links))
	for i, l := range d.links {
		links[i] = htmlLink{ref: l.ref, line: l.line, column: l.col}
	}
	return links, d.base
}

// htmlBase returns the base URL of a document fetched from the URL
// fetched ("" for a file, whose published address is unknown) whose
// <base href> is base: the base element's URL resolved against the
// document's own (HTML's "document base URL"); ok is false when neither
// gives an absolute URL.
func htmlBase(fetched, base string) (rfc1738.URL, bool) {
	doc, ok := htmlref.Base(fetched)
	if base != "" {
		if u, found := htmlref.Resolve(doc, base); found {
			return u, true
		}
	}
	return doc, ok
}

// html reports the links of the HTML document b, named name in the
// places. A relative reference (RFC 3986 §4.2) is
// resolved against the document's base (htmlBase; fetched is the URL
// the document came from, "" for a file) as browsers do (htmlref) and
// reported in its absolute form; in a file without an absolute <base href> it names a file whose
// address is unknown, and is left alone.
func (g *Gatherer) html(name, fetched string, b []byte) {
	links, baseRef := htmlLinks(b)
	base, haveBase := htmlBase(fetched, baseRef)
	for _, l := range links {
		p := Place{File: name, Line: l.line, Column: l.column}
		switch {
		case l.ref == "" || l.ref[0] == '#' && !(g.KeepFragments && haveBase):
			// The document itself (RFC 3986 §4.4): nothing new to check.
		case HasScheme(l.ref):
			g.Found(l.ref, p)
		case haveBase:
			if u, ok := htmlref.Resolve(base, l.ref); ok {
				s := u.String()
				if i := strings.IndexByte(l.ref, '#'); g.KeepFragments && i >= 0 && i+1 < len(l.ref) {
					s += l.ref[i:] // RFC 3986 §5.2.2: the reference's own fragment
				}
				g.Found(s, p)
			}
		}
	}
}

// htmlText reports the URLs written in the text of the HTML document b
// (Appendix: URLs in free text), read as a browser shows it: the text
// nodes, their character references decoded, outside <script> and
// <style>; never the markup, whose attributes html reads, and whose raw
// bytes ("mailto:docs&#37;&#52;&#48;…") are no URL anyone reads.
// Places are those of the raw bytes.
func (g *Gatherer) htmlText(name string, b []byte) {
	z := html.NewTokenizer(bytes.NewReader(b))
	pos := lineCounter{b: b, line: 1, lastNL: -1}
	sc := extract.NewScanner(nil)
	var off int64
	skip := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		raw := z.Raw()
		start := off
		off += int64(len(raw))
		switch tt {
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			if a := atom.Lookup(name); a == atom.Script || a == atom.Style {
				if tt == html.StartTagToken {
					skip++
				} else {
					skip = max(skip-1, 0)
				}
			}
			continue
		case html.TextToken:
		default:
			continue
		}
		if skip > 0 || bytes.IndexByte(raw, ':') < 0 {
			continue
		}
		text, rawAt := decodeText(raw)
		sc.ResetBytes(text)
		for sc.Scan() {
			m := sc.Match()
			line, col := pos.at(start + int64(rawAt(int(m.Start.Offset))))
			g.Found(m.URL, Place{File: name, Line: line, Column: col})
		}
	}
}

// decodeText decodes the character references of a text node's raw
// bytes (HTML §13.2.5.72, through html.UnescapeString, one reference at a
// time), and returns with it the map from an offset of the decoded text
// to the offset of the raw bytes it came from.
func decodeText(raw []byte) (text []byte, rawAt func(int) int) {
	if bytes.IndexByte(raw, '&') < 0 {
		return raw, func(i int) int { return i }
	}
	var from []int // from[i]: the raw offset of text[i]
	for i := 0; i < len(raw); {
		if raw[i] != '&' {
			text = append(text, raw[i])
			from = append(from, i)
			i++
			continue
		}
		// A reference runs to its ';' (or the end of its name): at most 32
		// octets, the longest named reference being shorter.
		j := i + 1
		for j < len(raw) && j-i < 32 && raw[j] != ';' && raw[j] != '&' && !isSpace(raw[j]) && raw[j] != '<' {
			j++
		}
		if j < len(raw) && raw[j] == ';' {
			j++
		}
		dec := html.UnescapeString(string(raw[i:j]))
		for k := 0; k < len(dec); k++ {
			text = append(text, dec[k])
			from = append(from, i)
		}
		i = j
	}
	return text, func(k int) int {
		if k < len(from) {
			return from[k]
		}
		return len(raw)
	}
}
