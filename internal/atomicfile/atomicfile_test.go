package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

type closer struct{ err error }

func (c closer) Close() error { return c.err }

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, strings.NewReader("hello"), closer{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Fatalf("file = %q", b)
	}
	// A body that fails mid-way, and a transfer whose end the protocol
	// reports as failed, leave the old file alone and no temporary file.
	bad := io.MultiReader(strings.NewReader("partial"), iotest.ErrReader(errors.New("connection dropped")))
	if err := Write(path, bad, closer{}); err == nil {
		t.Fatal("a failed body must fail")
	}
	if err := Write(path, strings.NewReader("all of it"), closer{errors.New("426 transfer aborted")}); err == nil {
		t.Fatal("a failed close must fail")
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Errorf("the complete file was replaced by %q", b)
	}
	newPath := filepath.Join(dir, "new.bin")
	Write(newPath, iotest.ErrReader(errors.New("boom")), closer{})
	if _, err := os.Stat(newPath); !os.IsNotExist(err) {
		t.Errorf("a failed download left %s", newPath)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %v, want only out.txt", entries)
	}
}
