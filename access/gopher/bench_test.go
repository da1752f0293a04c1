package gopher_test

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkFetchVsCurl fetches one large binary item (type 9) from
// gophernicus with this client and with curl, in the same run. The size
// comes from RFC1738_BENCH_BYTES (default 64 MiB). Besides MB/s and
// allocations it reports peak resident memory: for the client the whole
// test process's high-water mark (an upper bound), for curl the child's.
func BenchmarkFetchVsCurl(b *testing.B) {
	testserver.NeedRoot(b)
	size := int64(64 << 20)
	if s := os.Getenv("RFC1738_BENCH_BYTES"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("RFC1738_BENCH_BYTES=%q: want a positive byte count", s)
		}
		size = n
	}
	srv := testserver.Gophernicus(b)
	writeBig(b, filepath.Join(srv.Root, "big.bin"), size)
	req := gopher.Request{Type: '9', Selector: "/big.bin"}

	b.Run("rfc1738", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		c := &gopher.Client{}
		buf := make([]byte, 64<<10)
		for b.Loop() {
			resp, err := c.Fetch(context.Background(), srv.Addr, req)
			if err != nil {
				b.Fatal(err)
			}
			var n int64
			for {
				k, err := resp.Body.Read(buf)
				n += int64(k)
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			resp.Body.Close()
			if n != size {
				b.Fatalf("got %d bytes, want %d", n, size)
			}
		}
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MiB")
		}
	})

	b.Run("curl", func(b *testing.B) {
		curl := testserver.Need(b, "curl")[0]
		url := "gopher://" + srv.Addr + "/9/big.bin"
		b.SetBytes(size)
		b.ReportAllocs()
		var peak int64
		for b.Loop() {
			cmd := exec.Command(curl, "-s", "-o", "/dev/null", "-w", "%{size_download}", url)
			out, err := cmd.Output()
			if err != nil {
				b.Fatalf("curl: %v", err)
			}
			if got := strings.TrimSpace(string(out)); got != strconv.FormatInt(size, 10) {
				b.Fatalf("curl got %s bytes, want %d", got, size)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > peak {
				peak = ru.Maxrss
			}
		}
		b.ReportMetric(float64(peak)/1024, "peak-RSS-MiB")
	})
}

// writeBig writes size pseudo-random bytes to path, world-readable, in
// chunks so the writer stays small.
func writeBig(b *testing.B, path string, size int64) {
	b.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	w := bufio.NewWriterSize(f, 1<<20)
	var chunk [8]byte
	for left := size; left > 0; left -= 8 {
		v := r.Uint64()
		for i := range chunk {
			chunk[i] = byte(v >> (8 * i))
		}
		w.Write(chunk[:min(left, 8)])
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	os.Chmod(path, 0o644)
}
