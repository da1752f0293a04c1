//go:build unix

package main

import (
	"io"
	"os"
	"syscall"
)

// mapFile maps the rest of a regular file into memory, from its current
// offset (stdin may have been read in part), and returns it with the
// function that unmaps it; nil when f is no regular file, is empty or
// cannot be mapped (it is then read as a stream). Scanning the page
// cache where it lies spares a copy of every byte into a buffer.
func mapFile(f *os.File) ([]byte, func()) {
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= 0 || int64(int(fi.Size())) != fi.Size() {
		return nil, nil
	}
	at, err := f.Seek(0, io.SeekCurrent)
	if err != nil || at >= fi.Size() {
		return nil, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return data[at:], func() { syscall.Munmap(data) }
}
