package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// writeSpacesGz writes a gzip file (RFC 1952) whose stream is mib MiB of
// spaces, then tail: one deflate block of a MiB of spaces, compressed once
// and ended by a sync flush, repeated mib times (each starts on a byte and
// refers only to its own bytes), so 2 GiB take 2.6 MB and a second.
func writeSpacesGz(t *testing.T, name string, mib int, tail string) {
	t.Helper()
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	var block, end bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestSpeed)
	fw.Write(spaces)
	fw.Flush()
	fw, _ = flate.NewWriter(&end, flate.BestSpeed)
	fw.Write([]byte(tail))
	fw.Close()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}) // §2.3: deflate, no name, no time
	crc := crc32.NewIEEE()
	for range mib {
		w.Write(block.Bytes())
		crc.Write(spaces)
	}
	w.Write(end.Bytes())
	crc.Write([]byte(tail))
	w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
	w.Write(binary.LittleEndian.AppendUint32(nil, uint32(int64(mib)<<20+int64(len(tail))))) // ISIZE: modulo 2^32
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestBadInputsNeverEndCensus: what the glob names besides regular files
// (a dangling symbolic link, a named pipe, a folder) is listed as a bad
// input, never opened, and the census of the rest is written; a URL after
// 2 GiB of one line (a 2.6 MB .gz) is counted at its column, past 2^31.
// Each of these used to end the job (the link, the column) or hang it
// for ever (the pipe's open waits for a writer).
func TestBadInputsNeverEndCensus(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: reads 2 GiB of a gzip stream")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	os.Mkdir(in, 0o755)
	if err := os.WriteFile(filepath.Join(in, "a-good.txt"), []byte("see http://good.example/ here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(in, "b-dangling.txt")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(in, "c-pipe.txt")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	folder := filepath.Join(in, "d-folder")
	os.Mkdir(folder, 0o755)
	const mib = 2049 // 2 GiB and a MiB: the URL's column is past 2^31
	writeSpacesGz(t, filepath.Join(in, "e-huge.txt.gz"), mib, "http://after.example/\n")

	// Anyone who opens the pipe to read waits for a writer: this one
	// comes, lets the reader go on (to the pipe's end), and says so.
	var opened atomic.Bool
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				opened.Store(true) // a reader has the pipe open
				f.Close()
			}
		}
	}()
	lines, sum := runCensus(t, Options{Input: filepath.Join(in, "*"), Output: filepath.Join(dir, "out"), Shards: 1, Samples: 2, Top: 5})
	close(done)
	if opened.Load() {
		t.Error("the census opened the named pipe to read it")
	}
	if l := lines["http://good.example/"]; l.Count != 1 {
		t.Errorf("the good file's URL: %+v", l)
	}
	want := []Place{{filepath.Join(in, "e-huge.txt.gz"), 1, mib<<20 + 1}}
	if l := lines["http://after.example/"]; l.Count != 1 || !slices.Equal(l.Samples, want) {
		t.Errorf("the URL after 2 GiB: %+v, want one at %+v", l, want)
	}
	reasons := map[string]string{dangling: "a symbolic link to nothing readable", pipe: "not a regular file: a named pipe", folder: "not a regular file: a folder"}
	if len(sum.BadInputs) != len(reasons) || sum.FilesBad != int64(len(reasons)) || sum.Files != 5 {
		t.Errorf("files %d, bad %d: %+v; want 5 files, %d bad", sum.Files, sum.FilesBad, sum.BadInputs, len(reasons))
	}
	for _, b := range sum.BadInputs {
		if want, ok := reasons[b.File]; !ok || !strings.Contains(b.Reason, want) {
			t.Errorf("bad input %s: %q, want %q", b.File, b.Reason, want)
		}
	}

	// A glob of bad inputs alone: a census of nothing, and the reason.
	lines, sum = runCensus(t, Options{Input: filepath.Join(in, "[bc]-*"), Output: filepath.Join(dir, "out2"), Shards: 1, Samples: 2, Top: 5})
	if len(lines) != 0 || sum.Files != 2 || sum.FilesBad != 2 || sum.Totals.URLs != 0 {
		t.Errorf("bad inputs alone: %d URLs, %d files (%d bad): %+v", len(lines), sum.Files, sum.FilesBad, sum.BadInputs)
	}
}
