package linkcheck

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/htmlref"
)

// An htmlLink is the value of an href or src attribute of an HTML
// document, where it stands.
type htmlLink struct {
	ref          string
	offset       int64 // of the value in the document
	line, column int
}

// htmlLinks returns the href and src attributes of the HTML document b,
// in document order, and the value of its first <base href> (HTML: the
// document's base URL is set by the first base element with an href),
// or "" when there is none.
func htmlLinks(b []byte) (links []htmlLink, base string) {
	z := html.NewTokenizer(bytes.NewReader(b))
	var off int64
	pos := lineCounter{b: b, line: 1, lastNL: -1}
	haveBase := false
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return links, base
		}
		raw := z.Raw()
		start := off
		off += int64(len(raw))
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if !hasAttr {
			continue
		}
		isBase := atom.Lookup(name) == atom.Base
		rawCopy := string(raw)
		from := 0
		for {
			key, val, more := z.TagAttr()
			k := string(key)
			if k == "href" || k == "src" {
				v := strings.TrimSpace(string(val))
				i := strings.Index(rawCopy[from:], v)
				at := start
				if i >= 0 && v != "" {
					at = start + int64(from+i)
					from += i + len(v)
				}
				if isBase && k == "href" {
					if !haveBase {
						base, haveBase = v, true
					}
				} else {
					line, col := pos.at(at)
					links = append(links, htmlLink{ref: v, offset: at, line: line, column: col})
				}
			}
			if !more {
				break
			}
		}
	}
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
// places. An absolute URL found by the text scan at the same offset
// (seen) is not reported twice. A relative reference (RFC 3986 §4.2) is
// resolved against the document's base (htmlBase; fetched is the URL
// the document came from, "" for a file) as browsers do (htmlref) and
// reported in its absolute form; in a file without an absolute <base href> it names a file whose
// address is unknown, and is left alone.
func (g *Gatherer) html(name, fetched string, b []byte, seen map[int64]bool) {
	links, baseRef := htmlLinks(b)
	base, haveBase := htmlBase(fetched, baseRef)
	for _, l := range links {
		p := Place{File: name, Line: l.line, Column: l.column}
		switch {
		case l.ref == "" || l.ref[0] == '#' && !(g.KeepFragments && haveBase):
			// The document itself (RFC 3986 §4.4): nothing new to check.
		case HasScheme(l.ref):
			if !seen[l.offset] {
				g.Found(l.ref, p)
			}
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
