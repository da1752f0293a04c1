package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/extract"
)

// TestMain runs the pipelines of the tests on Prism, in process, with a
// temporary folder of their own, removed at the end: Beam's loopback mode
// leaves a file in the temporary folder at every run (see run in main.go).
func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "census-test-")
	if err == nil {
		os.Setenv("TMPDIR", tmp)
	}
	code := ptest.MainRetWithDefault(m, "prism")
	if err == nil {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

// rfcText is the RFC itself, the first corpus of extract.
func rfcText(t *testing.T) string {
	b, err := os.ReadFile("../../shared/spec/rfc1738.txt")
	if err != nil {
		t.Fatalf("the RFC text (../shared beside the repository): %v", err)
	}
	return string(b)
}

// prose is text with URLs of every kind: equal URLs written differently
// (one normal form, §2.2), invalid URLs, wrappers across lines.
const prose = `Mirrors: HTTP://Host.Dom:80/%7efoo and http://host.dom/%7Efoo are one URL,
and so is <URL:ftp://FTP.Example.ORG:21/pub/
  file.txt> beside ftp://ftp.example.org/pub/file.txt.
Not valid: http://user@host.dom/~joe and gopher://bad_host/ (twice: gopher://bad_host/).
Mail mailto:Joe@Example.Org; news:comp.lang.go and URL:telnet://TELNET.example.org.
`

// corpus writes the test corpus into dir: the files the CLI reads as they
// are (plain text and gzip), the WARC and WET files, and the text of each
// document of those as a file of its own for the CLI. It returns the files
// whose URLs the CLI must find, the bad files the census must report, and
// the malformed WARC records.
func corpus(t *testing.T, dir string) (cliFiles []string, bad map[string]string, malformed []MalformedRecord) {
	rfc := rfcText(t)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, "in", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(s string) []byte { return gzipMembers(t, s) }
	asDoc := func(name, text string) string {
		p := filepath.Join(dir, "docs", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cliFiles = append(cliFiles,
		write("a-rfc1738.txt", []byte(rfc)),
		write("b-prose.txt.gz", gz(strings.Repeat(prose, 3))),
		write("c-empty.txt", nil),
	)
	// A WET file: warcinfo, then one conversion record per page, each
	// record its own gzip member.
	pages := []struct{ uri, text string }{
		{"http://pages.example/1", prose},
		{"http://pages.example/2", rfc[:20000]},
		{"http://pages.example/3", "no URL here\n"},
	}
	members := []string{warcRecordText("warcinfo", "", "software: census test\r\nisPartOf: http://ignored.example/\r\n")}
	for i, p := range pages {
		members = append(members, warcRecordText("conversion", p.uri, p.text))
		cliFiles = append(cliFiles, asDoc(fmt.Sprintf("wet-%d.txt", i), p.text))
	}
	write("d-pages.warc.wet.gz", gzipMembers(t, members...))
	// An uncompressed WARC: a request (skipped), a response, a binary
	// resource (skipped), a malformed record, then a response again: the
	// malformed record is reported with its offset, and the records on
	// both sides of it are counted.
	resp := "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nGo to http://warc.example/next.html\n"
	resp2 := "HTTP/1.0 200 OK\r\n\r\nand then http://after.example/bad-record\n"
	cliFiles = append(cliFiles, asDoc("warc-response.txt", resp), asDoc("warc-response2.txt", resp2))
	head := warcRecordText("request", "http://warc.example/", "GET / HTTP/1.0\r\nHost: http://request.example/\r\n\r\n") +
		warcRecordText("response", "http://warc.example/", resp) +
		warcRecordText("resource", "http://warc.example/logo.gif", "GIF89a\x00\x00 http://binary.example/") +
		"WARC/1.0\r\nWARC-Type: resource\r\n"
	write("e-crawl.warc", []byte(head+"Content-Length: twelve\r\n\r\nhttp://lost.example/\r\n\r\n"+
		warcRecordText("response", "http://warc.example/2", resp2)))
	malformed = []MalformedRecord{{filepath.Join(dir, "in", "e-crawl.warc"), int64(len(head)), `Content-Length "twelve" is not a length`}}

	bad = map[string]string{}
	// Not text: a NUL byte early.
	bad[write("f-binary.dat", []byte("\x7fELF\x00\x00http://elf.example/"))] = "not text: a NUL byte at offset 4"
	// A truncated gzip stream: what came before the cut is scanned.
	full := gz(strings.Repeat("line http://truncated.example/\n", 2000))
	bad[write("g-truncated.txt.gz", full[:len(full)/2])] = "gzip: unexpected EOF after"
	bad[write("h-notgzip.gz", []byte("\x1f\x8b\x08garbage"))] = "gzip: "
	return cliFiles, bad, malformed
}

// runCensus runs the census on Prism and reads what it wrote.
func runCensus(t *testing.T, o Options) (map[string]urlLine, Summary) {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	Build(s, o)
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	shards, err := filepath.Glob(filepath.Join(o.Output, "urls-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(shards) != o.Shards {
		t.Errorf("%d shards written, want %d: %v", len(shards), o.Shards, shards)
	}
	lines := map[string]urlLine{}
	for _, name := range shards {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l urlLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%s: %v: %s", name, err, sc.Bytes())
			}
			if _, dup := lines[l.URL]; dup {
				t.Errorf("%s: %s written twice", name, l.URL)
			}
			lines[l.URL] = l
		}
		f.Close()
	}
	if left, _ := filepath.Glob(filepath.Join(o.Output, tempDir, "*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	b, err := os.ReadFile(filepath.Join(o.Output, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return lines, sum
}

// cli builds the rfc1738 command of the root module.
func cli(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "rfc1738")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/rfc1738")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/rfc1738: %v\n%s", err, out)
	}
	return bin
}

// cliCounts runs "rfc1738 extract --valid-only FILES | rfc1738 normalize"
// and counts the normal forms, and "rfc1738 extract --json FILES" for the
// invalid URLs as written.
func cliCounts(t *testing.T, bin string, files []string) (valid, invalid map[string]int64) {
	extract := exec.Command(bin, append([]string{"extract", "--valid-only"}, files...)...)
	normalize := exec.Command(bin, "normalize")
	var err error
	if normalize.Stdin, err = extract.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	// Each process its own stderr buffer: os/exec copies each from a
	// goroutine of its own.
	var out, errs, extractErrs bytes.Buffer
	normalize.Stdout, normalize.Stderr, extract.Stderr = &out, &errs, &extractErrs
	if err := extract.Start(); err != nil {
		t.Fatal(err)
	}
	if err := normalize.Run(); err != nil {
		t.Fatalf("rfc1738 normalize: %v\n%s", err, errs.String())
	}
	if err := extract.Wait(); err != nil {
		t.Fatalf("rfc1738 extract: %v\n%s", err, extractErrs.String())
	}
	valid = map[string]int64{}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		valid[l]++
	}
	js, err := exec.Command(bin, append([]string{"extract", "--json"}, files...)...).Output()
	if err != nil {
		t.Fatalf("rfc1738 extract --json: %v", err)
	}
	invalid = map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(js))
	for dec.More() {
		var m struct {
			URL   string `json:"url"`
			Valid bool   `json:"valid"`
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if !m.Valid {
			invalid[m.URL]++
		}
	}
	return valid, invalid
}

// TestCensusEqualsCLI: on the same documents, the census counts each
// valid URL's normal form exactly as often as "rfc1738 extract" then
// "rfc1738 normalize" print it, and each invalid URL as often as
// "rfc1738 extract" finds it.
func TestCensusEqualsCLI(t *testing.T) {
	dir := t.TempDir()
	cliFiles, bad, malformed := corpus(t, dir)
	out := filepath.Join(dir, "out")
	lines, sum := runCensus(t, Options{Input: filepath.Join(dir, "in", "*"), Output: out, Shards: 3, Samples: 2, Top: 5})

	wantValid, wantInvalid := cliCounts(t, cli(t), cliFiles)
	if len(wantValid) < 20 || len(wantInvalid) < 2 {
		t.Fatalf("the corpus is too small to say much: %d valid, %d invalid", len(wantValid), len(wantInvalid))
	}
	gotValid, gotInvalid := map[string]int64{}, map[string]int64{}
	for u, l := range lines {
		if strings.Contains(u, "truncated.example") {
			continue // from the truncated gzip file, which the CLI does not read
		}
		if l.Valid {
			gotValid[u] = l.Count
		} else {
			gotInvalid[u] = l.Count
		}
	}
	diff(t, "valid", gotValid, wantValid)
	diff(t, "invalid", gotInvalid, wantInvalid)

	// §2.2: two spellings of one URL are one line, counted twice per copy.
	if l := lines["http://host.dom/%7Efoo"]; l.Count != 2*4 || !l.Valid || l.Scheme != "http" || l.Rule != nil {
		t.Errorf("http://host.dom/%%7Efoo: %+v", l)
	}
	// An invalid URL is kept as written, with its first error's rule.
	bad1 := "gopher://bad_host/"
	if l := lines[bad1]; l.Valid || l.Rule == nil || *l.Rule != rfc1738.Check(bad1).Errors[0].Rule || l.Scheme != "gopher" {
		t.Errorf("%s: %+v (rule %v), want the rule %q", bad1, l, l.Rule, rfc1738.Check(bad1).Errors[0].Rule)
	}
	// Samples are the first places by document, line and column; a WET
	// record's document is its WARC-Target-URI; a wrapped URL's place is
	// its first byte.
	ftp := lines["ftp://ftp.example.org/pub/file.txt"]
	wantPlaces := []Place{{filepath.Join(dir, "in", "b-prose.txt.gz"), 2, 16}, {filepath.Join(dir, "in", "b-prose.txt.gz"), 3, 20}}
	if !slices.Equal(ftp.Samples, wantPlaces) || ftp.Count != 2*4 {
		t.Errorf("ftp samples %+v, count %d; want %+v", ftp.Samples, ftp.Count, wantPlaces)
	}
	if got := lines["http://warc.example/next.html"].Samples; !slices.Equal(got, []Place{{"http://warc.example/", 4, 7}}) {
		t.Errorf("samples of the WARC response's URL: %+v", got)
	}
	if got := lines["http://after.example/bad-record"].Samples; !slices.Equal(got, []Place{{"http://warc.example/2", 3, 10}}) {
		t.Errorf("samples of the URL of the WARC record after a malformed one: %+v", got)
	}
	for _, u := range []string{"http://request.example/", "http://binary.example/", "http://elf.example/", "http://ignored.example/", "http://lost.example/"} {
		if _, ok := lines[u]; ok {
			t.Errorf("%s is counted, but its record or file is not a document", u)
		}
	}
	if lines["http://truncated.example/"].Count == 0 {
		t.Error("the URLs before the cut of a truncated gzip file are not counted")
	}

	// The summary adds up the lines.
	var tot Totals
	schemes := map[string]SchemeStats{}
	for _, l := range lines {
		t := Totals{URLs: l.Count, Distinct: 1}
		sc := SchemeStats{URLs: l.Count, Distinct: 1}
		if l.Valid {
			t.Valid, t.DistinctValid, sc.Valid = l.Count, 1, l.Count
		} else {
			t.Invalid, t.DistinctInvalid, sc.Invalid = l.Count, 1, l.Count
		}
		tot = tot.add(t)
		schemes[l.Scheme] = schemes[l.Scheme].add(sc)
	}
	if sum.Totals != tot {
		t.Errorf("summary totals %+v, lines add up to %+v", sum.Totals, tot)
	}
	if fmt.Sprint(sum.Schemes) != fmt.Sprint(schemes) {
		t.Errorf("summary schemes %v, lines add up to %v", sum.Schemes, schemes)
	}
	if sum.Files != 8 || sum.FilesBad != int64(len(bad)) || sum.Documents != 9 || sum.Records != 8 || sum.RecordsSkipped != 3 || sum.RecordsMalformed != 1 {
		t.Errorf("summary counts: files %d (bad %d), documents %d, WARC records %d (skipped %d, malformed %d); want 8 (%d), 9, 8 (3, 1)",
			sum.Files, sum.FilesBad, sum.Documents, sum.Records, sum.RecordsSkipped, sum.RecordsMalformed, len(bad))
	}
	if !slices.Equal(sum.MalformedRecords, malformed) {
		t.Errorf("malformed WARC records %+v, want %+v", sum.MalformedRecords, malformed)
	}
	if len(sum.BadInputs) != len(bad) {
		t.Errorf("bad inputs %+v, want %d", sum.BadInputs, len(bad))
	}
	for _, b := range sum.BadInputs {
		if want, ok := bad[b.File]; !ok || !strings.Contains(b.Reason, want) {
			t.Errorf("bad input %s: %q, want %q", b.File, b.Reason, want)
		}
	}
	// Top hosts: a top-k of the valid URLs' hosts by occurrences.
	hosts := map[string]int64{}
	for _, l := range lines {
		if l.Valid {
			hosts[hostOf(l.URL)] += l.Count
		}
	}
	delete(hosts, "")
	var want []Count
	for h, n := range hosts {
		want = append(want, Count{h, n})
	}
	slices.SortFunc(want, func(a, b Count) int {
		if lessCount(a, b) {
			return 1
		}
		if lessCount(b, a) {
			return -1
		}
		return 0
	})
	if !slices.Equal(sum.TopHosts, want[:5]) {
		t.Errorf("top hosts %v, want %v", sum.TopHosts, want[:5])
	}
	if len(sum.TopErrorRules) == 0 || sum.TopErrorRules[0].Count < sum.TopErrorRules[len(sum.TopErrorRules)-1].Count {
		t.Errorf("top error rules %v", sum.TopErrorRules)
	}
}

// hostOf is the host of a normal, valid URL with a login (§3.1).
func hostOf(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	h := u[i+3:]
	h = h[:strings.IndexAny(h+"/", "/")]
	h = h[strings.LastIndexByte(h, '@')+1:]
	if j := strings.IndexByte(h, ':'); j >= 0 {
		h = h[:j]
	}
	return h
}

func diff(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	for u, n := range want {
		if got[u] != n {
			t.Errorf("%s %q: census counts %d, the CLI %d", what, u, got[u], n)
		}
	}
	for u, n := range got {
		if _, ok := want[u]; !ok {
			t.Errorf("%s %q: census counts %d, the CLI never prints it", what, u, n)
		}
	}
}

// TestNoInput: a glob that matches nothing fails the job with the glob.
func TestNoInput(t *testing.T) {
	dir := t.TempDir()
	p, s := beam.NewPipelineWithRoot()
	Build(s, Options{Input: filepath.Join(dir, "none-*"), Output: dir, Shards: 1, Samples: 1, Top: 1})
	err := ptest.Run(p)
	if err == nil || !strings.Contains(err.Error(), "no files matching pattern") {
		t.Errorf("got %v, want the job to fail with no files matching pattern", err)
	}
}

// outputs reads every file a run wrote, by name.
func outputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, dir)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameOutputs checks that two runs of the census on the corpus wrote the
// same bytes: 3 shards and summary.json.
func sameOutputs(t *testing.T, aName, a, bName, b string) {
	t.Helper()
	ao, bo := outputs(t, a), outputs(t, b)
	if len(ao) != 4 || len(bo) != len(ao) {
		t.Fatalf("%s: %d files, %s: %d files", aName, len(ao), bName, len(bo))
	}
	for name, data := range ao {
		if bo[name] != data {
			t.Errorf("%s differs:\n%s\n%s\n%s\n%s", name, aName, data, bName, bo[name])
		}
	}
}

// TestCensusCut: a census that cuts every file it can at every safe place
// writes byte for byte what a census that reads every file whole writes:
// text cut at empty lines, a WARC file at record starts, a .warc.gz at
// its members.
func TestCensusCut(t *testing.T) {
	dir := t.TempDir()
	corpus(t, dir)
	// More text with URLs near empty lines, brackets and wrappers.
	var more strings.Builder
	for i := range 300 {
		fmt.Fprintf(&more, "line %d http://h%d.example/p%d\n\n(see\n\nhttp://b%d.example/x) <URL:ftp://w%d.example/\n  a/b>\n\n", i, i%7, i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "in", "i-more.txt"), []byte(more.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in", "*")
	whole := filepath.Join(dir, "whole")
	runCensus(t, Options{Input: in, Output: whole, Shards: 3, Samples: 2, Top: 5})
	cut := filepath.Join(dir, "cut")
	runCensus(t, Options{Input: in, Output: cut, Shards: 3, Samples: 2, Top: 5, PieceBytes: 1, RangeBytes: 100})
	sameOutputs(t, "whole", whole, "cut", cut)

	// The files were cut, in ranges of the size asked for.
	fn := &cutFn{Piece: 1, Range: 100}
	for name, kind := range map[string]int{"a-rfc1738.txt": kindText, "d-pages.warc.wet.gz": kindGzWARC, "e-crawl.warc": kindWARC, "g-truncated.txt.gz": kindWhole} {
		p := filepath.Join(dir, "in", name)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		var ranges []Range
		// An input of 1 GiB in all: 32 buckets (one per 32 MiB).
		if err := fn.ProcessElement(context.Background(), fileio.FileMetadata{Path: p, Size: st.Size()}, iterOf([]int64{1 << 30}), func(r Range) { ranges = append(ranges, r) }); err != nil {
			t.Fatal(err)
		}
		pieces := 0
		for i, r := range ranges {
			pieces += len(r.Cuts) - 1
			if r.Kind != kind || r.First != (i == 0) || i > 0 && r.Cuts[0] != ranges[i-1].Cuts[len(ranges[i-1].Cuts)-1] || r.Buckets != 32 {
				t.Errorf("%s: range %d: %+v", name, i, r)
			}
		}
		if last := ranges[len(ranges)-1].Cuts; last[len(last)-1].Off != st.Size() {
			t.Errorf("%s: the ranges end at %d of %d", name, last[len(last)-1].Off, st.Size())
		}
		if kind != kindWhole && (pieces < 3 || len(ranges) < 2) {
			t.Errorf("%s: %d pieces in %d ranges", name, pieces, len(ranges))
		}
	}
}

// TestTextCuts: a scan of a text from each safe place finds what the scan
// of the whole text finds from there, on the same lines.
func TestTextCuts(t *testing.T) {
	text := rfcText(t) + prose + "\n\n(a\n\nhttp://x.example/) and\n\n<URL:http://y.example/\n\n  z> http://v.example/a-\nb\n" +
		"http://w.example/a\u00ad\nb http://u.example/a\u2010\nb\n" +
		strings.Repeat("http://z.example/ x\n", 1000) +
		// A hyphen before trailing white space still joins the lines (far
		// from any bracket, so that only the hyphen rule can keep a cut off).
		"http://t.example/a- \nb\nhttp://s.example/a\u00ad \t\nb\nhttp://r.example/a-\t\r\nb\n" +
		strings.Repeat("http://y.example/ x\n", 10)
	cuts := textCuts(bufio.NewReader(strings.NewReader(text)), 1)
	if len(cuts) < 50 {
		t.Fatalf("%d cuts", len(cuts))
	}
	all := extract.All(text)
	for _, c := range cuts {
		if c.Off < 2 || text[c.Off-1] != '\n' || strings.Count(text[:c.Off], "\n")+1 != c.Line {
			t.Fatalf("cut %+v is not a line start", c)
		}
		var want []string
		for _, m := range all {
			if m.Start.Offset >= c.Off {
				want = append(want, fmt.Sprintf("%s %d:%d", m.URL, m.Start.Line, m.Start.Column))
			}
		}
		var before []string
		for _, m := range all {
			if m.Start.Offset < c.Off {
				before = append(before, fmt.Sprintf("%s %d:%d", m.URL, m.Start.Line, m.Start.Column))
			}
		}
		var gotBefore []string
		for _, m := range extract.All(text[:c.Off]) {
			gotBefore = append(gotBefore, fmt.Sprintf("%s %d:%d", m.URL, m.Start.Line, m.Start.Column))
		}
		if !slices.Equal(gotBefore, before) {
			t.Fatalf("before %+v: got %q\nwant %q", c, gotBefore, before)
		}
		var got []string
		for _, m := range extract.All(text[c.Off:]) {
			got = append(got, fmt.Sprintf("%s %d:%d", m.URL, c.Line-1+m.Start.Line, m.Start.Column))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("from %+v: got %q\nwant %q", c, got, want)
		}
	}
}

// TestTopHostsNormalForm: a URL's host is its normal form's, so the top
// hosts do not depend on which spelling of a URL is counted first.
func TestTopHostsNormalForm(t *testing.T) {
	const a, b = "file://localhost/x", "file:///x"
	ua, _ := rfc1738.Parse(a)
	ub, _ := rfc1738.Parse(b)
	if rfc1738.Normalize(ua) != rfc1738.Normalize(ub) {
		t.Skipf("%s and %s have two normal forms", a, b)
	}
	var tops []string
	for _, order := range [][2]string{{a, b}, {b, a}} {
		dir := t.TempDir()
		text := order[0] + "\n" + order[1] + "\n" + order[1] + "\nhttp://one.example/\n"
		if err := os.WriteFile(filepath.Join(dir, "doc.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, sum := runCensus(t, Options{Input: filepath.Join(dir, "*.txt"), Output: filepath.Join(dir, "out"), Shards: 2, Samples: 1, Top: 5})
		tops = append(tops, jsonOf(sum.TopHosts))
	}
	if tops[0] != tops[1] {
		t.Errorf("top hosts %s, then %s", tops[0], tops[1])
	}
}

// TestCommit: a run publishes its shards and nothing else: the shards of
// an earlier run with another shard count and the temporary files of
// failed attempts are removed, shards with no URL are written empty, and
// summary.json is written last.
func TestCommit(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	stale := []string{
		filepath.Join(out, "urls-00000-of-00007.jsonl"),
		filepath.Join(out, "urls-00006-of-00007.jsonl"),
		filepath.Join(out, tempDir, "urls-00001-of-00003.jsonl.0123456789abcdef.tmp"),
	}
	other := filepath.Join(out, "notes.txt") // not the census's: kept
	for _, p := range append(stale, other, filepath.Join(out, "summary.json")) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "doc.txt"), []byte("http://a.example/ http://b.example/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const shards = 40 // more than the URLs: most shards are empty
	lines, sum := runCensus(t, Options{Input: filepath.Join(dir, "*.txt"), Output: out, Shards: shards, Samples: 1, Top: 5})
	if len(lines) != 2 || sum.Shards != shards || sum.Totals.Distinct != 2 {
		t.Errorf("%d lines, summary %+v", len(lines), sum)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, tempDir)); err == nil {
		t.Errorf("the temporary folder is still there")
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("a file that is not the census's was removed: %v", err)
	}
	st, err := os.Stat(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(out, "urls-*"))
	if len(names) != shards {
		t.Errorf("%d shards", len(names))
	}
	for _, p := range names {
		if s, err := os.Stat(p); err != nil || s.ModTime().After(st.ModTime()) {
			t.Errorf("%s: written after summary.json (%v)", p, err)
		}
	}

	// A commit that fails removes the old summary first and writes none.
	fn := &commitFn{Input: "x", Output: out, Shards: 2, Top: 1}
	err = fn.ProcessElement(context.Background(), 0, iterOf([]int64{1}), iterOf([]ShardResult{{Shard: 0, Shards: 2, Temp: filepath.Join(out, tempDir, "gone")}}),
		iterOf([]ScanStats{}), iterOf([]Top{}), iterOf([]BadInput{}), iterOf([]MalformedRecord{}), iterOf([]int64{}))
	if err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("got %v, want the rename of the missing file to fail", err)
	}
	if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
		t.Error("a failed commit left summary.json")
	}
	// A result of another shard count is an error.
	err = fn.ProcessElement(context.Background(), 0, iterOf([]int64{1}), iterOf([]ShardResult{{Shard: 0, Shards: 3}}),
		iterOf([]ScanStats{}), iterOf([]Top{}), iterOf([]BadInput{}), iterOf([]MalformedRecord{}), iterOf([]int64{}))
	if err == nil {
		t.Error("a shard of another run committed")
	}
}

// TestScanSplit: a range split between any two of its pieces, as a runner
// splits a splittable DoFn while it runs, is read by the two halves
// exactly as by one reader: the same URLs, counts, samples and records.
func TestScanSplit(t *testing.T) {
	dir := t.TempDir()
	corpus(t, dir)
	ctx := context.Background()
	type result struct {
		batch     string
		stats     ScanStats
		bad       []BadInput
		malformed []MalformedRecord
	}
	scan := func(r Range, rests ...offsetrange.Restriction) result {
		var res result
		var batches [][]byte
		for _, rest := range rests {
			fn := &scanFn{Samples: 2}
			err := fn.ProcessElement(ctx, sdf.NewLockRTracker(offsetrange.NewTracker(rest)), r,
				func(_ int, b []byte) { batches = append(batches, b) },
				func(s ScanStats) { res.stats = addScanStats(res.stats, s) },
				func(b BadInput) { res.bad = append(res.bad, b) },
				func(m MalformedRecord) { res.malformed = append(res.malformed, m) })
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(batches) > 0 {
			m, err := mergeBatches(2, batches)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := decodeBatch(m)
			res.batch = jsonOf(b)
		}
		return res
	}
	for _, name := range []string{"a-rfc1738.txt", "d-pages.warc.wet.gz", "e-crawl.warc"} {
		p := filepath.Join(dir, "in", name)
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		kind, cuts := (&cutFn{Piece: 1}).cuts(ctx, p)
		r := Range{Path: p, Kind: kind, First: true, Cuts: append(append([]Cut{{0, 0, 1}}, cuts...), Cut{Off: st.Size()}), Buckets: 1}
		n := int64(len(r.Cuts) - 1)
		if n < 3 {
			t.Fatalf("%s: %d pieces", name, n)
		}
		whole := scan(r, offsetrange.Restriction{Start: 0, End: n})
		if whole.batch == "" || whole.stats.Files != 1 || whole.stats.Bytes != st.Size() {
			t.Fatalf("%s: %+v", name, whole)
		}
		for k := int64(1); k < n; k++ {
			if got := scan(r, offsetrange.Restriction{Start: 0, End: k}, offsetrange.Restriction{Start: k, End: n}); !reflect.DeepEqual(got, whole) {
				t.Errorf("%s split at piece %d of %d:\n%+v\nwant\n%+v", name, k, n, got, whole)
			}
		}
	}
}
