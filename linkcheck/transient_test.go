package linkcheck_test

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// TestFTPTransientCodes: RFC 959 §4.2: a 4yz reply is a transient
// negative completion, tried again; a 5yz is permanent, tried once. The
// retried range is 420 to 459 (421's closing reply included), where the
// servers' "try later" replies live.
func TestFTPTransientCodes(t *testing.T) {
	var mu sync.Mutex
	sizes := map[string]int{}
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		if len(line) == len("SIZE 000.txt") && line[:5] == "SIZE " {
			mu.Lock()
			sizes[line[5:8]]++
			mu.Unlock()
			s.Reply(line[5:8] + " Not now.")
			return true
		}
		return false
	})
	k := newChecker(t)
	k.Retries, k.Backoff = 2, time.Millisecond
	for code, tries := range map[int]int{419: 1, 420: 3, 450: 3, 459: 3, 460: 1, 550: 1} {
		c := strconv.Itoa(code)
		st, detail := k.Check(testCtx(t), "ftp://"+f.Addr+"/"+c+".txt")
		mu.Lock()
		n := sizes[c]
		mu.Unlock()
		if st != linkcheck.Broken || n != tries {
			t.Errorf("SIZE answered %d: %s, %q, asked %d times; want broken, asked %d times", code, st, detail, n, tries)
		}
	}
}
