// Package zerocopy copies a transfer's data from its connection to a
// writer: through a buffer, or, when the writer is an io.ReaderFrom and
// the transfer is fast, by handing the writer the connection itself, a
// chunk at a time, so that an *os.File moves the bytes with splice(2),
// socket to file or pipe, never through user space (on Linux about twice
// the throughput at half the CPU over loopback).
//
// The ftp and gopher bodies share it. A body keeps its own bookkeeping
// (the end of the data, the final reply, errors that name the exchange)
// in its Read and Direct methods; WriteTo decides, chunk by chunk, which
// of the two moves the data.
package zerocopy

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
)

// The tuning of WriteTo. A writer's ReadFrom reports progress only when a
// chunk is complete, so a transfer goes direct only once After bytes
// have come through the buffer (a slow server never gets there), and a
// chunk that takes longer than Slow sends the rest of the transfer back
// through the buffer: a writer that counts arrivals, such as an idle
// watchdog, still sees them at least that often at any rate above
// Chunk/Slow. Tests may change them.
var (
	Chunk int64 = 64 << 10 // a pipe's default capacity
	After int64 = 1 << 20
	Slow        = 250 * time.Millisecond
)

// now is the clock that times a chunk; tests replace it with one that moves
// only when they say, so that no chunk of theirs is slow by accident.
var now = time.Now

// BufferSize is the size of the buffer WriteTo reads a body with, so that
// even a copy that does not go direct moves large files in few system
// calls.
const BufferSize = 256 << 10

var bufPool = sync.Pool{New: func() any { b := make([]byte, BufferSize); return &b }}

// A Body is a transfer body as WriteTo drives it.
type Body interface {
	// Read reads through the body's buffer, with its bookkeeping.
	Read(p []byte) (int, error)
	// Direct hands rf at most n bytes of the data with one rf.ReadFrom
	// call, with the same bookkeeping: eof reports the end of the data
	// (err is then the transfer's outcome). ok false means the body
	// cannot go direct now (say, it holds buffered data, or is done):
	// WriteTo then reads through the buffer.
	Direct(rf io.ReaderFrom, n int64) (written int64, eof, ok bool, err error)
	// Received is the count of data bytes so far.
	Received() int64
}

// WriteTo copies b to w with the contract of io.WriterTo.
func WriteTo(b Body, w io.Writer) (int64, error) {
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	return writeTo(b, w, *bp)
}

func writeTo(b Body, w io.Writer, buf []byte) (int64, error) {
	rf, direct := w.(io.ReaderFrom)
	var total int64
	for {
		if direct && b.Received() >= After {
			start := now()
			n, eof, ok, err := b.Direct(rf, Chunk)
			total += n
			if ok {
				if err != nil {
					return total, err
				}
				if eof {
					return total, nil
				}
				direct = now().Sub(start) <= Slow
				continue
			}
		}
		n, rerr := b.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
			if m < n {
				return total, io.ErrShortWrite
			}
		}
		if rerr == io.EOF {
			return total, nil
		}
		if rerr != nil {
			return total, rerr
		}
	}
}

// ReadFrom runs rf.ReadFrom on at most n bytes of conn. eof reports that
// conn ended first: io.ReaderFrom reads to the end of its reader, so a
// copy that stops short without an error met the end of conn. A non-nil
// err is either side's; Broken tells which.
func ReadFrom(rf io.ReaderFrom, conn net.Conn, n int64) (written int64, eof bool, err error) {
	lr := &io.LimitedReader{R: conn, N: n}
	written, err = rf.ReadFrom(lr)
	return written, err == nil && lr.N > 0, err
}

// Broken tells whether an error of ReadFrom is the connection's rather
// than the writer's: the context ended (the body's watcher closed the
// connection or expired its deadline), a deadline passed, a *net.OpError
// (a buffered copy's read), or the errno of a broken socket (splice(2)
// reports both sides' failures as its own).
func Broken(ctx context.Context, err error) bool {
	var oe *net.OpError
	switch {
	case ctx.Err() != nil, errors.As(err, &oe),
		errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, net.ErrClosed):
		return true
	}
	for _, errno := range brokenErrnos {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

var brokenErrnos = []syscall.Errno{syscall.ECONNRESET, syscall.ECONNABORTED, syscall.ECONNREFUSED,
	syscall.ETIMEDOUT, syscall.ENOTCONN, syscall.ENETRESET, syscall.ENETUNREACH, syscall.EHOSTUNREACH}

// FromStart makes every body go direct from its first byte, chunk bytes
// at a time, until the test ends. Tests that call it must not run in
// parallel with other transfers.
func FromStart(t interface{ Cleanup(func()) }, chunk int64) {
	after, size := After, Chunk
	After, Chunk = 0, chunk
	t.Cleanup(func() { After, Chunk = after, size })
}
