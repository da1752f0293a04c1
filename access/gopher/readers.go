package gopher

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// readLine reads one line (LF or CRLF terminated) of at most max bytes,
// without its line ending. At EOF a final unterminated line is returned with
// a nil error; io.EOF comes only when nothing was left. The buffered reader
// never holds more than its own size: a longer line is ErrLineTooLong.
func readLine(br *bufio.Reader, max int) (string, error) {
	var acc []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(acc)+len(frag) > max+2 { // +2: the CRLF itself
			return "", ErrLineTooLong
		}
		acc = append(acc, frag...)
		switch err {
		case nil:
			acc = bytes.TrimSuffix(acc[:len(acc)-1], []byte{'\r'})
			if len(acc) > max {
				return "", ErrLineTooLong
			}
			return string(acc), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(acc) == 0 {
				return "", io.EOF
			}
			if len(acc) > max {
				return "", ErrLineTooLong
			}
			return string(acc), nil
		default:
			return "", err
		}
	}
}

// dotReader streams an RFC 1436 text body: a lone "." line (CRLF or LF)
// ends it and is removed; a line starting ".." loses its first dot. Other
// lines, including ones starting with a single "." that is not alone
// (servers that never dot-stuff, like gophernicus), pass unchanged, and so
// does the end of the stream without a terminator. It keeps only a few
// bytes of lookahead, so lines of any length stream through.
type dotReader struct {
	br         *bufio.Reader
	bol        bool // at the beginning of a line
	done       bool
	terminated bool // the lone "." was seen
}

func newDotReader(br *bufio.Reader) *dotReader { return &dotReader{br: br, bol: true} }

func (d *dotReader) Read(p []byte) (int, error) {
	if d.done {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) {
		if d.bol && n > 0 && d.br.Buffered() == 0 {
			// A whole line is in hand: deliver it rather than wait for
			// the next line's first byte from a server that stalls.
			return n, nil
		}
		if d.bol {
			// Look at the start of the line only: ".\r\n", ".\n", ".." or
			// other. Peek further than one byte only after a ".", so an
			// ordinary short line never waits for more input.
			head, err := d.br.Peek(1)
			if len(head) > 0 && head[0] == '.' {
				head, err = d.br.Peek(3)
				switch {
				case bytes.HasPrefix(head, []byte(".\r\n")), bytes.HasPrefix(head, []byte(".\n")):
					d.done, d.terminated = true, true
					return n, io.EOF
				case len(head) == 1 && err != nil:
					// "." then EOF: a terminator without its line ending.
					d.done, d.terminated = true, true
					return n, io.EOF
				case len(head) == 2 && head[1] == '\r' && err != nil:
					d.done, d.terminated = true, true
					return n, io.EOF
				case len(head) >= 2 && head[1] == '.':
					d.br.Discard(1) // ".." → "."
				}
			} else if len(head) == 0 {
				if err == io.EOF {
					d.done = true
					return n, io.EOF
				}
				if err != nil {
					return n, err
				}
			}
			d.bol = false
		}
		// Copy up to and including the next LF, but no further than what is
		// already buffered (at least one byte), so a reply without line
		// ends streams through.
		if d.br.Buffered() == 0 && n > 0 {
			return n, nil // do not block with data in hand
		}
		buf, err := d.br.Peek(1)
		if len(buf) == 0 {
			if err == io.EOF {
				d.done = true
				if n > 0 {
					return n, nil
				}
				return 0, io.EOF
			}
			return n, err
		}
		avail, _ := d.br.Peek(d.br.Buffered())
		if len(avail) > len(p)-n {
			avail = avail[:len(p)-n]
		}
		if i := bytes.IndexByte(avail, '\n'); i >= 0 {
			avail = avail[:i+1]
			d.bol = true
		}
		c := copy(p[n:], avail)
		d.br.Discard(c)
		n += c
	}
	return n, nil
}

// sizedReader reads exactly n bytes of a Gopher+ "+N" body; an earlier EOF
// is a truncation (io.ErrUnexpectedEOF).
type sizedReader struct {
	r    io.Reader
	left int64
	size int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	if s.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > s.left {
		p = p[:s.left]
	}
	n, err := s.r.Read(p)
	s.left -= int64(n)
	if err == io.EOF {
		if s.left > 0 {
			return n, &ProtocolError{Op: "read Gopher+ body",
				Err: fmt.Errorf("got %d of %d announced bytes: %w", s.size-s.left, s.size, io.ErrUnexpectedEOF)}
		}
		return n, io.EOF
	}
	return n, err
}
