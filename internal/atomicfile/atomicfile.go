// Package atomicfile writes a download so that a failure never leaves a
// partial file looking complete: the bytes go to a temporary file beside
// the target, which is renamed over it only once everything arrived.
package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
)

// Write writes body to a temporary file beside path and renames it to
// path only when everything arrived and closeBody (which reads the
// protocol's own end of transfer) reported no error. On any failure the
// temporary file is removed and path is left as it was.
//
// A path that names a device or a pipe (/dev/null, a FIFO) is written in
// place: a rename would replace the device node with a plain file.
func Write(path string, body io.Reader, closeBody io.Closer) (err error) {
	if fi, serr := os.Stat(path); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if _, err = io.Copy(f, body); err == nil {
			err = closeBody.Close()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, tmpName, err := create(filepath.Join(dir, "."+base), func(name string) (*os.File, error) {
		return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	if err = fill(tmp, body, closeBody); err != nil {
		return err
	}
	return os.Rename(tmpName, path)
}

// WriteIn is Write for a name inside root: the temporary file, the
// rename and every path step stay inside root (os.Root refuses a ".." or
// a symbolic link that leads out), so a download can never land outside
// the folder it belongs to.
func WriteIn(root *os.Root, name string, body io.Reader, closeBody io.Closer) (err error) {
	dir, base := path.Split(filepath.ToSlash(name))
	tmp, tmpName, err := create(dir+"."+base, func(name string) (*os.File, error) {
		return root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			root.Remove(tmpName)
		}
	}()
	if err = fill(tmp, body, closeBody); err != nil {
		return err
	}
	return root.Rename(tmpName, name)
}

// create makes a new temporary file prefix.RANDOM.part with open, which
// must refuse a name that exists (O_EXCL).
//
// The mode is the one curl, wget and get give a download: 0666 less the
// umask, which the kernel applies when open creates the file (a user's
// umask 077 keeps the file private; a fixed mode would not).
func create(prefix string, open func(name string) (*os.File, error)) (f *os.File, name string, err error) {
	for range 100 {
		name = prefix + "." + strconv.FormatUint(rand.Uint64(), 36) + ".part"
		f, err = open(name)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return f, name, err
}

// fill copies body into tmp, reads the protocol's end (closeBody), and
// makes tmp durable before it is renamed.
func fill(tmp *os.File, body io.Reader, closeBody io.Closer) error {
	if _, err := io.Copy(tmp, body); err != nil {
		return err
	}
	if err := closeBody.Close(); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	return tmp.Close()
}
