package linkcheck_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/linkcheck"
)

type found struct {
	url string
	p   linkcheck.Place
}

func gather(t *testing.T, g *linkcheck.Gatherer) *[]found {
	var got []found
	g.Found = func(s string, p linkcheck.Place) { got = append(got, found{s, p}) }
	return &got
}

// HTML: the URLs extract finds in the text, and absolute href and src
// values it does not, each once, at its line and column; relative
// references are not RFC 1738 URLs.
func TestGatherHTML(t *testing.T) {
	doc := "<!DOCTYPE html>\n<p>See &lt;URL:ftp://a.dom/x&gt; and\n" +
		"<a href=\"http://b.dom/y\">b</a> <img src='gopher://c.dom/0/z'>\n" +
		"<a href=\"rel/ative.html\">r</a> <a href=\"http://d.dom/%7Ejoe\">d</a>\n"
	var g linkcheck.Gatherer
	got := gather(t, &g)
	if err := g.Reader("doc.html", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	want := []found{
		{"ftp://a.dom/x", linkcheck.Place{File: "doc.html", Line: 2, Column: 16}},
		{"http://b.dom/y", linkcheck.Place{File: "doc.html", Line: 3, Column: 10}},
		{"gopher://c.dom/0/z", linkcheck.Place{File: "doc.html", Line: 3, Column: 42}},
		{"http://d.dom/%7Ejoe", linkcheck.Place{File: "doc.html", Line: 4, Column: 41}},
	}
	if len(*got) != len(want) {
		t.Fatalf("found %v\nwant %v", *got, want)
	}
	for i := range want {
		if (*got)[i] != want[i] {
			t.Errorf("found[%d] = %v, want %v", i, (*got)[i], want[i])
		}
	}
}

// A file whose <base href> is absolute says where it is published: its
// relative references resolve against it, as a browser resolves them
// (RFC 3986 §5.2), a fragment dropped; before the base element too (HTML:
// the document's base URL is the first base element's). A base element
// sets the base; it is no link of its own (markup is never scanned as
// text).
func TestGatherHTMLBase(t *testing.T) {
	doc := "<html><head><title>t</title>\n<a href=\"early.html\">e</a>\n" +
		"<base href=\"http://h.dom/docs/guide/\"><base href=\"http://ignored.dom/\"></head>\n" +
		"<a href=\"../api/x.html#f\">x</a> <img src=\"/img/a b.png\">\n"
	var g linkcheck.Gatherer
	got := gather(t, &g)
	if err := g.Reader("doc.html", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	want := []found{
		{"http://h.dom/docs/guide/early.html", linkcheck.Place{File: "doc.html", Line: 2, Column: 10}},
		{"http://h.dom/docs/api/x.html", linkcheck.Place{File: "doc.html", Line: 4, Column: 10}},
		{"http://h.dom/img/a%20b.png", linkcheck.Place{File: "doc.html", Line: 4, Column: 43}},
	}
	if len(*got) != len(want) {
		t.Fatalf("found %v\nwant %v", *got, want)
	}
	for i := range want {
		if (*got)[i] != want[i] {
			t.Errorf("found[%d] = %v, want %v", i, (*got)[i], want[i])
		}
	}
}

// The text is read as a browser shows it (issue: a Sphinx page's
// obfuscated mailto): its character references decoded, never the raw
// markup; nothing from <script>; places are the raw bytes'.
func TestGatherHTMLDecodedText(t *testing.T) {
	doc := "<html><p>Mail <a href=\"mailto:docs&#37;&#52;&#48;python&#46;org\">docs&#37;&#52;&#48;python&#46;org</a>\n" +
		"or see &lt;URL:http://a.dom/x?p=1&amp;q=2&gt; and <code>ftp://b.dom/&#126;joe/</code>.</p>\n" +
		"<script>var u = \"http://script.dom/\";</script><!-- http://comment.dom/ --></html>"
	var g linkcheck.Gatherer
	got := gather(t, &g)
	if err := g.Reader("sphinx.html", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	want := []found{
		{"http://a.dom/x?p=1&q=2", linkcheck.Place{File: "sphinx.html", Line: 2, Column: 16}},
		{"ftp://b.dom/~joe/", linkcheck.Place{File: "sphinx.html", Line: 2, Column: 57}},
		{"mailto:docs%40python.org", linkcheck.Place{File: "sphinx.html", Line: 1, Column: 24}}, // the attribute's value, character references and all
	}
	if fmt.Sprint(*got) != fmt.Sprint(want) {
		t.Errorf("found %v\nwant  %v", *got, want)
	}
}

// An href that the text scan cannot see as a URL (an entity inside it)
// is found once.
func TestGatherHTMLAttributeOnly(t *testing.T) {
	doc := "<html><a href=\"http://e.dom/a?b=1&amp;c=2\">e</a></html>"
	var g linkcheck.Gatherer
	got := gather(t, &g)
	g.Reader("x.html", strings.NewReader(doc))
	var urls []string
	for _, f := range *got {
		urls = append(urls, f.url)
	}
	if !strings.Contains(strings.Join(urls, " "), "http://e.dom/a?b=1&c=2") {
		t.Errorf("found %q; want the decoded href", urls)
	}
}

func TestGatherDir(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "ftp://a.dom/1\n")
	write("sub/b.txt", "\n  ftp://b.dom/2\n")
	write("sub/c.log", "ftp://c.dom/3\n")
	write("skip/d.txt", "ftp://d.dom/4\n")
	g := linkcheck.Gatherer{Include: []string{"*.txt"}, Exclude: []string{"skip/*"}}
	got := gather(t, &g)
	if err := g.Path(dir); err != nil {
		t.Fatal(err)
	}
	want := []found{
		{"ftp://a.dom/1", linkcheck.Place{File: filepath.Join(dir, "a.txt"), Line: 1, Column: 1}},
		{"ftp://b.dom/2", linkcheck.Place{File: filepath.Join(dir, "sub", "b.txt"), Line: 2, Column: 3}},
	}
	if len(*got) != 2 || (*got)[0] != want[0] || (*got)[1] != want[1] {
		t.Errorf("found %v\nwant %v", *got, want)
	}
}

var sample = []linkcheck.Result{
	{URL: "ftp://a.dom/x", Status: linkcheck.Broken, Detail: "ftp: SIZE x: 550 No such file", Scheme: "ftp",
		Places: []linkcheck.Place{{File: "doc.txt", Line: 3, Column: 7}, {File: "doc.txt", Line: 9, Column: 1}}, Elapsed: 1500 * time.Microsecond},
	{URL: "http://b.dom/", Status: linkcheck.OK, Detail: "200 OK", Scheme: "http", Places: []linkcheck.Place{{File: "doc.txt", Line: 4, Column: 1}}},
	{URL: "http://user@h/", Status: linkcheck.Invalid, Detail: "error at offset 7: httpurl: no user", Scheme: "http", Places: []linkcheck.Place{{}}},
	{URL: "mailto:a@b.dom", Status: linkcheck.Skipped, Detail: "address syntax valid", Scheme: "mailto", Places: []linkcheck.Place{{File: "doc.txt", Line: 5, Column: 2}}},
}

func report(t *testing.T, f linkcheck.Format) string {
	var b bytes.Buffer
	if err := (linkcheck.Report{Format: f, Elapsed: 2 * time.Second}).Write(&b, sample); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReportText(t *testing.T) {
	want := "doc.txt:3:7: broken: ftp://a.dom/x: ftp: SIZE x: 550 No such file\n" +
		"doc.txt:9:1: broken: ftp://a.dom/x: ftp: SIZE x: 550 No such file\n" +
		"argument: invalid: http://user@h/: error at offset 7: httpurl: no user\n" +
		"4 URLs: 1 ok, 1 broken, 1 invalid, 1 skipped in 2.00s\n"
	if got := report(t, linkcheck.Text); got != want {
		t.Errorf("text report:\n%s\nwant:\n%s", got, want)
	}
}

func TestReportJSON(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(report(t, linkcheck.JSON)), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	var o map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &o); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"url", "result", "detail", "scheme", "places", "elapsed_ms"} {
		if _, ok := o[k]; !ok {
			t.Errorf("no %q in %s", k, lines[0])
		}
	}
	if o["result"] != "broken" || o["elapsed_ms"] != 1.5 || len(o["places"].([]any)) != 2 {
		t.Errorf("first object %s", lines[0])
	}
}

func TestReportFormats(t *testing.T) {
	csv := report(t, linkcheck.CSV)
	if !strings.HasPrefix(csv, "url,result,detail,scheme,places,elapsed_ms\n") ||
		!strings.Contains(csv, "ftp://a.dom/x,broken,ftp: SIZE x: 550 No such file,ftp,doc.txt:3:7 doc.txt:9:1,1.500\n") {
		t.Errorf("csv:\n%s", csv)
	}
	junit := report(t, linkcheck.JUnit)
	for _, s := range []string{`<testsuite name="linkcheck" tests="4" failures="1" errors="1" skipped="1"`,
		`<failure message="ftp: SIZE x: 550 No such file">doc.txt:3:7 doc.txt:9:1</failure>`, `<error message="error at offset 7`} {
		if !strings.Contains(junit, s) {
			t.Errorf("junit lacks %s:\n%s", s, junit)
		}
	}
	md := report(t, linkcheck.Markdown)
	if !strings.Contains(md, "| broken | `ftp://a.dom/x` | ftp: SIZE x: 550 No such file | doc.txt:3:7 doc.txt:9:1 |") || strings.Contains(md, "http://b.dom") {
		t.Errorf("markdown:\n%s", md)
	}
	if _, err := linkcheck.ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) succeeded")
	}
}

// TestReportsAreData: a server's status text and a file's name are data
// in every report: no HTML in a Markdown cell, no formula in a CSV cell.
func TestReportsAreData(t *testing.T) {
	hostile := []linkcheck.Result{
		{URL: "http://h/<b>&", Status: linkcheck.Broken, Detail: `404 <img src=x onerror=alert(1)> & "|"`, Scheme: "http",
			Places: []linkcheck.Place{{File: "=HYPERLINK(\"http://e.vil\")", Line: 1, Column: 1}}},
		{URL: "ftp://h/x", Status: linkcheck.Broken, Detail: "+1 -2 @3", Scheme: "ftp", Places: []linkcheck.Place{{File: "-x.txt", Line: 2, Column: 1}}},
		{URL: "ftp://h/y", Status: linkcheck.Broken, Detail: "@SUM(A1)\r\nnext", Scheme: "ftp", Places: []linkcheck.Place{{File: "@f", Line: 3, Column: 1}}},
	}
	write := func(f linkcheck.Format) string {
		var b bytes.Buffer
		if err := (linkcheck.Report{Format: f}).Write(&b, hostile); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	md := write(linkcheck.Markdown)
	for _, s := range []string{"| broken | `http://h/<b>&` | 404 &lt;img src=x onerror=alert(1)&gt; &amp; \"\\|\" | =HYPERLINK(\"http://e.vil\"):1:1 |",
		"| broken | `ftp://h/y` | @SUM(A1)  next | @f:3:1 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("markdown lacks %s:\n%s", s, md)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(write(linkcheck.CSV))).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Fatalf("csv: %v %q", err, rows)
	}
	for _, row := range rows[1:] {
		for k, cell := range row {
			if cell != "" && strings.IndexByte("=+-@\t\r", cell[0]) >= 0 {
				t.Errorf("csv cell %d of %q starts with %q: a spreadsheet reads it as a formula", k, row, cell[0])
			}
		}
	}
	if rows[1][4] != `'=HYPERLINK("http://e.vil"):1:1` || rows[2][2] != "'+1 -2 @3" || rows[3][2] != "'@SUM(A1)\nnext" {
		t.Errorf("csv rows %q", rows[1:])
	}
}

func TestCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache.jsonl")
	c, err := linkcheck.OpenCache(path, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c.Store("ftp://a.dom/x", "ftp://a.dom/x", linkcheck.Broken, "550")
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	c2, err := linkcheck.OpenCache(path, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := c2.Lookup("ftp://a.dom/x"); !ok || e.Status != linkcheck.Broken || e.Detail != "550" {
		t.Errorf("Lookup = %+v, %v", e, ok)
	}
	stale, _ := linkcheck.OpenCache(path, time.Nanosecond)
	time.Sleep(time.Millisecond)
	if _, ok := stale.Lookup("ftp://a.dom/x"); ok {
		t.Error("a verdict older than MaxAge was fresh")
	}
}

// A page read for its links (a file given, a page fetched by a recursive
// run) yields every URL attribute, as a tree's pages do: not only href
// and src.
func TestGatherHTMLEveryAttribute(t *testing.T) {
	doc := `<img srcset="http://e.invalid/a.png 1x, http://e.invalid/b.png 2x">` +
		`<object data="http://e.invalid/o.svg"></object><form action="http://e.invalid/f"></form>` +
		`<div style="background: url('http://e.invalid/bg.png')"></div>` +
		`<meta http-equiv="refresh" content="0; url=http://e.invalid/r">`
	var g linkcheck.Gatherer
	got := gather(t, &g)
	if err := g.Reader("p.html", strings.NewReader(doc)); err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, f := range *got {
		urls = append(urls, f.url)
	}
	want := []string{"http://e.invalid/a.png", "http://e.invalid/b.png", "http://e.invalid/o.svg", "http://e.invalid/f",
		"http://e.invalid/bg.png", "http://e.invalid/r"}
	if !slices.Equal(urls, want) {
		t.Errorf("found %q\nwant  %q", urls, want)
	}
}
