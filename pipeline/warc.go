package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// The WARC format (ISO 28500; WARC/1.0 and WARC/1.1 read alike):
//
//	warc-record = header CRLF block CRLF CRLF
//	header      = version *named-field CRLF     ; version = "WARC/" digits "." digits
//	named-field = field-name ":" [ field-value ] CRLF, continued by lines starting with SP or HT
//
// The block is Content-Length octets. Common Crawl's WET files are WARC files
// whose "conversion" records hold the text of each page, named by its
// WARC-Target-URI. A compressed WARC is one gzip member per record, which a
// multistream gzip.Reader reads as one stream, so this reader only ever sees
// the uncompressed records.

// Bounds on what a record header may hold: a header is a few hundred bytes,
// so anything near these limits is not a WARC file.
const (
	maxWARCLine   = 64 << 10
	maxWARCFields = 1024
)

// warcRecord is the header of one record; its block is read through
// warcReader.Block.
type warcRecord struct {
	Offset    int64  // offset of the version line in the (uncompressed) stream
	Version   string // "WARC/1.0"
	Type      string // WARC-Type
	TargetURI string // WARC-Target-URI
	Length    int64  // Content-Length
	// Year is the year of WARC-Date (WARC 1.1 §5.4: a W3C-DTF timestamp,
	// "2016-09-19T17:20:24Z"); 0 when it has none that reads.
	Year int
}

// warcError is a malformed record: where it is in the uncompressed stream
// and what is wrong.
type warcError struct {
	Offset int64
	Msg    string
}

func (e *warcError) Error() string {
	return fmt.Sprintf("WARC: offset %d: %s", e.Offset, e.Msg)
}

// warcReader reads the records of an uncompressed WARC stream, streaming
// each block without buffering it. After a malformed record (Next or a
// block returns a *warcError) the next call of Next resynchronises: it
// skips to the next line that starts with "WARC/1.", so the records after
// a bad one are still read.
type warcReader struct {
	br      *bufio.Reader
	off     int64 // offset of the next unread byte of br
	block   exactReader
	rec     warcRecord
	resync  bool // the last record was malformed: find the next one
	midLine bool // br stands inside a line (after a line too long)
}

func newWARCReader(br *bufio.Reader) *warcReader {
	return &warcReader{br: br}
}

// isWARC reports whether the stream buffered in br starts with a WARC
// version line.
func isWARC(br *bufio.Reader) bool {
	head, _ := br.Peek(len("WARC/1."))
	return bytes.HasPrefix(head, []byte("WARC/"))
}

// Next reads the next record's header, first skipping what is left of the
// previous block and the CRLF CRLF after it. It returns io.EOF at a clean
// end of the stream, after the last record.
func (w *warcReader) Next() (*warcRecord, error) {
	rec, err := w.next()
	if _, ok := err.(*warcError); ok {
		w.resync = true
	}
	return rec, err
}

func (w *warcReader) next() (*warcRecord, error) {
	if w.resync {
		w.resync, w.block.r = false, nil
		if err := w.skipToRecord(); err != nil {
			return nil, err
		}
	}
	if w.block.r != nil {
		if _, err := io.Copy(io.Discard, &w.block); err != nil {
			w.block.r = nil
			return nil, err
		}
		w.block.r = nil
		// The record ends with CRLF CRLF. Some writers put more or fewer
		// line ends there; any run of them is read as the separator.
		for {
			c, err := w.br.ReadByte()
			if err == io.EOF {
				return nil, io.EOF
			}
			if err != nil {
				return nil, err
			}
			if c != '\r' && c != '\n' {
				w.br.UnreadByte()
				break
			}
			w.off++
		}
	}
	start := w.off
	line, err := w.line()
	if err == io.EOF && len(line) == 0 {
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(line, []byte("WARC/")) {
		return nil, &warcError{start, fmt.Sprintf("want a version line \"WARC/1.1\", found %q", clip(line))}
	}
	w.rec = warcRecord{Offset: start, Version: string(line), Length: -1}
	var name []byte // the field a continuation line extends
	for n := 0; ; n++ {
		at := w.off
		// A field name is a token (ISO 28500 §4), which has no '/': a
		// version line here is the next record, left for the resync.
		if head, _ := w.br.Peek(len("WARC/1.")); bytes.Equal(head, []byte("WARC/1.")) {
			return nil, &warcError{at, "a new record begins before the header's empty line"}
		}
		line, err := w.line()
		if err == io.EOF {
			return nil, &warcError{at, "the record header ends before its empty line"}
		}
		if err != nil {
			return nil, err
		}
		if len(line) == 0 {
			break
		}
		if n == maxWARCFields {
			return nil, &warcError{at, fmt.Sprintf("more than %d header fields", maxWARCFields)}
		}
		if line[0] == ' ' || line[0] == '\t' {
			if name == nil {
				return nil, &warcError{at, "a continuation line before any field"}
			}
			w.field(name, bytes.TrimSpace(line), true)
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return nil, &warcError{at, fmt.Sprintf("want a field \"name: value\", found %q", clip(line))}
		}
		name = line[:colon]
		if err := w.field(name, bytes.TrimSpace(line[colon+1:]), false); err != nil {
			return nil, &warcError{at, err.Error()}
		}
		name = bytes.Clone(name)
	}
	if w.rec.Length < 0 {
		return nil, &warcError{start, "the record has no Content-Length"}
	}
	w.block = exactReader{r: w.br, left: w.rec.Length, off: &w.off, start: w.off}
	return &w.rec, nil
}

// skipToRecord reads on to the start of the next line that starts with
// "WARC/1.", the version line of the next record (ISO 28500 §4), and
// returns io.EOF when the stream ends first.
func (w *warcReader) skipToRecord() error {
	if w.midLine {
		w.midLine = false
		if err := w.skipLine(); err != nil {
			return err
		}
	}
	for {
		head, err := w.br.Peek(len("WARC/1."))
		if bytes.Equal(head, []byte("WARC/1.")) {
			return nil
		}
		if len(head) == 0 && err != nil {
			return err
		}
		if err := w.skipLine(); err != nil {
			return err
		}
	}
}

// skipLine reads through the next LF, however long the line.
func (w *warcReader) skipLine() error {
	for {
		line, err := w.br.ReadSlice('\n')
		w.off += int64(len(line))
		if err != bufio.ErrBufferFull {
			return err
		}
	}
}

// Block returns the block of the record that Next returned. A stream that
// ends before Content-Length octets makes it fail with a *warcError.
func (w *warcReader) Block() io.Reader { return &w.block }

// field records the fields this pipeline reads; the others are skipped.
func (w *warcReader) field(name, value []byte, continued bool) error {
	switch {
	case bytes.EqualFold(name, []byte("WARC-Type")):
		w.rec.Type = join(w.rec.Type, value, continued)
	case bytes.EqualFold(name, []byte("WARC-Target-URI")):
		w.rec.TargetURI = join(w.rec.TargetURI, value, continued)
	case bytes.EqualFold(name, []byte("WARC-Date")) && !continued:
		w.rec.Year = yearOf(string(value))
	case bytes.EqualFold(name, []byte("Content-Length")) && !continued:
		n, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || n < 0 || len(value) == 0 || value[0] == '+' {
			return fmt.Errorf("Content-Length %q is not a length", clip(value))
		}
		w.rec.Length = n
	}
	return nil
}

func join(have string, more []byte, continued bool) string {
	if continued {
		return have + " " + string(more)
	}
	return string(more)
}

// line reads one line without its CRLF (or LF); a line longer than
// maxWARCLine is an error.
func (w *warcReader) line() ([]byte, error) {
	at := w.off
	line, err := w.br.ReadSlice('\n')
	w.off += int64(len(line))
	if err == bufio.ErrBufferFull || len(line) > maxWARCLine {
		w.midLine = err == bufio.ErrBufferFull
		return nil, &warcError{at, fmt.Sprintf("a header line longer than %d bytes", maxWARCLine)}
	}
	if err == io.EOF && len(line) > 0 {
		return nil, &warcError{at, "the stream ends inside a header line"}
	}
	if err != nil {
		return nil, err
	}
	line = bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))
	return line, nil
}

// clip shortens a quoted piece of bad input to a window.
func clip(b []byte) []byte {
	if len(b) > 64 {
		return b[:64]
	}
	return b
}

// exactReader reads exactly left more bytes from r: an early end of r is
// a *warcError rather than a quiet short block, returned once.
type exactReader struct {
	r     io.Reader
	left  int64
	off   *int64
	start int64
}

func (e *exactReader) Read(p []byte) (int, error) {
	if e.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.left {
		p = p[:e.left]
	}
	n, err := e.r.Read(p)
	e.left -= int64(n)
	*e.off += int64(n)
	if errors.Is(err, io.EOF) {
		if e.left > 0 {
			// Reported once: what is left of the block is gone.
			err = &warcError{*e.off, fmt.Sprintf("the stream ends %d bytes into a block of Content-Length %d", *e.off-e.start, *e.off-e.start+e.left)}
			e.left = 0
			return n, err
		}
		err = nil
	}
	return n, err
}

// yearOf is the year a date or a path starts with, its first four digits
// when they stand alone ("2016-09-19T17:20:24Z", "2016/05/a.txt"), between
// 1 and maxYear; 0 when there are none.
func yearOf(s string) int {
	for i := 0; i+4 <= len(s); i++ {
		if i > 0 && isDigit(s[i-1]) || !isDigit(s[i]) {
			continue
		}
		if isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) && (i+4 == len(s) || !isDigit(s[i+4])) {
			n, _ := strconv.Atoi(s[i : i+4])
			if n >= 1 && n <= maxYear {
				return n
			}
		}
		return 0
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
