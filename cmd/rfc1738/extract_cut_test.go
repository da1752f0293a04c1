package main

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/extract"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// The fragments of the generated text: URLs in every form, broken across
// lines in every way the scanner joins (a wrapper, an ASCII hyphen, a
// typesetter's hyphen, with whitespace around the break), and, rarer,
// what it looks back at before a URL (brackets, an open '<'), which
// leave no place to cut for a while.
var (
	cutCommon = []string{
		"see http://a.org/x", "<URL:ftp://host.dom/pub/\n   file.txt>", "<URL:http://a.org/\n\nx>",
		"<URL:mailto:joe@example.org>", "<news:comp.infosystems.www>", "URL:http://d.org/q?x=1",
		"http://a.org/long-\nname.html", "http://a.org/long- \n  name.html", "http://a.org/path-", "-",
		"http://x.org/a\u2010\nb", "http://x.org/a\u00ad \n b", "\u2010", "mailto:ann@example.org.",
		"http://a.org/~user", "*http://f.org/*", "_http://g.org/_", "http://h.org/a&gt;", "&quot;",
		"ftp://ftp.x.org/pub;type=d", "gopher://gopher.tc.umn.edu:70/11", "\r\n", "http://j.org/\"q\"",
		"see", "the", "text", "of", "a", "README", "10:30", "http:", "wais://w.org/db?x",
		"http://k.org/x\u2028y", "http://l.org/%zz", "http://m.org/a-\n\nb", "news:comp.x-\nyz",
		"http://bücher.example/x", "<URL:http://例え.jp/\n  x>", "https://münchen.de\u2010\nx",
	}
	cutRare = []string{
		"(see http://b.org/y)/z", "[t](http://e.org/p)", "(", ")", "[", "{", "}", "<http://c.org/", "word>",
		"<", ">", "http://[2001:db8::1]/", "file://{path}", "<URL:http://n.org/\n  more", "(http://o.org/\n\nx)",
		"(see\nhttp://p.org/y)/z", "[x\n\nhttp://q.org/y]z",
	}
)

// cutText returns about n bytes of generated text: lines of fragments,
// now and then a blank one.
func cutText(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1738))
	var b bytes.Buffer
	for b.Len() < n {
		for k := r.IntN(5); k >= 0; k-- {
			if r.IntN(60) == 0 {
				b.WriteString(cutRare[r.IntN(len(cutRare))])
			} else {
				b.WriteString(cutCommon[r.IntN(len(cutCommon))])
			}
			if k > 0 {
				b.WriteString([]string{" ", " ", "  ", "\t", ""}[r.IntN(5)])
			}
		}
		b.WriteString([]string{"\n", "\n", "\n", "\n\n", " \n", "\n \n", "\r\n"}[r.IntN(7)])
	}
	return b.Bytes()
}

// scanPieces returns the output of the units the command makes of data
// cut at cuts, as the writer puts it together (but --unique).
func scanPieces(t *testing.T, data []byte, cuts []int, o extractOptions) string {
	t.Helper()
	src := &extractSource{data: data, left: len(cuts) + 1}
	points := append(append([]int{0}, cuts...), len(data))
	sc := extract.NewScanner(nil)
	sc.SetStrict(o.strict)
	f := extractFormatter{free: make(chan []byte, 1)}
	var out strings.Builder
	line := 0
	for i := 0; i+1 < len(points); i++ {
		if i > 0 {
			line += bytes.Count(data[points[i-1]:points[i]], nl)
		}
		u := &extractUnit{name: "t", src: src, from: points[i], to: points[i+1], line: line, out: make(chan []extractBatch, 4)}
		f.scan(sc, u, o)
		for bs := range u.out {
			for _, b := range bs {
				if b.err != nil {
					t.Fatal(b.err)
				}
				out.Write(b.out)
			}
		}
	}
	return out.String()
}

// TestExtractCutsExact cuts generated text at every line start the cut
// rule calls safe, and at each, the two pieces scanned afresh give what
// the whole gives, byte for byte, positions in --json included.
func TestExtractCutsExact(t *testing.T) {
	data := cutText(24<<10, 1)
	for _, o := range []extractOptions{{json: true}, {json: true, strict: true}} {
		whole := scanPieces(t, data, nil, o)
		if strings.Count(whole, "\n") < 500 {
			t.Fatalf("only %d URLs", strings.Count(whole, "\n"))
		}
		safe, lines := 0, 0
		for p := 1; p < len(data); p++ {
			if data[p-1] != '\n' {
				continue
			}
			lines++
			if _, ok := cutSafe(data, p); !ok {
				continue
			}
			safe++
			if got := scanPieces(t, data, []int{p}, o); got != whole {
				t.Fatalf("strict %v: cut at %d (%q|%q):\n%s", o.strict, p, data[max(0, p-80):p], data[p:min(len(data), p+80)], firstDiff(got, whole))
			}
		}
		// The rule must leave places to cut, and refuse some.
		t.Logf("strict %v: %d of %d line starts safe, %d URLs", o.strict, safe, lines, strings.Count(whole, "\n"))
		if safe < lines/20 || safe == lines {
			t.Errorf("%d of %d line starts safe", safe, lines)
		}
	}
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "got  " + g[i] + "\nwant " + w[i]
		}
	}
	return "lengths differ"
}

// TestExtractPiecesCLI runs the command over a large generated text and
// the RFC, cut into many small pieces scanned by several workers, read as
// a FILE and as stdin: the output is what one worker reading it whole
// writes, for plain, --json, --unique and --valid-only.
func TestExtractPiecesCLI(t *testing.T) {
	defer func(n, m int) { extractPieceMin, extractSplitMin = n, m }(extractPieceMin, extractSplitMin)
	extractPieceMin, extractSplitMin = 4<<10, 0
	dir := t.TempDir()
	gen := filepath.Join(dir, "gen.txt")
	if err := os.WriteFile(gen, cutText(1<<20, 2), 0o644); err != nil {
		t.Fatal(err)
	}
	rfc := testserver.SharedFile(t, "spec/rfc1738.txt")
	for _, file := range []string{gen, rfc} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(extractCuts(data, max(len(data)/16, extractPieceMin))); n < 4 {
			t.Fatalf("%s: %d cuts", file, n)
		}
		for _, flags := range [][]string{nil, {"--json"}, {"--unique"}, {"--valid-only"}, {"--json", "--strict"}} {
			want, _, wantStatus := runCLI(t, "", append(append([]string{"extract", "--jobs", "1"}, flags...), file, file)...)
			for _, jobs := range []string{"2", "3"} {
				got, errs, status := runCLI(t, "", append(append([]string{"extract", "--jobs", jobs}, flags...), file, file)...)
				if got != want || status != wantStatus || errs != "" {
					t.Errorf("%s %v --jobs %s: status %d (want %d), stderr %q\n%s", filepath.Base(file), flags, jobs, status, wantStatus, errs, firstDiff(got, want))
				}
			}
			// stdin, mapped when it is a file.
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			var out, errb bytes.Buffer
			status := run(append(append([]string{"extract", "--jobs", "2"}, flags...), "-", file),
				&env{stdin: f, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
			f.Close()
			want2, _, _ := runCLI(t, string(data), append(append([]string{"extract", "--jobs", "1"}, flags...), "-", file)...)
			if out.String() != want2 || status != wantStatus {
				t.Errorf("%s %v < FILE: status %d\n%s", filepath.Base(file), flags, status, firstDiff(out.String(), want2))
			}
		}
	}
}

// jsonMatch is what --json writes, through encoding/json: appendJSON
// must write the same bytes.
type jsonMatch struct {
	URL       string     `json:"url"`
	File      string     `json:"file"`
	Line      int        `json:"line"`
	Column    int        `json:"column"`
	Offset    int64      `json:"offset"`
	EndLine   int        `json:"end_line"`
	EndColumn int        `json:"end_column"`
	EndOffset int64      `json:"end_offset"`
	Form      string     `json:"form"`
	Valid     bool       `json:"valid"`
	Fragment  *string    `json:"fragment"`
	Errors    []jsonDiag `json:"errors"`
	Repaired  *string    `json:"repaired"`
	Notes     []jsonNote `json:"notes"`
}

func newJSONMatch(file string, m extract.Match) jsonMatch {
	j := jsonMatch{URL: m.URL, File: file,
		Line: m.Start.Line, Column: m.Start.Column, Offset: m.Start.Offset,
		EndLine: m.End.Line, EndColumn: m.End.Column, EndOffset: m.End.Offset,
		Form: m.Form.String(), Valid: m.Valid, Fragment: opt(m.Fragment()),
		Errors: diags(m.Errors), Repaired: opt(m.Repaired, m.Repaired != ""), Notes: []jsonNote{}}
	for _, n := range m.Notes {
		j.Notes = append(j.Notes, jsonNote{Offset: n.Offset, Message: n.Message, Alternative: opt(n.Alternative, n.Alternative != "")})
	}
	return j
}

// TestExtractJSONAsEncoder compares appendJSON with encoding/json over
// every match of the generated text and the RFC, and appendJSONString
// over strings that need escapes.
func TestExtractJSONAsEncoder(t *testing.T) {
	rfc, err := os.ReadFile(testserver.SharedFile(t, "spec/rfc1738.txt"))
	if err != nil {
		t.Fatal(err)
	}
	file := "dir/<a&b>\"\\\x01\u2028\xff.txt"
	for _, text := range [][]byte{cutText(64<<10, 3), rfc} {
		sc := extract.NewScanner(bytes.NewReader(text))
		var f extractFormatter
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		n := 0
		for sc.Scan() {
			m := sc.Match()
			name := file // the file name is escaped once a file: names alternate here
			if n%3 == 2 {
				name = "other \"file\".txt"
			}
			f.out = f.out[:0]
			f.appendJSON(name, &m, 0, 0)
			want.Reset()
			enc.Encode(newJSONMatch(name, m))
			if !bytes.Equal(f.out, want.Bytes()) {
				t.Fatalf("got  %s\nwant %s", f.out, want.Bytes())
			}
			n++
		}
		if n < 30 {
			t.Fatalf("%d matches", n)
		}
	}
	for _, s := range []string{"", "plain", "\"\\/<>&", "\b\f\n\r\t\x00\x1f\x7f", "\u2028\u2029é€😀", "\xff\xc3(\xe2\x80", "a\u00adb", "http://a.org/x\"y", "http://a.org/é", "http://a.org/\x7f~"} {
		want, _ := json.Marshal(s)
		want = bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(want, []byte(`\u003c`), []byte("<")), []byte(`\u003e`), []byte(">")), []byte(`\u0026`), []byte("&"))
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestExtractSplitsOnlyLargeFiles: a file under extractSplitMin is one
// unit whatever --jobs says; at or over it, it is cut into pieces (with
// more than one job).
func TestExtractSplitsOnlyLargeFiles(t *testing.T) {
	defer func(n, m int) { extractPieceMin, extractSplitMin = n, m }(extractPieceMin, extractSplitMin)
	extractPieceMin = 4 << 10
	path := filepath.Join(t.TempDir(), "gen.txt")
	data := cutText(256<<10, 2)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	count := func(jobs int) int {
		units := extractUnits(e, path, jobs, false)
		for _, u := range units {
			u.src.done()
		}
		return len(units)
	}
	for _, tc := range []struct{ splitMin, jobs, min, max int }{
		{len(data) + 1, 2, 1, 1},   // under the threshold: whole
		{len(data), 2, 4, 1 << 20}, // at it: pieces
		{len(data), 1, 1, 1},       // one job: whole
	} {
		extractSplitMin = tc.splitMin
		if n := count(tc.jobs); n < tc.min || n > tc.max {
			t.Errorf("%d bytes, extractSplitMin %d, --jobs %d: %d units, want %d to %d", len(data), tc.splitMin, tc.jobs, n, tc.min, tc.max)
		}
	}
}
