package testserver

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// pyftpdlibPython is the system interpreter that Debian's python3-pyftpdlib
// installs the module for (a python3 earlier on PATH may lack it).
const pyftpdlibPython = "/usr/bin/python3"

// Pyftpdlib starts pyftpdlib's stand-alone server (python3 -m pyftpdlib,
// Debian package python3-pyftpdlib) on a free 127.0.0.1 port: anonymous
// and read-only, rooted at a fresh folder holding files (slash-separated
// path → content). Unlike vsftpd it needs no root, answers "NLST dir"
// with bare names, puts no byte count in its 150 reply and lists SIZE in
// FEAT. It returns the control address and the root; the server is
// stopped by the test's cleanup. Without the module the test is
// Unavailable.
func Pyftpdlib(t testing.TB, files map[string]string) (addr, root string) {
	t.Helper()
	if _, err := os.Stat(pyftpdlibPython); err != nil {
		Unavailable(t, "%s is not installed (.ci/run installs python3-pyftpdlib with apt-get)", pyftpdlibPython)
		return "", ""
	}
	if err := exec.Command(pyftpdlibPython, "-c", "import pyftpdlib").Run(); err != nil {
		Unavailable(t, "the pyftpdlib module is not installed for %s (.ci/run installs python3-pyftpdlib with apt-get)", pyftpdlibPython)
		return "", ""
	}
	root = filepath.Join(t.TempDir(), "ftproot")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), []byte(content))
	}
	addr = net.JoinHostPort("127.0.0.1", strconv.Itoa(FreePort(t)))
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(pyftpdlibPython, "-m", "pyftpdlib", "-i", "127.0.0.1", "-p", port, "-d", root)
	Start(t, "pyftpdlib", cmd, addr)
	return addr, root
}
