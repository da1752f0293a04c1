package linkcheck

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// tokenizerScanHTML is the reading of a tree's HTML through
// golang.org/x/net/html's tokenizer that scanHTML replaced, kept as the
// oracle scanHTML must agree with, tokens bounded by limit. It reads r,
// starting at p, into d: every URL
// attribute (href of any element, and xlink:href; src; srcset of img and
// source; data of object; action and formaction; poster; background; the
// URL of a <meta http-equiv=refresh>), url() and @import in <style> and
// style attributes, the first <base href>, and every id and <a name>.
func tokenizerScanHTML(r io.Reader, p position, d *docScan, limit int) error {
	if d.ids == nil {
		d.ids = anchors{}
	}
	z := html.NewTokenizer(r) // it buffers what it reads itself
	z.SetMaxBuf(limit)
	inStyle := false
	type attr struct{ key, val []byte }
	var attrs []attr
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); err != io.EOF {
				if errors.Is(err, html.ErrBufferExceeded) {
					return errors.New("a token longer than 16 MiB: the rest of the document is not read")
				}
				return err
			}
			return nil
		}
		raw := z.Raw()
		if tt == html.TextToken && inStyle {
			cssURLs(raw, func(ref string, i int) {
				at, line, col := p.at(raw, i)
				d.links = append(d.links, docLink{ref: ref, offset: at, line: line, col: col})
			})
		}
		inStyle = false
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			p.advance(raw)
			continue
		}
		// The places of the values, read before TagAttr unescapes them
		// in the tokenizer's buffer.
		starts := appendRawAttrValues(nil, raw)
		name, hasAttr := z.TagName()
		tag := atom.Lookup(name)
		inStyle = tag == atom.Style && tt == html.StartTagToken
		if !hasAttr {
			p.advance(raw)
			continue
		}
		attrs = attrs[:0]
		refresh := false
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs = append(attrs, attr{k, v})
			if string(k) == "http-equiv" && strings.EqualFold(strings.TrimSpace(string(v)), "refresh") {
				refresh = true
			}
		}
		if len(starts) != len(attrs) {
			starts = nil
		}
		found := func(ref string, ai, within int) {
			i := 0
			if starts != nil && starts[ai] >= 0 {
				i = starts[ai] + within
			}
			at, line, col := p.at(raw, i)
			d.links = append(d.links, docLink{ref: ref, offset: at, line: line, col: col})
		}
		value := func(v []byte, ai int) {
			s := string(v)
			found(strings.TrimSpace(s), ai, leadingSpace(s))
		}
		for ai, a := range attrs {
			switch string(a.key) {
			case "id":
				d.ids.add(string(a.val))
			case "name":
				if tag == atom.A {
					d.ids.add(string(a.val))
				}
			case "href", "xlink:href":
				if tag == atom.Base {
					if !d.haveBase {
						d.base, d.haveBase = strings.TrimSpace(string(a.val)), true
					}
					continue
				}
				value(a.val, ai)
			case "src", "action", "formaction", "poster", "background":
				value(a.val, ai)
			case "data":
				if tag == atom.Object {
					value(a.val, ai)
				}
			case "srcset":
				if tag == atom.Img || tag == atom.Source {
					srcsetURLs(string(a.val), func(ref string, i int) { found(ref, ai, i) })
				}
			case "style":
				cssURLs(a.val, func(ref string, i int) { found(ref, ai, i) })
			case "content":
				if tag == atom.Meta && refresh {
					if ref, i, ok := refreshURL(string(a.val)); ok {
						found(ref, ai, i)
					}
				}
			}
		}
		p.advance(raw)
	}
}

// at returns the place of piece[i], piece starting at p.off.
func (p position) at(piece []byte, i int) (int64, int, int) {
	i = min(max(i, 0), len(piece))
	head := piece[:i]
	line, start := p.line, p.lineStart
	if n := bytes.Count(head, nl); n > 0 {
		line += n
		start = p.off + int64(bytes.LastIndexByte(head, '\n')) + 1
	}
	at := p.off + int64(i)
	return at, line, int(at-start) + 1
}

func (p *position) advance(piece []byte) {
	if n := bytes.Count(piece, nl); n > 0 {
		p.line += n
		p.lineStart = p.off + int64(bytes.LastIndexByte(piece, '\n')) + 1
	}
	p.off += int64(len(piece))
}

// appendRawAttrValues appends to out, for each attribute of the raw start
// tag raw in order, the index where its value starts (-1 for one without
// a value), reading the tag as the HTML tokenizer does (HTML
// §13.2.5.32–.40).
func appendRawAttrValues(out []int, raw []byte) []int {
	i := 1
	for i < len(raw) && !isSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	for i < len(raw) {
		for i < len(raw) && (isSpace(raw[i]) || raw[i] == '/') {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			break
		}
		ks := i
		for i < len(raw) {
			c := raw[i]
			if isSpace(c) || c == '/' || c == '>' || c == '=' && i > ks {
				break
			}
			i++
		}
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] != '=' {
			out = append(out, -1)
			continue
		}
		i++
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
			q := raw[i]
			i++
			out = append(out, i)
			for i < len(raw) && raw[i] != q {
				i++
			}
			i++
			continue
		}
		out = append(out, i)
		for i < len(raw) && !isSpace(raw[i]) && raw[i] != '>' {
			i++
		}
	}
	return out
}
