//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkLinkcheckVsLinkChecker checks the same ftp URLs on one vsftpd
// with rfc1738 linkcheck (in-process) and with LinkChecker (the Debian
// linkchecker, run as a process), in one run: half the files are there,
// half are not. benchmarks/linkcheck.sh does the same on 2,000 URLs and
// compares the verdicts.
//
//	go test -run XXX -bench LinkcheckVsLinkChecker -benchtime 1x ./cmd/rfc1738/
func BenchmarkLinkcheckVsLinkChecker(b *testing.B) {
	const n = 200
	addr, root := testserver.VSFTPD(b)
	// LinkChecker, run as root, drops to user nobody: the URL list must
	// be readable by everyone, which b.TempDir's parent is not.
	dir, err := os.MkdirTemp("", "linkcheck-bench-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	var urls strings.Builder
	for i := range n / 2 {
		d := fmt.Sprintf("d%02d", i/25)
		p := filepath.Join(root, d, fmt.Sprintf("f%d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(&urls, "ftp://%s/%s/f%d.txt\nftp://%s/%s/gone%d.txt\n", addr, d, i, addr, d, i)
	}
	list := filepath.Join(dir, "urls.txt")
	if err := os.WriteFile(list, []byte(urls.String()), 0o644); err != nil {
		b.Fatal(err)
	}

	b.Run("rfc1738", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			status := run([]string{"linkcheck", "-q", "--json", list}, &env{stdin: strings.NewReader(""),
				stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }})
			if status != exitNegative { // the missing half is broken
				b.Fatalf("linkcheck exit status %d, want 1", status)
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "URLs/s")
	})
	b.Run("linkchecker", func(b *testing.B) {
		bin := testserver.Need(b, "linkchecker")
		if bin == nil {
			return
		}
		b.ReportAllocs()
		for b.Loop() {
			cmd := exec.Command(bin[0], "--stdin", "--no-status", "--no-robots", "--check-extern", "-o", "csv")
			f, err := os.Open(list)
			if err != nil {
				b.Fatal(err)
			}
			cmd.Stdin = f
			out, _ := cmd.Output() // exit status 1: broken links were found
			f.Close()
			if got := strings.Count(string(out), ";False;"); got < n/2 {
				b.Fatalf("linkchecker found %d broken URLs, want %d:\n%s", got, n/2, out)
			}
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "URLs/s")
	})
}
