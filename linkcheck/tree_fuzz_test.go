package linkcheck

import (
	"bytes"
	"testing"
)

// checkPlaces fails when a link of d is placed outside src.
func checkPlaces(t *testing.T, src []byte, d *docScan) {
	t.Helper()
	lines := bytes.Count(src, []byte{'\n'}) + 1
	for _, l := range d.links {
		if l.offset < 0 || l.offset > int64(len(src)) || l.line < 1 || l.line > lines || l.col < 1 || l.col > len(src)+1 {
			t.Fatalf("link %q placed at offset %d, %d:%d in %d bytes", l.ref, l.offset, l.line, l.col, len(src))
		}
	}
}

// FuzzTreeHTML: any document is read without a panic, each link placed
// inside it.
func FuzzTreeHTML(f *testing.F) {
	f.Add([]byte(docTree["index.html"]))
	f.Add([]byte(`<a href='x' id=y><img srcset="a 1x,b 2x" style="background:url(c)"><meta http-equiv=refresh content="0;url='d'">`))
	f.Add([]byte("<a\nhref\n=\n\"x&amp;y\"\n>"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var d docScan
		scanHTML(bytes.NewReader(src), position{line: 1}, &d)
		checkPlaces(t, src, &d)
	})
}

// FuzzTreeMarkdown: any Markdown is read without a panic, each link
// placed inside it; taming keeps every offset.
func FuzzTreeMarkdown(f *testing.F) {
	f.Add([]byte(docTree["md/README.md"]))
	f.Add([]byte("> > * 1. [a](b)\n\n[r]: c\n[x][r] <http://e/> www.e.com\n<a href=d id=e>"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if tamed := tame(src); len(tamed) != len(src) {
			t.Fatalf("tame changed the length: %d to %d", len(src), len(tamed))
		}
		var d docScan
		scanMarkdown(src, &d)
		checkPlaces(t, src, &d)
	})
}
