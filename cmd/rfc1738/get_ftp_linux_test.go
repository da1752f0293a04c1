package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetToDevice: -o naming a device or a pipe (the benchmark's -o
// /dev/null) writes into it; renaming a temporary file over it would
// replace the device node with a plain file.
func TestGetToDevice(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpFaultFiles})
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the writer opens it
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	if _, stderr, status := runCLI(t, "", "get", "-o", fifo, "ftp://"+fake.Addr+"/pub/file.txt"); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	select {
	case s := <-got:
		if s != "the whole file\n" {
			t.Errorf("the pipe carried %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Error("nothing was written into the pipe")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %v", entries)
	}
}
