package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn5x1[context.Context, string, func(fileio.FileMetadata), func(BadInput), func(ScanStats), error](&matchFn{})
}

// matchFiles is fileio.MatchFiles for a census: the files of the glob,
// each with its size, and the bad inputs among what the glob names. On the
// local file system only regular files are read: a dangling symbolic link
// (fileio's Size fails on it, and the job with it), a named pipe (whose
// open waits for a writer, for ever), a device or a folder is a bad input,
// listed with its reason, and counted as a file. A glob that names
// nothing fails the job, as fileio's does.
func matchFiles(s beam.Scope, glob string) (files, bad, stats beam.PCollection) {
	s = s.Scope("match")
	filesystem.ValidateScheme(glob)
	return beam.ParDo3(s, &matchFn{}, beam.Create(s, glob))
}

type matchFn struct{}

func (fn *matchFn) ProcessElement(ctx context.Context, glob string, emit func(fileio.FileMetadata), emitBad func(BadInput), emitStats func(ScanStats)) error {
	fsys, err := filesystem.New(ctx, glob)
	if err != nil {
		return err
	}
	defer fsys.Close()
	names, err := fsys.List(ctx, glob)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no files matching pattern %q", glob)
	}
	for _, name := range names {
		var size int64
		if isLocal(name) {
			var st fs.FileInfo
			st, err = os.Stat(name) // no open: a named pipe's would wait
			if err == nil {
				size, err = st.Size(), notRegular(st.Mode())
			} else if lst, lerr := os.Lstat(name); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
				err = fmt.Errorf("a symbolic link to nothing readable: %w", err)
			}
		} else {
			size, err = fsys.Size(ctx, name)
		}
		if err != nil {
			badCounter.Inc(ctx, 1)
			emitBad(BadInput{File: name, Reason: err.Error()})
			emitStats(ScanStats{Files: 1})
			continue
		}
		emit(fileio.FileMetadata{Path: name, Size: size})
	}
	return nil
}

// isLocal reports a path of the local file system: one without a scheme.
func isLocal(path string) bool { return indexScheme(path) < 0 }

// notRegular is the error for a mode that is not a regular file's, or
// nil.
func notRegular(m fs.FileMode) error {
	if m.IsRegular() {
		return nil
	}
	what := "a special file"
	switch t := m.Type(); {
	case t&fs.ModeDir != 0:
		what = "a folder"
	case t&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("not a regular file: %s", what)
}

// openRead opens a file of the census. A local one is opened without
// waiting (O_NONBLOCK: the open of a named pipe put in place of a file
// since the match would wait for a writer) and read only if it is a
// regular file; the flag changes nothing for a regular file's reads.
func openRead(ctx context.Context, fsys filesystem.Interface, path string) (io.ReadCloser, error) {
	if !isLocal(path) {
		return fsys.OpenRead(ctx, path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = notRegular(st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
