package access_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// TestFileStat: §3.10's file is stat'ed, never opened: a file has its
// size, a folder is a directory, a pipe is named and not read, a missing
// file is an error, another host's file is refused before anything.
func TestFileStat(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("12345"), 0o644)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no fifo here:", err)
	}
	c := access.NewClient()
	stat := func(s string) (*access.Info, error) {
		u, err := rfc1738.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return c.Stat(context.Background(), u)
	}
	for _, tc := range []struct {
		path   string
		kind   access.Kind
		size   int64
		detail string
	}{
		{"f", access.KindFile, 5, "5 bytes"},
		{"", access.KindDirectory, -1, "directory"},
		{"pipe", access.KindOther, -1, "not a regular file: p---------"},
	} {
		info, err := stat("file://" + filepath.ToSlash(filepath.Join(dir, tc.path)))
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if info.Kind != tc.kind || info.Size != tc.size || info.Detail != tc.detail {
			t.Errorf("%s: %+v, want %s %d %q", tc.path, info, tc.kind, tc.size, tc.detail)
		}
	}
	if _, err := stat("file://" + filepath.ToSlash(filepath.Join(dir, "missing"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v, want not exist", err)
	}
	if _, err := stat("file://elsewhere.example/etc/passwd"); !errors.Is(err, access.ErrUnsupported) {
		t.Errorf("another host: %v, want ErrUnsupported", err)
	}
}
