package ftp_test

import (
	"bufio"
	"context"
	"crypto/rand"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkRetrVsCurl retrieves one big file from a real vsftpd with this
// client and with curl, in the same run, each iteration a whole session
// (connect, login, TYPE I, passive, RETR, QUIT). The file size comes from
// RFC1738_BENCH_BYTES (default 256 MiB); the figure in the report uses
// 1 GiB:
//
//	RFC1738_BENCH_BYTES=1073741824 go test -run '^$' -bench RetrVsCurl -benchtime 5x ./access/ftp/
//
// MB/s comes from b.SetBytes. peak-RSS-MB is the process's peak resident
// set while the sub-benchmark ran (VmHWM, reset through
// /proc/self/clear_refs first) for this client, and curl's ru_maxrss.
func BenchmarkRetrVsCurl(b *testing.B) {
	addr, root := testserver.VSFTPD(b)
	curl := testserver.Need(b, "curl")
	if curl == nil {
		return
	}
	size := int64(256 << 20)
	if s := os.Getenv("RFC1738_BENCH_BYTES"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("RFC1738_BENCH_BYTES=%q: want a positive byte count", s)
		}
		size = n
	}
	writeBig(b, filepath.Join(root, "big.bin"), size)

	b.Run("rfc1738", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		runtime.GC()
		resetPeakRSS()
		for b.Loop() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			n, err := retrieve(ctx, addr, "big.bin")
			cancel()
			if err != nil {
				b.Fatal(err)
			}
			if n != size {
				b.Fatalf("got %d bytes, want %d", n, size)
			}
		}
		b.StopTimer()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(peakRSS())/(1<<20), "peak-RSS-MB")
		b.ReportMetric(float64(ms.HeapSys)/(1<<20), "HeapSys-MB")
	})

	b.Run("curl", func(b *testing.B) {
		b.SetBytes(size)
		var maxRSS int64
		url := "ftp://" + addr + "/big.bin"
		for b.Loop() {
			cmd := exec.Command(curl[0], "-s", "-S", "-o", "/dev/null", url)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("curl %s: %v: %s", url, err, out)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > maxRSS {
				maxRSS = ru.Maxrss // KiB on Linux
			}
		}
		b.ReportMetric(float64(maxRSS)/1024, "peak-RSS-MB")
	})
}

// retrieve runs one whole anonymous session and counts the bytes. The
// body's WriteTo copies through a CopyBufferSize (256 KiB) buffer.
func retrieve(ctx context.Context, addr, name string) (int64, error) {
	c, err := ftp.Dial(ctx, addr, ftp.Config{})
	if err != nil {
		return 0, err
	}
	defer c.Close()
	if _, err := c.Login(ctx, ftp.Credentials{Password: "bench@example.com"}); err != nil {
		return 0, err
	}
	if _, err := c.Type(ctx, "I"); err != nil {
		return 0, err
	}
	body, _, err := c.Retr(ctx, name)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(io.Discard, body)
	if cerr := body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, err
	}
	return n, c.Quit(ctx)
}

// writeBig writes size pseudo-random bytes in 1 MiB blocks, so that
// making the file does not itself raise the peak memory.
func writeBig(b *testing.B, path string, size int64) {
	b.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	block := make([]byte, 1<<20)
	rand.Read(block)
	for left := size; left > 0; {
		n := min(left, int64(len(block)))
		if _, err := f.Write(block[:n]); err != nil {
			b.Fatal(err)
		}
		block[0]++ // no two blocks alike
		left -= n
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// resetPeakRSS resets VmHWM (Linux ≥ 4.0: "5" to clear_refs).
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS returns VmHWM from /proc/self/status in bytes, or 0.
func peakRSS() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
