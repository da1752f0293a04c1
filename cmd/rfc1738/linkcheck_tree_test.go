package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docsTree writes a small documentation tree: HTML, Markdown and CSS
// with relative, root-relative, folder, fragment and network links.
func docsTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range map[string]string{
		"docs/index.html": "<!doctype html>\n<link href=\"style.css\" rel=stylesheet>\n" +
			"<a href=\"guide/\">guide</a> <a href=\"guide/install.html#linux\">linux</a>\n" +
			"<a href=\"guide/install.html#bsd\">bsd</a> <a href=\"/guide/gone.html\">root</a>\n" +
			"<a href=\"https://example.invalid/\">net</a>\n",
		"docs/style.css":          "body { background: url(img/bg.png) }\n",
		"docs/guide/index.html":   "<h1 id=\"top-of-guide\">Guide</h1>\n",
		"docs/guide/install.html": "<h2 id=\"linux\">Linux</h2>\n",
		"docs/README.md":          "# Docs\n\n## Install\n\nSee [install](#install), [nope](#nope) and [guide](guide/install.html#linux).\n\n    [code](gone.md)\n",
		"docs/.linkcheckignore":   "^https://ignored\\.invalid/\n",
		"docs/more/notes.md":      "[ignored](https://ignored.invalid/x) [up](../README.md#docs)\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLinkcheckTree: a tree is checked as written, through the binary:
// each finding at its file, line and column; exit 1 for broken links
// and fragments; --offline skips the network; --root resolves
// root-relative links.
func TestLinkcheckTree(t *testing.T) {
	dir := docsTree(t)
	out, errOut, status := runIn(t, dir, "", "linkcheck", "-q", "--offline", "docs")
	if status != exitNegative {
		t.Errorf("status %d, want 1; stderr %s", status, errOut)
	}
	for _, want := range []string{
		"docs/style.css:1:24: broken: img/bg.png: no such file: img/bg.png\n",
		"docs/index.html:4:10: broken fragment: guide/install.html#bsd: no anchor #bsd in guide/install.html\n",
		"docs/README.md:5:26: broken fragment: #nope: no anchor #nope in README.md\n",
		"11 URLs: 5 ok, 1 broken, 0 invalid, 3 skipped, 2 broken fragments",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "gone.md") {
		t.Errorf("a link in a code block was checked:\n%s", out)
	}
	out, _, _ = runIn(t, dir, "", "linkcheck", "-q", "-v", "--offline", "--root", "docs", "docs")
	if !strings.Contains(out, "docs/index.html:4:51: broken: /guide/gone.html: no such file: guide/gone.html") ||
		!strings.Contains(out, "docs/more/notes.md:1:1: skipped: https://ignored.invalid/x: excluded") {
		t.Errorf("--root:\n%s", out)
	}
	// GitHub annotations; warnings alone exit 0.
	os.WriteFile(filepath.Join(dir, "docs/style.css"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "docs/index.html"), []byte("<a href=\"/x.html\">x</a>\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "docs/README.md"), []byte("# Docs\n[ok](index.html)\n"), 0o644)
	out, errOut, status = runIn(t, dir, "", "linkcheck", "-q", "--offline", "--format", "github", "docs")
	if status != exitOK || out != "::warning file=docs/index.html,line=1,col=10,title=linkcheck skipped::skipped: /x.html: root-relative: give --root\n"+
		"4 URLs: 2 ok, 0 broken, 0 invalid, 2 skipped\n" {
		t.Errorf("status %d, github:\n%s%s", status, out, errOut)
	}
	_, _, status = runIn(t, dir, "", "linkcheck", "-q", "--offline", "--format", "sarif", "--exclude-url", "^/x", "docs")
	if status != exitOK {
		t.Errorf("--exclude-url: status %d", status)
	}
	for _, bad := range [][]string{{"--accept", "2xx"}, {"--exclude-url", "("}} {
		if _, _, status = runIn(t, dir, "", append([]string{"linkcheck", "-q"}, append(bad, "docs")...)...); status != exitUsage {
			t.Errorf("%q: status %d, want 2", bad, status)
		}
	}
}

// TestLinkcheckTreeSARIF: the SARIF report places a broken Markdown link
// on its Markdown line and column.
func TestLinkcheckTreeSARIF(t *testing.T) {
	dir := docsTree(t)
	out, _, status := runIn(t, dir, "", "linkcheck", "-q", "--offline", "--format", "sarif", "docs/README.md")
	if status != exitNegative {
		t.Errorf("status %d", status)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("%v:\n%s", err, out)
	}
	r := log.Runs[0].Results[0]
	loc := r.Locations[0].PhysicalLocation
	if r.RuleID != "broken-fragment" || loc.ArtifactLocation.URI != "docs/README.md" || loc.Region.StartLine != 5 || loc.Region.StartColumn != 26 {
		t.Errorf("%+v", r)
	}
}
