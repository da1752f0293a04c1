package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestExtractRFC runs the command over the RFC's own text: its 30 URLs,
// the broken ones whole.
func TestExtractRFC(t *testing.T) {
	rfc := testserver.SharedFile(t, "spec/rfc1738.txt")
	out, errs, status := runCLI(t, "", "extract", rfc)
	if status != exitOK || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 30 {
		t.Errorf("%d URLs, want 30:\n%s", len(lines), out)
	}
	for _, u := range []string{
		"ftp://info.cern.ch/pub/www/doc;type=d", // Appendix, broken after ';'
		"ftp://ds.internic.net/rfc",             // Appendix, broken in the host
		"http://ds.internic.net/instructions/overview.html#WARNING",
		"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt", // [2]
	} {
		if !slices.Contains(lines, u) {
			t.Errorf("missing %s", u)
		}
	}
	// --unique: §3.2.2 and the References repeat no URL, so still 30,
	// with --json too (whose matches are made whole, the plain ones not);
	// --valid-only: every one is valid.
	for _, flags := range []string{"--unique", "--json --unique", "--valid-only"} {
		args := append(append([]string{"extract"}, strings.Fields(flags)...), rfc, rfc)
		if o, _, _ := runCLI(t, "", args...); strings.Count(o, "\n") != map[string]int{"--unique": 30, "--json --unique": 30, "--valid-only": 60}[flags] {
			t.Errorf("extract %s over the RFC twice: %d lines", flags, strings.Count(o, "\n"))
		}
	}
}

func TestExtractJSON(t *testing.T) {
	in := "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\ntype=d> but\n" +
		"see <URL:http://a.org/very-\n  long#top> and http://b_c.org/x.\n"
	out, _, status := runCLI(t, in, "extract", "--json")
	if status != exitOK {
		t.Fatalf("status %d", status)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	want0 := map[string]any{
		"url": "ftp://info.cern.ch/pub/www/doc;type=d", "file": "<stdin>",
		"line": 1.0, "column": 33.0, "offset": 32.0, "end_line": 2.0, "end_column": 7.0, "end_offset": 70.0,
		"form": "url-bracket", "valid": true, "fragment": nil, "errors": []any{}, "repaired": nil, "notes": []any{},
	}
	if !reflect.DeepEqual(got[0], want0) {
		t.Errorf("first line\n got %v\nwant %v", got[0], want0)
	}
	if got[1]["url"] != "http://a.org/very-long#top" || got[1]["fragment"] != "top" {
		t.Errorf("second line %v", got[1])
	}
	notes, _ := got[1]["notes"].([]any)
	if len(notes) != 1 || notes[0].(map[string]any)["alternative"] != "http://a.org/verylong#top" {
		t.Errorf("hyphen note: %v", got[1]["notes"])
	}
	errs, _ := got[2]["errors"].([]any)
	if got[2]["form"] != "bare" || got[2]["valid"] != false || len(errs) == 0 || errs[0].(map[string]any)["rule"] != "domainlabel" {
		t.Errorf("third line %v", got[2])
	}
	// --valid-only leaves out the invalid one.
	out, _, _ = runCLI(t, in, "extract", "--valid-only")
	if out != "ftp://info.cern.ch/pub/www/doc;type=d\nhttp://a.org/very-long#top\n" {
		t.Errorf("--valid-only: %q", out)
	}
}

// TestExtractUnsafe: a bare URL with '~' is taken whole, invalid, with the
// §2.2 error at the '~' and the repaired strict form; --strict stops at
// the '~' as the grammar does, with a note.
func TestExtractUnsafe(t *testing.T) {
	in := "papers at http://host.dom/~joe/paper.ps, and a mirror\n"
	out, _, status := runCLI(t, in, "extract", "--json")
	if status != exitOK {
		t.Fatalf("status %d", status)
	}
	var m struct {
		URL      string
		Valid    bool
		Errors   []jsonDiag
		Repaired *string
		Notes    []jsonNote
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.URL != "http://host.dom/~joe/paper.ps" || m.Valid || len(m.Errors) != 1 || m.Errors[0].Offset != 16 ||
		!strings.Contains(m.Errors[0].Message, "%7E") || m.Repaired == nil || *m.Repaired != "http://host.dom/%7Ejoe/paper.ps" {
		t.Errorf("--json: %s", out)
	}
	out, _, _ = runCLI(t, in, "extract", "--json", "--strict")
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.URL != "http://host.dom/" || !m.Valid || m.Repaired != nil || len(m.Notes) != 1 || *m.Notes[0].Alternative != "http://host.dom/~joe/paper.ps" {
		t.Errorf("--json --strict: %s", out)
	}
	if out, _, _ := runCLI(t, in, "extract", "--valid-only"); out != "" {
		t.Errorf("--valid-only kept %q", out)
	}
}

func TestExtractStatus(t *testing.T) {
	if _, _, status := runCLI(t, "no URL, only uri@bunyip.com and http://", "extract"); status != exitNegative {
		t.Errorf("no URL: status %d, want %d", status, exitNegative)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("http://a.org/\n"), 0o644)
	out, errs, status := runCLI(t, "", "extract", filepath.Join(dir, "missing"), good)
	if status != exitUsage || out != "http://a.org/\n" || !strings.Contains(errs, "missing") {
		t.Errorf("missing file: status %d, out %q, stderr %q", status, out, errs)
	}
	// A gzip file cut short: the URLs before the cut, then the error.
	z := gzipped(t, "http://a.org/ "+strings.Repeat("x", 100000)+" http://b.org/")
	bad := filepath.Join(dir, "cut.gz")
	os.WriteFile(bad, z[:len(z)-10], 0o644)
	out, errs, status = runCLI(t, "", "extract", bad)
	if status != exitUsage || !strings.HasPrefix(out, "http://a.org/\n") || !strings.Contains(errs, "cut.gz") {
		t.Errorf("truncated gzip: status %d, out %q, stderr %q", status, out, errs)
	}
	if _, _, status := runCLI(t, "", "extract", "--bogus"); status != exitUsage {
		t.Errorf("bad flag: status %d", status)
	}
}

// TestExtractGzip reads gzip from a .gz file and from stdin.
func TestExtractGzip(t *testing.T) {
	text := "mail <URL:mailto:a@b.org> or read news:comp.lang.c.\n"
	z := gzipped(t, text)
	want := "mailto:a@b.org\nnews:comp.lang.c\n"
	if out, _, _ := runCLI(t, string(z), "extract"); out != want {
		t.Errorf("gzip on stdin: %q", out)
	}
	f := filepath.Join(t.TempDir(), "notes.gz")
	os.WriteFile(f, z, 0o644)
	if out, _, _ := runCLI(t, "", "extract", f); out != want {
		t.Errorf("%s: %q", f, out)
	}
}

// TestExtractParallelOrder scans many files, plain and gzipped, of very
// different sizes on several workers: the output is in input order, the
// same as with one worker, and --unique keeps first occurrences.
func TestExtractParallelOrder(t *testing.T) {
	dir := t.TempDir()
	var files []string
	var want strings.Builder
	for i := range 24 {
		var text strings.Builder
		// The first files are the largest, so later ones finish first.
		n := (24 - i) * 400
		for j := range n {
			fmt.Fprintf(&text, "line %d of file %d: see <URL:http://h%d.org/\n  p%d> and ftp://h.org/common\n", j, i, i, j)
			fmt.Fprintf(&want, "http://h%d.org/p%d\nftp://h.org/common\n", i, j)
		}
		name := filepath.Join(dir, fmt.Sprintf("f%02d.txt", i))
		data := []byte(text.String())
		if i%3 == 0 {
			name += ".gz"
			data = gzipped(t, text.String())
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	for _, jobs := range []string{"1", "4"} {
		out, errs, status := runCLI(t, "", append([]string{"extract", "--jobs", jobs}, files...)...)
		if status != exitOK || errs != "" {
			t.Fatalf("--jobs %s: status %d, stderr %q", jobs, status, errs)
		}
		if out != want.String() {
			t.Errorf("--jobs %s: output (%d bytes) differs from the input order (%d bytes)", jobs, len(out), len(want.String()))
		}
	}
	out, _, _ := runCLI(t, "", append([]string{"extract", "--unique"}, files...)...)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) < 2 || lines[0] != "http://h0.org/p0" || lines[1] != "ftp://h.org/common" || strings.Count(out, "ftp://h.org/common") != 1 {
		t.Errorf("--unique: %d lines, starting %q", len(lines), lines[:min(3, len(lines))])
	}
	// JSON names each file.
	out, _, _ = runCLI(t, "", "extract", "--json", files[len(files)-1], files[0])
	first, last := out[:strings.IndexByte(out, '\n')], out[strings.LastIndexByte(out[:len(out)-1], '\n')+1:]
	if !strings.Contains(first, `"file":"`+files[len(files)-1]+`"`) || !strings.Contains(last, `"file":"`+files[0]+`"`) {
		t.Errorf("files in JSON: first %s last %s", first, last)
	}
}
