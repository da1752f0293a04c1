package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestPortableRunner: the census run through Beam's portable runner path
// (a standalone Prism job server of the SDK version in go.mod,
// --runner=universal, the SDK harness in the launching process with
// LOOPBACK) writes byte for byte what the embedded runner writes. It
// builds Prism and the census (a minute or two the first time); -short
// skips it.
func TestPortableRunner(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a Prism job server")
	}
	dir := t.TempDir()
	corpus(t, dir)
	in := filepath.Join(dir, "in", "*")
	embedded := filepath.Join(dir, "embedded")
	runCensus(t, Options{Input: in, Output: embedded, Shards: 3, Samples: 2, Top: 5})

	bin := filepath.Join(dir, "bin")
	for _, args := range [][]string{
		{"build", "-o", filepath.Join(bin, "prism"), "github.com/apache/beam/sdks/v2/go/cmd/prism"},
		{"build", "-o", filepath.Join(bin, "pipeline"), "."},
	} {
		if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
	}
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	prism := exec.CommandContext(ctx, filepath.Join(bin, "prism"), fmt.Sprintf("--job_port=%d", port), "--serve_http=false")
	prism.Stdout, prism.Stderr = os.Stderr, os.Stderr
	if err := prism.Start(); err != nil {
		t.Fatal(err)
	}
	defer prism.Wait()
	defer cancel()
	endpoint := fmt.Sprintf("localhost:%d", port)
	for deadline := time.Now().Add(60 * time.Second); ; {
		c, err := net.DialTimeout("tcp", endpoint, time.Second)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the Prism job server does not listen on %s: %v", endpoint, err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	portable := filepath.Join(dir, "portable")
	run := exec.Command(filepath.Join(bin, "pipeline"), "--runner=universal", "--endpoint="+endpoint, "--environment_type=LOOPBACK",
		"--input", in, "--output", portable, "--shards", "3", "--samples", "2", "--top", "5")
	// Beam's loopback mode leaves a file in the temporary folder; the
	// census removes it.
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	run.Env = append(os.Environ(), "TMPDIR="+tmp)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the census on %s: %v\n%s", endpoint, err, out)
	}
	sameOutputs(t, "embedded", embedded, "portable", portable)
	portableCheck(t, dir, filepath.Join(bin, "pipeline"), endpoint)
	if !strings.Contains(string(out), "census: 8 files") || !strings.Contains(string(out), "urls-*-of-00003.jsonl") {
		t.Errorf("no closing line with the totals and the output:\n%s", out)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary folder: %v", left)
	}
}

// freePort is a TCP port of the loopback interface that nothing listens on.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// portableCheck: the census's check on the portable runner writes what
// the embedded runner writes, apart from the times of the verdicts.
func portableCheck(t *testing.T, dir, bin, endpoint string) {
	n := testserver.NewInternet(t)
	ok := n.HTTP(func(w http.ResponseWriter, r *http.Request) {})
	missing := n.HTTP(http.NotFound)
	gopher := n.Gopher(func(string) string { return "text\r\n.\r\n" })
	in := filepath.Join(dir, "check-in.txt")
	text := fmt.Sprintf("http://%s/a http://%s/b\nhttp://%s/x gopher://%s/0/t mailto:a@b.example\n", ok, ok, missing, gopher)
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	embedded := filepath.Join(dir, "check-embedded")
	o := Options{Input: in, Output: embedded, Shards: 2, Samples: 1, Top: 5, Check: checkOptions()}
	runCensus(t, o)
	portable := filepath.Join(dir, "check-portable")
	run := exec.Command(bin, "--runner=universal", "--endpoint="+endpoint, "--environment_type=LOOPBACK",
		"--input", in, "--output", portable, "--shards", "2", "--samples", "1", "--top", "5",
		"--check", "--host-delay", "100ms", "--timeout", "1500ms")
	run.Env = append(os.Environ(), "TMPDIR="+t.TempDir())
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("the census --check on %s: %v\n%s", endpoint, err, out)
	}
	if !strings.Contains(string(out), "check: 5 URLs (5 checked, 0 reused): 3 ok, 1 broken, 0 invalid, 1 skipped") {
		t.Errorf("no check line:\n%s", out)
	}
	checkedAt := regexp.MustCompile(`"checked_at":"[^"]*"`)
	a, b := outputs(t, embedded), outputs(t, portable)
	if len(a) != 5 || len(b) != len(a) {
		t.Fatalf("embedded: %d files, portable: %d", len(a), len(b))
	}
	for name, data := range a {
		if x, y := checkedAt.ReplaceAllString(data, ""), checkedAt.ReplaceAllString(b[name], ""); x != y {
			t.Errorf("%s differs apart from times:\nembedded\n%s\nportable\n%s", name, x, y)
		}
	}
}
