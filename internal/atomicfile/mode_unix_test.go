//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestModeFollowsUmask: a file written by Write or WriteIn gets the mode
// curl, wget and get give a download, 0666 less the umask: under umask
// 077 it is the user's alone (a fixed 0644 would show it to everyone).
func TestModeFollowsUmask(t *testing.T) {
	for _, mask := range []int{0o022, 0o077, 0o002} {
		dir := t.TempDir()
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		old := syscall.Umask(mask)
		errWrite := Write(filepath.Join(dir, "by-path"), strings.NewReader("a"), closer{})
		errIn := WriteIn(root, "in-root", strings.NewReader("b"), closer{})
		syscall.Umask(old)
		root.Close()
		if errWrite != nil || errIn != nil {
			t.Fatal(errWrite, errIn)
		}
		want := os.FileMode(0o666 &^ mask)
		for _, name := range []string{"by-path", "in-root"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s: %v, %v; want %v", mask, name, fi.Mode().Perm(), err, want)
			}
		}
	}
}
