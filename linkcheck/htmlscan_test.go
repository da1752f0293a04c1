package linkcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// hostilePages are documents that a reading of HTML easily gets wrong,
// each with the trap it sets.
var hostilePages = []string{
	// unterminated tags and comments: a tag the end cuts short is none
	`<a href="x">ok<a href="y`,
	`<a href=a><!-- <a href=b>`,
	`<a href=a><a href=b id=c`,
	`<a href='a`,
	`<p id=x>text <`, `<p id=x>text </`, `<p id=x></`, `<!`, `<!-`, `<!--`, `<!D`, `<!DOCTYPE`,
	// attributes without values, empty ones, '=' first, '/' between
	`<a href id=x name>`, `<a href= id=x>`, `<a href=>x`, `<a =href=x id==y>`, `<a/href=x/id=y/>`,
	`<a href="x"id="y"name='z'>`, `<a href = "x" ><img src = y>`,
	// duplicate attributes: the first wins, and values are no longer placed
	`<a href=first HREF=second id=1 ID=2 name=n>`, `<img src=a Src=b srcset="c 1x" style="background:url(d)">`,
	"<a\nb=1 b=2\nhref=\"\n x\">",
	// links that are no links: in raw text, RCDATA, comments and bogus comments
	`<script>document.write('<a href=s1>')</script><a href=after>`,
	`<textarea><a href=t1></textarea><title><a href=t2 id=t></title><a href=after>`,
	`<style>p { background: url(in-style) }<a href=st1></style><a href=after>`,
	`<xmp><a href=x1></xmp><noscript><a href=n1></noscript><noembed><a href=n2></noembed><noframes><a href=n3></noframes><iframe><a href=i1></iframe><a href=after>`,
	`<!-- <a href=c1> --><!--> <a href=c2><!---><a href=c3><!--a--!><a href=c4><!--a--!-><a href=c5>-->`,
	`<!DOCTYPE html><![CDATA[<a href=c>]]><a href=d><?xml <a href=x>?><a href=e></ a href=f><a href=g></><a href=h>`,
	`</a title="<a href=x>"><a href=y>`, `<!doctypo <a href=x>><!DOCTYPE<a href=y>`,
	`<plaintext><a href=p1></plaintext><a href=p2>`,
	`<TEXTAREA><a href=t1></TeXtArEa ><a href=t2></textarea><a href=t3>`,
	`<textarea><a href=t1></textareax><a href=t2></textarea/><a href=t3>`,
	`<script><!--<script>x</script><a href=s2>--></script><a href=s3></script><a href=s4>`,
	`<script><!--<script>x</script--><a href=s2></script><a href=s3>`,
	`<script><!--x<a href=s1></script><a href=s2>`,
	`<script><!-x</script><a href=s2><script><!--<sCrIpT/><!--</script></SCRIPT ><a href=s3>`,
	`<script><!--<scripty></script><a href=s1><script><!--<script </script>--></script><a href=s2>`,
	`<script><!--<script></scriptx></script>--></script><a href=s3>`,
	`<script><!--<>--><a href=s1></script><a href=s2>`,
	`<script><!--<x></script><a href=s2>`,
	`<script><!--<-></script><a href=s2>`,
	`<script><!--<1<script></script><a href=s2></script><a href=s3>`,
	`<script/><a href=s1></script><a href=s2>`, `<script`, `<script>`, `<script><`, `<script><!--<script>`,
	// <style> as CSS only as a start tag that is not self-closing
	`<style/>url(a)</style><style a=/>url(b)</style><style a="/"/>url(c)</style><STYLE>url(d)</STYLE>`,
	`<style a=x a=/>url(e)</style><style a/>url(f)</style><style>url(g)`,
	`<style></style>url(h)<style>@import "i"; url('j') /* url(k) */</style >`,
	// NUL bytes
	"<a hr\x00ef=x href=\"a\x00b\" id=\"\x00\" name=\x00>", "<a\x00 href=x>", "<\x00a href=x>", "\x00<a href=x>\x00",
	"<style>url(\x00a)</style><scr\x00ipt><a href=z>",
	// capitals
	`<A HREF="X" NAME=Y><IMG SRCSET="a 1x, b 2x"><META HTTP-EQUIV=REFRESH CONTENT="0;URL=z"><BASE HREF=/b/><OBJECT DATA=o>`,
	`<meta content="0; url='q'" http-equiv=" Refresh "><meta http-equiv=refresh content=5><meta http-equiv=refresh http-equiv=no content="1,r">`,
	`<meta HTTP-EQUIV=refreſh content="0;url=s"><meta http-equiv=&#114;efresh content="0;url=t">`,
	// character references, with and without ';', numeric, in names too
	`<a href="?a=1&amp=2&copy=3&lt&gt;&#65&#x42;&#0;&#x110000;&#128;&notit;&notin &ampx&amp;&AMP;&#X4a;&#;&#x;&">`,
	`<a href="&fjlig;&NotEqualTilde;&nvlt;&CounterClockwiseContourIntegral;&CounterClockwiseContourIntegralx;&#99999999999;">`,
	`<a id="&amp" name="&lt=x" href="&amp;x"><p id=&quot;q&quot; id=r><a href=&#x20;x&#x20;>`,
	"<a id=\"&#xD800;&#x80;&#x9F;&#13;&#10;\" href=\"a&#10;b\">\n<a href=c>",
	// CR, LF and other space in values and between
	"<a href=\"a\r\nb\" id=\"x\ry\">\r\n<a href=c>\r<a href=d>",
	"<a\nhref\n=\n\"x&amp;y\"\n>\n<img\tsrc=\fz>",
	"<a href=\"\u00a0x\u00a0\" id=\" \"><a href=\"\u2003y\">",
	// places
	"<base href=\" /b/ \"><base href=c><base xlink:href=d>",
	`<img src=a srcset="b 1x, c 2x,d,, e (x,y) 3x" style="background:url(d);@import 'e'">`,
	`<a poster=p background=b action=a formaction=f data=d><object data=o><form action=x><video poster=v>`,
	`<source srcset=",a,b 1x"><img srcset="&#32;x">`,
	`<div style="x:url( a );y:URL(b);z:u&#114;l(c)">`,
	// many attributes
	`<a ` + strings.Repeat(`x=1 `, 40) + `href=h ` + strings.Repeat(`x=2 `, 5) + `id=i>`,
	`<a ` + strings.Repeat(`y=1 `, 40) + `href=h id=i>`,
}

// longPages are hostile by their size.
func longPages() []string {
	line := strings.Repeat(`<span class="pre">x</span> <a class="ref" href="lib/x.html#y">z</a> `, 20000)
	return []string{
		line + "\n" + line,
		strings.Repeat("<", 100000) + `<a href=x>`,
		`<a title="` + strings.Repeat("&amp;", 100000) + `" href=x>`,
		`<style>` + strings.Repeat("url(u) ", 50000) + `</style>`,
		`<script><!--` + strings.Repeat("<script>", 10000) + `</script>--></script><a href=x>`,
	}
}

// oracleScan reads src through the tokenizer, tokens bounded by limit.
func oracleScan(src []byte, limit int) (docScan, string) {
	var d docScan
	err := tokenizerScanHTML(bytes.NewReader(src), position{line: 1}, &d, limit)
	return d, fmt.Sprint(err)
}

// chunks is a reader that returns at most n bytes a read.
type chunks struct {
	r io.Reader
	n int
}

func (c chunks) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

// checkScan fails when scanHTML reads src otherwise than the tokenizer:
// read whole, streamed through a small buffer, and with a small bound on
// a token.
func checkScan(t testing.TB, src []byte) {
	t.Helper()
	same := func(how string, limit int, read func(d *docScan) error) {
		t.Helper()
		want, werr := oracleScan(src, limit)
		var got docScan
		gerr := fmt.Sprint(read(&got))
		if gerr != werr || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s (limit %d) of %q:\ngot  %+v, %s\nwant %+v, %s", how, limit, abbrev(src), got, gerr, want, werr)
		}
	}
	same("read whole", MaxToken, func(d *docScan) error { return scanHTMLBytes(src, position{line: 1}, d) })
	small := 16 + len(src)%48
	same("streamed", MaxToken, func(d *docScan) error {
		return scanHTMLStream(chunks{bytes.NewReader(src), 1 + len(src)%7}, position{line: 1}, d, MaxToken, small)
	})
	// A reader's error ends the reading as the end of the document does,
	// and is returned.
	var broken docScan
	berr := scanHTML(io.MultiReader(bytes.NewReader(src), iotest.ErrReader(errDisk)), position{line: 1}, &broken)
	var want docScan
	werr := tokenizerScanHTML(io.MultiReader(bytes.NewReader(src), iotest.ErrReader(errDisk)), position{line: 1}, &want, MaxToken)
	if berr != werr || !reflect.DeepEqual(broken, want) {
		t.Fatalf("a failing reader of %q:\ngot  %+v, %v\nwant %+v, %v", abbrev(src), broken, berr, want, werr)
	}
	limit := 1 + len(src)%61
	same("read whole", limit, func(d *docScan) error { return scanHTMLLimit(src, position{line: 1}, d, limit) })
	same("streamed", limit, func(d *docScan) error {
		return scanHTMLStream(bytes.NewReader(src), position{line: 1}, d, limit, small)
	})
}

var errDisk = errors.New("disk error")

func abbrev(b []byte) []byte {
	if len(b) > 300 {
		return append(append(b[:150:150], "…"...), b[len(b)-150:]...)
	}
	return b
}

// TestScanHTMLHostile: on hostile pages the scanner finds what the
// tokenizer finds, at the same places.
func TestScanHTMLHostile(t *testing.T) {
	for _, p := range append(hostilePages, longPages()...) {
		checkScan(t, []byte(p))
	}
}

// TestScanHTMLTooLong: a token of MaxToken bytes or more ends the reading
// with an error, as with the tokenizer; the links before it count.
func TestScanHTMLTooLong(t *testing.T) {
	big := strings.Repeat("a", MaxToken)
	for _, p := range []string{
		`<a href=x><p title="` + big + `"><a href=y>`,
		`<a href=x><style>url(s) ` + big + `url(t)</style><a href=y>`,
		`<a href=x>` + big + `<a href=y>`,
		`<a href=x><!--` + big + `--><a href=y>`,
	} {
		var got docScan
		err := scanHTML(bytes.NewReader([]byte(p)), position{line: 1}, &got)
		if err == nil || !strings.Contains(err.Error(), "16 MiB") {
			t.Errorf("error %v, want the long token reported", err)
		}
		want, _ := oracleScan([]byte(p), MaxToken)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("got %+v, want %+v", got.links, want.links)
		}
	}
}

// TestScanHTMLAllocs: a tag costs no allocation unless it has a value
// that is kept (a link or an anchor).
func TestScanHTMLAllocs(t *testing.T) {
	tags := `<p class="x"><span class="pre" title='t'>x</span> <b>y</b> &amp; <!-- c --><a rel=r href=#f id=i></a></p>` + "\n"
	allocs := func(page string) float64 {
		return testing.AllocsPerRun(20, func() {
			d := docScan{ids: anchors{}}
			scanHTMLBytes([]byte(page), position{line: 1}, &d)
		})
	}
	one, many := allocs(tags), allocs(strings.Repeat(tags, 1000))
	// The link's string each time, the growth of the slice of links; the
	// anchor is kept once.
	t.Logf("%v allocations for one tag, %v for 1,000", one, many)
	if many > one+999+24 {
		t.Errorf("%v allocations for 1,000 tags, %v for one", many, one)
	}
}

// FuzzScanHTML: for any document the scanner's reading is the
// tokenizer's.
func FuzzScanHTML(f *testing.F) {
	for _, p := range hostilePages {
		f.Add([]byte(p))
	}
	f.Add([]byte(docTree["index.html"]))
	f.Fuzz(func(t *testing.T, src []byte) { checkScan(t, src) })
}

// sphinxPages returns the HTML of Debian's python3-doc (Sphinx's output),
// or skips.
func sphinxPages(b *testing.B) ([][]byte, int64) {
	for _, dir := range []string{"/usr/share/doc/python3/html", "/usr/share/doc/python3.11/html"} {
		var pages [][]byte
		var n int64
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".html") {
				if b, err := os.ReadFile(p); err == nil {
					pages, n = append(pages, b), n+int64(len(b))
				}
			}
			return nil
		})
		if len(pages) > 0 {
			return pages, n
		}
	}
	b.Skip("no Sphinx HTML here: apt-get install python3-doc for /usr/share/doc/python3/html")
	return nil, 0
}

func benchmarkPages(b *testing.B, read func(page []byte, d *docScan) error) {
	pages, n := sphinxPages(b)
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, p := range pages {
			var d docScan
			if err := read(p, &d); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkTreeHTMLTokenizer reads python3-doc through x/net/html's
// tokenizer, as a tree did; BenchmarkTreeHTMLScanner, as it does.
func BenchmarkTreeHTMLTokenizer(b *testing.B) {
	benchmarkPages(b, func(p []byte, d *docScan) error {
		return tokenizerScanHTML(bytes.NewReader(p), position{line: 1}, d, MaxToken)
	})
}

func BenchmarkTreeHTMLScanner(b *testing.B) {
	benchmarkPages(b, func(p []byte, d *docScan) error { return scanHTMLBytes(p, position{line: 1}, d) })
}
