package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/rfc1738/rfc1738/extract"
)

// Cut is a safe place to start reading a file: its offset in the file, in
// the file's uncompressed stream, and the line number there.
type Cut struct {
	Off, UOff int64
	Line      int
}

// Range is a run of pieces of one file: piece i is read from Cuts[i] to
// Cuts[i+1]. A splittable DoFn reads a range, and a runner may divide it
// between pieces.
type Range struct {
	Path    string
	Kind    int  // kindWhole for a file read whole, else what each piece is
	First   bool // Cuts[0] is the start of the file
	Cuts    []Cut
	Buckets int // how many buckets the URLs are counted in (buckets)
}

func (r Range) piece(i int) piece {
	return piece{kind: r.Kind, first: r.First && i == 0, uoff: r.Cuts[i].UOff, line: r.Cuts[i].Line}
}

// The sizes a file is cut to: a file larger than rangeBytes is read once
// to find safe places about pieceBytes apart, and its pieces are handed on
// in ranges of about rangeBytes. A smaller file is one range of one piece,
// read without a look ahead.
const (
	pieceBytes = 16 << 20
	rangeBytes = 64 << 20
)

// cutFn cuts each file into ranges at places where reading can start
// afresh and find what a reading of the whole file finds: a gzip member
// that starts a WARC record in a .warc.gz, a record start in a WARC file,
// and in plain text a line start that no URL runs over (see textCuts). A file it cannot cut (gzip text, a
// file that is not text, one that cannot be read) is one range, read
// whole; its faults are the scan's to report.
type cutFn struct {
	Piece, Range int64 // pieceBytes and rangeBytes; tests make them small
	Shards       int   // --shards: with the size of the input, the bucket count
}

func (fn *cutFn) ProcessElement(ctx context.Context, md fileio.FileMetadata, size func(*int64) bool, emit func(Range)) error {
	nb := buckets(fn.Shards, sideSum(size))
	whole := Range{Path: md.Path, Kind: kindWhole, First: true, Cuts: []Cut{{0, 0, 1}, {Off: md.Size}}, Buckets: nb}
	if md.Size <= fn.Range {
		emit(whole)
		return nil
	}
	kind, cuts := fn.cuts(ctx, md.Path)
	if len(cuts) == 0 {
		emit(whole)
		return nil
	}
	// Group the pieces into ranges of about fn.Range bytes.
	points := append(append([]Cut{{0, 0, 1}}, cuts...), Cut{Off: md.Size})
	start := 0
	for i := 1; i < len(points); i++ {
		if i == len(points)-1 || points[i].Off-points[start].Off >= fn.Range {
			emit(Range{Path: md.Path, Kind: kind, First: start == 0, Cuts: points[start : i+1], Buckets: nb})
			start = i
		}
	}
	return nil
}

// cuts returns what the file is and its safe places after the start, at
// least fn.Piece bytes apart; none when it cannot be cut.
func (fn *cutFn) cuts(ctx context.Context, path string) (int, []Cut) {
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return kindWhole, nil
	}
	defer fsys.Close()
	f, err := openRead(ctx, fsys, path)
	if err != nil {
		return kindWhole, nil
	}
	defer f.Close()
	cr := &countingReader{r: f}
	br := bufio.NewReaderSize(cr, bufSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		m, err := newMembers(cr, br)
		if err != nil {
			return kindWhole, nil
		}
		text := bufio.NewReaderSize(m, bufSize)
		if !isWARC(text) {
			return kindWhole, nil // gzip text: one stream, read whole
		}
		return kindGzWARC, warcCuts(text, fn.Piece, m.start)
	}
	if isWARC(br) {
		return kindWARC, warcCuts(br, fn.Piece, func(u int64) (int64, bool) { return u, true })
	}
	if i, err := nulIn(br, sniffSize); err != nil || i >= 0 {
		return kindWhole, nil
	}
	return kindText, textCuts(br, fn.Piece)
}

// warcCuts returns the starts of the records of a WARC stream that follow
// a record read without fault, at least piece bytes apart, where start
// says the record's offset in the file (a gzip member starts there).
func warcCuts(text *bufio.Reader, piece int64, start func(uoff int64) (int64, bool)) []Cut {
	var cuts []Cut
	wr := newWARCReader(text)
	last, clean := int64(0), false
	for {
		rec, err := wr.Next()
		if err != nil {
			var bad *warcError
			if errors.As(err, &bad) {
				clean = false
				continue
			}
			return cuts // the end, or a fault the scan reports
		}
		if clean {
			if off, ok := start(rec.Offset); ok && off-last >= piece {
				cuts = append(cuts, Cut{Off: off, UOff: rec.Offset})
				last = off
			}
		}
		clean = true
	}
}

// textCuts returns line starts of a text stream where a scan that
// starts afresh finds what a scan of the whole text finds, at least piece
// bytes apart: a bare URL ends at the line break (the line before does not
// end, but for white space, in a hyphen, nor in a byte that may end one of
// the typesetter's hyphens U+2010 and U+00AD, which extract joins across
// lines), no
// wrapper can be open across it (no '<' within a wrapper's longest reach
// before it) and nothing extract counts back to before a URL is near it
// (no bracket in its lookback).
func textCuts(br *bufio.Reader, piece int64) []Cut {
	var cuts []Cut
	var off, last int64
	lastAngle, lastBracket := int64(-1<<40), int64(-1<<40)
	line := 1
	var prev byte // the last byte before the last line end
	for {
		l, err := br.ReadSlice('\n')
		if i := bytes.LastIndexByte(l, '<'); i >= 0 {
			lastAngle = off + int64(i)
		}
		if i := bytes.LastIndexAny(l, "()[]{}<>"); i >= 0 {
			lastBracket = off + int64(i)
		}
		off += int64(len(l))
		if err == nil {
			line++
			// The last byte before the line's trailing white space: the
			// scanner joins "a- \n b" as it joins "a-\nb".
			body := bytes.TrimRight(l[:len(l)-1], " \t\r")
			if len(body) > 0 {
				prev = body[len(body)-1]
			} else if len(l) > 0 {
				prev = '\n'
			}
			if off-last >= piece && prev != '-' && prev < 0x80 &&
				off-lastAngle > maxWrapper && off-lastBracket > cutLookback {
				if _, err := br.Peek(1); err == nil { // not the end of the file
					cuts = append(cuts, Cut{Off: off, UOff: off, Line: line})
					last = off
				}
			}
		} else if len(l) > 0 {
			prev = l[len(l)-1]
		}
		if err != nil && err != bufio.ErrBufferFull {
			return cuts
		}
	}
}

// cutLookback is what extract's scanner may look back over before a URL
// (its lookback), and more; maxWrapper is the farthest a wrapper <URL:…>
// reaches (extract.DefaultMaxLength), and more.
const (
	cutLookback = 512
	maxWrapper  = extract.DefaultMaxLength + 1024
)

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// members reads a multi-member gzip stream (RFC 1952 §2.2) and notes where
// each member starts, in the file and in the uncompressed stream.
type members struct {
	cr     *countingReader
	br     *bufio.Reader // over cr
	gz     *gzip.Reader
	u      int64      // uncompressed bytes read
	starts [][2]int64 // members not yet asked about: uncompressed, file offset
}

func newMembers(cr *countingReader, br *bufio.Reader) (*members, error) {
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, err
	}
	gz.Multistream(false)
	return &members{cr: cr, br: br, gz: gz, starts: [][2]int64{{0, 0}}}, nil
}

func (m *members) Read(p []byte) (int, error) {
	for {
		n, err := m.gz.Read(p)
		m.u += int64(n)
		if err != io.EOF {
			return n, err
		}
		// The end of a member: the next starts where the bytes read from
		// the file and not yet inflated begin.
		at := m.cr.n - int64(m.br.Buffered())
		if _, err := m.br.Peek(1); err != nil {
			return n, io.EOF
		}
		if err := m.gz.Reset(m.br); err != nil {
			return n, err
		}
		m.gz.Multistream(false)
		m.starts = append(m.starts, [2]int64{m.u, at})
		if n > 0 {
			return n, nil
		}
	}
}

// start returns the file offset of the member that starts at uncompressed
// offset u, if one does. It is asked in increasing u.
func (m *members) start(u int64) (int64, bool) {
	for len(m.starts) > 0 && m.starts[0][0] < u {
		m.starts = m.starts[1:]
	}
	if len(m.starts) > 0 && m.starts[0][0] == u {
		return m.starts[0][1], true
	}
	return 0, false
}
