//go:build !linux

package download

import (
	"errors"
	"os"
)

// Elsewhere there is no syncfs that reports errors: each file of a batch
// is synced on its own.

func syncfs(*os.File) error { return errors.ErrUnsupported }

func fileSystem(*os.File) (uint64, bool) { return 0, false }

func syncfsReportsErrors() bool { return false }

func renameFile(from, to string) error { return os.Rename(from, to) }

func openFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
