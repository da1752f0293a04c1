package mirror

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
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
	Menu  string    `json:"menu,omitempty"`
	Size  int64     `json:"size"`
	Mtime time.Time `json:"mtime,omitzero"` // the remote time, as listed
	// Exact is the remote time to the second (ftp MDTM, RFC 3659 §3)
	// where the listing gave it coarser (an ftp LIST's ls -l times); the
	// local file has it.
	Exact   time.Time `json:"exact,omitzero"`
	SHA256  string    `json:"sha256,omitempty"`
	Deleted bool      `json:"deleted,omitempty"`
}

// manifest is the set of complete files. Each completed file is appended
// as one line in one write, so an interrupted run leaves a file whose
// every whole line is true; a torn last line is ignored when read (and
// cut off before the next is appended). A run that ends rewrites it
// with one line per file.
//
// In memory it keeps, per file, only a 128-bit hash of its path, where
// its line is, and the size and time that decide whether to fetch it
// again (64 bytes, whatever the path's length); everything else is read
// back from the file when wanted, so a run does not hold the paths,
// URLs and hashes of the tree.
type manifest struct {
	root *os.Root
	mu   sync.Mutex
	recs map[pathKey]entryRef
	f    *os.File // append handle; nil in a dry run
	r    *os.File // read handle for lines, opened when first needed
	end  int64    // the file's length: where the next line goes
}

// pathKey is the first 128 bits of a path's SHA-256: two paths of one
// mirror share it with a chance of about n²/2¹²⁹.
type pathKey [16]byte

func keyOf(path string) pathKey {
	sum := sha256.Sum256([]byte(path))
	return pathKey(sum[:16])
}

// entryRef is what the manifest holds of one record.
type entryRef struct {
	off  int64 // of its line in the file; -1 when it was not written
	size int64
	// The listed time in unix seconds (noTime when unknown) and
	// nanoseconds: any year a server may list (MLSD's 9999 or 0), where
	// unix nanoseconds end in 1678 and 2262.
	sec  int64
	nsec int32
}

const noTime = math.MinInt64

func refOf(rec Record, off int64) entryRef {
	e := entryRef{off: off, size: rec.Size, sec: noTime}
	if !rec.Mtime.IsZero() {
		e.sec, e.nsec = rec.Mtime.Unix(), int32(rec.Mtime.Nanosecond())
	}
	return e
}

func loadManifest(root *os.Root) (*manifest, error) {
	m := &manifest{root: root, recs: map[pathKey]entryRef{}}
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
	end, err := scanLines(f, func(off int64, _ []byte, rec Record) {
		if rec.Deleted {
			delete(m.recs, keyOf(rec.Path))
		} else {
			m.recs[keyOf(rec.Path)] = refOf(rec, off)
		}
	})
	// A torn last line is cut off (see open), so that the next line
	// appended starts a line of its own.
	m.end = end
	return m, err
}

// scanLines calls each for every whole line of f that is a record, with
// its offset and bytes (valid during the call), and returns where the
// last whole line ends.
func scanLines(f io.Reader, each func(off int64, line []byte, rec Record)) (int64, error) {
	r := bufio.NewReaderSize(f, 64<<10)
	var off int64
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: no record is; skip it.
			// Its bytes count only when it ends: a torn one at the end
			// is cut off whole, like any torn line.
			n := int64(len(line))
			for err == bufio.ErrBufferFull {
				line, err = r.ReadSlice('\n')
				n += int64(len(line))
			}
			if err == nil {
				off += n
			}
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var rec Record
			if json.Unmarshal(line, &rec) == nil && rec.Path != "" {
				each(off, line, rec)
			}
			off += int64(len(line))
		}
		if err == io.EOF {
			return off, nil
		}
		if err != nil {
			return off, err
		}
	}
}

func (m *manifest) open() error {
	f, err := m.root.OpenFile(ManifestName, os.O_WRONLY|os.O_CREATE, fileMode)
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
	e, ok := m.recs[keyOf(path)]
	m.mu.Unlock()
	if ok && e.sec != noTime {
		mtime = time.Unix(e.sec, int64(e.nsec)).UTC()
	}
	return e.size, mtime, ok
}

// read returns the whole record of path, read back from the file.
func (m *manifest) read(path string) (Record, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.recs[keyOf(path)]
	if !ok {
		return Record{}, false
	}
	line, err := m.lineAt(e.off)
	var rec Record
	if err != nil || json.Unmarshal(line, &rec) != nil || rec.Path != path {
		return Record{}, false
	}
	return rec, true
}

// lineAt reads the line at off (m.mu held).
func (m *manifest) lineAt(off int64) ([]byte, error) {
	if off < 0 {
		return nil, errors.New("the record was not written")
	}
	if err := m.reader(); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(io.NewSectionReader(m.r, off, 1<<20), 512)
	return br.ReadBytes('\n')
}

func (m *manifest) reader() error {
	if m.r != nil {
		return nil
	}
	f, err := m.root.Open(ManifestName)
	m.r = f
	return err
}

// current calls each for every record of the file that is the latest of
// its path, in the file's order (m.mu held).
func (m *manifest) current(each func(line []byte, rec Record)) error {
	if m.root == nil || len(m.recs) == 0 {
		return nil
	}
	if err := m.reader(); err != nil {
		return err
	}
	_, err := scanLines(io.NewSectionReader(m.r, 0, m.end), func(off int64, line []byte, rec Record) {
		if e, ok := m.recs[keyOf(rec.Path)]; ok && e.off == off {
			each(line, rec)
		}
	})
	return err
}

// gopherRecords returns the gopher records that name their menu.
func (m *manifest) gopherRecords() []Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	var recs []Record
	m.current(func(_ []byte, rec Record) {
		if rec.Menu != "" {
			recs = append(recs, rec)
		}
	})
	return recs
}

// under returns the recorded paths that are p or lie below it.
func (m *manifest) under(p string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []string
	m.current(func(_ []byte, rec Record) {
		if rec.Path == p || strings.HasPrefix(rec.Path, p+"/") {
			out = append(out, rec.Path)
		}
	})
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
		var n int
		if n, err = m.f.Write(b); err == nil {
			off = m.end
		}
		m.end += int64(n)
	}
	if rec.Deleted {
		delete(m.recs, keyOf(rec.Path))
	} else {
		m.recs[keyOf(rec.Path)] = refOf(rec, off)
	}
	return err
}

// compact rewrites the manifest atomically with the latest line of each
// complete file, copied as it is, in the order of the file (so a tree
// fetched in one run keeps the order it was walked in), and closes the
// handles.
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
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		bw := bufio.NewWriterSize(pw, 64<<10)
		var werr error
		err := m.current(func(line []byte, _ Record) {
			if werr == nil {
				_, werr = bw.Write(line)
			}
		})
		if err == nil {
			err = werr
		}
		if err == nil {
			err = bw.Flush()
		}
		pw.CloseWithError(err)
	}()
	err := atomicfile.WriteIn(m.root, ManifestName, pr, io.NopCloser(nil))
	pr.Close()
	<-done
	return err
}
