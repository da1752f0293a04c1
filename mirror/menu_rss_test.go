//go:build unix

package mirror

import (
	"bufio"
	"context"
	"net"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkMirrorGopherLargeMenu mirrors one menu of info lines of 4 KB
// from a server that writes it as it goes, and reports the process's
// peak resident memory (maxrss-MB: what the menu cost, the test binary's
// own few MB aside). "refused" is 100,000 lines (400 MB, within the line
// and line-count bounds, beyond gopher.DefaultMaxMenuBytes): it is
// refused and read no further, so memory stays bounded whatever the
// server sends. "within" is 4,000 lines (16 MB), just under the bound:
// what the largest menu accepted costs. Run each alone, once, in a fresh
// process (the peak is the process's):
//
//	go test -run XXX -bench 'GopherLargeMenu/refused' -benchtime 1x ./mirror/
//	go test -run XXX -bench 'GopherLargeMenu/within' -benchtime 1x ./mirror/
func BenchmarkMirrorGopherLargeMenu(b *testing.B) {
	b.Run("refused", func(b *testing.B) { benchLargeMenu(b, 100000) })
	b.Run("within", func(b *testing.B) { benchLargeMenu(b, 4000) })
}

func benchLargeMenu(b *testing.B, lines int) {
	const width = 4000
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				bufio.NewReader(c).ReadString('\n')
				w := bufio.NewWriterSize(c, 64<<10)
				line := "i" + strings.Repeat("x", width-len("i\tinfo\terror.host\t1\r\n")) + "\tinfo\terror.host\t1\r\n"
				for range lines {
					if _, err := w.WriteString(line); err != nil {
						return
					}
				}
				w.WriteString(".\r\n")
				w.Flush()
			}()
		}
	}()
	url := "gopher://" + ln.Addr().String() + "/1/big"
	for b.Loop() {
		Mirror(context.Background(), url, b.TempDir(), Options{})
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	b.ReportMetric(float64(ru.Maxrss)/1024, "maxrss-MB") // Linux: KiB
}
