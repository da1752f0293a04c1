package linkcheck

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (name → content) under a new folder.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lines renders a tree's results as "FILE:LINE:COL status ref", one per
// place, the file relative to dir, sorted.
func lines(dir string, rs []Result) []string {
	var out []string
	for _, r := range rs {
		for _, p := range r.Places {
			rel, _ := filepath.Rel(dir, p.File)
			out = append(out, fmt.Sprintf("%s:%d:%d %s %s", filepath.ToSlash(rel), p.Line, p.Column, r.Status, r.URL))
		}
	}
	slices.Sort(out)
	return out
}

func readTree(t testing.TB, tr *Tree, paths ...string) []Result {
	t.Helper()
	for _, p := range paths {
		if err := tr.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	tr.Read(context.Background())
	return tr.Results()
}

var docTree = map[string]string{
	"index.html": `<!doctype html>
<html><head><link rel="stylesheet" href="style.css"><style>body { background: url("img/bg.png") }</style></head>
<body>
<a href="guide/x.html">ok</a> <a href="guide/missing.html">bad</a>
<a href="guide/x.html#install">frag ok</a> <a href="guide/x.html#nope">frag bad</a>
<a href="#top">top</a> <a href="#here">here</a> <p id="here"></p> <a href="#gone">gone</a>
<img src="img/a.png" srcset="img/a.png 1x, img/b.png 2x">
<a href="/guide/x.html">root</a> <a href="guide/">folder</a> <a href="empty/">empty folder</a>
<div style="background:url(img/c.png)"></div>
<meta http-equiv="refresh" content="0; url=guide/gone.html">
<a href="https://example.invalid/x">net</a> <a href="mailto:a@example.invalid">m</a>
<a href="javascript:void(0)">js</a> <img src="data:image/png;base64,AAAA">
</body></html>
`,
	"style.css":        "@import \"base.css\";\n.x { background: url(img/a.png) } /* url(not-a-link.png) */\n",
	"img/a.png":        "",
	"img/bg.png":       "",
	"empty/.keep":      "",
	"guide/x.html":     `<html><body><h2 id="install">Install</h2><a name="old"></a><a href="../index.html#here">back</a></body></html>`,
	"guide/index.html": `<p>guide</p>`,
	"md/README.md": "# Title\n\n## Install it\n## Install it\n\n" +
		"See [guide](guide.md), [bad](nope.md), [sec](#install-it-1), [sec bad](#install-it-2)\n" +
		"and ![img](../img/a.png) and [ref][r] and <https://example.invalid/auto>.\n\n" +
		"`[code](not-checked.md)` and `https://example.invalid/in-code`\n\n" +
		"```\n[block](not-checked2.md) https://example.invalid/in-block\n```\n\n" +
		"<a href=\"raw.html\" id=\"raw-id\">raw</a>\n\n" +
		"## Custom {#custom-id}\n[c](#custom-id) [html](../guide/x.html#old) [r2](#raw-id) [dir](../md/) [nodir](../empty/)\n\n" +
		"[r]: ../index.html#here\n",
	"md/guide.md": "# Guide\n",
}

// TestTreeLinks: a tree's relative, root-relative, folder, fragment, CSS
// and Markdown links are checked in the tree, each at its file, line and
// column; nothing in Markdown's code spans and blocks; network URLs go
// to Found (here: Offline skips them).
func TestTreeLinks(t *testing.T) {
	dir := writeTree(t, docTree)
	var found []string
	tr := &Tree{Found: func(s string, p Place) { found = append(found, s) }}
	got := lines(dir, readTree(t, tr, dir))
	want := []string{
		"guide/x.html:1:69 ok ../index.html#here",
		"index.html:10:44 broken guide/gone.html",
		"index.html:2:42 ok style.css",
		"index.html:2:84 ok img/bg.png",
		"index.html:4:10 ok guide/x.html",
		"index.html:4:40 broken guide/missing.html",
		"index.html:5:10 ok guide/x.html#install",
		"index.html:5:53 broken fragment guide/x.html#nope",
		"index.html:6:10 ok #top",
		"index.html:6:33 ok #here",
		"index.html:6:76 broken fragment #gone",
		"index.html:7:11 ok img/a.png",
		"index.html:7:30 ok img/a.png",
		"index.html:7:44 broken img/b.png",
		"index.html:8:10 skipped /guide/x.html",
		"index.html:8:43 ok guide/",
		"index.html:8:71 broken empty/",
		"index.html:9:28 broken img/c.png",
		"md/README.md:15:10 broken raw.html",
		"md/README.md:18:1 ok #custom-id",
		"md/README.md:18:17 ok ../guide/x.html#old",
		"md/README.md:18:45 ok #raw-id",
		"md/README.md:18:59 ok ../md/",
		"md/README.md:18:73 broken ../empty/",
		"md/README.md:6:24 broken nope.md",
		"md/README.md:6:40 ok #install-it-1",
		"md/README.md:6:5 ok guide.md",
		"md/README.md:6:62 broken fragment #install-it-2",
		"md/README.md:7:30 ok ../index.html#here",
		"md/README.md:7:5 ok ../img/a.png",
		"style.css:1:10 broken base.css",
		"style.css:2:22 ok img/a.png",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantFound := []string{"https://example.invalid/x", "mailto:a@example.invalid", "https://example.invalid/auto"}
	if !slices.Equal(found, wantFound) {
		t.Errorf("network URLs %q, want %q", found, wantFound)
	}

	// With --root, the root-relative link resolves in the tree.
	tr = &Tree{Root: dir, Offline: true}
	got = lines(dir, readTree(t, tr, filepath.Join(dir, "index.html")))
	if !slices.Contains(got, "index.html:8:10 ok /guide/x.html") || !slices.Contains(got, "index.html:11:10 skipped https://example.invalid/x") {
		t.Errorf("--root, --offline:\n%s", strings.Join(got, "\n"))
	}
}

// TestTreeBase: absolute links under Base are checked in the tree, not
// over the network; those outside it are network URLs.
func TestTreeBase(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.html": `<a href="https://docs.example.org/guide/x.html#install">in</a> ` +
			`<a href="https://docs.example.org/guide/nope.html">in, missing</a> <a href="/guide/x.html">root</a> ` +
			`<a href="https://other.example.org/">out</a>`,
		"guide/x.html": `<h2 id="install">x</h2>`,
	})
	var found []string
	tr := &Tree{Base: "https://docs.example.org/", Found: func(s string, p Place) { found = append(found, s) }}
	got := lines(dir, readTree(t, tr, dir))
	want := []string{
		"a.html:1:10 ok https://docs.example.org/guide/x.html#install",
		"a.html:1:73 broken https://docs.example.org/guide/nope.html",
		"a.html:1:140 ok /guide/x.html",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) || !slices.Equal(found, []string{"https://other.example.org/"}) {
		t.Errorf("got\n%s\nfound %q", strings.Join(got, "\n"), found)
	}
}

// TestTreeOutside: a link that climbs out of the tree (../../..) or
// through a symbolic link out of it names a file whose existence alone
// is checked, as LinkChecker checks a file: URL: its content is never
// read, so a fragment into it is not judged; a symbolic link in the tree
// is not walked into.
func TestTreeOutside(t *testing.T) {
	outside := writeTree(t, map[string]string{"secret.html": `<p id="real">x</p>`})
	dir := writeTree(t, map[string]string{})
	rel, _ := filepath.Rel(dir, filepath.Join(outside, "secret.html"))
	up := filepath.ToSlash(rel)
	os.WriteFile(filepath.Join(dir, "a.html"), []byte(
		`<a href="`+up+`#missing">up</a> <a href="out/secret.html#missing">link</a> <a href="`+up+`x">gone</a>`), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	rs := readTree(t, &Tree{}, dir)
	got := lines(dir, rs)
	want := []string{
		"a.html:1:" + fmt.Sprint(10) + " ok " + up + "#missing",
		"a.html:1:" + fmt.Sprint(10+len(up)+8+18) + " ok out/secret.html#missing",
		"a.html:1:" + fmt.Sprint(10+len(up)+8+18+25+18) + " broken " + up + "x",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range rs {
		if r.Status == OK && !strings.Contains(r.Detail, "outside the tree") {
			t.Errorf("%s: %q, want it said outside the tree", r.URL, r.Detail)
		}
		for _, p := range r.Places {
			if strings.Contains(p.File, "secret") {
				t.Errorf("a file behind a symbolic link was read: %v", p)
			}
		}
	}
}

// TestTreeHugeHTML: a document with a token larger than MaxToken is read
// up to it and reported, in bounded memory; the links before it count.
func TestTreeHugeHTML(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<a href="missing.html">x</a><p title="`)
	b.Write(bytes.Repeat([]byte("a"), MaxToken+1024))
	b.WriteString(`"><a href="after.html">y</a>`)
	dir := writeTree(t, map[string]string{"big.html": b.String()})
	tr := &Tree{}
	got := lines(dir, readTree(t, tr, dir))
	if !slices.Equal(got, []string{"big.html:1:10 broken missing.html"}) {
		t.Errorf("got %q", got)
	}
	if len(tr.Problems) != 1 || !strings.Contains(tr.Problems[0], "16 MiB") {
		t.Errorf("problems %q, want the long token reported", tr.Problems)
	}
}

// TestTreeMarkdownNesting: deeply nested block quotes, lists (bulleted
// and ordered), brackets, link openings and link reference definitions
// are parsed in linear time
// (goldmark's open-block, bracket and destination scans are quadratic in
// them: seconds for 50,000).
func TestTreeMarkdownNesting(t *testing.T) {
	const n = 50000
	doc := strings.Repeat("[", n) + "x" + strings.Repeat("]", n) + "(a.md)\n\n" +
		strings.Repeat(">", n) + " deep\n\n" + strings.Repeat("* ", n) + "list\n\n" +
		strings.Repeat("1. ", n) + "ordered\n\n" + strings.Repeat("[a](", n) + "\n\n" +
		strings.Repeat("[r]: /u\n", n) + "\n[last](b.md)\n"
	dir := writeTree(t, map[string]string{"p.md": doc, "b.md": ""})
	got := lines(dir, readTree(t, &Tree{}, dir))
	if !slices.Contains(got, "p.md:50012:1 ok b.md") {
		t.Errorf("the link after the nesting: %q", got)
	}
}

// BenchmarkTreeMarkdownNesting reads the hostile Markdown of
// TestTreeMarkdownNesting at two sizes: the time per byte stays flat when
// the reading is linear in the nesting (go test -bench TreeMarkdownNesting).
func BenchmarkTreeMarkdownNesting(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		doc := strings.Repeat("[", n) + "x" + strings.Repeat("]", n) + "(a.md)\n\n" +
			strings.Repeat(">", n) + " deep\n\n" + strings.Repeat("* ", n) + "list\n\n" +
			strings.Repeat("1. ", n) + "ordered\n\n" + strings.Repeat("[a](", n) + "\n\n" +
			strings.Repeat("[r]: /u\n", n) + "\n[last](b.md)\n"
		dir := writeTree(b, map[string]string{"p.md": doc, "b.md": ""})
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				readTree(b, &Tree{}, dir)
			}
		})
	}
}

// TestTreeSameTwice: a second run over the same tree gives the same
// report, byte for byte.
func TestTreeSameTwice(t *testing.T) {
	dir := writeTree(t, docTree)
	var reports []string
	for range 2 {
		var b bytes.Buffer
		tr := &Tree{Offline: true, Jobs: 4}
		Report{Verbose: true}.Write(&b, readTree(t, tr, dir))
		reports = append(reports, b.String())
	}
	if reports[0] != reports[1] {
		t.Errorf("two runs differ:\n%s\n---\n%s", reports[0], reports[1])
	}
}

// TestTreeIgnore: .linkcheckignore and ExcludeURL skip what they match;
// IncludeURL keeps only what it matches.
func TestTreeIgnore(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a.md":         "[a](gone.md) [b](https://example.invalid/x) [c](other.md)\n",
		IgnoreFile:     "# comment\n^gone\\.md$\n",
		"sub/.keep.md": "",
	})
	var found []string
	tr := &Tree{Found: func(s string, p Place) { found = append(found, s) }}
	got := lines(dir, readTree(t, tr, dir))
	want := []string{"a.md:1:1 skipped gone.md", "a.md:1:45 broken other.md"}
	if !slices.Equal(got, want) || len(found) != 1 {
		t.Errorf("got %q, found %q", got, found)
	}
}

func TestSlug(t *testing.T) {
	s := slugger{}
	for _, tt := range [][2]string{
		{"Install it", "install-it"},
		{"Install it", "install-it-1"},
		{"Install it", "install-it-2"},
		{"install-it-1", "install-it-1-1"},
		{"What's new in 3.12?", "whats-new-in-312"},
		{"  Café  déjà_vu ", "café--déjà_vu"},
		{"C++ & Go", "c--go"},
	} {
		if got := s.slug(tt[0]); got != tt[1] {
			t.Errorf("slug(%q) = %q, want %q", tt[0], got, tt[1])
		}
	}
}

func TestCSSURLs(t *testing.T) {
	css := `@import "a.css"; @import url(b.css); .x{background:URL( 'c.png' )} /* url(no.png) */ .y{content:"url(no2)"} .z{mask:url(d.svg#m)}`
	var got []string
	cssURLs([]byte(css), func(ref string, i int) { got = append(got, fmt.Sprintf("%s@%d", ref, i)) })
	want := []string{"a.css@9", "b.css@29", "c.png@57", "d.svg#m@120"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSrcsetRefresh(t *testing.T) {
	var got []string
	srcsetURLs("a.png 1x, b,c.png 2x,d.png,e.png (x, y) 3w", func(ref string, i int) { got = append(got, fmt.Sprintf("%s@%d", ref, i)) })
	// A URL ends at white space only (HTML §4.8.4.2.2): "d.png,e.png" is one.
	want := []string{"a.png@0", "b,c.png@10", "d.png,e.png@21"}
	if !slices.Equal(got, want) {
		t.Errorf("srcset: got %q, want %q", got, want)
	}
	for _, tt := range []struct {
		in, url string
		at      int
	}{{"0; url=a.html", "a.html", 7}, {"5;URL='b.html'", "b.html", 7}, {"3, c.html", "c.html", 3}, {"10", "", 0}} {
		u, at, ok := refreshURL(tt.in)
		if u != tt.url || ok && at != tt.at || ok != (tt.url != "") {
			t.Errorf("refresh %q: %q at %d", tt.in, u, at)
		}
	}
}

// TestTreeAutolinksTwice: one bare URL written twice in a paragraph has
// two places.
func TestTreeAutolinksTwice(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.md": "x https://e.invalid/ y\nz https://e.invalid/ and <https://e.invalid/>\n"})
	got := lines(dir, readTree(t, &Tree{Offline: true}, filepath.Join(dir, "a.md")))
	want := []string{"a.md:1:3 skipped https://e.invalid/", "a.md:2:27 skipped https://e.invalid/", "a.md:2:3 skipped https://e.invalid/"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestTreeFileGivenTwice: a file given again (alone, or in its folder
// given twice) is read once: each of its links has its places once.
func TestTreeFileGivenTwice(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.txt": "see https://e.invalid/x\n", "b.html": `<a href="a.txt#x">a</a>`})
	once := lines(dir, readTree(t, &Tree{Offline: true}, dir))
	twice := lines(dir, readTree(t, &Tree{Offline: true, Jobs: 3}, dir, filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.html"), dir))
	if len(once) != 2 {
		t.Fatalf("links found: %q", once)
	}
	if !slices.Equal(once, twice) {
		t.Errorf("given twice:\n%s\nonce:\n%s", strings.Join(twice, "\n"), strings.Join(once, "\n"))
	}
}
