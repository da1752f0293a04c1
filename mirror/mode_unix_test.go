//go:build unix

package mirror

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestMirrorModeFollowsUmask: the folders and files of an ftp mirror, and
// its manifest, get wget's and get's modes less the umask (0777 and
// 0666): under 077 the user's alone, under 002 the group's too; never a
// fixed 0755 and 0644. Not parallel: the umask is the process's.
func TestMirrorModeFollowsUmask(t *testing.T) {
	fake := faultFake(t, nil)
	url := "ftp://" + fake.Addr + "/top/"
	for _, mask := range []int{0o077, 0o002} {
		dir := filepath.Join(t.TempDir(), "made") // made by the run
		var log bytes.Buffer
		old := syscall.Umask(mask)
		st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Parallel: 1})
		syscall.Umask(old)
		if err != nil || st.Fetched != 3 {
			t.Fatalf("umask %03o: %+v, %v\n%s", mask, st, err, log.String())
		}
		for name, want := range map[string]os.FileMode{
			".":          0o777,
			"sub":        0o777,
			"a.txt":      0o666,
			"sub/c.txt":  0o666,
			ManifestName: 0o666,
		} {
			want &^= os.FileMode(mask)
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s: %v, %v; want %v", mask, name, fi.Mode().Perm(), err, want)
			}
		}
	}
}
