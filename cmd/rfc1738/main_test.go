package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// runCLI runs the CLI in-process with stdin and returns stdout, stderr and
// the exit status.
func runCLI(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	status := run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }})
	return out.String(), errb.String(), status
}

func TestParseJSONKeys(t *testing.T) {
	out, _, status := runCLI(t, "", "parse", "--json", "ftp://myname@host.dom/%2Fetc/motd;type=a")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"input": "ftp://myname@host.dom/%2Fetc/motd;type=a", "valid": true,
		"errors": []any{}, "warnings": []any{}, "more_errors": 0.0, "more_warnings": 0.0,
		"scheme": "ftp", "user": "myname", "password": nil, "host": "host.dom", "port": nil,
		"path": "%2Fetc/motd;type=a", "opaque": nil, "fragment": nil,
		"ftp": map[string]any{"cwd": []any{"/etc"}, "name": "motd", "type": "a"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parse --json =\n%v\nwant\n%v", got, want)
	}
}

// TestParseJSONSchemes checks the scheme object of each of the ten schemes.
func TestParseJSONSchemes(t *testing.T) {
	tests := map[string]string{
		"http://x.org/a?b":                                     `"http":{"path":"a","search":"b"}`,
		"gopher://h/1%09%09!+ABSTRACT%20+SMELL":                `"gopher":{"type":"1","selector":"","search":"","plus":"!+ABSTRACT +SMELL","plus_kind":"item-attributes"}`,
		"mailto:a%25b@x.org":                                   `"mailto":{"address":"a%b@x.org"}`,
		"news:1234@x.org":                                      `"news":{"group":null,"article":"1234@x.org"}`,
		"nntp://h/comp.lang.c/42":                              `"nntp":{"group":"comp.lang.c","article":"42"}`,
		"wais://h/db/TEXT/x%20y":                               `"wais":{"database":"db","search":null,"type":"TEXT","path":"x y"}`,
		"file://vms.host.edu/disk$user/my/notes/note12345.txt": `"file":{"host":"vms.host.edu","path":"disk$user/my/notes/note12345.txt"}`,
		"prospero://host.dom//pros/name;a=b":                   `"prospero":{"hsoname":"/pros/name","fields":[["a","b"]]}`,
		"telnet://h:2323/":                                     `"telnet":{}`,
	}
	for in, want := range tests {
		out, _, _ := runCLI(t, "", "parse", "--json", in)
		if !strings.Contains(out, want) {
			t.Errorf("parse --json %s = %s\nwant it to hold %s", in, out, want)
		}
		if strings.Count(out, `":{`) != 1 {
			t.Errorf("parse --json %s: only the URL's own scheme object may be present: %s", in, out)
		}
	}
}

func TestParseStdinKeepsOrderAndInvalidLines(t *testing.T) {
	in := "http://a.org/\nnot a url\r\nHTTP://b.org/~x\nnews:*"
	out, _, status := runCLI(t, in, "parse", "--json")
	if status != exitNegative {
		t.Errorf("status %d, want %d for an invalid line", status, exitNegative)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines of output for 4 inputs:\n%s", len(lines), out)
	}
	wantInputs := []string{"http://a.org/", "not a url", "HTTP://b.org/~x", "news:*"}
	wantValid := []bool{true, false, false, true}
	for i, l := range lines {
		var j struct {
			Input  string
			Valid  bool
			Errors []struct {
				Offset *int
				Rule   string
			}
		}
		if err := json.Unmarshal([]byte(l), &j); err != nil {
			t.Fatal(err)
		}
		if j.Input != wantInputs[i] || j.Valid != wantValid[i] {
			t.Errorf("line %d = %s", i, l)
		}
		if !j.Valid && (len(j.Errors) == 0 || j.Errors[0].Offset == nil) {
			t.Errorf("line %d: an invalid input needs an error with its offset: %s", i, l)
		}
	}
}

func TestParseHumanCaret(t *testing.T) {
	out, _, status := runCLI(t, "", "parse", "http://user@host/")
	if status != exitNegative {
		t.Errorf("status %d", status)
	}
	want := "  http://user@host/\n         ^\n  error at offset 7: httpurl:"
	if !strings.Contains(out, want) {
		t.Errorf("output:\n%s\nwant caret under offset 7:\n%s", out, want)
	}
	// A control character is shown escaped and the caret still lines up.
	out, _, _ = runCLI(t, "", "parse", "ftp://h/a\tb")
	if !strings.Contains(out, "  ftp://h/a\\tb\n           ^\n") {
		t.Errorf("output:\n%s", out)
	}
}

// TestDisplayCaret: letters beyond US-ASCII are shown as written and
// counted in the columns a terminal gives them (two for a wide
// character), so the caret stands under the character that holds the
// offset; a bidirectional override, a combining mark and invalid UTF-8
// are escaped, each byte with its own column.
func TestDisplayCaret(t *testing.T) {
	for _, tc := range []struct {
		in    string
		off   int
		shown string
		col   int
	}{
		{"http://bücher.de/a b", 8, "http://bücher.de/a b", 8},
		{"http://bücher.de/a b", 9, "http://bücher.de/a b", 8},
		{"http://bücher.de/a b", 19, "http://bücher.de/a b", 18},
		{"http://h/東京 x", 12, "http://h/東京 x", 11},
		{"http://h/東京 x", 15, "http://h/東京 x", 13},
		{"http://h/\u202ex y", 10, `http://h/\xe2\x80\xaex y`, 13},
		{"http://h/\u202ex y", 13, `http://h/\xe2\x80\xaex y`, 22},
		{"a\u0301b", 3, `a\xcc\x81b`, 9},
		{"a\xffb", 2, `a\xffb`, 5},
		{"ab", 2, "ab", 2},
	} {
		shown, col := display(tc.in, tc.off)
		if shown != tc.shown || col != tc.col {
			t.Errorf("display(%q, %d) = %q, %d; want %q, %d", tc.in, tc.off, shown, col, tc.shown, tc.col)
		}
	}
	// A window never cuts a character in two.
	long := strings.Repeat("é", 40) + " " + strings.Repeat("é", 40)
	shown, col := window(long, 80)
	if !utf8.ValidString(shown) || strings.Contains(shown, `\x`) || []rune(shown)[col] != ' ' {
		t.Errorf("window: %q, column %d", shown, col)
	}
}

func TestParseHumanView(t *testing.T) {
	out, _, status := runCLI(t, "", "parse", "ftp://myname@host.dom//etc/motd")
	if status != 0 {
		t.Fatalf("status %d", status)
	}
	for _, want := range []string{`ftp cwd        ["", "etc"]`, `ftp name       "motd"`, "port           21 (default)", `user           "myname"`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "urls.txt")
	os.WriteFile(f, []byte("# a comment\nhttp://x.org/\n\nHTTP://a_b/~c\nftp://h:99/\n"), 0o644)
	out, _, status := runCLI(t, "", "check", f)
	if status != exitNegative {
		t.Errorf("status %d, want 1", status)
	}
	want := f + ":4:9: error: toplabel: a host name has only letters, digits, '-' and '.' (§3.1)\n" +
		f + ":4:12: error: hsegment: '~' is unsafe and must be encoded as %7E (§2.2)\n" +
		f + ":4:1: warning: scheme: scheme names are lower case; \"HTTP\" is read as \"http\" (§2.1)\n" +
		f + ":5:9: warning: port: port 99 is not ftp's default 21; another protocol may listen there (§6)\n"
	if out != want {
		t.Errorf("check output:\n%s\nwant:\n%s", out, want)
	}
	out, _, status = runCLI(t, "http://x.org/\n", "check", "--json")
	if status != 0 || out != "" {
		t.Errorf("clean input: status %d, output %q", status, out)
	}
	out, _, _ = runCLI(t, "ftp://h/a b\n", "check", "--json")
	var finding jsonFinding
	if err := json.Unmarshal([]byte(out), &finding); err != nil || finding.Line != 1 || finding.Column != 10 || finding.Rule != "fsegment" || finding.File != "<stdin>" {
		t.Errorf("check --json = %s (%v)", out, err)
	}
	_, errOut, status := runCLI(t, "", "check", filepath.Join(dir, "missing"))
	if status != exitUsage || !strings.Contains(errOut, "missing") {
		t.Errorf("missing file: status %d, %q", status, errOut)
	}
}

func TestUsage(t *testing.T) {
	if _, errOut, status := runCLI(t, ""); status != exitUsage || !strings.Contains(errOut, "usage") {
		t.Errorf("no command: %d %q", status, errOut)
	}
	if _, errOut, status := runCLI(t, "", "frobnicate"); status != exitUsage || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: %d %q", status, errOut)
	}
	if _, _, status := runCLI(t, "", "parse", "--nope"); status != exitUsage {
		t.Errorf("bad flag: %d", status)
	}
	if out, _, status := runCLI(t, "", "parse", "--help"); status != 0 || !strings.Contains(out, "usage: rfc1738 parse") {
		t.Errorf("--help: %d %q", status, out)
	}
	// Flags may follow the URLs.
	out, _, _ := runCLI(t, "", "parse", "news:*", "--json")
	if !strings.HasPrefix(out, `{"input":"news:*"`) {
		t.Errorf("flag after operand: %q", out)
	}
}

// built is the rfc1738 binary the end-to-end tests share, built once.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// binary builds the rfc1738 binary for an end-to-end test, once per run.
func binary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "rfc1738-bin")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "rfc1738")
		if out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

func TestMain(m *testing.M) {
	status := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(status)
}

// TestBinaryEndToEnd runs the built binary with stdin, as scripts do.
func TestBinaryEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	cmd := exec.Command(bin, "parse", "--json")
	cmd.Stdin = strings.NewReader("ftp://@host.com/\nftp://foo:@host.com/\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"user":"","password":null`) || !strings.Contains(lines[1], `"user":"foo","password":""`) {
		t.Errorf("output:\n%s", out)
	}
	cmd = exec.Command(bin, "check")
	cmd.Stdin = strings.NewReader("telnet://h/path\n")
	out, err = cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("check of an invalid URL: %v", err)
	}
	if string(out) != "<stdin>:1:12: error: telneturl: nothing may follow the final '/' of a telnet URL (§3.8)\n" {
		t.Errorf("check output %q", out)
	}
}

// TestParseJSONPortExact: "port" is the number the digits spell, whatever
// its size, never a value wrapped round into a usable port (§5 port =
// digits); normalize keeps such a port as written.
func TestParseJSONPortExact(t *testing.T) {
	tests := map[string]string{
		"ftp://h:99999999999999999999999/": `"port":99999999999999999999999,`,
		"gopher://127.0.0.1:4295014374/0x": `"port":4295014374,`,
		"ftp://h:0021/":                    `"port":21,`,
		"ftp://h:000/":                     `"port":0,`,
	}
	for in, want := range tests {
		out, _, status := runCLI(t, "", "parse", "--json", in)
		if status != exitOK || !strings.Contains(out, want) {
			t.Errorf("parse --json %s: status %d, %s\nwant it to hold %s", in, status, out, want)
		}
	}
	out, _, status := runCLI(t, "", "normalize", "gopher://h:4294967366/0x", "ftp://h:0021/")
	if want := "gopher://h:4294967366/0x\nftp://h/\n"; status != exitOK || out != want {
		t.Errorf("normalize: status %d, %q, want %q", status, out, want)
	}
}

// TestParseJSONOpaqueGeneric: §5 schemepart = *xchar | ip-schemepart. When
// only *xchar matches, the URL is valid, its parts are the opaque
// schemepart alone, and a warning says why it has no host.
func TestParseJSONOpaqueGeneric(t *testing.T) {
	out, _, status := runCLI(t, "", "parse", "--json", "scheme://exam$ple.net")
	var got struct {
		Valid    bool
		Host     *string
		Port     any
		Opaque   *string
		Warnings []struct {
			Offset int
			Rule   string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if status != exitOK || !got.Valid || got.Host != nil || got.Port != nil || got.Opaque == nil || *got.Opaque != "//exam$ple.net" ||
		len(got.Warnings) != 1 || got.Warnings[0].Offset != 13 || got.Warnings[0].Rule != "domainlabel" {
		t.Errorf("parse --json scheme://exam$ple.net: status %d, %s", status, out)
	}
}
