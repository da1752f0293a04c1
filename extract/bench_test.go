package extract

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/rfc1738/internal/testenv"
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
var docTree = sync.OnceValues(func() ([]docFile, error) {
	var files []docFile
	err := filepath.WalkDir("/usr/share/doc", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil // unreadable folders and symbolic links are skipped
		}
		data, err := readMaybeGzip(path)
		if err == nil {
			files = append(files, docFile{path, data})
		}
		return nil
	})
	return files, err
})

type docFile struct {
	path string
	data []byte
}

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

func loadDocTree(b *testing.B) []docFile {
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
	defer testenv.CPUThroughput(b, int64(len(text)))()
	for b.Loop() {
		r.Reset(text)
		sc.Reset(r)
		n = 0
		for sc.Scan() {
			sc.Match()
			n++
		}
	}
	b.ReportMetric(float64(n), "urls/op")
}

// BenchmarkScanDocTree scans every file of /usr/share/doc, decompressed
// beforehand, with one Scanner reset per file: "match" makes every match
// whole (Match), as most callers do; "bytes" reads only each URL's
// octets (Bytes), as "rfc1738 extract" does for its plain output.
func BenchmarkScanDocTree(b *testing.B) {
	files := loadDocTree(b)
	for _, match := range []bool{true, false} {
		name := "bytes"
		if match {
			name = "match"
		}
		b.Run(name, func(b *testing.B) { scanDocTree(b, files, match) })
	}
}

func scanDocTree(b *testing.B, files []docFile, match bool) {
	var total int64
	for _, f := range files {
		total += int64(len(f.data))
	}
	sc := NewScanner(nil)
	r := bytes.NewReader(nil)
	b.SetBytes(total)
	b.ReportAllocs()
	var n int
	defer testenv.CPUThroughput(b, total)()
	for b.Loop() {
		n = 0
		for _, f := range files {
			r.Reset(f.data)
			sc.Reset(r)
			for sc.Scan() {
				if match {
					sc.Match()
				}
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

// docCorpus is the documentation text of /usr/share/doc — its *.txt,
// README* and changelog* files, UTF-8 with no NUL — joined into one
// input of at most 40 MB, larger than any cache: a scan of it is bound
// by memory.
func docCorpus(b *testing.B) []byte {
	var corpus []byte
	for _, f := range loadDocTree(b) {
		name := strings.ToLower(strings.TrimSuffix(filepath.Base(f.path), ".gz"))
		if !strings.HasSuffix(name, ".txt") && !strings.HasPrefix(name, "readme") && !strings.HasPrefix(name, "changelog") ||
			len(corpus)+len(f.data) > 40<<20 || bytes.IndexByte(f.data, 0) >= 0 || !utf8.Valid(f.data) {
			continue
		}
		corpus = append(corpus, f.data...)
	}
	return corpus
}

// absentOctet returns an octet that does not occur in text, so that
// bytes.IndexByte for it reads every byte.
func absentOctet(b *testing.B, text []byte) byte {
	var seen [256]bool
	for _, c := range text {
		seen[c] = true
	}
	for c := 255; c >= 0; c-- {
		if !seen[c] {
			return byte(c)
		}
	}
	b.Skip("every octet occurs in the corpus")
	return 0
}

// BenchmarkScanVsIndexByte measures the Scanner against the limit of the
// machine: bytes.IndexByte for an octet absent from the same bytes, which
// reads them as fast as memory delivers them. The two alternate in one
// loop, each timed by the CPU clock of the thread, so that the machine's
// load cannot tilt the comparison; "scan/IndexByte" is the Scanner's
// share of the memory-bound speed (0.30: it scans at 30% of it). It runs
// once with each colonBlocks kernel the CPU has (the one chosen first)
// and once searching colon by colon ("kernel=none").
func BenchmarkScanVsIndexByte(b *testing.B) {
	text := docCorpus(b)
	absent := absentOctet(b, text)
	chosen := colonBlocks
	defer func() { colonBlocks = chosen }()
	type run struct {
		name   string
		kernel func([]byte, int, []int) (int, int)
	}
	var runs []run
	for name, k := range kernels() {
		if funcName(k) == funcName(chosen) {
			runs = append([]run{{name, k}}, runs...)
		} else {
			runs = append(runs, run{name, k})
		}
	}
	runs = append(runs, run{"none", nil})
	for _, r := range runs {
		b.Run("kernel="+r.name, func(b *testing.B) {
			colonBlocks = r.kernel
			scanVsIndexByte(b, text, absent)
		})
	}
}

func scanVsIndexByte(b *testing.B, text []byte, absent byte) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sc := NewScanner(nil)
	r := bytes.NewReader(nil)
	var scan, index time.Duration
	var n int
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		t := testenv.ThreadCPU()
		if bytes.IndexByte(text, absent) >= 0 {
			b.Fatal("the absent octet is present")
		}
		index += testenv.ThreadCPU() - t

		t = testenv.ThreadCPU()
		r.Reset(text)
		sc.Reset(r)
		n = 0
		for sc.Scan() {
			sc.Match() // each match made whole, as in the figures before Bytes
			n++
		}
		scan += testenv.ThreadCPU() - t
	}
	mb := float64(len(text)) * float64(b.N) / 1e6
	b.ReportMetric(mb/index.Seconds(), "IndexByte-MB/cpu-s")
	b.ReportMetric(mb/scan.Seconds(), "scan-MB/cpu-s")
	b.ReportMetric(index.Seconds()/scan.Seconds(), "scan/IndexByte")
	b.ReportMetric(float64(n), "urls/op")
}
