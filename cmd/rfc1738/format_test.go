package main

import (
	"strings"
	"testing"
)

// TestFormatCLI writes URLs the Appendix's way and reads them back with
// extract: both directions of the command line.
func TestFormatCLI(t *testing.T) {
	urls := []string{
		"http://ds.internic.net/instructions/overview.html#WARNING",
		"ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
		"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
	}
	out, errs, status := runCLI(t, "", append([]string{"format", "--width", "30", "--indent", "    "}, urls...)...)
	if status != exitOK || errs != "" {
		t.Fatalf("status %d, stderr %q", status, errs)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if len(line) > 30 || strings.HasSuffix(line, "-") {
			t.Errorf("line %q: longer than 30 or broken after '-'", line)
		}
	}
	back, _, _ := runCLI(t, out, "extract")
	if back != strings.Join(urls, "\n")+"\n" {
		t.Errorf("extract of\n%s\ngives\n%s", out, back)
	}
	// Default width 72 and indent "  "; one URL per line on stdin.
	out, _, _ = runCLI(t, "ftp://ds.internic.net/rfc\n"+urls[1]+"\n", "format")
	want := "<URL:ftp://ds.internic.net/rfc>\n<URL:ftp://ds.internic.net/internet-drafts/\n  draft-ietf-uri-irl-fun-req-02.txt>\n"
	if out != want {
		t.Errorf("stdin:\n%s\nwant\n%s", out, want)
	}
}

func TestFormatCLIErrors(t *testing.T) {
	out, errs, status := runCLI(t, "", "format", "http://a.org/x", "http://a.org/a b\x1b[31m", "ftp://h.org/")
	if status != exitNegative || out != "<URL:http://a.org/x>\n<URL:ftp://h.org/>\n" {
		t.Errorf("status %d, out %q", status, out)
	}
	if !strings.Contains(errs, "offset 14") || strings.Contains(errs, "\x1b") {
		t.Errorf("stderr %q: want the offset, and no raw escape", errs)
	}
	if _, errs, status := runCLI(t, "", "format", "--width", "4", "http://a.org/"); status != exitUsage || !strings.Contains(errs, "width") {
		t.Errorf("--width 4: status %d, stderr %q", status, errs)
	}
	if _, _, status := runCLI(t, "", "format", "--indent", "x", "http://a.org/"); status != exitUsage {
		t.Errorf("--indent x: status %d", status)
	}
}
