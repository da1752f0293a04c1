package xurls

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/extract"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"mvdan.cc/xurls/v2"
)

// rfcProse is the RFC's text repeated to 2 MiB: prose with the RFC's URL
// density, most URLs in <URL:…> and broken across lines.
func rfcProse(b *testing.B) []string {
	data, err := os.ReadFile(testserver.SharedFile(b, "spec/rfc1738.txt"))
	if err != nil {
		b.Fatal(err)
	}
	return []string{strings.Repeat(string(data), (2<<20)/len(data)+1)}
}

// docSample is every 32nd file of /usr/share/doc in path order (about a
// thirty-second of the tree, some 8 MB), gzip files decompressed: real
// text nobody here wrote, small enough for xurls to finish.
var docSample = sync.OnceValue(func() []string {
	var paths []string
	filepath.WalkDir("/usr/share/doc", func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			paths = append(paths, path)
		}
		return nil
	})
	var files []string
	for i := 0; i < len(paths); i += 32 {
		data, err := os.ReadFile(paths[i])
		if err != nil {
			continue
		}
		if strings.HasSuffix(paths[i], ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				continue
			}
			if data, err = io.ReadAll(zr); err != nil {
				continue
			}
		}
		files = append(files, string(data))
	}
	return files
})

func docs(b *testing.B) []string {
	files := docSample()
	if len(files) == 0 {
		b.Skip("no documentation tree in /usr/share/doc")
	}
	return files
}

func size(files []string) (n int64) {
	for _, f := range files {
		n += int64(len(f))
	}
	return n
}

// benchExtract scans each file with one reused Scanner.
func benchExtract(b *testing.B, files []string) {
	sc := extract.NewScanner(nil)
	r := strings.NewReader("")
	b.SetBytes(size(files))
	b.ReportAllocs()
	var n int
	defer testserver.CPUThroughput(b, size(files))()
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
}

// benchRegexp runs an xurls regexp — Relaxed finds URLs without a scheme
// too; Strict, closer in intent to extract, only those with one — over
// the same files.
func benchRegexp(b *testing.B, re *regexp.Regexp, files []string) {
	b.SetBytes(size(files))
	b.ReportAllocs()
	var n int
	defer testserver.CPUThroughput(b, size(files))()
	for b.Loop() {
		n = 0
		for _, f := range files {
			n += len(re.FindAllStringIndex(f, -1))
		}
	}
	b.ReportMetric(float64(n), "urls/op")
}

func BenchmarkRFCProse(b *testing.B) {
	b.Run("extract", func(b *testing.B) { benchExtract(b, rfcProse(b)) })
	b.Run("xurls-relaxed", func(b *testing.B) { benchRegexp(b, xurls.Relaxed(), rfcProse(b)) })
	b.Run("xurls-strict", func(b *testing.B) { benchRegexp(b, xurls.Strict(), rfcProse(b)) })
}

func BenchmarkDocSample(b *testing.B) {
	b.Run("extract", func(b *testing.B) { benchExtract(b, docs(b)) })
	b.Run("xurls-relaxed", func(b *testing.B) { benchRegexp(b, xurls.Relaxed(), docs(b)) })
	b.Run("xurls-strict", func(b *testing.B) { benchRegexp(b, xurls.Strict(), docs(b)) })
}
