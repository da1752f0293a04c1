package download

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// chunkedBody is a body whose WriteTo works as the ftp body's does once
// it goes zero-copy: it hands w.ReadFrom the source, chunk bytes at a
// time, and takes a chunk that ends short with no error as the end.
type chunkedBody struct {
	r     io.Reader
	chunk int64
}

func (b chunkedBody) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b chunkedBody) WriteTo(w io.Writer) (int64, error) {
	rf := w.(io.ReaderFrom)
	var total int64
	for {
		lr := &io.LimitedReader{R: b.r, N: b.chunk}
		n, err := rf.ReadFrom(lr)
		total += n
		if err != nil || lr.N > 0 {
			return total, err
		}
	}
}

// TestMeter checks MaxSize on each way a body reaches its writer: by
// Read, by a WriteTo that writes, by a WriteTo that hands its source to
// the writer's ReadFrom (chunks that end on the limit and across it; a
// strings.Builder and an *os.File as the final writer), and with no
// limit. Every arrival is counted: the idle watchdog is touched.
func TestMeter(t *testing.T) {
	const data = "0123456789"
	type body struct {
		name string
		new  func() io.Reader
	}
	bodies := []body{
		{"Read", func() io.Reader { return strings.NewReader(data) }},
		{"WriteTo", func() io.Reader { return bufio.NewReader(strings.NewReader(data)) }},
		{"ReadFrom/1", func() io.Reader { return chunkedBody{strings.NewReader(data), 1} }},
		{"ReadFrom/3", func() io.Reader { return chunkedBody{strings.NewReader(data), 3} }},
		{"ReadFrom/5", func() io.Reader { return chunkedBody{strings.NewReader(data), 5} }},
		{"ReadFrom/64", func() io.Reader { return chunkedBody{strings.NewReader(data), 64} }},
	}
	for _, b := range bodies {
		for _, limit := range []int64{-1, 0, 4, 5, 9, 10, 11} {
			for _, toFile := range []bool{false, true} {
				name := fmt.Sprintf("%s/limit=%d/file=%v", b.name, limit, toFile)
				w := new(touches)
				m := &meter{r: b.new(), watch: w, limited: limit >= 0, left: limit, name: "--max-size"}
				var out strings.Builder
				var err error
				if toFile {
					f, ferr := os.Create(filepath.Join(t.TempDir(), "out"))
					if ferr != nil {
						t.Fatal(ferr)
					}
					_, err = io.Copy(f, m)
					f.Close()
					got, _ := os.ReadFile(f.Name())
					out.Write(got)
				} else {
					_, err = io.Copy(&out, m)
				}
				want, wantErr := data, error(nil)
				if limit >= 0 && limit < int64(len(data)) {
					want, wantErr = data[:limit], ErrTooLarge
				}
				if out.String() != want || !errors.Is(err, wantErr) {
					t.Errorf("%s: wrote %q, %v; want %q, %v", name, out.String(), err, want, wantErr)
				}
				if want != "" && *w == 0 {
					t.Errorf("%s: the watchdog was never touched", name)
				}
			}
		}
	}
}

// touches counts the arrivals a meter reports.
type touches int

func (t *touches) Touch() { *t++ }
