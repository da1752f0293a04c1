package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/rfc1738/rfc1738"
)

// TestMain runs the pipelines of the tests on Prism, in process.
func TestMain(m *testing.M) { ptest.MainWithDefault(m, "prism") }

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
	if err == nil || !strings.Contains(err.Error(), "no file matches") {
		t.Errorf("got %v, want the job to fail with no file matches", err)
	}
}
