package nntp

import "io"

// A PageReader is a listing rendered a page at a time, so that memory is
// bounded by the page, not by the group or the list of groups: Next
// appends the next page to dst, or returns io.EOF at the end; Close, run
// once, ends the exchange (draining what is left, so that the next
// command is in step).
type PageReader struct {
	Next  func(dst []byte) ([]byte, error)
	Stop  func() error
	chunk []byte
	off   int
	err   error
	done  bool
}

// NewPageReader returns a PageReader that starts with head (a heading
// line, or nil).
func NewPageReader(head []byte, next func(dst []byte) ([]byte, error), stop func() error) *PageReader {
	return &PageReader{chunk: head, Next: next, Stop: stop}
}

func (b *PageReader) Read(p []byte) (int, error) {
	for b.off == len(b.chunk) {
		if b.err != nil {
			return 0, b.err
		}
		b.chunk, b.err = b.Next(b.chunk[:0])
		b.off = 0
	}
	n := copy(p, b.chunk[b.off:])
	b.off += n
	return n, nil
}

// Close ends the listing: the error that ended it, else Stop's.
func (b *PageReader) Close() error {
	if b.done {
		if b.err == io.EOF {
			return nil
		}
		return b.err
	}
	b.done = true
	err := b.Stop()
	if b.err != nil && b.err != io.EOF {
		return b.err
	}
	if err != nil {
		b.err = err
	}
	return err
}
