package extract

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// rfcProse returns the RFC's text repeated to at least 4 MiB: prose with
// the RFC's own density of URLs (30 in 45 KB, most broken across lines).
func rfcProse(b *testing.B) []byte {
	text := readRFC(b)
	return []byte(strings.Repeat(text, (4<<20)/len(text)+1))
}

// docTree is the text of /usr/share/doc: real text nobody here wrote,
// READMEs, changelogs and copyright files, most of them gzipped. Each
// file is read whole and decompressed once per test binary.
var docTree = sync.OnceValues(func() ([][]byte, error) {
	var files [][]byte
	err := filepath.WalkDir("/usr/share/doc", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil // unreadable folders and symbolic links are skipped
		}
		data, err := readMaybeGzip(path)
		if err == nil {
			files = append(files, data)
		}
		return nil
	})
	return files, err
})

func readMaybeGzip(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

func loadDocTree(b *testing.B) [][]byte {
	files, err := docTree()
	if err != nil || len(files) == 0 {
		b.Skipf("no documentation tree in /usr/share/doc: %v", err) // not a test dependency: skipped even in CI
	}
	return files
}

// BenchmarkScanRFCProse scans the RFC text repeated to 4 MiB.
func BenchmarkScanRFCProse(b *testing.B) {
	text := rfcProse(b)
	sc := NewScanner(nil)
	r := bytes.NewReader(nil)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	var n int
	defer testserver.CPUThroughput(b, int64(len(text)))()
	for b.Loop() {
		r.Reset(text)
		sc.Reset(r)
		n = 0
		for sc.Scan() {
			n++
		}
	}
	b.ReportMetric(float64(n), "urls/op")
}

// BenchmarkScanDocTree scans every file of /usr/share/doc, decompressed
// beforehand, with one Scanner reset per file.
func BenchmarkScanDocTree(b *testing.B) {
	files := loadDocTree(b)
	var total int64
	for _, f := range files {
		total += int64(len(f))
	}
	sc := NewScanner(nil)
	r := bytes.NewReader(nil)
	b.SetBytes(total)
	b.ReportAllocs()
	var n int
	defer testserver.CPUThroughput(b, total)()
	for b.Loop() {
		n = 0
		for _, f := range files {
			r.Reset(f)
			sc.Reset(r)
			for sc.Scan() {
				n++
			}
		}
	}
	b.ReportMetric(float64(n), "urls/op")
	b.ReportMetric(float64(len(files)), "files")
}

// BenchmarkAll is the convenience function over the RFC's text once.
func BenchmarkAll(b *testing.B) {
	text := readRFC(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		All(text)
	}
}
