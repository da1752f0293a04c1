package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// sniffSize is how much of a file or record is looked at to tell text from
// binary: a NUL byte in it means "not text", as for grep and git.
const sniffSize = 8 << 10

// bufSize is the read buffer of a file and of its decompressed stream.
const bufSize = 256 << 10

// docCounts counts what the documents of one file were.
type docCounts struct {
	Documents      int64 // documents scanned: a plain file, or a WARC record
	Records        int64 // WARC records read
	RecordsSkipped int64 // WARC records not scanned: other types, or binary
	// Malformed WARC records: the reader skipped each to the next record.
	// The first maxMalformedListed of a file are kept with their place.
	Malformed   int64
	MalformedAt []*warcError
}

// maxMalformedListed bounds the malformed records of one file that are
// listed by offset; all of them are counted.
const maxMalformedListed = 100

func (n *docCounts) malformed(e *warcError) {
	n.Malformed++
	if len(n.MalformedAt) < maxMalformedListed {
		n.MalformedAt = append(n.MalformedAt, e)
	}
}

// readers holds the buffers reused from one file to the next.
type readers struct {
	raw, text *bufio.Reader
	gz        *gzip.Reader
}

// A file is read whole, or in pieces that a cut made at safe places (see
// cut.go). kind says what a piece is: a whole file is sniffed; a piece of
// a cut file is what the cut found the file to be.
const (
	kindWhole  = iota // a whole file: gzip, WARC, text or not, told by its bytes
	kindText          // a piece of a plain text file, from a line start
	kindWARC          // a piece of an uncompressed WARC file, from a record start
	kindGzWARC        // a piece of a gzip WARC file, from a member and a record start
)

// piece is where a piece of a file stands in it.
type piece struct {
	kind  int
	first bool  // the piece starts the file
	uoff  int64 // the offset of its start in the file's uncompressed stream
	line  int   // the line number of its start (text)
}

// scanDoc scans one document: its name, the year of its date (0: none),
// the lines of it before r.
type scanDoc func(doc string, year, lines int, r io.Reader) error

// eachDocument calls scan for each document of the piece of a file read
// from r: the whole file when it is text (gzip or not), or each record of
// a WARC file (gzip or not) whose block is a document — "conversion"
// (WET), "response" and "resource" — named by its WARC-Target-URI. scan
// is told how many lines of the document come before r. A file that is
// not text or a broken gzip stream ends the piece with an error saying
// what and where; the documents before it were scanned. A malformed WARC
// record is counted in n with its offset, and the records after it are
// still read.
func (rd *readers) eachDocument(name string, r io.Reader, p piece, n *docCounts, scan scanDoc) error {
	rd.raw = resetReader(rd.raw, r)
	text := rd.raw
	switch p.kind {
	case kindText:
		if p.first {
			return rd.textFile(name, text, n, scan)
		}
		return scan(name, 0, p.line-1, text)
	case kindWARC:
		return eachRecord(name, text, p.uoff, n, scan)
	}
	// gzip is told by its magic number (RFC 1952 §2.3.1), not the name.
	if magic, _ := rd.raw.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		var err error
		if rd.gz == nil {
			rd.gz, err = gzip.NewReader(rd.raw)
		} else {
			err = rd.gz.Reset(rd.raw)
		}
		if err != nil {
			return fmt.Errorf("gzip: %s", strings.TrimPrefix(err.Error(), "gzip: "))
		}
		rd.text = resetReader(rd.text, &gzipErrors{r: rd.gz, n: p.uoff})
		text = rd.text
	}
	if p.kind == kindGzWARC || isWARC(text) {
		return eachRecord(name, text, p.uoff, n, scan)
	}
	return rd.textFile(name, text, n, scan)
}

// textFile scans a text file from its start: one document, unless a NUL
// byte early says it is not text.
func (rd *readers) textFile(name string, text *bufio.Reader, n *docCounts, scan scanDoc) error {
	if i, err := nulIn(text, sniffSize); err != nil {
		return err
	} else if i >= 0 {
		return fmt.Errorf("not text: a NUL byte at offset %d", i)
	}
	n.Documents++
	return scan(name, 0, 0, text)
}

// eachRecord reads the WARC records of text, which starts at offset off of
// the file's uncompressed stream.
func eachRecord(name string, text *bufio.Reader, off int64, n *docCounts, scan scanDoc) error {
	wr := newWARCReader(text)
	wr.off = off
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return nil
		}
		var bad *warcError
		if errors.As(err, &bad) {
			n.malformed(bad)
			continue
		}
		if err != nil {
			return err
		}
		n.Records++
		switch strings.ToLower(rec.Type) {
		case "conversion", "response", "resource":
		default:
			n.RecordsSkipped++
			continue
		}
		if i, err := nulIn(text, int(min(rec.Length, sniffSize))); err != nil {
			return err
		} else if i >= 0 {
			n.RecordsSkipped++
			continue
		}
		doc := rec.TargetURI
		if doc == "" {
			doc = fmt.Sprintf("%s@%d", name, rec.Offset)
		}
		n.Documents++
		if err := scan(doc, rec.Year, 0, wr.Block()); errors.As(err, &bad) {
			n.malformed(bad) // a block cut short: the URLs before the cut count
		} else if err != nil {
			return err
		}
	}
}

// nulIn returns the offset of the first NUL byte in the next size bytes
// of br (fewer at the end of the input), or -1.
func nulIn(br *bufio.Reader, size int) (int, error) {
	head, err := br.Peek(size)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return -1, err
	}
	return bytes.IndexByte(head, 0), nil
}

func resetReader(br *bufio.Reader, r io.Reader) *bufio.Reader {
	if br == nil {
		return bufio.NewReaderSize(r, bufSize)
	}
	br.Reset(r)
	return br
}

// gzipErrors names gzip as the source of a read error and says where in
// the decompressed stream it came ("gzip: unexpected EOF after 1200
// bytes" for a truncated file).
type gzipErrors struct {
	r io.Reader
	n int64
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	g.n += int64(n)
	if err != nil && err != io.EOF {
		msg := strings.TrimPrefix(err.Error(), "gzip: ")
		err = fmt.Errorf("gzip: %s after %d bytes", msg, g.n)
	}
	return n, err
}
