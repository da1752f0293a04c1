package browse

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

func page(t *testing.T, rawURL, typ, body string) *Page {
	t.Helper()
	u, err := rfc1738.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	p, err := render(u, &access.Response{Body: io.NopCloser(strings.NewReader(body)), Size: int64(len(body)), Type: typ, URL: rawURL})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// entriesOf renders the entries of a listing (a gopher menu, as the
// access layer's List gives it) as a page.
func entriesOf(t *testing.T, ents ...access.Entry) *Page {
	t.Helper()
	p := &Page{}
	if err := renderEntries(p, rfc1738.URL{}, access.NewEntries(func() (access.Entry, error) {
		if len(ents) == 0 {
			return access.Entry{}, io.EOF
		}
		e := ents[0]
		ents = ents[1:]
		return e, nil
	}, nil)); err != nil {
		t.Fatal(err)
	}
	return p
}

func texts(p *Page) []string {
	var out []string
	for _, l := range p.Lines {
		out = append(out, l.Text)
	}
	return out
}

// TestHTML: paragraphs, numbered links resolved against the page, <pre>
// kept, scripts dropped, the title; a javascript: link is a URL of an
// unknown scheme, which following refuses (no access method).
func TestHTML(t *testing.T) {
	p := page(t, "http://h.example/dir/page.html", "text/html; charset=utf-8", `<!doctype html>
<html><head><title>A  test
page</title><style>p{}</style><script>alert(1)</script></head>
<body><h1>Head</h1><p>See <a href="other.html">the other</a> and
<a href="ftp://ftp.example/pub/">the archive</a>.</p>
<pre>  two  spaces
next</pre><a href="javascript:x()">js</a><a href="#top">top</a>
<p>Esc &#27;[2J here</p></body></html>`)
	if p.Title != "A test page" || !p.Document {
		t.Errorf("title %q, document %v", p.Title, p.Document)
	}
	want := []string{"Head", "See [1]the other and [2]the archive.", "  two  spaces", "next", "[3]jstop", `Esc \x1b[2J here`}
	if got := texts(p); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines\n%q\nwant\n%q", got, want)
	}
	if len(p.Links) != 3 || p.Links[0].URL != "http://h.example/dir/other.html" || p.Links[1].URL != "ftp://ftp.example/pub/" || p.Links[2].URL != "javascript:x()" {
		t.Errorf("links %+v", p.Links)
	}
	if p.Links[0].Line != 1 || p.Links[1].Line != 1 {
		t.Errorf("links on lines %d and %d, want 1", p.Links[0].Line, p.Links[1].Line)
	}
}

// TestGopherHTML: an 'h' item's "URL:" links leave gopherspace.
func TestGopherHTML(t *testing.T) {
	p := page(t, "gopher://h/hGET%20/", "text/html", `<a href="URL:http://www.example/">web</a>`)
	if len(p.Links) != 1 || p.Links[0].URL != "http://www.example/" {
		t.Errorf("links %+v", p.Links)
	}
}

// TestText: a document's URLs (RFC 1738 Appendix forms) are numbered
// links; tabs are expanded and control bytes escaped.
func TestText(t *testing.T) {
	p := page(t, "gopher://h/0/a", "text/plain", "Mirror: <URL:ftp://ftp.example/pub/>\r\nnone\there\x1b[0m\r\n")
	want := []string{"Mirror: <URL:ftp://ftp.example/pub/> [1]", `none    here\x1b[0m`}
	if got := texts(p); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
	if len(p.Links) != 1 || p.Links[0].URL != "ftp://ftp.example/pub/" {
		t.Errorf("links %+v", p.Links)
	}
}

// TestBidiEscaped: a bidirectional override in a server's text or a menu
// item's name reaches the screen escaped, so it cannot reorder the line
// ("Trojan Source").
func TestBidiEscaped(t *testing.T) {
	p := page(t, "gopher://h/0/a", "text/plain", "report.\u202etxt.exe\r\n")
	if got := texts(p); len(got) != 1 || got[0] != `report.\u202etxt.exe` {
		t.Errorf("text lines %q", got)
	}
	p = entriesOf(t, access.Entry{Name: "evil\u2067name\u2069", URL: "gopher://h/0/x", Kind: access.KindFile, Size: -1,
		Attrs: map[string]string{"type": "0", "label": "(FILE)", "selector": "/x", "host": "h", "port": "70"}})
	if got := strings.Join(texts(p), "|"); !strings.Contains(got, `evil\u2067name\u2069`) || strings.ContainsRune(got, 0x2067) {
		t.Errorf("menu lines %q", got)
	}
}

// TestBinary: data that is not text is offered for saving, not shown.
func TestBinary(t *testing.T) {
	p := page(t, "ftp://h/a.bin", "application/octet-stream", "\x00\x01\x02")
	if len(p.Lines) != 1 || !strings.Contains(p.Lines[0].Text, "press d to save") {
		t.Errorf("lines %q", texts(p))
	}
}

// TestListings: the JSON Lines of news groups and articles, and a
// gopher telnet item of a menu's entries, become links.
func TestListings(t *testing.T) {
	p := page(t, "news:*", "application/jsonl",
		`{"group":"comp.lang.go","articles":12,"low":1,"high":12,"status":"y","news_url":"news:comp.lang.go","nntp_url":"nntp://h/comp.lang.go"}`+"\n")
	if len(p.Links) != 1 || p.Links[0].URL != "news:comp.lang.go" || !strings.HasPrefix(p.Lines[0].Text, "1 comp.lang.go") {
		t.Errorf("groups: %q %+v", texts(p), p.Links)
	}
	p = entriesOf(t, access.Entry{Name: "Talk", URL: "gopher://bbs.example:23/8guest", Kind: access.KindSession, Size: -1,
		Attrs: map[string]string{"type": "8", "label": "(TEL)", "selector": "guest", "host": "bbs.example", "port": "23"}})
	if len(p.Links) != 1 || p.Links[0].URL != "telnet://guest@bbs.example/" {
		t.Errorf("telnet item: %+v", p.Links)
	}
}

func TestDownloadName(t *testing.T) {
	for in, want := range map[string]string{
		"ftp://h/pub/a%20b.txt;type=i": "a b.txt",
		"gopher://h/9/files/x.zip":     "x.zip",
		"gopher://h/":                  "download",
		"http://h/":                    "download",
		"http://h/..%2F..%2Fetc":       "etc",
		"file:///tmp/.hidden":          "hidden",
		"ftp://h/a%0Ab":                "a_b",
	} {
		u, err := rfc1738.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := downloadName(u); got != want {
			t.Errorf("downloadName(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestNewsArticle: an article shows its headers as lynx does, From as a
// mailto link (§3.5), each newsgroup and each reference as a news link
// (§3.6), then its body with the URLs it holds; the transport headers
// (Path, Xref) are left out.
func TestNewsArticle(t *testing.T) {
	p := page(t, "news:a1@x.org", "message/rfc822", "Path: news.x.org!not-for-mail\r\n"+
		"From: =?UTF-8?Q?Ren=C3=A9e?= <renee@x.org>\r\n"+
		"Newsgroups: comp.lang.go,comp.misc\r\n"+
		"Subject: Hello\r\n"+
		"Date: Tue, 1 Mar 2022 10:00:00 +0000\r\n"+
		"Message-ID: <a1@x.org>\r\n"+
		"References: <a0@x.org>\r\n"+
		"Xref: news.x.org comp.lang.go:12\r\n"+
		"\r\n"+
		"See ftp://ftp.x.org/pub/ for more.\r\n")
	want := []string{
		"Subject: Hello",
		"From: Renée <renee@x.org> [1]",
		"Date: Tue, 1 Mar 2022 10:00:00 +0000",
		"Newsgroups: comp.lang.go,comp.misc [2] [3]",
		"Message-ID: <a1@x.org>",
		"References: <a0@x.org> [4]",
		"",
		"See ftp://ftp.x.org/pub/ for more. [5]",
	}
	if got := texts(p); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines\n%q\nwant\n%q", got, want)
	}
	var urls []string
	for _, l := range p.Links {
		urls = append(urls, l.URL)
	}
	if got := strings.Join(urls, " "); got != "mailto:renee@x.org news:comp.lang.go news:comp.misc news:a0@x.org ftp://ftp.x.org/pub/" {
		t.Errorf("links %s", got)
	}
	// A reply whose header does not parse is shown whole.
	p = page(t, "news:a2@x.org", "message/rfc822", "no header here\r\nat all\r\n")
	if got := strings.Join(texts(p), "|"); got != "no header here|at all" {
		t.Errorf("headerless: %q", got)
	}
}

// TestDump: --dump writes the page as rendered, then its links under
// "References", numbered as lynx -dump numbers them; a search that
// nobody can be asked for is an error.
func TestDump(t *testing.T) {
	h := newHole(t, testHole)
	root := "gopher://" + h.addr + "/"
	var b strings.Builder
	if err := Dump(context.Background(), root+"0/hello.txt", Options{NewClient: func() (*access.Client, error) { return access.NewClient(), nil }}, &b); err != nil {
		t.Fatal(err)
	}
	want := "Hello from the hole.\nSee " + root + "1/docs for more. [1]\n\nReferences\n\n   1. " + root + "1/docs\n"
	if b.String() != want {
		t.Errorf("dump\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	opts := Options{NewClient: func() (*access.Client, error) { return access.NewClient(), nil }}
	if err := Dump(context.Background(), root+"1/docs", opts, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "1 (FILE)  Read me\n") || !strings.Contains(b.String(), "\nReferences\n\n   1. "+root+"0/docs/readme.txt\n   2. ") {
		t.Errorf("menu dump:\n%s", b.String())
	}
	if err := Dump(context.Background(), root+"7/search", opts, io.Discard); err == nil || !strings.Contains(err.Error(), "search") {
		t.Errorf("a search with nobody to ask: %v", err)
	}
	if err := Dump(context.Background(), root+"9/docs/blob.bin", opts, io.Discard); err == nil || !strings.Contains(err.Error(), "rfc1738 get") {
		t.Errorf("a binary item: %v", err)
	}
}
