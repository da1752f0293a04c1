package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/rfc1738/rfc1738/extract"
)

// extractFormatter writes matches into buffers of about extractBatchSize
// bytes, which the writer gives back, with no allocation per URL.
type extractFormatter struct {
	out     []byte
	b       extractBatch
	pending []extractBatch // a piece's output so far
	free    chan []byte
	diags   bytes.Buffer
	enc     *json.Encoder
	// fileOf and fileJSON: the last file name written to JSON, and its
	// JSON string, escaped once for all its URLs.
	fileOf   string
	fileJSON []byte
}

const (
	extractBatchSize = 128 << 10
	extractHeld      = 64 // batches a unit ahead of the writer keeps
)

// scan scans one unit and sends its output to u.out, which it closes.
func (f *extractFormatter) scan(sc *extract.Scanner, u *extractUnit, o extractOptions) {
	defer close(u.out)
	if u.err != nil {
		u.out <- []extractBatch{{err: u.err}}
		return
	}
	defer u.src.done()
	defer func() {
		if err := mappedFault(recover()); err != nil {
			u.out <- append(f.pending, extractBatch{err: err})
			f.pending = nil
		}
	}()
	shown := displayName(u.name)
	if u.src.data != nil && !isGzip(u.src.data) {
		sc.ResetBytes(u.src.data[u.from:u.to])
	} else {
		r := u.src.r
		if u.src.data != nil {
			r = bytes.NewReader(u.src.data)
		}
		br := bufio.NewReaderSize(r, 64*1024)
		// gzip is told by its magic number (RFC 1952 §2.3.1), not the
		// name, so a .gz on stdin is read too.
		if magic, _ := br.Peek(2); isGzip(magic) {
			zr, err := gzip.NewReader(br)
			if err != nil {
				u.out <- []extractBatch{{err: err}}
				return
			}
			sc.Reset(zr)
		} else {
			sc.Reset(br)
		}
	}
	f.pending = f.pending[:0]
	f.b = extractBatch{}
	f.out = f.buffer()
	base := int64(u.from)
	for sc.Scan() {
		// The plain output wants the URL's octets alone: the rest of the
		// match (positions, diagnostics) is made only when asked for.
		var m extract.Match // made only for what needs more than the URL
		if o.json || o.validOnly {
			m = sc.Match()
			if !m.Valid && o.validOnly {
				continue
			}
			if o.json {
				f.appendJSON(shown, &m, base, u.line)
			}
		}
		if !o.json {
			f.out = append(f.out, sc.Bytes()...)
			f.out = append(f.out, '\n')
		}
		if o.unique {
			url := m.URL // a match's URL is never empty: "" is a match not made
			if url == "" {
				url = string(sc.Bytes())
			}
			f.b.urls = append(f.b.urls, url)
			f.b.ends = append(f.b.ends, len(f.out))
		}
		if len(f.out) >= extractBatchSize-extractBatchSize/8 {
			f.batch()
			// The writer takes the batches as they fill while it is at
			// this unit. A unit ahead of it keeps them, up to
			// extractHeld, rather than wait, so that the workers scan on;
			// beyond that it waits, so that memory stays bounded. One
			// place in u.out is kept for the last send.
			if len(f.pending) >= extractHeld || len(u.out) < cap(u.out)-1 {
				u.out <- f.pending
				f.pending = nil
			}
		}
	}
	if len(f.out) > 0 {
		f.batch()
	}
	if err := sc.Err(); err != nil {
		f.pending = append(f.pending, extractBatch{err: err})
	}
	if len(f.pending) > 0 {
		u.out <- f.pending
	}
	f.pending = nil
}

// batch closes the output so far into a batch for the writer, and
// starts a new buffer.
func (f *extractFormatter) batch() {
	f.b.out = f.out
	f.pending = append(f.pending, f.b)
	f.b = extractBatch{}
	f.out = f.buffer()
}

// buffer returns an empty buffer, one the writer gave back if it can.
func (f *extractFormatter) buffer() []byte {
	select {
	case b := <-f.free:
		return b
	default:
		return make([]byte, 0, extractBatchSize)
	}
}

// appendJSON writes one line of --json for m, found in a piece of the
// input that starts at offset base, after line lines. It writes what
// encoding/json writes for the keys above (HTML left unescaped), byte for
// byte; the errors and notes of an invalid or ambiguous URL go through
// encoding/json itself.
func (f *extractFormatter) appendJSON(file string, m *extract.Match, base int64, lines int) {
	b := f.out
	b = append(b, `{"url":`...)
	b = appendJSONString(b, m.URL)
	b = append(b, `,"file":`...)
	if file != f.fileOf || f.fileJSON == nil {
		f.fileOf, f.fileJSON = file, appendJSONString(f.fileJSON[:0], file)
	}
	b = append(b, f.fileJSON...)
	b = append(b, `,"line":`...)
	b = strconv.AppendInt(b, int64(m.Start.Line+lines), 10)
	b = append(b, `,"column":`...)
	b = strconv.AppendInt(b, int64(m.Start.Column), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, m.Start.Offset+base, 10)
	b = append(b, `,"end_line":`...)
	b = strconv.AppendInt(b, int64(m.End.Line+lines), 10)
	b = append(b, `,"end_column":`...)
	b = strconv.AppendInt(b, int64(m.End.Column), 10)
	b = append(b, `,"end_offset":`...)
	b = strconv.AppendInt(b, m.End.Offset+base, 10)
	b = append(b, `,"form":"`...)
	b = append(b, m.Form.String()...)
	b = append(b, `","valid":`...)
	b = strconv.AppendBool(b, m.Valid)
	b = append(b, `,"fragment":`...)
	if frag, ok := m.Fragment(); ok {
		b = appendJSONString(b, frag)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"errors":`...)
	if len(m.Errors) == 0 {
		b = append(b, "[]"...)
	} else {
		b = f.appendEncoded(b, diags(m.Errors))
	}
	b = append(b, `,"repaired":`...)
	if m.Repaired != "" {
		b = appendJSONString(b, m.Repaired)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"notes":`...)
	if len(m.Notes) == 0 {
		b = append(b, "[]"...)
	} else {
		notes := make([]jsonNote, len(m.Notes))
		for i, n := range m.Notes {
			notes[i] = jsonNote{Offset: n.Offset + base, Message: n.Message, Alternative: opt(n.Alternative, n.Alternative != "")}
		}
		b = f.appendEncoded(b, notes)
	}
	f.out = append(b, "}\n"...)
}

type jsonNote struct {
	Offset      int64   `json:"offset"`
	Message     string  `json:"message"`
	Alternative *string `json:"alternative"`
}

// appendEncoded appends v as encoding/json writes it, HTML unescaped.
func (f *extractFormatter) appendEncoded(b []byte, v any) []byte {
	if f.enc == nil {
		f.enc = json.NewEncoder(&f.diags)
		f.enc.SetEscapeHTML(false)
	}
	f.diags.Reset()
	f.enc.Encode(v)
	return append(b, bytes.TrimSuffix(f.diags.Bytes(), nl)...)
}

// jsonPlain marks the octets a JSON string holds as they are: printable
// ASCII but '"' and '\\' (RFC 8259 §7).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s as a JSON string (RFC 8259 §7) the way
// encoding/json writes it with SetEscapeHTML(false): '"', '\\' and the
// control characters escaped (\b \f \n \r \t by name), invalid UTF-8 as
// U+FFFD, and U+2028 and U+2029 escaped for JavaScript.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	// Most strings (URLs, file names) need no escape: one table look-up
	// an octet finds where the first one does, if any.
	i := 0
	for i < len(s) && jsonPlain[s[i]] {
		i++
	}
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	start := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		} else {
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
