package linkcheck

import (
	"bytes"
	"sort"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// markdown parses CommonMark with GitHub's extensions (tables,
// strikethrough, task lists, bare URLs as links) and {#id} after a
// heading.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithParserOptions(parser.WithHeadingAttribute()),
)

// lineIndex turns offsets of a document held whole into lines and byte
// columns, from 1, in any order.
type lineIndex []int // offsets of the '\n's

func newLineIndex(b []byte) lineIndex {
	var li lineIndex
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\n')
		if j < 0 {
			return li
		}
		li = append(li, i+j)
		i += j + 1
	}
}

func (li lineIndex) at(off int) (line, col int) {
	n := sort.SearchInts(li, off) // newlines before off
	start := 0
	if n > 0 {
		start = li[n-1] + 1
	}
	return n + 1, off - start + 1
}

// position returns the stream position of offset off, for scanHTML.
func (li lineIndex) position(off int) position {
	line, col := li.at(off)
	return position{off: int64(off), line: line, lineStart: int64(off - col + 1)}
}

// scanMarkdown reads the Markdown src into d: the destinations of inline
// and reference links and images, autolinks and bare URLs (GitHub's
// extension), and the links of raw HTML, each placed in src (the
// Markdown's own line and column); nothing in code spans or blocks. The
// anchors are the headings' (GitHub's slugs, and an explicit {#id}) and
// the ids and <a name> of raw HTML.
func scanMarkdown(src []byte, d *docScan) error {
	if d.ids == nil {
		d.ids = anchors{}
	}
	li := newLineIndex(src)
	doc := markdown.Parser().Parse(text.NewReader(tame(src)))
	slugs := slugger{}
	add := func(ref string, off int) {
		line, col := li.at(off)
		d.links = append(d.links, docLink{ref: ref, offset: int64(off), line: line, col: col})
	}
	raw := func(start, stop int) {
		if start < 0 || stop > len(src) || start >= stop {
			return
		}
		var in docScan
		in.ids = d.ids
		scanHTMLBytes(src[start:stop], li.position(start), &in)
		d.links = append(d.links, in.links...)
	}
	var err error
	autoFrom := 0
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.CodeSpan:
			return ast.WalkSkipChildren, nil
		case *ast.Heading:
			if id, ok := n.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					d.ids.add(string(b))
				}
			}
			d.ids.add(slugs.slug(plainText(n, src)))
		case *ast.Link:
			add(string(n.Destination), linkStart(n, src, '['))
		case *ast.Image:
			add(string(n.Destination), linkStart(n, src, '!'))
		case *ast.AutoLink:
			u := string(n.URL(src))
			if n.AutoLinkType == ast.AutoLinkEmail && !HasScheme(u) {
				u = "mailto:" + u
			}
			// The label is searched from the end of the last one found
			// in the same block: one URL written twice has two places.
			off := max(blockStart(n), autoFrom)
			if i := bytes.Index(src[off:], n.Label(src)); i >= 0 {
				off += i
				autoFrom = off + len(n.Label(src))
			}
			add(u, off)
		case *ast.RawHTML:
			if n.Segments.Len() > 0 {
				raw(n.Segments.At(0).Start, n.Segments.At(n.Segments.Len()-1).Stop)
			}
		case *ast.HTMLBlock:
			lines := n.Lines()
			if lines.Len() > 0 {
				stop := lines.At(lines.Len() - 1).Stop
				if n.HasClosure() {
					stop = n.ClosureLine.Stop
				}
				raw(lines.At(0).Start, stop)
			}
		}
		return ast.WalkContinue, nil
	})
	return err
}

// plainText is the text of a heading as rendered, without markup.
func plainText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Text:
			b.Write(c.Segment.Value(src))
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// linkStart finds the '[' (or the "![" of an image, open '!') that opens
// the link n: before the first text of its label, or at the start of its
// block when the label is empty.
func linkStart(n ast.Node, src []byte, open byte) int {
	at := -1
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			at = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if at < 0 {
		start := blockStart(n)
		if i := bytes.IndexByte(src[start:], '['); i >= 0 {
			at = start + i + 1
		} else {
			return start
		}
	}
	i := bytes.LastIndexByte(src[:at], '[')
	if i < 0 {
		return at
	}
	if open == '!' && i > 0 && src[i-1] == '!' {
		i--
	}
	return i
}

// blockStart is the offset of the first line of the block holding n.
func blockStart(n ast.Node) int {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}

// maxNest bounds the nesting a Markdown document is parsed with: block
// containers (block quotes, list items, and indentation deeper than
// 4*maxNest columns) opened on one line, and open brackets in a
// paragraph; maxLineBrackets bounds the brackets of one line, maxDefs
// the link reference definitions of one paragraph. Markers
// beyond them are read as spaces (the offsets stay), which no real
// document notices and which keeps goldmark's parse near linear on
// hostile input: its open-block, bracket and link-destination scans are
// quadratic in them (seconds for 50,000).
const (
	maxNest         = 32
	maxLineBrackets = 256
	maxDefs         = 256 // link reference definitions in one paragraph
)

// tame returns src, or a copy of it with the markers beyond maxNest and
// maxLineBrackets made spaces.
func tame(src []byte) []byte {
	out := src
	set := func(i int) {
		if &out[0] == &src[0] {
			out = append([]byte(nil), src...)
		}
		out[i] = ' '
	}
	brackets, defs := 0, 0
	for i := 0; i < len(src); {
		end := bytes.IndexByte(src[i:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += i
		}
		line := src[i:end]
		if len(bytes.TrimSpace(line)) == 0 {
			brackets, defs = 0, 0 // a blank line ends a paragraph
		}
		// A link reference definition (CommonMark §4.7) opening a
		// paragraph: goldmark copies the rest of the paragraph for each.
		if t := bytes.TrimLeft(line, " "); len(line)-len(t) <= 3 && len(t) > 0 && t[0] == '[' && bytes.Contains(t, []byte("]:")) {
			defs++
			if defs > maxDefs {
				set(i + len(line) - len(t))
			}
		}
		depth, width := 0, 0
		j := 0
	prefix:
		for j < len(line) {
			c := line[j]
			marker := 1
			switch {
			case c == ' ':
				width++
				j++
				continue
			case c == '\t':
				width += 4
				j++
				continue
			case c == '>':
			case (c == '*' || c == '-' || c == '+') && j+1 < len(line) && (line[j+1] == ' ' || line[j+1] == '\t'):
			case c >= '0' && c <= '9':
				// An ordered list marker: 1-9 digits, '.' or ')', a space
				// (CommonMark §5.2).
				k := j
				for k < len(line) && k-j < 9 && line[k] >= '0' && line[k] <= '9' {
					k++
				}
				if k+1 >= len(line) || line[k] != '.' && line[k] != ')' || line[k+1] != ' ' && line[k+1] != '\t' {
					break prefix
				}
				marker = k + 1 - j
			default:
				break prefix
			}
			depth++
			if depth > maxNest || width > 4*maxNest {
				for m := 0; m < marker; m++ {
					set(i + j + m)
				}
			}
			width += marker
			j += marker
		}
		inLine := 0
		for ; j < len(line); j++ {
			switch line[j] {
			case '\\':
				j++
			case '[':
				brackets++
				inLine++
				if brackets > maxNest || inLine > maxLineBrackets {
					set(i + j)
				}
			case ']':
				if brackets > 0 {
					brackets--
				}
			}
		}
		i = end + 1
	}
	return out
}
