package linkcheck

import (
	"bytes"
	"errors"
	"io"
)

// The HTML of a tree is read by a scanner of its own, which splits a
// document into tokens as golang.org/x/net/html's tokenizer does (HTML
// §13.2.5, "tokenization") but looks only at what a tree needs: start
// tags and their attributes, and the text of <style>. Text is skipped to
// the next '<' with bytes.IndexByte; a tag is read in place, its
// attributes kept as spans of the buffer, and a string is made only for
// a value that is kept. FuzzScanHTML holds it to the tokenizer's reading.

// errTooLong is the error of a document with a token of MaxToken bytes or
// more.
var errTooLong = errors.New("a token longer than 16 MiB: the rest of the document is not read")

// An attrSpan is an attribute of the current start tag: its name is
// buf[ks:ke] and its value buf[vs:ve], as written; rs is where the value
// is placed: after the '=' and the space after it, -1 without a '='.
type attrSpan struct{ ks, ke, vs, ve, rs int }

// tokKind is the kind of a token, as far as a tree cares.
type tokKind uint8

const (
	tokOther tokKind = iota // text, an end tag, a comment, a doctype
	tokStart                // a start tag, its attributes in attrs
	tokRaw                  // the text of a raw text element (§13.1.2.1)
)

// An htmlScanner reads one document.
type htmlScanner struct {
	r     io.Reader // the rest of the document, when it is streamed
	buf   []byte
	base  int64 // the offset of buf[0] in the document
	eof   bool  // buf holds the rest of the document
	rerr  error // the reader's error, other than io.EOF
	limit int   // of a token's length
	d     *docScan

	rawTag string // the raw text element whose text comes next, or ""
	style  bool   // that element is a <style> start tag: its text is CSS

	nameEnd int        // the end of the current tag's name
	attrs   []attrSpan // of the current start tag
	tag     tagScratch

	// Lines are counted lazily, up to the token of a link.
	lineAt    int // the index of buf counted to
	line      int
	lineStart int64
	last      place // the last place found, to count on from it
}

// A place is a link's offset, line and column, and the index of buf it
// stands at.
type place struct {
	tok, i    int
	line      int
	lineStart int64
}

// scanHTML reads the HTML of r, starting at p, into d: every URL
// attribute (href of any element, and xlink:href; src; srcset of img and
// source; data of object; action and formaction; poster; background; the
// URL of a <meta http-equiv=refresh>), url() and @import in <style> and
// style attributes, the first <base href>, and every id and <a name>.
// Its memory is bounded by MaxToken.
func scanHTML(r io.Reader, p position, d *docScan) error {
	return scanHTMLStream(r, p, d, MaxToken, 256<<10)
}

// scanHTMLStream is scanHTML with tokens bounded by limit, its buffer
// starting at size bytes.
func scanHTMLStream(r io.Reader, p position, d *docScan, limit, size int) error {
	s := newHTMLScanner(p, d, limit)
	s.r, s.buf = r, make([]byte, 0, max(size, 16))
	return s.run()
}

// scanHTMLBytes is scanHTML for a document read whole.
func scanHTMLBytes(src []byte, p position, d *docScan) error {
	return scanHTMLLimit(src, p, d, MaxToken)
}

func scanHTMLLimit(src []byte, p position, d *docScan, limit int) error {
	s := newHTMLScanner(p, d, limit)
	s.buf, s.eof = src, true
	return s.run()
}

func newHTMLScanner(p position, d *docScan, limit int) *htmlScanner {
	if d.ids == nil {
		d.ids = anchors{}
	}
	return &htmlScanner{base: p.off, limit: limit, d: d, line: p.line, lineStart: p.lineStart, last: place{tok: -1}}
}

func (s *htmlScanner) run() error {
	tok := 0
	for tok < len(s.buf) || !s.eof {
		var end, far int
		var kind tokKind
		var ok bool
		tok, end, far, kind, ok = s.next(tok)
		if !ok { // the token goes on past buf
			if s.eof || len(s.buf)-tok >= s.limit {
				return s.stop(tok, len(s.buf))
			}
			tok = s.fill(tok)
			continue
		}
		if far-tok >= s.limit {
			return s.stop(tok, far)
		}
		switch kind {
		case tokStart:
			s.startTag(tok, end)
		case tokRaw:
			if s.style && end > tok {
				s.css(tok, end)
			}
			s.rawTag, s.style = "", false
		}
		tok = end
	}
	return s.rerr
}

// stop ends the reading at the token at tok, which the tokenizer read up
// to far: a token of limit bytes or more is an error, and what text of a
// <style> was read is read as CSS; a tag that the end of the document
// cuts short is no tag.
func (s *htmlScanner) stop(tok, far int) error {
	if far-tok < s.limit {
		return s.rerr
	}
	if s.rawTag != "" && s.style {
		s.css(tok, tok+s.limit)
	}
	return errTooLong
}

// fill reads more of the document, keeping buf[tok:], and returns the
// new index of tok.
func (s *htmlScanner) fill(tok int) int {
	s.countLines(tok)
	keep := len(s.buf) - tok
	if 2*keep > cap(s.buf) {
		nb := make([]byte, keep, 2*cap(s.buf))
		copy(nb, s.buf[tok:])
		s.buf = nb
	} else {
		s.buf = s.buf[:copy(s.buf, s.buf[tok:])]
	}
	s.base += int64(tok)
	s.lineAt, s.last.tok = 0, -1
	for len(s.buf) < cap(s.buf) {
		n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if err != nil {
			if err != io.EOF {
				s.rerr = err
			}
			s.eof = true
			break
		}
	}
	return 0
}

// next reads the token at tok, or the one after it when it is text of
// no interest: where it starts, its end, the end of what the tokenizer
// reads to find it (its lookahead), and its kind; ok is false when it
// goes on past buf.
func (s *htmlScanner) next(tok int) (start, end, far int, kind tokKind, ok bool) {
	if s.rawTag != "" {
		end, far, ok = s.rawText(tok)
		return tok, end, far, tokRaw, ok
	}
	b := s.buf
	j, found, ok := s.markup(tok)
	if !ok {
		return tok, 0, 0, tokOther, false
	}
	if !found {
		return tok, len(b), len(b), tokOther, true
	}
	if j > tok && j+2-tok >= s.limit { // text too long
		return tok, j, j + 2, tokOther, true
	}
	tok = j
	switch c := b[tok+1]; {
	case isLetter(c):
		end, ok = s.tagAt(tok+1, true)
		return tok, end, end, tokStart, ok
	case c == '/':
		if tok+2 == len(b) {
			if !s.eof {
				return tok, 0, 0, tokOther, false
			}
			return tok, len(b), len(b), tokOther, true // "</" at the end is text
		}
		switch c := b[tok+2]; {
		case c == '>':
			return tok, tok + 3, tok + 3, tokOther, true
		case isLetter(c):
			end, ok = s.tagAt(tok+2, false)
			return tok, end, end, tokOther, ok
		}
		end, ok = s.closeAngle(tok + 2)
		return tok, end, max(end, tok+3), tokOther, ok
	case c == '!':
		end, far, ok = s.declaration(tok)
		return tok, end, far, tokOther, ok
	default: // '?': a bogus comment (§13.2.5.6)
		end, ok = s.closeAngle(tok + 1)
		return tok, end, end, tokOther, ok
	}
}

// markup returns the index of the first '<' at or after tok that opens a
// tag, a comment or a declaration (§13.2.5.6 "tag open state": a letter,
// '/', '!' or '?' follows it); found is false when there is none up to
// the end of the document.
func (s *htmlScanner) markup(tok int) (j int, found, ok bool) {
	b := s.buf
	for i := tok; ; {
		k := bytes.IndexByte(b[i:], '<')
		if k < 0 {
			return 0, false, s.eof
		}
		j = i + k
		if j+1 == len(b) {
			return 0, false, s.eof
		}
		if markupStart[b[j+1]] {
			return j, true, true
		}
		i = j + 1
	}
}

var markupStart, tagSpace, tagNameEnd, keyEnd, unquotedEnd [256]bool

func init() {
	for _, c := range []byte(" \t\n\r\f") {
		tagSpace[c], tagNameEnd[c], keyEnd[c], unquotedEnd[c] = true, true, true, true
	}
	for c := 'a'; c <= 'z'; c++ {
		markupStart[c], markupStart[c-'a'+'A'] = true, true
	}
	markupStart['/'], markupStart['!'], markupStart['?'] = true, true, true
	tagNameEnd['/'], tagNameEnd['>'] = true, true
	keyEnd['='], keyEnd['/'], keyEnd['>'] = true, true, true
	unquotedEnd['>'] = true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// closeAngle returns the index after the first '>' at or after i, or
// the end of the document (a bogus comment, §13.2.5.41).
func (s *htmlScanner) closeAngle(i int) (int, bool) {
	if k := bytes.IndexByte(s.buf[i:], '>'); k >= 0 {
		return i + k + 1, true
	}
	return len(s.buf), s.eof
}

// declaration reads the markup declaration at tok, "<!" (§13.2.5.42):
// a comment, or else a doctype or a bogus comment, both ending at the
// next '>' (CDATA is a bogus comment outside foreign content, which the
// tokenizer does not track).
func (s *htmlScanner) declaration(tok int) (end, far int, ok bool) {
	b := s.buf
	if len(b)-tok < 4 && !s.eof {
		return 0, 0, false
	}
	if len(b)-tok >= 4 && b[tok+2] == '-' && b[tok+3] == '-' {
		end, ok = s.comment(tok + 4)
		return end, end, ok
	}
	// The tokenizer looks at two bytes, then at "DOCTYPE" up to the
	// first that differs.
	far = min(tok+4, len(b))
	const doctype = "DOCTYPE"
	k := 0
	for k < len(doctype) && tok+2+k < len(b) && b[tok+2+k]&^0x20 == doctype[k] {
		k++
	}
	if k < len(doctype) {
		if tok+2+k == len(b) && !s.eof {
			return 0, 0, false
		}
		far = max(far, min(tok+3+k, len(b)))
	}
	end, ok = s.closeAngle(tok + 2)
	return end, max(far, end), ok
}

// comment reads a comment whose text starts at i, after "<!--", as the
// tokenizer does (§13.2.5.43–.52): it ends at "-->", at "--!>", or at
// once with "<!-->" and "<!--->".
func (s *htmlScanner) comment(i int) (int, bool) {
	b := s.buf
	dashes, beginning := 0, true
	for i < len(b) {
		c := b[i]
		i++
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				return i, true
			}
		case '!':
			if dashes >= 2 {
				if i == len(b) {
					return len(b), s.eof
				}
				c = b[i]
				i++
				if c == '>' {
					return i, true
				}
				if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
	return len(b), s.eof
}
