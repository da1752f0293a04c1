//go:build unix

package testserver

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// lockAccounts takes an exclusive flock(2) on a lock file in the system's
// temporary folder and returns its release. The lock is per open file, so
// it serialises test processes as well as goroutines of one process.
func lockAccounts(t testing.TB) (unlock func()) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "rfc1738-testserver-accounts.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("account lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("account lock: %v", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
