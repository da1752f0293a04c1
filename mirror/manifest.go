package mirror

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738/internal/atomicfile"
)

// ManifestName is the manifest's name inside the mirror's folder.
const ManifestName = ".rfc1738-mirror.jsonl"

// KindGopherPlus is the Record.Kind of a file holding the Gopher+
// attributes of an item (see GopherPlusSuffix).
const KindGopherPlus = "gopher+"

// A Record is one line of the manifest: a file that is complete in the
// mirror. A line with Deleted set says an earlier record's file is gone.
type Record struct {
	URL  string `json:"url"`
	Path string `json:"path"` // slash-separated, relative to the mirror's folder
	// Kind is empty for a copy of a remote file or item, KindGopherPlus
	// for the Gopher+ attributes of the item beside it.
	Kind string `json:"kind,omitempty"`
	// Menu is, for a gopher item, the local path of the menu that
	// listed it (empty for the URL's own menu): --delete removes an
	// item that menu, read whole again, no longer lists.
	Menu    string    `json:"menu,omitempty"`
	Size    int64     `json:"size"`
	Mtime   time.Time `json:"mtime,omitzero"` // the remote time, as listed
	SHA256  string    `json:"sha256,omitempty"`
	Deleted bool      `json:"deleted,omitempty"`
}

// manifest is the set of complete files. Each completed file is appended
// as one line in one write, so an interrupted run leaves a file whose
// every whole line is true; a torn last line is ignored when read. A run
// that ends rewrites it compactly.
//
// In memory it keeps, per file, only what deciding whether to fetch it
// again needs and where its line is (about 40 bytes and the path): a
// whole Record is read back from the file when wanted, so the memory
// of a run does not hold every URL and hash of the tree.
type manifest struct {
	root *os.Root
	mu   sync.Mutex
	recs map[string]entryRef
	f    *os.File // append handle; nil in a dry run
	r    *os.File // read handle for lines, opened when first needed
	end  int64    // the file's length: where the next line goes
}

// entryRef is what the manifest holds of one record.
type entryRef struct {
	off   int64 // of its line in the file; -1 when it was not written
	size  int64
	mtime int64 // unix nanoseconds; noTime when unknown
	gmenu bool  // a gopher record naming its menu
}

const noTime = math.MinInt64

func refOf(rec Record, off int64) entryRef {
	e := entryRef{off: off, size: rec.Size, mtime: noTime, gmenu: rec.Menu != ""}
	if !rec.Mtime.IsZero() {
		e.mtime = rec.Mtime.UnixNano()
	}
	return e
}

func loadManifest(root *os.Root) (*manifest, error) {
	m := &manifest{root: root, recs: map[string]entryRef{}}
	if root == nil {
		return m, nil
	}
	f, err := root.Open(ManifestName)
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	var off int64
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var rec Record
			if json.Unmarshal(line, &rec) == nil && rec.Path != "" {
				if rec.Deleted {
					delete(m.recs, rec.Path)
				} else {
					m.recs[rec.Path] = refOf(rec, off)
				}
			}
			off += int64(len(line))
		}
		if err == io.EOF {
			// A torn last line is cut off, so that the next line
			// appended starts a line of its own.
			m.end = off
			return m, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (m *manifest) open() error {
	f, err := m.root.OpenFile(ManifestName, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if err := f.Truncate(m.end); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Seek(m.end, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	m.f = f
	return nil
}

// stat returns the size and listed time recorded for path.
func (m *manifest) stat(path string) (size int64, mtime time.Time, ok bool) {
	m.mu.Lock()
	e, ok := m.recs[path]
	m.mu.Unlock()
	if e.mtime != noTime {
		mtime = time.Unix(0, e.mtime).UTC()
	}
	return e.size, mtime, ok
}

// read returns the whole record of path, read back from the file.
func (m *manifest) read(path string) (Record, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[path]
	if !ok {
		return Record{}, false
	}
	line, err := m.lineAt(e.off)
	var rec Record
	if err != nil || json.Unmarshal(line, &rec) != nil {
		return Record{}, false
	}
	return rec, true
}

// lineAt reads the line at off (m.mu held).
func (m *manifest) lineAt(off int64) ([]byte, error) {
	if off < 0 {
		return nil, errors.New("the record was not written")
	}
	if m.r == nil {
		f, err := m.root.Open(ManifestName)
		if err != nil {
			return nil, err
		}
		m.r = f
	}
	br := bufio.NewReaderSize(io.NewSectionReader(m.r, off, 1<<20), 512)
	return br.ReadBytes('\n')
}

// gopherRecords returns the gopher records that name their menu.
func (m *manifest) gopherRecords() []Record {
	m.mu.Lock()
	var paths []string
	for p, e := range m.recs {
		if e.gmenu {
			paths = append(paths, p)
		}
	}
	m.mu.Unlock()
	recs := make([]Record, 0, len(paths))
	for _, p := range paths {
		if rec, ok := m.read(p); ok {
			recs = append(recs, rec)
		}
	}
	return recs
}

// under returns the recorded paths that are p or lie below it.
func (m *manifest) under(p string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	for q := range m.recs {
		if q == p || strings.HasPrefix(q, p+"/") {
			out = append(out, q)
		}
	}
	return out
}

// add records rec and appends its line.
func (m *manifest) add(rec Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	m.mu.Lock()
	defer m.mu.Unlock()
	off := int64(-1)
	if m.f != nil {
		off = m.end
		if _, err = m.f.Write(b); err != nil {
			off = -1
		}
		m.end += int64(len(b))
	}
	if rec.Deleted {
		delete(m.recs, rec.Path)
	} else {
		m.recs[rec.Path] = refOf(rec, off)
	}
	return err
}

// compact rewrites the manifest with one line per complete file, sorted
// by path, atomically, each line copied from the file as it is, and
// closes the handles.
func (m *manifest) compact() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer func() {
		if m.r != nil {
			m.r.Close()
			m.r = nil
		}
	}()
	if m.f == nil {
		return nil
	}
	m.f.Close()
	m.f = nil
	paths := make([]string, 0, len(m.recs))
	for p := range m.recs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		bw := bufio.NewWriterSize(pw, 64<<10)
		for _, p := range paths {
			if m.recs[p].off < 0 {
				continue // its line could not be written: not durable
			}
			line, err := m.lineAt(m.recs[p].off)
			if err == nil {
				_, err = bw.Write(line)
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(bw.Flush())
	}()
	err := atomicfile.WriteIn(m.root, ManifestName, pr, io.NopCloser(nil))
	pr.Close()
	<-done
	return err
}
