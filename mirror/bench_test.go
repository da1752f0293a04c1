package mirror

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkMirrorSmallFiles mirrors 1,000 files of a few bytes in 20
// folders from vsftpd into an empty folder, beside lftp's mirror (its
// default, and --parallel=2) in the same run, where lftp is installed.
//
//	sudo go test -run XXX -bench MirrorSmallFiles -benchtime 3x ./mirror/
func BenchmarkMirrorSmallFiles(b *testing.B) {
	addr, root := testserver.VSFTPD(b)
	top := filepath.Join(root, "small")
	for i := range 1000 {
		d := filepath.Join(top, fmt.Sprintf("d%02d", i/50))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, fmt.Sprintf("f%04d.txt", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644)
	}
	filepath.Walk(top, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	url := "ftp://" + addr + "/small/"
	b.Run("rfc1738", func(b *testing.B) {
		b.ReportAllocs()
		// The process's own CPU time (user and system) per run: on a
		// shared machine it moves far less than the wall clock.
		start := cpuTime()
		n := 0
		for b.Loop() {
			st, err := Mirror(context.Background(), url, b.TempDir(), Options{Email: "bench@example.org"})
			if err != nil || st.Fetched != 1000 {
				b.Fatalf("%+v, %v", st, err)
			}
			n++
		}
		b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(n), "cpu-ms/op")
	})
	lftp, err := exec.LookPath("lftp")
	if err != nil {
		b.Log("lftp is not installed: no peer")
		return
	}
	for _, cmd := range []string{"mirror", "mirror --parallel=2"} {
		b.Run("lftp "+cmd, func(b *testing.B) {
			for b.Loop() {
				out := b.TempDir()
				c := exec.Command(lftp, "-c", "set net:max-retries 1; open -u anonymous,bench@example.org ftp://"+addr+"; "+cmd+" /small "+out)
				if msg, err := c.CombinedOutput(); err != nil {
					b.Fatalf("lftp: %v\n%s", err, msg)
				}
			}
		})
	}
}

// cpuTime is the user and system time of this process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkMirrorLargeFile mirrors one file of 64 MiB from vsftpd: the
// transfer, the SHA-256 and the write.
//
//	sudo go test -run XXX -bench MirrorLargeFile -benchtime 5x ./mirror/
func BenchmarkMirrorLargeFile(b *testing.B) {
	addr, root := testserver.VSFTPD(b)
	top := filepath.Join(root, "large")
	os.MkdirAll(top, 0o755)
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = byte(i * 7 >> 3)
	}
	os.WriteFile(filepath.Join(top, "big.bin"), big, 0o644)
	url := "ftp://" + addr + "/large/"
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	start := cpuTime()
	n := 0
	for b.Loop() {
		st, err := Mirror(context.Background(), url, b.TempDir(), Options{Email: "bench@example.org"})
		if err != nil || st.Fetched != 1 {
			b.Fatalf("%+v, %v", st, err)
		}
		n++
	}
	b.ReportMetric(float64((cpuTime()-start).Milliseconds())/float64(n), "cpu-ms/op")
}
