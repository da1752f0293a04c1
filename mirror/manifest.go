package mirror

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"sort"
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
type manifest struct {
	root *os.Root
	mu   sync.Mutex
	recs map[string]Record
	f    *os.File // append handle; nil in a dry run
}

func loadManifest(root *os.Root) (*manifest, error) {
	m := &manifest{root: root, recs: map[string]Record{}}
	f, err := root.Open(ManifestName)
	if os.IsNotExist(err) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var rec Record
			if json.Unmarshal(line, &rec) == nil && rec.Path != "" {
				if rec.Deleted {
					delete(m.recs, rec.Path)
				} else {
					m.recs[rec.Path] = rec
				}
			}
		}
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func (m *manifest) open() error {
	f, err := m.root.OpenFile(ManifestName, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	m.f = f
	return err
}

func (m *manifest) get(path string) (Record, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.recs[path]
	return r, ok
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
	if rec.Deleted {
		delete(m.recs, rec.Path)
	} else {
		m.recs[rec.Path] = rec
	}
	if m.f == nil {
		return nil
	}
	_, err = m.f.Write(b)
	return err
}

// compact rewrites the manifest with one line per complete file, sorted
// by path, atomically, and closes the append handle.
func (m *manifest) compact() error {
	m.mu.Lock()
	defer m.mu.Unlock()
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for _, p := range paths {
		if err := enc.Encode(m.recs[p]); err != nil {
			return err
		}
	}
	return atomicfile.WriteIn(m.root, ManifestName, &buf, io.NopCloser(nil))
}
