package gopher

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// readLine reads one line (LF or CRLF terminated) of at most max bytes,
// without its line ending. At EOF a final unterminated line is returned with
// a nil error; io.EOF comes only when nothing was left. The buffered reader
// never holds more than its own size: a longer line is ErrLineTooLong.
func readLine(br *bufio.Reader, max int) (string, error) {
	line, _, err := readLineN(br, max)
	return line, err
}

// readLineN is readLine that also returns the count of bytes read, the
// line's ending included.
func readLineN(br *bufio.Reader, max int) (string, int, error) {
	var acc []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(acc)+len(frag) > max+2 { // +2: the CRLF itself
			return "", len(acc) + len(frag), ErrLineTooLong
		}
		acc = append(acc, frag...)
		n := len(acc)
		switch err {
		case nil:
			acc = bytes.TrimSuffix(acc[:len(acc)-1], []byte{'\r'})
			if len(acc) > max {
				return "", n, ErrLineTooLong
			}
			return string(acc), n, nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(acc) == 0 {
				return "", 0, io.EOF
			}
			if len(acc) > max {
				return "", n, ErrLineTooLong
			}
			return string(acc), n, nil
		default:
			return "", n, err
		}
	}
}

// dotReader streams an RFC 1436 text body without losing a byte of it.
//
// RFC 1436 ends text with a lone "." line and dot-stuffs lines that start
// with ".", but most servers (gophernicus, geomyidae) send files as they
// are on disk: no terminator, no stuffing, the end marked by the close. A
// file may itself hold a "." line or a ".." line. So a lone "." line
// (".", then CRLF or LF) is taken as the terminator, and removed, only
// when the connection closes right after it; anywhere else it is data.
// A last line "." with no line ending after it is data too: RFC 1436's
// terminator is a line, ".", CRLF, and a server that sends a file as
// stored (gophernicus, pygopherd) sends a file ending in "\n." so; curl
// and lynx keep that ".". Lines starting ".." are kept as sent, unless unstuff says
// the server dot-stuffs, when they lose their first dot. Everything else,
// including the end of the stream without a terminator, passes unchanged.
// It keeps only a few bytes of lookahead, so lines of any length stream
// through.
type dotReader struct {
	br         *bufio.Reader
	unstuff    bool // remove the first dot of a ".." line (RFC 1436 dot-stuffing)
	eager      bool // a lone "." line ends the body at once (a Gopher+ error block, not data)
	bol        bool // at the beginning of a line
	done       bool
	terminated bool // a lone "." line, then the close, ended the body
	dotLines   int  // lone "." lines kept as data because more followed
	stuffed    int  // ".." lines seen (un-stuffed when unstuff)
}

func newDotReader(br *bufio.Reader, unstuff bool) *dotReader {
	return &dotReader{br: br, bol: true, unstuff: unstuff}
}

// reading says, once the body has ended, how it was read: the -v trace
// shows it.
func (d *dotReader) reading() string {
	var b strings.Builder
	if d.terminated {
		b.WriteString(`a lone "." line then the close ended it; the "." line was removed`)
	} else {
		b.WriteString(`the close ended it, no lone "." line before it`)
	}
	if d.dotLines > 0 {
		fmt.Fprintf(&b, `; %d lone "." line(s) inside kept as data`, d.dotLines)
	}
	switch {
	case d.stuffed > 0 && d.unstuff:
		fmt.Fprintf(&b, `; %d ".." line(s) un-stuffed to "."`, d.stuffed)
	case d.stuffed > 0:
		fmt.Fprintf(&b, `; %d ".." line(s) kept as sent`, d.stuffed)
	}
	return b.String()
}

// dotLine returns the length of a lone "." line at the start of head
// (".\r\n" 3, ".\n" 2), or 0.
func dotLine(head []byte) int {
	switch {
	case bytes.HasPrefix(head, []byte(".\r\n")):
		return 3
	case bytes.HasPrefix(head, []byte(".\n")):
		return 2
	}
	return 0
}

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
			// Look at the start of the line only. Peek further than one
			// byte only after a ".", so an ordinary short line never waits
			// for more input.
			head, err := d.br.Peek(1)
			if len(head) > 0 && head[0] == '.' {
				if n > 0 {
					return n, nil // deciding may wait for the close: hand over what is read
				}
				head, err = d.br.Peek(3)
				if l := dotLine(head); l > 0 {
					// A lone "." line: the end only if the close follows.
					var after []byte
					if !d.eager {
						after, err = d.br.Peek(l + 1)
					}
					if d.eager || len(after) == l {
						if err != io.EOF && !d.eager {
							return n, err
						}
						d.br.Discard(l)
						d.done, d.terminated = true, true
						return n, io.EOF
					}
					d.dotLines++
				} else if d.eager && err == io.EOF && (len(head) == 1 || len(head) == 2 && head[1] == '\r') {
					// A Gopher+ error block's "." (or ".\r") then the
					// close: its end, without its line ending. In a text
					// body it is data (see dotReader).
					d.br.Discard(len(head))
					d.done, d.terminated = true, true
					return n, io.EOF
				} else if err != nil && err != io.EOF {
					return n, err
				} else if len(head) >= 2 && head[1] == '.' {
					d.stuffed++
					if d.unstuff {
						d.br.Discard(1) // ".." → "."
					}
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
