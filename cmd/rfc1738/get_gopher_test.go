package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

var updateGopherGolden = flag.Bool("update-gopher", false, "rewrite the gopher golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update-gopher.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGopherGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update-gopher to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n%s\nwant:\n%s", path, got, want)
	}
}

// modDate matches the modification dates pygopherd puts in +ADMIN blocks.
var modDate = regexp.MustCompile(`Mod-Date: [^"\r\n]*`)

// stable replaces what changes from run to run — the daemon's port and
// pygopherd's dates — so that listings can be golden files.
func stable(s string, port int) string {
	s = strings.ReplaceAll(s, ":"+strconv.Itoa(port), ":PORT")
	s = strings.ReplaceAll(s, "\t"+strconv.Itoa(port), "\tPORT")
	s = strings.ReplaceAll(s, `\t`+strconv.Itoa(port), `\tPORT`) // inside JSON strings
	return modDate.ReplaceAllString(s, "Mod-Date: DATE")
}

func TestGetGopherGophernicus(t *testing.T) {
	srv := testserver.Gophernicus(t)
	base := "gopher://127.0.0.1:" + strconv.Itoa(srv.Port)

	for _, tt := range []struct{ flag, golden string }{
		{"", "gopher-menu.txt"},
		{"--json", "gopher-menu.jsonl"},
		{"--raw", "gopher-menu.raw"},
	} {
		args := []string{"get", base + "/"}
		if tt.flag != "" {
			args = append(args, tt.flag)
		}
		out, errOut, status := runCLI(t, "", args...)
		if status != 0 {
			t.Fatalf("%q: status %d: %s", args, status, errOut)
		}
		golden(t, tt.golden, stable(out, srv.Port))
	}

	dir := t.TempDir()
	blob := filepath.Join(dir, "blob.bin")
	if _, errOut, status := runCLI(t, "", "get", "-o", blob, base+"/9/docs/blob.bin"); status != 0 {
		t.Fatalf("binary: %d %s", status, errOut)
	}
	if b, _ := os.ReadFile(blob); !bytes.Equal(b, testserver.GopherBlob()) {
		t.Errorf("blob.bin: %d bytes, not the %d bytes served", len(b), len(testserver.GopherBlob()))
	}
	// Text: local line ends by default, the wire's bytes with --raw.
	disk, _ := os.ReadFile(filepath.Join(srv.Root, "hello.txt"))
	out, _, status := runCLI(t, "", "get", base+"/0/hello.txt")
	if want := strings.ReplaceAll(string(disk), "\r\n", "\n"); status != 0 || out != want {
		t.Errorf("text: %d %q, want %q", status, out, want)
	}
	out, _, status = runCLI(t, "", "get", "--raw", base+"/0/hello.txt")
	if status != 0 || out != string(disk) {
		t.Errorf("text --raw: %d %q, want %q", status, out, disk)
	}

	// The type-7 search script: the search in the URL, or asked.
	want := "(INFO)  You searched for: hello world\n(FILE)  Result for hello world  <URL:gopher://127.0.0.1:7070/0/hello.txt>\n"
	out, errOut, status := runCLI(t, "", "get", "-v", base+"/7/cgi-bin/search%09hello%20world")
	if status != 0 || out != want || !strings.Contains(errOut, "> /cgi-bin/search\thello world\n") {
		t.Errorf("search: %d %q\n%s", status, out, errOut)
	}
	out, _, status = runCLI(t, "", "get", "--answer", "hello world", base+"/7/cgi-bin/search")
	if status != 0 || out != want {
		t.Errorf("asked search: %d %q", status, out)
	}
	_, errOut, status = runCLI(t, "", "get", base+"/7/cgi-bin/search")
	if status != exitNegative || !strings.Contains(errOut, "needs a search string") {
		t.Errorf("search without one: %d %q", status, errOut)
	}
}

func TestGetGopherPygopherd(t *testing.T) {
	srv := testserver.Pygopherd(t)
	base := "gopher://127.0.0.1:" + strconv.Itoa(srv.Port)
	disk, err := os.ReadFile(filepath.Join(srv.Root, "hello.txt"))
	if err != nil {
		t.Fatal(err)
	}

	// §3.4.4: the default view, with its +N header.
	out, errOut, status := runCLI(t, "", "get", "-v", "--raw", base+"/0/hello.txt%09%09+")
	wantTrace := "> /hello.txt\t\t+\n< +" + strconv.Itoa(len(disk)) + "\n< [" + strconv.Itoa(len(disk)) + " bytes]\n"
	if status != 0 || out != string(disk) || errOut != wantTrace {
		t.Errorf("+: %d %q\n%s\nwant trace:\n%s", status, out, errOut, wantTrace)
	}
	// §3.4.6, §3.4.7: attributes of the item and of the directory.
	out, errOut, status = runCLI(t, "", "get", base+"/0/hello.txt%09%09!")
	if status != 0 {
		t.Fatalf("!: %d %s", status, errOut)
	}
	golden(t, "gopher-item-attributes.txt", stable(out, srv.Port))
	out, errOut, status = runCLI(t, "", "get", base+"/1/%09%09$")
	if status != 0 {
		t.Fatalf("$: %d %s", status, errOut)
	}
	golden(t, "gopher-dir-attributes.txt", stable(out, srv.Port))
	out, errOut, status = runCLI(t, "", "get", "--json", base+"/1/%09%09$")
	if status != 0 {
		t.Fatalf("$ --json: %d %s", status, errOut)
	}
	golden(t, "gopher-dir-attributes.jsonl", stable(out, srv.Port))
	// §3.4.8: a view listed by "!" fetches that view.
	out, _, status = runCLI(t, "", "get", "--raw", base+"/0/hello.txt%09%09+text/plain")
	if status != 0 || out != string(disk) {
		t.Errorf("view: %d %q", status, out)
	}
	// A Gopher+ error keeps its code's meaning and text.
	_, errOut, status = runCLI(t, "", "get", base+"/0/nothere%09%09+")
	if status != exitRefused || !strings.Contains(errOut, "Gopher+ error 1 (item is not available): '/nothere' does not exist") {
		t.Errorf("missing item: %d %q", status, errOut)
	}
}

// TestGetGopherAsk: a §3.4.5 form through the CLI, answered by --answer;
// the fake records exactly the §3.4.9 bytes.
func TestGetGopherAsk(t *testing.T) {
	attrs := "+-2\r\n+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n+ASK:\r\n Ask: Your name\tnobody\r\n AskP: Password\r\n Choose: Colour\tred\tgreen\r\n"
	f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte(attrs)},
		testserver.GopherReply{Reply: []byte("+-1\r\nThanks, Ann.\r\n.\r\n")})
	url := "gopher://" + f.Addr + "/0/form%09%09?"
	out, errOut, status := runCLI(t, "", "get", "-v", "--answer", "Ann", "--answer", "s3cret", "--answer", "2", url)
	if status != 0 || out != "Thanks, Ann.\n" {
		t.Fatalf("status %d out %q\n%s", status, out, errOut)
	}
	want := []string{"/form\t\t!\r\n", "/form\t+\t1\r\n+-1\r\nAnn\r\ns3cret\r\ngreen\r\n.\r\n"}
	if reqs := f.Requests(); len(reqs) != 2 || string(reqs[0]) != want[0] || string(reqs[1]) != want[1] {
		t.Errorf("sent %q\nwant %q", reqs, want)
	}
	if strings.Contains(errOut, "s3cret") || !strings.Contains(errOut, "> <redacted>\n") {
		t.Errorf("-v must show the form without its answers:\n%s", errOut)
	}
	// The plan shows the same lines, the answers as a placeholder.
	planOut, _, status := runCLI(t, "", "plan", url)
	if status != 0 || planOut != "/form\t\t!\n/form\t+\t1\n+-1\n<answers>\n.\n" {
		t.Errorf("plan: %d %q", status, planOut)
	}

	// Without answers and without a terminal: a clear error.
	f = testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte(attrs)})
	_, errOut, status = runCLI(t, "", "get", "gopher://"+f.Addr+"/0/form%09%09?")
	if status != exitNegative || !strings.Contains(errOut, "nobody can be asked") || len(f.Requests()) != 1 {
		t.Errorf("no answers: %d %q, %d requests", status, errOut, len(f.Requests()))
	}
	f = testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte(attrs)})
	_, errOut, status = runCLI(t, "", "get", "--answer", "Ann", "gopher://"+f.Addr+"/0/form%09%09?")
	if status != exitNegative || !strings.Contains(errOut, "no --answer left") || !strings.Contains(errOut, "Password") {
		t.Errorf("too few answers: %d %q", status, errOut)
	}
}

// TestGetGopherFaults: each broken reply fails with a clear message and
// leaves no -o file behind.
func TestGetGopherFaults(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		reply  testserver.GopherReply
		msg    string
		status int
	}{
		{"drop mid item", "/9/blob%09%09+", testserver.GopherReply{Reply: []byte("+100\r\nonly some")}, "got 9 of 100 announced bytes", exitNetwork},
		{"stall", "/9/slow", testserver.GopherReply{Reply: []byte("part"), Hold: true}, "nothing arrived for 300ms (--idle-timeout)", exitNetwork},
		// Past the first MiB the body is spliced into the file.
		{"stall, zero-copy", "/9/slow", testserver.GopherReply{Reply: bytes.Repeat([]byte("z"), 2<<20), Hold: true}, "nothing arrived for 300ms (--idle-timeout)", exitNetwork},
		{"oversized line", "/1/dir", testserver.GopherReply{Reply: []byte("0" + strings.Repeat("x", 70000) + "\t/a\th\t70\r\n.\r\n")}, "line too long", exitProtocol},
		{"missing terminator", "/0/x%09%09+", testserver.GopherReply{Reply: []byte("+-1\r\nsome text\r\n")}, "closed the connection before it", exitNetwork},
		{"too few fields", "/1/dir", testserver.GopherReply{Reply: []byte("0A\t/a\th\t70\r\n0Broken\t/b\r\n.\r\n")}, `menu line 2 "0Broken\t/b": 2 fields`, exitProtocol},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, tt.reply)
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			url := "gopher://" + f.Addr + tt.path
			_, errOut, status := runCLI(t, "", "get", "--idle-timeout", "300ms", "-o", out, url)
			if status != tt.status || !strings.Contains(errOut, tt.msg) || !strings.Contains(errOut, url) {
				t.Errorf("status %d, stderr %q; want %d and %q with the URL", status, errOut, tt.status, tt.msg)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("a failed get left %v", entries)
			}
		})
	}
}

// TestGetGopherZeroCopy: a binary item long enough to be spliced into the
// -o file arrives whole; with a --max-size it exceeds, nothing is left.
func TestGetGopherZeroCopy(t *testing.T) {
	blob := bytes.Repeat(testserver.GopherBlob(), 600) // 3 MB
	f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: blob})
	url := "gopher://" + f.Addr + "/9/blob"
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if _, errOut, status := runCLI(t, "", "get", "-o", out, url); status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, blob) {
		t.Errorf("%d bytes differ from the %d sent", len(got), len(blob))
	}
	os.Remove(out)
	_, errOut, status := runCLI(t, "", "get", "--max-size", strconv.Itoa(len(blob)-1), "-o", out, url)
	if status != exitNegative || !strings.Contains(errOut, "--max-size") {
		t.Errorf("status %d, stderr %q; want 1 and --max-size", status, errOut)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a failed get left %v", entries)
	}
}

// TestPlanGopherPortGuard: §6's example, a gopher URL aimed at an SMTP
// server, is refused unless the port is allowed.
func TestPlanGopherPortGuard(t *testing.T) {
	url := "gopher://127.0.0.1:25/0HELO%20relay.example"
	out, errOut, status := runCLI(t, "", "plan", url)
	if status != exitUsage || out != "" || !strings.Contains(errOut, "refused (§6)") || !strings.Contains(errOut, "port 25 belongs to smtp") {
		t.Errorf("plan: %d %q %q", status, out, errOut)
	}
	_, errOut, status = runCLI(t, "", "get", url)
	if status != exitUsage || !strings.Contains(errOut, "refused (§6)") {
		t.Errorf("get: %d %q", status, errOut)
	}
	for _, flags := range [][]string{{"--allow-port", "25"}, {"--allow-port", "110,25"}, {"--any-port"}} {
		args := append(append([]string{"plan"}, flags...), url)
		out, errOut, status := runCLI(t, "", args...)
		if status != 0 || out != "HELO relay.example\n" || !strings.Contains(errOut, "# warning: port 25 is not gopher's default 70") {
			t.Errorf("%q: %d %q %q", args, status, out, errOut)
		}
	}
	// Allowing the port does not let CR LF through (§6).
	_, errOut, status = runCLI(t, "", "plan", "--allow-port", "25", url+"%0D%0AMAIL%20FROM:%3Ca@b%3E")
	if status != exitUsage || !strings.Contains(errOut, "decodes to CR") {
		t.Errorf("CRLF with allowed port: %d %q", status, errOut)
	}
}

// TestPlanGopherJSON: plan --json for each kind of Gopher+ string.
func TestPlanGopherJSON(t *testing.T) {
	tests := []struct {
		url   string
		steps []string
		note  string
	}{
		{"gopher://h/0/a%09%09+", []string{"/a\t\t+"}, "default view (§3.4.4)"},
		{"gopher://h/0/a%09%09?", []string{"/a\t\t!", "/a\t+\t1", "+-1", "<answers>", "."}, "§3.4.5"},
		{"gopher://h/0/a%09%09!", []string{"/a\t\t!"}, "attributes of the item"},
		{"gopher://h/0/a%09%09!+ABSTRACT", []string{"/a\t\t!+ABSTRACT"}, "attributes of the item"},
		{"gopher://h/1/a%09%09$", []string{"/a\t\t$"}, "every item of the directory"},
		{"gopher://h/0/a%09%09+text/plain%20En_US", []string{"/a\t\t+text/plain En_US"}, `alternate view "text/plain En_US"`},
		{"gopher://h/0/a%09%09+%091%0D%0A+-1%0D%0Av1%0D%0Av2%0D%0A.%0D%0A", []string{"/a\t+\t1", "+-1", "v1", "v2", "."}, "§3.4.9"},
		{"gopher://h/7/s%09q%09+", []string{"/s\tq\t+"}, "default view"},
	}
	for _, tt := range tests {
		out, errOut, status := runCLI(t, "", "plan", "--json", tt.url)
		var j jsonPlan
		if status != 0 || json.Unmarshal([]byte(out), &j) != nil {
			t.Errorf("%s: %d %q %q", tt.url, status, out, errOut)
			continue
		}
		if j.URL != tt.url || j.Scheme != "gopher" || j.Connect == nil || *j.Connect != "h:70" || !reflect.DeepEqual(j.Steps, tt.steps) ||
			!strings.Contains(strings.Join(j.Notes, "\n"), tt.note) || len(j.Warnings) != 0 {
			t.Errorf("%s: %s\nwant steps %q and a note %q", tt.url, out, tt.steps, tt.note)
		}
	}
}
