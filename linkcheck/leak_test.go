package linkcheck

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain fails the package's run when a goroutine outlives its tests.
//
// Before the tests, the robots.txt reader (a loop over the file, and a
// wildcard match that backtracks) is run alone, bounded: many tests reach
// it through a server, and one of those would wait out the run's timeout
// on a loop that never ends instead of failing at once.
func TestMain(m *testing.M) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := parseRobots([]byte("User-agent: *\r\nDisallow: /*x$\nAllow: /ツ\n"), "rfc1738")
		r.allowed("/ab/y")
		r.allowed("/%E3%83%84/x")
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		fmt.Fprintln(os.Stderr, "parseRobots or allowed did not return in 5 s")
		os.Exit(1)
	}
	goleak.VerifyTestMain(m)
}
