package browse

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/rfc1738/internal/atomicfile"
)

// Bounds of the files kept in the config folder.
const (
	maxHistory   = 1000 // visits remembered
	maxBookmarks = 5000
	maxStoreLine = 8 << 10
)

// store keeps bookmarks and the history of visits in the user's config
// folder (XDG: $XDG_CONFIG_HOME/rfc1738, else ~/.config/rfc1738), one
// "URL<TAB>title" a line. Passwords never reach it: URLs are stored as
// shown, redacted (§6).
type store struct {
	dir string // "" keeps nothing on disk
}

func (s store) file(name string) string { return filepath.Join(s.dir, name) }

// read returns the entries of a file, at most max (the last ones).
func (s store) read(name string, max int) ([]entry, error) {
	if s.dir == "" {
		return nil, nil
	}
	f, err := os.Open(s.file(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1024), maxStoreLine)
	for sc.Scan() {
		url, title, _ := strings.Cut(sc.Text(), "\t")
		if url == "" {
			continue
		}
		out = append(out, entry{url: url, title: title})
		if len(out) > 2*max {
			out = append(out[:0], out[len(out)-max:]...)
		}
	}
	if len(out) > max {
		out = out[len(out)-max:]
	}
	return out, sc.Err()
}

// write replaces a file with entries, atomically.
func (s store) write(name string, es []entry) error {
	if s.dir == "" {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	var b strings.Builder
	for _, e := range es {
		b.WriteString(storeField(e.url))
		b.WriteByte('\t')
		b.WriteString(storeField(e.title))
		b.WriteByte('\n')
	}
	return atomicfile.Write(s.file(name), strings.NewReader(b.String()), io.NopCloser(nil))
}

// appendEntry adds one line to a file.
func (s store) appendEntry(name string, e entry) error {
	if s.dir == "" {
		return nil
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(s.file(name), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(storeField(e.url) + "\t" + storeField(e.title) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// storeField keeps a field on its line.
func storeField(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// entry is one remembered URL.
type entry struct {
	url, title string
}
