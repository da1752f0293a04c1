//go:build unix

package linkcheck

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestTreeFIFO: a link with a fragment to a named pipe in the tree is
// not opened (a reader would wait for a writer forever).
func TestTreeFIFO(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.html": `<a href="pipe.html#x">p</a>`})
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.html"), 0o644); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan []string, 1)
	go func() { done <- lines(dir, readTree(t, &Tree{}, filepath.Join(dir, "a.html"))) }()
	select {
	case got := <-done:
		if !slices.Equal(got, []string{"a.html:1:10 ok pipe.html#x"}) {
			t.Errorf("got %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the check opened the pipe and waits")
	}
}
