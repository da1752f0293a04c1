package mirror

import (
	"context"
	"fmt"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkMirrorListMemory measures the memory one ftp LIST of 10⁶
// entries costs a mirror (--dry-run: the listing, and the names the walk
// keeps for --delete and for a name listed twice): the maximum resident
// set of a child process mirroring it, less that of one mirroring a
// one-line LIST, per entry. A fake serves the listing.
//
//	go test -run XXX -bench MirrorListMemory -benchtime 1x ./mirror/
func BenchmarkMirrorListMemory(b *testing.B) {
	const n = 1_000_000
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("-rw-r--r--    1 0        0            %4d Jan 01  2024 file-with-a-longish-name-%07d.txt", i%1000, i)
	}
	big := rawListFake(b, strings.Join(lines, "\r\n")+"\r\n", "226 Directory send OK.")
	one := rawListFake(b, lines[0]+"\r\n", "226 Directory send OK.")
	for b.Loop() {
		base := listMemoryChild(b, "ftp://"+one.Addr+"/top/")
		rss := listMemoryChild(b, "ftp://"+big.Addr+"/top/")
		b.ReportMetric(float64(rss)/1024, "MiB-peak-rss")
		b.ReportMetric(float64(rss-base)*1024/n, "B/entry")
	}
}

// rawListFake answers LIST with listing, at the pace the client reads
// it (the fake's own Send gives a transfer ten seconds), and then with
// the final reply end.
func rawListFake(t testing.TB, listing, end string) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Files: map[string]string{"/top/x": ""},
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line != "LIST" {
				return false
			}
			s.Reply("150 Here comes the directory listing.")
			dc, err := s.AcceptData()
			if err != nil {
				s.Reply("425 Failed to establish connection.")
				return true
			}
			dc.SetWriteDeadline(time.Now().Add(10 * time.Minute))
			_, err = io.WriteString(dc, listing)
			dc.Close()
			if err != nil {
				s.Reply("426 Failure writing network stream.")
				return true
			}
			s.Reply(end)
			return true
		},
	})
}

// listMemoryChild runs TestMirrorListMemoryChild on url in a child
// process and returns its peak resident set in KiB, as the child read it
// from /proc/self/status (VmHWM): the rusage of a child counts the
// parent's memory too, shared before the exec.
func listMemoryChild(b *testing.B, url string) int64 {
	cmd := exec.Command(os.Args[0], "-test.run=^TestMirrorListMemoryChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "RFC1738_LISTMEM_URL="+url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("child: %v\n%s", err, out)
	}
	_, after, ok := strings.Cut(string(out), "VmHWM:")
	if !ok {
		b.Skipf("no VmHWM in /proc/self/status on this system:\n%s", out)
	}
	kb, _, _ := strings.Cut(strings.TrimSpace(after), " ")
	n, err := strconv.ParseInt(kb, 10, 64)
	if err != nil {
		b.Fatalf("child: VmHWM %q", kb)
	}
	return n
}

// TestMirrorListMemoryChild is the child of BenchmarkMirrorListMemory;
// it does nothing in a plain test run.
func TestMirrorListMemoryChild(t *testing.T) {
	url := os.Getenv("RFC1738_LISTMEM_URL")
	if url == "" {
		t.Skip("the child of BenchmarkMirrorListMemory")
	}
	st, err := Mirror(context.Background(), url, t.TempDir(), Options{DryRun: true, Parallel: 1, Failure: func(err error) { fmt.Println(err) }})
	if err != nil || st.Dirs != 1 || st.Planned < 1 {
		t.Fatalf("%+v, %v", st, err)
	}
	status, _ := os.ReadFile("/proc/self/status")
	for line := range strings.SplitSeq(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println(line)
		}
	}
}
