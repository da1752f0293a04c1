//go:build unix

package download

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestModeFollowsUmask: a download gets the mode curl and wget give a new
// file, 0666 less the umask, through Commit and through a Batch; a file
// resumed in place (-C - -o FILE) keeps its own mode.
func TestModeFollowsUmask(t *testing.T) {
	for _, mask := range []int{0o022, 0o077} {
		old := syscall.Umask(mask)
		dir := t.TempDir()
		p, err := OpenPart(filepath.Join(dir, "one"), false)
		if err != nil {
			t.Fatal(err)
		}
		p.Write([]byte("one"))
		if err := p.Commit(); err != nil {
			t.Fatal(err)
		}
		var b Batch
		for _, name := range []string{"two", "three"} {
			p, err := OpenPart(filepath.Join(dir, name), false)
			if err != nil {
				t.Fatal(err)
			}
			p.Write([]byte(name))
			b.Add(p)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		syscall.Umask(old)
		want := os.FileMode(0o666 &^ mask)
		for _, name := range []string{"one", "two", "three"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s: mode %v, %v; want %v", mask, name, fi.Mode().Perm(), err, want)
			}
		}
	}
	// A file of the user's, resumed in place, keeps its mode.
	dir := t.TempDir()
	path := filepath.Join(dir, "mine")
	if err := os.WriteFile(path, []byte("half"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o640)
	p, err := OpenPart(path, true)
	if err != nil || !p.Adopted {
		t.Fatalf("OpenPart: %v, adopted %v", err, p != nil && p.Adopted)
	}
	p.Write([]byte(" more"))
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("a resumed file's mode became %v, want -rw-r-----", fi.Mode().Perm())
	}
}

// TestOpenPartRefusesNonRegular: a .part that is a symbolic link or a
// FIFO is refused, with and without resume, without the file it names
// being written, emptied or opened (the fresh open's O_EXCL follows no
// link; the FIFO is never opened, which would block).
func TestOpenPartRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(victim, PartPath(link)); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "piped")
	if err := syscall.Mkfifo(PartPath(fifo), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, resume := range []bool{false, true} {
		for _, path := range []string{link, fifo} {
			if _, err := OpenPart(path, resume); err == nil || !strings.Contains(err.Error(), "is not a regular file") {
				t.Errorf("OpenPart(%s, %v) over a .part that is no regular file: %v", path, resume, err)
			}
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the file the .part links to now holds %q", b)
	}
}
