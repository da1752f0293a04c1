package ftp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrListingLine is the error of a listing line longer than MaxListingLine.
var ErrListingLine = errors.New("listing line too long")

// MaxListingLine bounds one line of an NLST listing read by NameReader.
const MaxListingLine = 64 << 10

// A NameReader reads the names of an NLST listing (RFC 959 §4.1.3: one
// name per CRLF line; a bare LF ends a line too, as servers send it), each
// line bounded by MaxListingLine.
type NameReader struct {
	br *bufio.Reader
}

// NewNameReader returns a NameReader of the listing r, the body of an NLST.
func NewNameReader(r io.Reader) *NameReader {
	return &NameReader{br: bufio.NewReaderSize(r, 4096)}
}

// Next returns the next name, skipping empty lines; io.EOF at the end.
func (n *NameReader) Next() (string, error) {
	for {
		line, err := readListingLine(n.br, MaxListingLine)
		if err != nil {
			return "", err
		}
		if line == "" {
			continue
		}
		return line, nil
	}
}

// readListingLine reads a line of at most max bytes without its CRLF or
// LF; a last line without an end counts too. At the end it returns io.EOF.
func readListingLine(r *bufio.Reader, max int) (string, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max+2 {
			return "", fmt.Errorf("ftp listing: %w (more than %d bytes)", ErrListingLine, max)
		}
		line = append(line, chunk...)
		switch err {
		case nil:
			return strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(line) > 0 {
				return strings.TrimSuffix(string(line), "\r"), nil
			}
		}
		return "", err
	}
}
