package ber

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxPDU is the PDU size bound a Reader uses when none is given.
const DefaultMaxPDU = 1 << 20

// Reader reads whole BER elements, one PDU at a time, from a stream such as
// a Z39.50 connection (Z39.50-1995 Appendix "TCP": each APDU is one BER
// element sent back to back, with no other framing).
//
// It reads the identifier and length octets, then exactly the contents the
// length announces (for indefinite lengths it follows the nested elements
// to the matching end-of-contents), and never buffers more of a PDU than
// has arrived: a peer that announces 2 GB and sends 10 bytes costs 10
// bytes, not 2 GB. The Reader buffers input, so use one Reader for the
// life of a connection.
type Reader struct {
	r        *bufio.Reader
	max      int
	maxDepth int
	buf      []byte
	off      int // bytes of the current PDU consumed, for errors
}

// NewReader returns a Reader that refuses PDUs larger than max octets
// (DefaultMaxPDU if max <= 0).
func NewReader(r io.Reader, max int) *Reader {
	if max <= 0 {
		max = DefaultMaxPDU
	}
	return &Reader{r: bufio.NewReaderSize(r, 4096), max: max, maxDepth: DefaultMaxDepth}
}

// TooLargeError reports a PDU larger than the Reader's bound.
type TooLargeError struct {
	Size int // announced size, or bytes so far for an indefinite length
	Max  int
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("ber: PDU of at least %d bytes exceeds the %d-byte limit", e.Size, e.Max)
}

// ReadPDU reads one complete element and returns its encoding. The slice is
// fresh for each call. At a clean end of stream before the first octet it
// returns io.EOF; a stream that ends inside an element gives
// io.ErrUnexpectedEOF.
func (r *Reader) ReadPDU() ([]byte, error) {
	r.buf = nil
	r.off = 0
	if err := r.element(0); err != nil {
		if errors.Is(err, io.EOF) && len(r.buf) > 0 {
			err = fmt.Errorf("ber: stream ended after %d bytes of a PDU: %w", len(r.buf), io.ErrUnexpectedEOF)
		}
		return nil, err
	}
	out := r.buf
	r.buf = nil
	return out, nil
}

func (r *Reader) byte() (byte, error) {
	if len(r.buf) >= r.max {
		return 0, &TooLargeError{Size: len(r.buf) + 1, Max: r.max}
	}
	c, err := r.r.ReadByte()
	if err != nil {
		return 0, err
	}
	r.buf = append(r.buf, c)
	return c, nil
}

// element copies one element (header and contents) into r.buf.
func (r *Reader) element(depth int) error {
	start := len(r.buf)
	// Identifier octets (X.690 §8.1.2).
	id, err := r.byte()
	if err != nil {
		return err
	}
	if id&0x1f == 0x1f {
		for n := 0; ; n++ {
			c, err := r.byte()
			if err != nil {
				return eofInside(err)
			}
			if n > 4 {
				return &SyntaxError{start, "tag number too large"}
			}
			if c&0x80 == 0 {
				break
			}
		}
	}
	// Length octets (§8.1.3).
	c, err := r.byte()
	if err != nil {
		return eofInside(err)
	}
	if c > 0x80 && c != 0xff {
		for range int(c & 0x7f) {
			if _, err := r.byte(); err != nil {
				return eofInside(err)
			}
		}
	}
	h, err := parseHeader(r.buf[start:], start)
	if err != nil {
		return err
	}
	if h.length >= 0 {
		if h.length > r.max-len(r.buf) {
			return &TooLargeError{Size: len(r.buf) + h.length, Max: r.max}
		}
		// Copy in bounded steps so the buffer grows with what arrives.
		for left := h.length; left > 0; {
			n := min(left, 32<<10)
			old := len(r.buf)
			r.buf = append(r.buf, make([]byte, n)...)
			if _, err := io.ReadFull(r.r, r.buf[old:]); err != nil {
				r.buf = r.buf[:old]
				return eofInside(err)
			}
			left -= n
		}
		return nil
	}
	if depth >= r.maxDepth {
		return &SyntaxError{start, fmt.Sprintf("nesting deeper than %d", r.maxDepth)}
	}
	// Indefinite length: nested elements up to end-of-contents (§8.1.3.6).
	for {
		at := len(r.buf)
		if err := r.element(depth + 1); err != nil {
			return eofInside(err)
		}
		if r.buf[at] == 0 && len(r.buf)-at == 2 && r.buf[at+1] == 0 {
			return nil
		}
	}
}

func eofInside(err error) error {
	if errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
