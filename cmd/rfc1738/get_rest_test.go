package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetWAIS: rfc1738 get -v against yaz-ztest: the records on stdout,
// the APDUs on stderr, and they are the plan's lines.
func TestGetWAIS(t *testing.T) {
	d := testserver.YazZtest(t)
	url := "wais://" + d.Addr + "/Default?computer"
	out, errs, status := runCLI(t, "", "get", "-v", url)
	t.Logf("stderr:\n%s", errs)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	if !strings.HasPrefix(out, "23 hits for \"computer\" in Default; records 1 to 10:\n") ||
		!strings.Contains(out, "--- record 10 of 23 (SUTRS) ---\nThis is dummy SUTRS record number 10\n") {
		t.Errorf("stdout:\n%s", out)
	}
	plan, _, status := runCLI(t, "", "plan", url)
	if status != 0 {
		t.Fatalf("plan status %d", status)
	}
	lines := strings.Split(strings.TrimSuffix(plan, "\n"), "\n")
	var sent []string
	for _, l := range strings.Split(errs, "\n") {
		if s, ok := strings.CutPrefix(l, "> "); ok {
			sent = append(sent, s)
		}
	}
	if len(sent) != len(lines) {
		t.Fatalf("sent %q\nplan %q", sent, lines)
	}
	for i := range sent {
		// The plan shows the present's count as <min(10,hits)>.
		if sent[i] != strings.Replace(lines[i], "count=<min(10,hits)>", "count=10", 1) {
			t.Errorf("sent %q, plan %q", sent[i], lines[i])
		}
	}

	out, errs, status = runCLI(t, "", "get", "--json", "--wais-records", "2", "--wais-syntax", "usmarc", url)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	n := 0
	for dec.More() {
		var r struct {
			Number       int
			Syntax, Text string
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		n++
		if r.Number != n || r.Syntax != "USMARC" || !strings.Contains(r.Text, "245 ") {
			t.Errorf("record %d = %+v", n, r)
		}
	}
	if n != 2 {
		t.Errorf("%d records, want 2", n)
	}
	if _, errs, status := runCLI(t, "", "get", "--wais-syntax", "grs1", url); status != exitUsage || !strings.Contains(errs, `invalid value "grs1" for flag --wais-syntax: want sutrs, usmarc or default`) {
		t.Errorf("bad syntax: %d %s", status, errs)
	}
}

// TestPlanTelnetAndGetWithoutTerminal: the plan shows the advice and the
// option policy; get without a terminal gives the advice, then the error.
func TestPlanTelnetAndGetWithoutTerminal(t *testing.T) {
	out, errs, status := runCLI(t, "", "plan", "telnet://guest:pw@127.0.0.1:9/")
	if status != 0 || !strings.HasPrefix(out, "WILL NAWS\nSB NAWS <columns> <rows>\nDO ECHO\n") ||
		!strings.Contains(errs, "# connect 127.0.0.1:9\n") ||
		!strings.Contains(errs, `# note: advice (§3.8, shown, never sent): telnet 127.0.0.1:9: log in as user "guest" (the URL suggests a password)`) {
		t.Errorf("plan: %d\n%s\n%s", status, out, errs)
	}
	out, errs, status = runCLI(t, "", "plan", "--show-password", "telnet://guest:pw@127.0.0.1:9/")
	if status != 0 || !strings.Contains(errs, `with password "pw"`) {
		t.Errorf("plan --show-password: %s", errs)
	}
	out, errs, status = runCLI(t, "", "get", "telnet://guest:pw@127.0.0.1:9/")
	if status != exitNegative || out != "" ||
		!strings.HasPrefix(errs, `rfc1738 get: telnet 127.0.0.1:9: log in as user "guest" (the URL suggests a password); `) ||
		!strings.Contains(errs, "needs a terminal") || strings.Contains(errs, "pw@") {
		t.Errorf("get: %d %q %q", status, out, errs)
	}
}

// TestGatewayCLI: prospero without a gateway (plan: exit 2 with the parts
// and the reason; parse still works), then through an httptest gateway
// given by --gateway, by the environment and by the config file.
func TestGatewayCLI(t *testing.T) {
	const url = "prospero://host.dom//pros/name;a=b"
	_, errs, status := runCLI(t, "", "plan", url)
	if status != exitUsage || !strings.Contains(errs, "no Prospero server or client is known to exist") ||
		!strings.Contains(errs, `hsoname "/pros/name", field "a"="b"`) {
		t.Errorf("plan without gateway: %d %s", status, errs)
	}
	if _, errs, status := runCLI(t, "", "get", url); status != exitUsage || !strings.Contains(errs, "gateway locator") {
		t.Errorf("get without gateway: %d %s", status, errs)
	}
	if out, _, status := runCLI(t, "", "parse", url); status != 0 || !strings.Contains(out, "/pros/name") {
		t.Errorf("parse: %d %s", status, out)
	}

	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.RequestURI)
		mu.Unlock()
		io.WriteString(w, r.URL.Path+" fetched "+r.URL.Query().Get("url")+"\n")
	}))
	defer srv.Close()
	out, errs, status := runCLI(t, "", "get", "-q", "--gateway", "prospero="+srv.URL+"/flag?url={url}", url)
	if status != 0 || out != "/flag fetched prospero://host.dom//pros/name;a=b\n" {
		t.Errorf("get --gateway: %d %q %s", status, out, errs)
	}
	out, errs, status = runCLI(t, "", "plan", "--gateway", "prospero="+srv.URL+"/flag?url={url}", url)
	mu.Lock()
	seen1 := append([]string(nil), seen...)
	mu.Unlock()
	if status != 0 || len(seen1) != 1 || !strings.HasPrefix(out, "GET /flag?url=prospero%3A%2F%2Fhost.dom%2F%2Fpros%2Fname%3Ba%3Db HTTP/1.1\n") ||
		!strings.Contains(errs, "gateway locator (§4)") || seen1[0] != "/flag?url=prospero%3A%2F%2Fhost.dom%2F%2Fpros%2Fname%3Ba%3Db" {
		t.Errorf("plan --gateway: %d\n%s%s", status, out, errs)
	}
	if _, errs, status := runCLI(t, "", "plan", "--gateway", "prospero=http://gw.example/no-placeholder", url); status != exitUsage || !strings.Contains(errs, "{url}") {
		t.Errorf("bad --gateway: %d %s", status, errs)
	}

	// The environment and the config file, read by the real process's
	// rules: the variables of os.Environ through the command's env.
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "rfc1738"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := "# §4 gateway locators\nx-foo " + srv.URL + "/file/{url}\nprospero " + srv.URL + "/file?url={url}\n"
	if err := os.WriteFile(filepath.Join(cfg, "rfc1738", "gateways"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", cfg)
	t.Setenv("RFC1738_GATEWAY_PROSPERO", srv.URL+"/env?url={url}")
	runReal := func(args ...string) (string, string, int) {
		var o, e bytes.Buffer
		s := run(args, &env{stdin: strings.NewReader(""), stdout: &o, stderr: &e})
		return o.String(), e.String(), s
	}
	if out, errs, status := runReal("get", "-q", url); status != 0 || !strings.HasPrefix(out, "/env fetched ") {
		t.Errorf("env gateway (wins over the file): %d %q %s", status, out, errs)
	}
	if out, errs, status := runReal("get", "-q", "x-foo:bar"); status != 0 || out != "/file/x-foo:bar fetched \n" {
		t.Errorf("file gateway: %d %q %s", status, out, errs)
	}
	if out, errs, status := runReal("get", "-q", "--gateway", "prospero="+srv.URL+"/flag?url={url}", url); status != 0 || !strings.HasPrefix(out, "/flag fetched ") {
		t.Errorf("flag gateway (wins over env): %d %q %s", status, out, errs)
	}
}

// TestGetMailto: get refuses a mailbox; plan shows the SMTP envelope.
func TestGetMailto(t *testing.T) {
	_, errs, status := runCLI(t, "", "get", "mailto:info@xyz.com")
	if status != exitNegative || !strings.Contains(errs, "not a data object") || !strings.Contains(errs, "rfc1738 mail") {
		t.Errorf("get mailto: %d %s", status, errs)
	}
	out, errs, status := runCLI(t, "", "plan", "--email", "me@here.example", "--smtp", "relay.example", "mailto:info@xyz.com")
	if status != 0 || out != "STARTTLS <if offered>\nMAIL FROM:<me@here.example>\nRCPT TO:<info@xyz.com>\nDATA\n" || !strings.Contains(errs, "# connect relay.example:25\n") {
		t.Errorf("plan mailto: %d\n%s%s", status, out, errs)
	}
}
