package linkcheck

import (
	"bytes"
	"net/url"
	"strings"
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

// FuzzResolveRelative: the quick way of a relative reference decides it
// as net/url's resolution (RFC 3986 §5.2) does, for a file: base, a
// published base (--base) and a <base href> off the tree.
func FuzzResolveRelative(f *testing.F) {
	for _, ref := range []string{"a.html", "../x/y.html#id", "./", "..", "../../../../etc/passwd", "a//b/", "sub/.#x",
		"dir/..", "x y.html", "é.html#é", ".", "a/./b/../c.html#", "#only", "a#b#c", "a?q", "a%20b", "a:b"} {
		f.Add("/docs/guide/page.html", ref)
		f.Add("/", ref)
	}
	f.Fuzz(func(t *testing.T, basePath, ref string) {
		if ref == "" || !strings.HasPrefix(basePath, "/") {
			return
		}
		tr := &Tree{Base: "https://example.org/docs/"}
		file := &treeFile{name: "page.html", abs: "/srv/tree/page.html", top: "/srv/tree"}
		for _, base := range []*url.URL{
			{Scheme: "file", Path: basePath},
			{Scheme: "https", Host: "example.org", Path: basePath},
			{Scheme: "http", Host: "elsewhere.example", Path: basePath},
		} {
			quick, ok := tr.resolveRelative(file, base, ref)
			if !ok {
				continue
			}
			r, err := url.Parse(ref)
			if err != nil {
				t.Fatalf("%q taken the quick way, but net/url: %v", ref, err)
			}
			slow, ok := tr.localOf(file, ref, base.ResolveReference(r))
			if !ok {
				t.Fatalf("%q against %v: quick %+v, net/url's is not local", ref, base, quick)
			}
			if quick != slow {
				t.Fatalf("%q against %v:\nquick   %+v\nnet/url %+v", ref, base, quick, slow)
			}
		}
	})
}
