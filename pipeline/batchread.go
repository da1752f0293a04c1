package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"
)

// Reading a batch (the encoding is described in batch.go).

// batchError is a batch that cannot be decoded: where and why.
type batchError struct {
	Offset int
	Msg    string
}

func (e *batchError) Error() string {
	return fmt.Sprintf("batch: offset %d: %s", e.Offset, e.Msg)
}

// batchReader decodes a batch one URL at a time. Bytes that are not a
// batch are an error naming the offset and what was wanted there, never a
// panic; no count read from the bytes sizes an allocation larger than the
// bytes themselves. The strings it returns share the batch's bytes, which
// must not change.
type batchReader struct {
	d       batchDecoder
	buckets int
	docs    []string
	left    int      // URLs not yet read
	url     string   // the URL read last
	stats   URLStats // and what the batch says of it
}

func newBatchReader(data []byte) *batchReader {
	r := &batchReader{d: batchDecoder{data: data, text: unsafeString(data)}}
	d := &r.d
	if v := d.uvarint("the version"); d.err == nil && v != batchVersion {
		d.fail(0, fmt.Sprintf("version %d, want %d", v, batchVersion))
	}
	at := d.off
	r.buckets = d.int("the bucket count", math.MaxInt32)
	if d.err == nil && r.buckets < 1 {
		d.fail(at, "a bucket count of 0")
	}
	// Each document takes at least 1 byte, each URL 5, each host 2.
	r.docs = make([]string, d.count("the document count", 1))
	for i := range r.docs {
		r.docs[i] = d.str("a document")
	}
	r.left = d.count("the URL count", 5)
	return r
}

// next reads the next URL into r.url and r.stats; false at the end of the
// URLs or at an error (r.err). r.stats.Samples is reused by the next call.
func (r *batchReader) next() bool {
	d := &r.d
	if r.left == 0 || d.err != nil {
		return false
	}
	r.left--
	r.url = d.str("a URL")
	samples := r.stats.Samples[:0]
	r.stats = URLStats{}
	at := d.off
	switch f := d.byte("the flags"); {
	case d.err != nil:
	case f > 3:
		d.fail(at, fmt.Sprintf("flags %d, want 0 to 3", f))
	default:
		r.stats.Valid = f&1 != 0
		r.stats.Scheme = d.str("a scheme")
		if !r.stats.Valid {
			r.stats.Rule = d.str("a rule")
		}
		if f&2 != 0 {
			r.stats.Year = d.int("a year", maxYear)
		}
	}
	r.stats.Count = d.positive("a URL's count")
	ns := d.count("the sample count", 3)
	for range ns {
		at := d.off
		var p Place
		if doc := d.int("a document", math.MaxInt32); doc < len(r.docs) {
			p.Document = r.docs[doc]
		} else {
			d.fail(at, fmt.Sprintf("document %d of %d", doc, len(r.docs)))
		}
		p.Line = d.int("a line", math.MaxInt)
		p.Column = d.int("a column", math.MaxInt)
		samples = append(samples, p)
	}
	if ns > 0 {
		r.stats.Samples = samples
	} else {
		r.stats.Samples = samples[:0:0]
	}
	return d.err == nil
}

// hosts reads the hosts, after the last URL, and checks that the batch
// ends there.
func (r *batchReader) hosts() ([]Count, error) {
	for r.next() {
	}
	d := &r.d
	n := d.count("the host count", 2)
	hosts := make([]Count, 0, n)
	for range n {
		h := Count{Name: d.str("a host"), Count: d.positive("a host's count")}
		if d.err != nil {
			return nil, d.err
		}
		hosts = append(hosts, h)
	}
	if d.err == nil && d.off != len(d.data) {
		d.fail(d.off, fmt.Sprintf("%d bytes after the end", len(d.data)-d.off))
	}
	return hosts, d.err
}

func (r *batchReader) err() error { return r.d.err }

// decodeBatch decodes a whole batch.
func decodeBatch(data []byte) (*batch, error) {
	r := newBatchReader(data)
	b := &batch{Buckets: r.buckets, URLs: make([]urlEntry, 0, r.left)}
	for r.next() {
		u := r.stats
		u.Samples = slices.Clip(slices.Clone(u.Samples))
		if len(u.Samples) == 0 {
			u.Samples = nil
		}
		b.URLs = append(b.URLs, urlEntry{r.url, &u})
	}
	if r.err() != nil {
		return nil, r.err()
	}
	var err error
	if b.Hosts, err = r.hosts(); err != nil {
		return nil, err
	}
	return b, nil
}

// unsafeString is b as a string without a copy: the strings a batch is
// read into share its bytes, which nothing changes after it is made.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// batchDecoder reads the fields of a batch; after the first error every
// read returns a zero value and the error stays.
type batchDecoder struct {
	data []byte
	text string // data as one string: the strings of a batch share it
	off  int
	err  error
}

func (d *batchDecoder) fail(at int, msg string) {
	if d.err == nil {
		d.err = &batchError{at, msg}
	}
}

func (d *batchDecoder) uvarint(what string) uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data[d.off:])
	if n <= 0 {
		d.fail(d.off, "want "+what+": a varint, found the end or an overflow")
		return 0
	}
	d.off += n
	return v
}

// int reads a uvarint that must not exceed max.
func (d *batchDecoder) int(what string, max uint64) int {
	at := d.off
	v := d.uvarint(what)
	if v > max {
		d.fail(at, fmt.Sprintf("%s of %d, more than %d", what, v, max))
		return 0
	}
	return int(v)
}

// positive reads a count of occurrences: at least 1.
func (d *batchDecoder) positive(what string) int64 {
	at := d.off
	v := d.uvarint(what)
	if d.err == nil && (v == 0 || v > math.MaxInt64) {
		d.fail(at, fmt.Sprintf("%s of %d, not a count", what, v))
		return 0
	}
	return int64(v)
}

// count reads how many items follow, each at least minSize bytes: more
// than the bytes left can hold is an error, so a count never allocates
// more than the batch's own size.
func (d *batchDecoder) count(what string, minSize int) int {
	at := d.off
	v := d.uvarint(what)
	if d.err == nil && v > uint64((len(d.data)-d.off)/minSize) {
		d.fail(at, fmt.Sprintf("%s of %d, more than the %d bytes left hold", what, v, len(d.data)-d.off))
		return 0
	}
	return int(v)
}

func (d *batchDecoder) byte(what string) byte {
	if d.err != nil {
		return 0
	}
	if d.off >= len(d.data) {
		d.fail(d.off, "want "+what+", found the end")
		return 0
	}
	d.off++
	return d.data[d.off-1]
}

func (d *batchDecoder) str(what string) string {
	at := d.off
	n := d.uvarint(what)
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.data)-d.off) {
		d.fail(at, fmt.Sprintf("%s of %d bytes, %d left", what, n, len(d.data)-d.off))
		return ""
	}
	s := d.text[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

var errBuckets = errors.New("batches of one bucket disagree on the bucket count")
