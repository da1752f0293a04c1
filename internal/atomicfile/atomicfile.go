// Package atomicfile writes a download so that a failure never leaves a
// partial file looking complete: the bytes go to a temporary file beside
// the target, which is renamed over it only once everything arrived.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
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
	tmp, err := os.CreateTemp(dir, "."+base+".*.part")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = io.Copy(tmp, body); err != nil {
		return err
	}
	if err = closeBody.Close(); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
