//go:build unix

package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/extract"
)

// TestExtractFileShrinks: a file that shrinks while it is mapped faults
// on the pages past its new end; the scan reports that the file shrank,
// and the process goes on (a hostile input is never a crash). The file is
// mapped, then truncated, then scanned: each page of it faults.
func TestExtractFileShrinks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.txt")
	text := strings.Repeat("see http://a.example/x and ftp://b.example/y\n", 2000)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	e := &env{stdin: strings.NewReader(""), stdout: os.Stdout, stderr: os.Stderr}
	units := extractUnits(e, path, 1, false)
	if len(units) != 1 || units[0].err != nil || units[0].src.data == nil {
		t.Fatalf("the file was not mapped: %+v", units)
	}
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	f := extractFormatter{free: make(chan []byte, 8)}
	done := make(chan struct{})
	var batches []extractBatch
	go func() {
		for bs := range units[0].out {
			batches = append(batches, bs...)
		}
		close(done)
	}()
	f.scan(extract.NewScanner(nil), units[0], extractOptions{})
	<-done
	if n := len(batches); n == 0 || batches[n-1].err != errFileShrank {
		t.Fatalf("batches %+v: want the last to say the file shrank", batches)
	}
}
