package testserver

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
)

// YazZtest starts yaz-ztest, the YAZ toolkit's Z39.50 test target, on a
// free 127.0.0.1 port and returns it; the test's cleanup stops it. The
// target serves the databases Default, Slow and db1 (any other gives Bib-1
// diagnostic 109), counts hits per term the same way every run (23 for
// "computer"), and returns dummy SUTRS records and one fixed USMARC
// record. It runs as a single process (-S), so stopping it ends every
// session; its own log goes to ztest.log beside the Daemon's Log.
func YazZtest(t testing.TB) *Daemon {
	t.Helper()
	path := Need(t, "yaz-ztest")
	if path == nil {
		return nil
	}
	addr := fmt.Sprintf("127.0.0.1:%d", FreePort(t))
	logFile := filepath.Join(t.TempDir(), "ztest.log")
	cmd := exec.Command(path[0], "-S", "-l", logFile, "tcp:"+addr)
	return Start(t, "yaz-ztest", cmd, addr)
}
