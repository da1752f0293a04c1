//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// benchDefaultBytes is the size of the benchmark file when
// RFC1738_BENCH_BYTES is not set.
const benchDefaultBytes = 256 << 20

// benchBytes returns the size of the file the get benchmarks fetch:
// RFC1738_BENCH_BYTES, or 256 MiB. A benchmark that serves a file of its
// own (a gopher case, say) makes it this size too.
func benchBytes(b *testing.B) int64 {
	b.Helper()
	s := os.Getenv("RFC1738_BENCH_BYTES")
	if s == "" {
		return benchDefaultBytes
	}
	n, err := parseSize(s)
	if err != nil || n <= 0 {
		b.Fatalf("RFC1738_BENCH_BYTES=%q: want a positive byte count (K, M, G suffixes allowed)", s)
	}
	return n
}

// benchWriteFile writes size bytes of random data (a 1 MiB block
// repeated) to path, readable by everyone, for a daemon to serve.
func benchWriteFile(b *testing.B, path string, size int64) {
	b.Helper()
	block := make([]byte, 1<<20)
	rand.Read(block)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	for left := size; left > 0; {
		n := min(left, int64(len(block)))
		if _, err := f.Write(block[:n]); err != nil {
			f.Close()
			b.Fatal(err)
		}
		left -= n
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	os.Chmod(path, 0o644)
}

var benchBin struct {
	sync.Mutex
	path string
}

// benchBinary builds the rfc1738 binary once for a benchmark (into its
// temporary folder, removed when it ends) and returns its path.
func benchBinary(b *testing.B) string {
	b.Helper()
	benchBin.Lock()
	defer benchBin.Unlock()
	if benchBin.path != "" {
		if _, err := os.Stat(benchBin.path); err == nil {
			return benchBin.path
		}
	}
	path := filepath.Join(b.TempDir(), "rfc1738")
	if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	benchBin.path = path
	return path
}

// pollHWM samples VmHWM (KiB) of a running process from /proc until
// done is closed, and returns the largest value seen.
func pollHWM(pid int, done <-chan struct{}) int64 {
	path := fmt.Sprintf("/proc/%d/status", pid)
	var hwm int64
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		if b, err := os.ReadFile(path); err == nil {
			if i := bytes.Index(b, []byte("VmHWM:")); i >= 0 {
				f := bytes.Fields(b[i+len("VmHWM:"):])
				if len(f) > 0 {
					if n, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
						hwm = max(hwm, n)
					}
				}
			}
		}
		select {
		case <-done:
			return hwm
		case <-t.C:
		}
	}
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (w *countWriter) Write(p []byte) (int, error) { w.n += int64(len(p)); return len(p), nil }

// benchGetVsCurl measures, in the same run, "rfc1738 get -q -o /dev/null
// ourURL" and "curl -s -o /dev/null curlURL" fetching the same
// benchBytes(b) bytes: throughput (b.SetBytes) and each child's peak
// resident memory, as getrusage's ru_maxrss (peak-RSS-MiB, a ceiling)
// and as the VmHWM sampled from /proc (VmHWM-MiB). Before timing,
// each side fetches once into a counter, which must see all the bytes.
func benchGetVsCurl(b *testing.B, ourURL, curlURL string) {
	b.Helper()
	curl := testserver.Need(b, "curl")
	if curl == nil {
		return
	}
	bin := benchBinary(b)
	size := benchBytes(b)
	run := func(b *testing.B, name string, args ...string) {
		// One checked fetch to stdout: all the bytes, or no figures.
		var check []string
		for i := 0; i < len(args); i++ {
			if args[i] == "-o" && i+1 < len(args) && args[i+1] == "/dev/null" {
				i++ // both write to stdout without -o
				continue
			}
			check = append(check, args[i])
		}
		var stderr bytes.Buffer
		cw := &countWriter{}
		cmd := exec.Command(name, check...)
		cmd.Stdout, cmd.Stderr = cw, &stderr
		if err := cmd.Run(); err != nil || cw.n != size {
			b.Fatalf("%s %q: %v, %d of %d bytes: %s", name, check, err, cw.n, size, stderr.String())
		}
		b.SetBytes(size)
		b.ResetTimer()
		var peak, hwm int64
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			stderr.Reset()
			cmd := exec.Command(name, args...)
			cmd.Stdout, cmd.Stderr = io.Discard, &stderr
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			done := make(chan struct{})
			polled := make(chan int64, 1)
			go func() { polled <- pollHWM(cmd.Process.Pid, done) }()
			err := cmd.Wait()
			close(done)
			hwm = max(hwm, <-polled)
			if err != nil {
				b.Fatalf("%s %q: %v: %s", name, args, err, stderr.String())
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				peak = max(peak, ru.Maxrss) // KiB on Linux
				cpu += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
			}
		}
		b.StopTimer()
		// ru_maxrss is a ceiling: Linux carries the parent's RSS at the
		// vfork into the child's ru_maxrss across exec, so it is never
		// below this test process's own. VmHWM, sampled from /proc while
		// the child runs, is the child's own high-water mark.
		b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
		b.ReportMetric(float64(hwm)/1024, "VmHWM-MiB")
		// The child's own CPU time (user + system), steadier than the
		// wall clock on a shared machine.
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
	b.Run("rfc1738", func(b *testing.B) { run(b, bin, "get", "-q", "-o", "/dev/null", ourURL) })
	b.Run("curl", func(b *testing.B) { run(b, curl[0], "-s", "-o", "/dev/null", curlURL) })
}

// BenchmarkGetVsCurl fetches a RFC1738_BENCH_BYTES file (256 MiB by
// default) from a loopback vsftpd with rfc1738 get and with curl, in the
// same run. The goal (issue 4): throughput at least curl's, and peak
// memory flat, at most 32 MiB, whatever the size.
func BenchmarkGetVsCurl(b *testing.B) {
	addr, root := testserver.VSFTPD(b)
	if addr == "" {
		return
	}
	size := benchBytes(b)
	benchWriteFile(b, filepath.Join(root, "big.bin"), size)
	b.Logf("file of %s bytes on vsftpd at %s", strconv.FormatInt(size, 10), addr)
	url := fmt.Sprintf("ftp://%s/big.bin", addr)
	benchGetVsCurl(b, url, url)
}
