package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

func linkcheckServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ok" {
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// End to end: a file and URL arguments, the readable report, the exit
// status.
func TestLinkcheckText(t *testing.T) {
	srv := linkcheckServer(t)
	dir := t.TempDir()
	doc := filepath.Join(dir, "doc.txt")
	text := "good <URL:" + srv.URL + "/ok>\nbad " + srv.URL + "/gone\nagain " + srv.URL + "/%6Fk\n"
	if err := os.WriteFile(doc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, status := runCLI(t, "", "linkcheck", "-q", doc)
	if status != exitNegative {
		t.Errorf("status %d, want 1 (something is broken); stderr %s", status, errOut)
	}
	want := doc + ":2:5: broken: " + srv.URL + "/gone: 404 Not Found\n"
	if !strings.HasPrefix(out, want) || !strings.Contains(out, "2 URLs: 1 ok, 1 broken, 0 invalid, 0 skipped") {
		t.Errorf("report:\n%s\nwant it to start with\n%s", out, want)
	}
	out, _, status = runCLI(t, "", "linkcheck", "-q", srv.URL+"/ok")
	if status != exitOK || !strings.Contains(out, "1 URLs: 1 ok") {
		t.Errorf("one good URL: status %d\n%s", status, out)
	}
	_, _, status = runCLI(t, "", "linkcheck", "-q", "http://user@host/")
	if status != exitNegative {
		t.Errorf("an invalid URL: status %d, want 1", status)
	}
	_, _, status = runCLI(t, "", "linkcheck", "--format", "yaml")
	if status != exitUsage {
		t.Errorf("--format yaml: status %d, want 2", status)
	}
}

// stdin, --json: one object per distinct URL with every place.
func TestLinkcheckJSON(t *testing.T) {
	srv := linkcheckServer(t)
	in := srv.URL + "/ok\n" + srv.URL + "/%6Fk\n"
	out, errOut, status := runCLI(t, in, "linkcheck", "-q", "--json")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d objects for one distinct URL:\n%s", len(lines), out)
	}
	var o struct {
		URL    string `json:"url"`
		Result string `json:"result"`
		Places []struct {
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"places"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &o); err != nil {
		t.Fatal(err)
	}
	if o.URL != srv.URL+"/ok" || o.Result != "ok" || len(o.Places) != 2 || o.Places[1].Line != 2 || o.Places[0].File != "-" {
		t.Errorf("object %s", lines[0])
	}
}

// --cache: a second run answers from the cache without asking the server.
func TestLinkcheckCache(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++ }))
	defer srv.Close()
	cache := filepath.Join(t.TempDir(), "cache")
	for i := range 2 {
		out, errOut, status := runCLI(t, "", "linkcheck", "-q", "--json", "--cache", cache, srv.URL+"/x")
		if status != exitOK {
			t.Fatalf("run %d: status %d: %s", i, status, errOut)
		}
		if i == 1 && !strings.Contains(out, `"cached":true`) {
			t.Errorf("second run not from the cache: %s", out)
		}
	}
	if hits != 1 {
		t.Errorf("the server was asked %d times, want 1", hits)
	}
}

// linkcheck --recursive over https with --cacert: the broken relative
// link is reported with its page and line; without the CA the site's
// certificate is refused, and with -k it is not verified (a warning).
func TestLinkcheckHTTPSSite(t *testing.T) {
	ca := testserver.NewCA(t)
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<title>t</title>\n<p><a href=\"ok.html\">ok</a>\n<a href=\"sub/../gone.html\">gone</a>\n")
		case "/ok.html":
		default:
			http.NotFound(w, r)
		}
	}))
	caFile := ca.WriteFile(t, t.TempDir())
	out, errOut, status := runCLI(t, "", "linkcheck", "-q", "--recursive=1", "--cacert", caFile, srv.URL+"/")
	want := srv.URL + "/:3:10: broken: " + srv.URL + "/gone.html: 404 Not Found\n"
	if status != exitNegative || !strings.HasPrefix(out, want+"3 URLs: 2 ok, 1 broken, 0 invalid, 0 skipped") {
		t.Errorf("--cacert: status %d, stderr %q, report\n%s\nwant\n%s", status, errOut, out, want)
	}
	out, _, status = runCLI(t, "", "linkcheck", "-q", srv.URL+"/ok.html")
	if status != exitNegative || !strings.Contains(out, "certificate") {
		t.Errorf("without --cacert: status %d, report\n%s", status, out)
	}
	out, errOut, status = runCLI(t, "", "linkcheck", "-q", "-k", srv.URL+"/ok.html")
	if status != exitOK || !strings.Contains(errOut, "not verified") {
		t.Errorf("-k: status %d, stderr %q, report\n%s", status, errOut, out)
	}
}

// A page served over http names this machine's files (a link, a <base
// href> that turns its relative links into file URLs, a folder that a
// recursive run would list): none is checked, and the report says
// skipped, never a size or a listing (a file-existence oracle for whoever
// publishes a page the checker reads). The same URL given as an input is
// the user's own question, and is checked.
func TestLinkcheckRemoteFileURL(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"secret.txt": "secret", "other.txt": "other text", "unlisted.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fileURL := "file://" + filepath.ToSlash(dir) + "/"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			io.WriteString(w, `<a href="`+fileURL+`secret.txt">s</a> <a href="`+fileURL+`">d</a> <a href="based.html">b</a>`)
		case "/based.html":
			io.WriteString(w, `<base href="`+fileURL+`"><a href="other.txt">o</a>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	type object struct {
		URL    string `json:"url"`
		Result string `json:"result"`
		Detail string `json:"detail"`
	}
	check := func(args ...string) map[string]object {
		t.Helper()
		out, errOut, _ := runCLI(t, "", append([]string{"linkcheck", "-q", "-v", "--json", "--recursive=3"}, args...)...)
		got := map[string]object{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var o object
			if err := json.Unmarshal([]byte(line), &o); err != nil {
				t.Fatalf("%v: %q (stderr %q)", err, line, errOut)
			}
			got[o.URL] = o
		}
		return got
	}
	got := check(srv.URL + "/")
	for _, name := range []string{"secret.txt", "", "other.txt"} {
		o, ok := got[fileURL+name]
		if !ok {
			t.Errorf("%s%s is not in the report: %v", fileURL, name, got)
			continue
		}
		if o.Result != "skipped" || strings.Contains(o.Detail, "bytes") || strings.Contains(o.Detail, "directory") {
			t.Errorf("%s: %s: %s, want skipped, nothing local looked at", o.URL, o.Result, o.Detail)
		}
	}
	if _, ok := got[fileURL+"unlisted.txt"]; ok {
		t.Errorf("the local folder was listed for a remote page: %v", got)
	}
	// Asked for by the user, the same file is checked.
	got = check(srv.URL+"/", fileURL+"secret.txt")
	if o := got[fileURL+"secret.txt"]; o.Result != "ok" || o.Detail != "6 bytes" {
		t.Errorf("an input file URL also linked from the page: %s: %s, want ok: 6 bytes", o.Result, o.Detail)
	}
	// So is a file of a local folder the user gave, whichever of the
	// folder's listing and the page names it first.
	for range 3 {
		got = check(srv.URL+"/", fileURL)
		if o := got[fileURL+"secret.txt"]; o.Result != "ok" || o.Detail != "6 bytes" {
			t.Errorf("a file of an input folder also linked from the page: %s: %s, want ok: 6 bytes", o.Result, o.Detail)
		}
	}
}

// A page longer than what --recursive reads of it says so: a warning
// with the sizes, the note in its detail; its links after the cap are
// not seen, until --max-page-size reads them.
func TestLinkcheckPageReadInPart(t *testing.T) {
	page := strings.Repeat("<p>filler line of a long page</p>\n", (11<<19)/34) // about 5.5 MiB
	page += `<a href="/after">after the cap</a>` + "\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", strconv.Itoa(len(page)))
			io.WriteString(w, page)
		case "/after":
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	out, errOut, status := runCLI(t, "", "linkcheck", "-q", "-v", "--recursive=1", srv.URL+"/")
	warning := "rfc1738 linkcheck: warning: " + srv.URL + "/: links read from its first 4 MiB only, of 5.5 MiB; --max-page-size reads more\n"
	if status != exitOK || errOut != warning || strings.Contains(out, "/after") ||
		!strings.Contains(out, "200 OK (links read from its first 4 MiB only, of 5.5 MiB)") {
		t.Errorf("default cap: status %d, stderr %q, report\n%s\nwant the warning %q and no /after", status, errOut, out, warning)
	}
	out, errOut, status = runCLI(t, "", "linkcheck", "-q", "-v", "--recursive=1", "--max-page-size", "6M", srv.URL+"/")
	if status != exitOK || errOut != "" || !strings.Contains(out, "ok: "+srv.URL+"/after: 200 OK") {
		t.Errorf("--max-page-size 6M: status %d, stderr %q, report\n%s\nwant /after checked", status, errOut, out)
	}
	if _, errOut, status = runCLI(t, "", "linkcheck", "--max-page-size", "0", srv.URL+"/"); status != exitUsage {
		t.Errorf("--max-page-size 0: status %d, stderr %q, want 2", status, errOut)
	}
}
