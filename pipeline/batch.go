package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"sync"
)

// A batch is what one scan hands on to one output shard: the distinct
// URLs it counted that belong to the shard (by the hash of the URL) and
// the hosts it counted that belong to the shard (by the hash of the host),
// in a compact encoding of our own. The runner moves a few batches per
// scan and shard instead of one element per distinct URL, which is what
// made the census slow: Beam's encode, shuffle and combine cost about
// 100 µs per element on the embedded runner.
//
//	batch   = version:uvarint shards:uvarint ndocs:uvarint *str nurls:uvarint *url nhosts:uvarint *host
//	url     = str flags:byte scheme:str (host:str if valid, rule:str if not)
//	          count:uvarint nsamples:uvarint *(document:uvarint line:uvarint column:uvarint)
//	host    = str count:uvarint
//	str     = length:uvarint bytes
//
// On its way through the runner a batch is compressed with DEFLATE (RFC
// 1951) at its fastest level (encodeBatch, readBatch): Prism copies each
// element's bytes several times, and the encoding shrinks to about a
// third, which saves more CPU than it costs.
//
// The documents of the samples are written once, in a table at the start,
// and a sample names its document by its index in the table. flags is 1
// for a valid URL, 0 for an invalid one. Counts are at least 1; lines and
// columns fit an int32.
type batch struct {
	Shards int
	URLs   []urlEntry
	Hosts  []Count
}

// urlEntry is one distinct URL of a batch.
type urlEntry struct {
	URL   string
	Stats *URLStats
}

const batchVersion = 2

// shardOf is the shard of a URL or a host: its FNV-1a hash modulo shards.
func shardOf(s string, shards int) int {
	h := fnv.New32a()
	h.Write([]byte(s))
	return int(h.Sum32() % uint32(shards))
}

// appendBatch appends the encoding of b to dst.
func appendBatch(dst []byte, b *batch) []byte {
	if dst == nil {
		dst = make([]byte, 0, b.size())
	}
	dst = binary.AppendUvarint(dst, batchVersion)
	dst = binary.AppendUvarint(dst, uint64(b.Shards))
	docs := map[string]int{}
	var table []string
	for i := range b.URLs {
		for _, p := range b.URLs[i].Stats.Samples {
			if _, ok := docs[p.Document]; !ok {
				docs[p.Document] = len(table)
				table = append(table, p.Document)
			}
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(table)))
	for _, d := range table {
		dst = appendStr(dst, d)
	}
	dst = binary.AppendUvarint(dst, uint64(len(b.URLs)))
	for i := range b.URLs {
		e := &b.URLs[i]
		dst = appendStr(dst, e.URL)
		if e.Stats.Valid {
			dst = append(dst, 1)
			dst = appendStr(dst, e.Stats.Scheme)
			dst = appendStr(dst, e.Stats.Host)
		} else {
			dst = append(dst, 0)
			dst = appendStr(dst, e.Stats.Scheme)
			dst = appendStr(dst, e.Stats.Rule)
		}
		dst = binary.AppendUvarint(dst, uint64(e.Stats.Count))
		dst = binary.AppendUvarint(dst, uint64(len(e.Stats.Samples)))
		for _, p := range e.Stats.Samples {
			dst = binary.AppendUvarint(dst, uint64(docs[p.Document]))
			dst = binary.AppendUvarint(dst, uint64(p.Line))
			dst = binary.AppendUvarint(dst, uint64(p.Column))
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(b.Hosts)))
	for _, h := range b.Hosts {
		dst = appendStr(dst, h.Name)
		dst = binary.AppendUvarint(dst, uint64(h.Count))
	}
	return dst
}

// size is about the size of b's encoding, at least as large.
func (b *batch) size() int {
	n := 5 * binary.MaxVarintLen64
	seen := ""
	for i := range b.URLs {
		for _, p := range b.URLs[i].Stats.Samples {
			if p.Document != seen { // documents come in runs; a bound, not an exact size
				n += len(p.Document) + binary.MaxVarintLen64
				seen = p.Document
			}
		}
	}
	for i := range b.URLs {
		e := &b.URLs[i]
		n += len(e.URL) + len(e.Stats.Scheme) + len(e.Stats.Host) + len(e.Stats.Rule) + 1 + 5*binary.MaxVarintLen64
		n += len(e.Stats.Samples) * 3 * binary.MaxVarintLen64
	}
	for _, h := range b.Hosts {
		n += len(h.Name) + 2*binary.MaxVarintLen64
	}
	return n
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// encodeBatch is what a scan hands on for b: its encoding, compressed.
func encodeBatch(b *batch) []byte {
	raw := appendBatch(nil, b)
	var out bytes.Buffer
	out.Grow(len(raw)/2 + 64)
	zw, _ := flate.NewWriter(&out, flate.BestSpeed) // only fails for a bad level
	zw.Write(raw)                                   // a bytes.Buffer does not fail
	zw.Close()
	return out.Bytes()
}

// encodeBatches is encodeBatch of each batch, in order, at most
// scanWorkers at once: a scan's last batches are made after its readers
// are done, when the cores are free.
func encodeBatches(bs []*batch) [][]byte {
	out := make([][]byte, len(bs))
	slots := make(chan struct{}, scanWorkers())
	var wg sync.WaitGroup
	for i, b := range bs {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			out[i] = encodeBatch(b)
		})
	}
	wg.Wait()
	return out
}

// maxBatchBytes bounds a batch once decompressed.
var maxBatchBytes int64 = 1 << 30

// readBatch decompresses and decodes what encodeBatch made.
func readBatch(data []byte) (*batch, error) {
	zr := flate.NewReader(bytes.NewReader(data))
	raw, err := io.ReadAll(io.LimitReader(zr, maxBatchBytes+1))
	if err != nil {
		return nil, &batchError{0, "deflate: " + err.Error()}
	}
	if int64(len(raw)) > maxBatchBytes {
		return nil, &batchError{0, fmt.Sprintf("more than %d bytes once decompressed", maxBatchBytes)}
	}
	return decodeBatch(raw)
}

// batchError is a batch that cannot be decoded: where and why.
type batchError struct {
	Offset int
	Msg    string
}

func (e *batchError) Error() string {
	return fmt.Sprintf("batch: offset %d: %s", e.Offset, e.Msg)
}

// decodeBatch decodes a batch that appendBatch wrote. Bytes that are not
// one are an error naming the offset and what was wanted there, never a
// panic; no count read from the bytes sizes an allocation larger than the
// bytes themselves.
func decodeBatch(data []byte) (*batch, error) {
	d := batchDecoder{data: data, text: string(data)}
	if v := d.uvarint("the version"); d.err == nil && v != batchVersion {
		d.fail(0, fmt.Sprintf("version %d, want %d", v, batchVersion))
	}
	at := d.off
	b := &batch{Shards: d.int("the shard count", math.MaxInt32)}
	if d.err == nil && b.Shards < 1 {
		d.fail(at, "a shard count of 0")
	}
	// Each document takes at least 1 byte, each URL 6, each host 2.
	docs := make([]string, d.count("the document count", 1))
	for i := range docs {
		docs[i] = d.str("a document")
	}
	n := d.count("the URL count", 6)
	b.URLs = make([]urlEntry, 0, n)
	stats := make([]URLStats, n) // one allocation for all
	for i := range n {
		e := urlEntry{Stats: &stats[i]}
		e.URL = d.str("a URL")
		at := d.off
		switch f := d.byte("the flags"); {
		case d.err != nil:
		case f == 1:
			e.Stats.Valid = true
			e.Stats.Scheme = d.str("a scheme")
			e.Stats.Host = d.str("a host")
		case f == 0:
			e.Stats.Scheme = d.str("a scheme")
			e.Stats.Rule = d.str("a rule")
		default:
			d.fail(at, fmt.Sprintf("flags %d, want 0 or 1", f))
		}
		e.Stats.Count = d.positive("a URL's count")
		if ns := d.count("the sample count", 3); ns > 0 {
			e.Stats.Samples = make([]Place, ns)
			for i := range e.Stats.Samples {
				at := d.off
				if doc := d.int("a document", math.MaxInt32); doc < len(docs) {
					e.Stats.Samples[i].Document = docs[doc]
				} else {
					d.fail(at, fmt.Sprintf("document %d of %d", doc, len(docs)))
				}
				e.Stats.Samples[i].Line = d.int("a line", math.MaxInt32)
				e.Stats.Samples[i].Column = d.int("a column", math.MaxInt32)
			}
		}
		if d.err != nil {
			return nil, d.err
		}
		b.URLs = append(b.URLs, e)
	}
	n = d.count("the host count", 2)
	b.Hosts = make([]Count, 0, n)
	for range n {
		h := Count{Name: d.str("a host"), Count: d.positive("a host's count")}
		if d.err != nil {
			return nil, d.err
		}
		b.Hosts = append(b.Hosts, h)
	}
	if d.err == nil && d.off != len(d.data) {
		d.fail(d.off, fmt.Sprintf("%d bytes after the end", len(d.data)-d.off))
	}
	if d.err != nil {
		return nil, d.err
	}
	return b, nil
}

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

var errShards = errors.New("batches of one shard disagree on the shard count")
