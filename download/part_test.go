package download

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

func TestPart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	p, err := OpenPart(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != filepath.Join(dir, ".out.txt.part") || p.Found != -1 {
		t.Errorf("part %s found %d", p.Name, p.Found)
	}
	p.Write([]byte("hello"))
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the final file exists before Commit")
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Fatalf("file = %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", fi.Mode())
	}

	// A failed download leaves the complete file alone, and no part
	// file unless kept for a resume.
	p, _ = OpenPart(path, false)
	p.Write([]byte("partial"))
	if p.Abort(false) {
		t.Error("Abort(false) kept the part file")
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Errorf("the complete file was replaced by %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %v, want only out.txt", entries)
	}
	p, _ = OpenPart(path, false)
	p.Write([]byte("part"))
	if !p.Abort(true) {
		t.Fatal("Abort(true) removed a part file with bytes")
	}
	// A resume writes on from its end; a fresh start empties it.
	p, _ = OpenPart(path, true)
	if p.Found != 4 || p.Offset() != 4 {
		t.Errorf("resume: found %d offset %d, want 4", p.Found, p.Offset())
	}
	p.Write([]byte("ial"))
	p.Commit()
	if b, _ := os.ReadFile(path); string(b) != "partial" {
		t.Errorf("resumed file %q", b)
	}
	// With no part, a resume takes the final file itself (curl's -C -
	// -o FILE) and, failing, puts it back under its name.
	p, _ = OpenPart(path, true)
	if !p.Adopted || p.Found != 7 || p.Offset() != 7 {
		t.Errorf("resume of the final file: adopted %v found %d offset %d, want 7", p.Adopted, p.Found, p.Offset())
	}
	p.Write([]byte("!"))
	if !p.Abort(true) || p.Name != path {
		t.Errorf("the adopted file was not put back: %s", p.Name)
	}
	if b, _ := os.ReadFile(path); string(b) != "partial!" {
		t.Errorf("the adopted file holds %q", b)
	}
	os.Remove(path)
	p, _ = OpenPart(path, true)
	p.Write([]byte("old"))
	p.Abort(true)
	p, _ = OpenPart(path, false)
	if p.Found != 3 || p.Offset() != 0 {
		t.Errorf("fresh start over a part: found %d offset %d", p.Found, p.Offset())
	}
	p.Abort(false)
}

func TestCheckTarget(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ path, want string }{
		{dir + "/", "is a folder name"},
		{dir, "is a folder;"},
		{filepath.Join(dir, "missing", "x"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		err := CheckTarget(tc.path)
		if err == nil || !strings.HasPrefix(err.Error(), tc.path+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CheckTarget(%s) = %v, want %q", tc.path, err, tc.want)
		}
	}
	if err := CheckTarget(filepath.Join(dir, "new")); err != nil {
		t.Errorf("a new file in an existing folder: %v", err)
	}
}

// TestPartResumeEdges: the empty files at the edges of a resume. An
// empty .part counts as none: a resume takes the final file over it. An
// empty final file is nothing to resume: it is left alone. An adopted
// file that a restart emptied is put back, but holds nothing to resume.
func TestPartResumeEdges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	os.WriteFile(PartPath(path), nil, 0o600)
	os.WriteFile(path, []byte("hello"), 0o644)
	p, err := OpenPart(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Adopted || p.Found != 5 || p.Offset() != 5 {
		t.Errorf("resume over an empty part: adopted %v found %d offset %d, want the final file's 5 bytes", p.Adopted, p.Found, p.Offset())
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the adopted file is still under its final name (%v)", err)
	}
	// The server sends the whole resource: the adopted file is emptied,
	// then the download fails. The file goes back, with nothing to resume.
	if err := p.Restart(); err != nil {
		t.Fatal(err)
	}
	if p.Abort(true) {
		t.Error("Abort(true) of an emptied adopted file reports bytes kept")
	}
	if p.Name != path {
		t.Errorf("the adopted file was not put back: %s", p.Name)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("the final file after the abort: %v, %v", fi, err)
	}

	// The final file is there and empty, no .part: nothing is adopted.
	p, err = OpenPart(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if p.Adopted || p.Found != -1 || p.Offset() != 0 {
		t.Errorf("resume over an empty final file: adopted %v found %d offset %d, want none", p.Adopted, p.Found, p.Offset())
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the empty final file was taken: %v", err)
	}
	p.Abort(false)
}

// TestOpenPartSaysWhy: a part that cannot be opened is said in terms of
// the path as the user gave it, as CheckTarget says it, though OpenPart
// no longer asks about the folder before the open — with and without
// resume.
func TestOpenPartSaysWhy(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, []byte("x"), 0o644)
	for _, resume := range []bool{false, true} {
		for _, tc := range []struct{ path, want string }{
			{dir + "/", "is a folder name"},
			{dir, "is a folder;"},
			{filepath.Join(dir, "missing", "x"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
			{filepath.Join(notDir, "x"), notDir + " is not a folder"},
		} {
			p, err := OpenPart(tc.path, resume)
			if err == nil || !strings.HasPrefix(err.Error(), tc.path+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("OpenPart(%s, %v) = %v, want %q", tc.path, resume, err, tc.want)
			}
			if p != nil {
				t.Errorf("OpenPart(%s, %v) returned a part with its error", tc.path, resume)
			}
		}
	}

}

// TestOpenPartFresh: without resume and with no part left, the part is
// made new and empty (Found -1, Offset 0), the final file untouched
// until the commit.
func TestOpenPartFresh(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	os.WriteFile(path, []byte("old"), 0o644)
	p, err := OpenPart(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Found != -1 || p.Offset() != 0 || p.Adopted {
		t.Errorf("a fresh part: found %d, offset %d, adopted %v", p.Found, p.Offset(), p.Adopted)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the final file holds %q before the commit", b)
	}
	p.Write([]byte("new"))
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("after the commit the file holds %q", b)
	}
	if _, err := os.Lstat(p.Name); !os.IsNotExist(err) {
		t.Errorf("the part is still there: %v", err)
	}
}

// countingWriter counts the writes it is given.
type countingWriter struct {
	bytes.Buffer
	writes []int
}

func (w *countingWriter) Write(b []byte) (int, error) {
	w.writes = append(w.writes, len(b))
	return w.Buffer.Write(b)
}

// failingReader gives r, then fails with err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// TestFillWritesWhole: a body that comes a byte a read is written in
// writes of fillSize, the last shorter — a small file in one, no empty
// write at the end or for an empty body; what came
// before a failure is written, and the failure returned; a failed write
// stops the copy.
func TestFillWritesWhole(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), (2*fillSize+1000)/16)
	for _, tc := range []struct {
		size   int
		writes []int
	}{
		{len(body), []int{fillSize, fillSize, len(body) - 2*fillSize}},
		{2 * fillSize, []int{fillSize, fillSize}},
		{700, []int{700}},
		{0, nil},
	} {
		var w countingWriter
		n, err := fill(&w, iotest.OneByteReader(bytes.NewReader(body[:tc.size])))
		if err != nil || n != int64(tc.size) || !bytes.Equal(w.Bytes(), body[:tc.size]) || !slices.Equal(w.writes, tc.writes) {
			t.Errorf("%d bytes: %d written (%v), writes %v, want %v", tc.size, n, err, w.writes, tc.writes)
		}
	}
	cut := errors.New("connection reset")
	var w countingWriter
	n, err := fill(&w, &failingReader{r: iotest.HalfReader(bytes.NewReader(body[:fillSize+10])), err: cut})
	if err != cut || n != fillSize+10 || !bytes.Equal(w.Bytes(), body[:fillSize+10]) {
		t.Errorf("a body cut after %d bytes: %d written, error %v", fillSize+10, n, err)
	}
	full := errors.New("disk full")
	n, err = fill(&shortWriter{err: full}, bytes.NewReader(body))
	if err != full || n != 10 {
		t.Errorf("a failed write: %d written, error %v; want 10 and the write's error", n, err)
	}
}

// shortWriter takes 10 bytes of the first write, then fails.
type shortWriter struct{ err error }

func (w *shortWriter) Write(b []byte) (int, error) { return min(len(b), 10), w.err }
