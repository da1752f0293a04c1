package testserver

import (
	"os/exec"
	"strings"
	"testing"
)

// EnsureLocalUser makes sure the local account name exists (useradd -m -s
// /bin/bash when missing: pam_shells wants a shell listed in /etc/shells) with the given password (chpasswd every time:
// idempotent). Test binaries run in parallel (go test ./... starts one per
// package) and several of them make the same account on a fresh machine,
// so the whole check-then-create runs under an exclusive lock on a file
// shared by every test process: a second creator waits, then finds the
// account made. Without useradd or chpasswd the test is Unavailable.
func EnsureLocalUser(t testing.TB, name, password string) {
	t.Helper()
	tools := Need(t, "useradd", "chpasswd")
	if tools == nil {
		return
	}
	unlock := lockAccounts(t)
	defer unlock()
	if exec.Command("id", name).Run() != nil {
		if out, err := exec.Command(tools[0], "-m", "-s", "/bin/bash", name).CombinedOutput(); err != nil {
			t.Fatalf("useradd %s: %v: %s", name, err, out)
		}
	}
	cmd := exec.Command(tools[1])
	cmd.Stdin = strings.NewReader(name + ":" + password + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chpasswd %s: %v: %s", name, err, out)
	}
}
