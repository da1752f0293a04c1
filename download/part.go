package download

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
)

// PartPath returns the hidden file a download of path is written to
// until it is complete: ".NAME.part" in the same folder, so that the
// rename is atomic and a run that was killed leaves a name the next one
// finds.
func PartPath(path string) string {
	dir, base := filepath.Split(path)
	return filepath.Join(dir, "."+base+".part")
}

// A Part is the file a download is written to; Commit renames it to the
// final path, Abort removes it or keeps it for a resume. A failed
// download never leaves a file at the final path.
type Part struct {
	Path  string // the final path
	Name  string // the .part file, PartPath(Path)
	f     *os.File
	n     int64 // bytes in the file
	Found int64 // bytes a .part left by an earlier run held when opened; -1 when there was none
	// Adopted is set when a resume found no .part but the final file:
	// it became the part file (Found is its size), and a failed download
	// puts it back under its name.
	Adopted bool

	committed bool   // Commit or Batch.Add took it
	opened    uint64 // the order f was opened in, among all parts
}

// partsOpened counts the parts opened: a syncfs reports the errors since
// its descriptor was opened, so a Batch issues it on its oldest.
var partsOpened atomic.Uint64

// CheckTarget says why path cannot be written, in terms of the path as
// the user gave it: a folder (a name ending in "/", or an existing
// folder), or a folder on the way that does not exist.
func CheckTarget(path string) error {
	if path == "" || path[len(path)-1] == '/' || path[len(path)-1] == filepath.Separator {
		return fmt.Errorf("%s: is a folder name; give a file name, or save into it with --output-dir", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s: is a folder; give a file name, or save into it with --output-dir", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	// (An if chain, not a switch: Go's coverage counts a case's condition
	// as run only through its body.)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: the folder %s does not exist", path, dir)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	return nil
}

// OpenPart opens the .part file of path. With resume, an existing .part
// is kept and written on from its end (Offset says where); without, it
// is started anew. Either way Found reports what an earlier run left.
// With resume and no .part holding bytes, a regular file at path itself
// is resumed (curl's -C - -o FILE, wget's -c): it is renamed to the
// part file, so that the download stays atomic (Adopted).
func OpenPart(path string, resume bool) (*Part, error) {
	fi, err := os.Stat(path)
	return openPart(path, resume, fi, err)
}

// openPart is OpenPart, told what os.Stat says of path (a Fetcher has
// asked already: a device is written in place). A folder on the way
// that is missing, or no folder, is found by the open that fails, and
// said as CheckTarget says it: a file costs no more system calls than
// its part's open and, without resume, none to look for an old part.
func openPart(path string, resume bool, fi fs.FileInfo, statErr error) (*Part, error) {
	if path == "" || os.IsPathSeparator(path[len(path)-1]) || statErr == nil && fi.IsDir() {
		return nil, CheckTarget(path)
	}
	p := &Part{Path: path, Name: PartPath(path), Found: -1}
	if !resume {
		// The common case, no part left by an earlier run: O_EXCL
		// creates it, empty, or fails when there is one (and follows no
		// symbolic link).
		f, err := openFile(p.Name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			p.f, p.opened = f, partsOpened.Add(1)
			return p, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, openError(path, err)
		}
	}
	if fi, err := os.Lstat(p.Name); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: %s is not a regular file", path, p.Name)
		}
		p.Found = fi.Size()
	}
	if resume && p.Found <= 0 {
		if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			if err := os.Rename(path, p.Name); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			p.Found, p.Adopted = fi.Size(), true
		}
	}
	flags := os.O_WRONLY | os.O_CREATE
	if !resume {
		flags |= os.O_TRUNC
	}
	// The mode curl and wget give a file: 0666 less the umask, which the
	// kernel applies here (the .part is not chmod-ed later: a user's
	// umask 077 keeps downloads private, and a resumed file keeps its
	// mode).
	f, err := openFile(p.Name, flags, 0o666)
	if err != nil {
		return nil, openError(path, err)
	}
	n, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p.Name, err)
	}
	p.f, p.n, p.opened = f, n, partsOpened.Add(1)
	return p, nil
}

// openError says why the part of path could not be opened: as
// CheckTarget says it when the folder is missing or no folder, else err.
func openError(path string, err error) error {
	if cerr := CheckTarget(path); cerr != nil {
		return cerr
	}
	return fmt.Errorf("%s: %w", path, err)
}

// Committed reports whether Commit or Batch.Add took the part: it is
// written no more.
func (p *Part) Committed() bool { return p.committed }

// Offset is the count of bytes in the part file: where a resume starts.
func (p *Part) Offset() int64 { return p.n }

// Write appends to the part file.
func (p *Part) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	p.n += int64(n)
	return n, err
}

// ReadFrom appends r to the part file through the file's own ReadFrom
// (splice(2) from a socket on Linux).
func (p *Part) ReadFrom(r io.Reader) (int64, error) {
	n, err := p.f.ReadFrom(r)
	p.n += n
	return n, err
}

// Restart empties the part file, for a server that sends the whole
// resource although a resume was asked for.
func (p *Part) Restart() error {
	if err := p.f.Truncate(0); err != nil {
		return err
	}
	_, err := p.f.Seek(0, io.SeekStart)
	p.n = 0
	return err
}

// Commit makes the download complete: the part file is synced and
// renamed to the final path. Many downloads are completed faster by a
// Batch.
func (p *Part) Commit() error {
	p.committed = true
	err := syncFile(p.f)
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(p.Name, p.Path)
	}
	if err != nil {
		os.Remove(p.Name)
		return fmt.Errorf("%s: %w", p.Path, err)
	}
	return nil
}

// Abort ends a failed download: with keep (a later run may resume) and
// some bytes written, the part file stays and Abort reports true; else it
// is removed.
//
// An adopted file goes back to its name whatever keep says (it was the
// user's before the run), and Name becomes that name.
//
// A part already committed (Commit, Batch.Add) is left alone.
func (p *Part) Abort(keep bool) (kept bool) {
	if p.committed {
		return false
	}
	p.f.Close()
	if p.Adopted && os.Rename(p.Name, p.Path) == nil {
		p.Name = p.Path
		return p.n > 0
	}
	if keep && p.n > 0 {
		return true
	}
	os.Remove(p.Name)
	return false
}
