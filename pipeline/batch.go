package main

import (
	"bytes"
	"cmp"
	"compress/flate"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// A batch is a piece of the census in a compact encoding of our own: the
// distinct URLs of one bucket (by the hash of the URL), sorted in the order
// of their lines in urls-*.jsonl (compareURLs), and the hosts of the bucket
// (by the hash of the host) with the occurrences of the valid URLs they
// serve, sorted by name. A scan hands on one batch per bucket it found
// URLs for, the CombineFn merges the batches of a bucket (mergeBatches, a
// streaming merge of sorted runs), and the writer of a shard merges the
// batches of its buckets straight into its file. The runner moves a few
// batches per range and bucket instead of one element per distinct URL:
// Beam's encode, shuffle and combine cost about 100 µs and a few KB per
// element on the embedded runner.
//
//	batch   = version:uvarint buckets:uvarint ndocs:uvarint *str nurls:uvarint *url nhosts:uvarint *host
//	url     = str flags:byte scheme:str [rule:str if invalid] [year:uvarint if dated]
//	          count:uvarint nsamples:uvarint *(document:uvarint line:uvarint column:uvarint)
//	host    = str count:uvarint
//	str     = length:uvarint bytes
//
// The documents of the samples are written once, in a table at the start,
// and a sample names its document by its index in the table. flags is 1
// for a valid URL, 0 for an invalid one, plus 2 when a year follows (the
// earliest of the dated documents the URL is in). Counts are at least 1; lines and
// columns are 64-bit (a URL after 2 GiB of one line has a column past
// 2^31, and the census counts it where it stands).
//
// What crosses the runner is a batch packed (packBatch): the count of its
// URLs and its length, then the batch compressed with DEFLATE (RFC 1951) at its fastest
// level. Prism keeps and copies every element's bytes several times, and
// the compressed batch is about a third of the encoding. Compressors are
// pooled: a new one costs about 1.2 MB.
type batch struct {
	Buckets int
	URLs    []urlEntry
	Hosts   []Count
}

// urlEntry is one distinct URL of a batch.
type urlEntry struct {
	URL   string
	Stats *URLStats
}

const batchVersion = 4

// shardOf is the bucket of a URL or a host: its FNV-1a hash modulo n.
func shardOf(s string, n int) int {
	// FNV-1a, 32 bits (as hash/fnv's New32a, without its allocations).
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return int(h % uint32(n))
}

// compareURLs orders URLs as their lines in urls-*.jsonl sort, byte for
// byte: by the URL written as a JSON string, closing quote included.
//
// Two URLs are written alike up to the first octet where they differ,
// when that octet is, in each, a plain one (printable ASCII other than '"'
// and '\', which JSON writes as it is) or the end: the octets before it
// are the same, and an ASCII octet or the end closes any UTF-8 sequence
// they leave open in both alike. The order is then that of the two
// octets, the end standing for the closing quote. Only where either is
// not plain are the two JSON strings written out and compared. (A merge
// compares each URL many times: this reads the common prefix once, where
// testing both for plain octets first read both whole at every compare.)
func compareURLs(a, b string) int {
	n := commonPrefix(a, b)
	if n == len(a) && n == len(b) {
		return 0
	}
	ca, cb := byte('"'), byte('"') // the end of a JSON string: its closing quote
	if n < len(a) {
		ca = a[n]
	}
	if n < len(b) {
		cb = b[n]
	}
	if (n == len(a) || plainOctet(ca)) && (n == len(b) || plainOctet(cb)) {
		return cmp.Compare(ca, cb)
	}
	return bytes.Compare(appendJSONString(nil, a), appendJSONString(nil, b))
}

// commonPrefix is the length of the longest common prefix of a and b, read
// eight octets at a time.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+8 <= n; i += 8 {
		if x := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(a[i:]), 8)) ^
			binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(b[i:]), 8)); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for ; i < n && a[i] == b[i]; i++ {
	}
	return i
}

// plainOctet reports whether encoding/json writes c, in a string, as it is.
func plainOctet(c byte) bool { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' }

// batchWriter encodes a batch one URL at a time: the URLs must come in
// the order of compareURLs, each once.
type batchWriter struct {
	docs  map[string]int
	table []string
	// urls is reserve bytes kept free for the batch's header (its document
	// table is known only at the end), then the encoded URLs. A header
	// that fits is written into the gap, so that a large batch is not
	// copied whole to put its header in front of it.
	urls    []byte
	reserve int
	n       int
}

// newBatchWriter is a writer with room for a header of reserve bytes and
// about size bytes of URLs and hosts.
func newBatchWriter(reserve, size int) batchWriter {
	return batchWriter{urls: make([]byte, reserve, reserve+size), reserve: reserve}
}

func (w *batchWriter) add(url string, u *URLStats) {
	if w.docs == nil {
		w.docs = map[string]int{}
	}
	dst := appendStr(w.urls, url)
	var flags byte
	if u.Valid {
		flags = 1
	}
	if u.Year > 0 {
		flags |= 2
	}
	dst = append(dst, flags)
	dst = appendStr(dst, u.Scheme)
	if !u.Valid {
		dst = appendStr(dst, u.Rule)
	}
	if u.Year > 0 {
		dst = binary.AppendUvarint(dst, uint64(u.Year))
	}
	dst = binary.AppendUvarint(dst, uint64(u.Count))
	dst = binary.AppendUvarint(dst, uint64(len(u.Samples)))
	for _, p := range u.Samples {
		i, ok := w.docs[p.Document]
		if !ok {
			i = len(w.table)
			w.docs[p.Document] = i
			w.table = append(w.table, p.Document)
		}
		dst = binary.AppendUvarint(dst, uint64(i))
		dst = binary.AppendUvarint(dst, uint64(p.Line))
		dst = binary.AppendUvarint(dst, uint64(p.Column))
	}
	w.urls = dst
	w.n++
}

// finish returns the encoding of the batch: the URLs added and hosts,
// which must be sorted by name.
func (w *batchWriter) finish(buckets int, hosts []Count) []byte {
	n := 4 * binary.MaxVarintLen64
	for _, d := range w.table {
		n += len(d) + binary.MaxVarintLen64
	}
	head := make([]byte, 0, n)
	head = binary.AppendUvarint(head, batchVersion)
	head = binary.AppendUvarint(head, uint64(buckets))
	head = binary.AppendUvarint(head, uint64(len(w.table)))
	for _, d := range w.table {
		head = appendStr(head, d)
	}
	head = binary.AppendUvarint(head, uint64(w.n))
	var dst []byte
	if len(head) <= w.reserve {
		dst = w.urls[w.reserve-len(head):]
		copy(dst, head)
	} else {
		n := len(head) + len(w.urls) - w.reserve + binary.MaxVarintLen64
		for _, h := range hosts {
			n += len(h.Name) + 2*binary.MaxVarintLen64
		}
		dst = append(append(make([]byte, 0, n), head...), w.urls[w.reserve:]...)
	}
	dst = binary.AppendUvarint(dst, uint64(len(hosts)))
	for _, h := range hosts {
		dst = appendStr(dst, h.Name)
		dst = binary.AppendUvarint(dst, uint64(h.Count))
	}
	return dst
}

// appendBatch appends the encoding of b to dst; b's URLs must be sorted
// by compareURLs and its hosts by name.
func appendBatch(dst []byte, b *batch) []byte {
	size := 0
	for _, e := range b.URLs {
		size += len(e.URL) + len(e.Stats.Scheme) + len(e.Stats.Rule) + 8 + 4*len(e.Stats.Samples)
	}
	w := newBatchWriter(0, size)
	for _, e := range b.URLs {
		w.add(e.URL, e.Stats)
	}
	return append(dst, w.finish(b.Buckets, b.Hosts)...)
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

var (
	compressors   sync.Pool // *flate.Writer
	decompressors sync.Pool // io.ReadCloser that is a flate.Resetter
)

// packBatch is what crosses the runner for an encoded batch: its URL
// count and its length, then the batch compressed.
func packBatch(raw []byte) []byte {
	n := newBatchReader(raw).left
	out := bytes.NewBuffer(make([]byte, 0, len(raw)/3+64))
	out.Write(binary.AppendUvarint(binary.AppendUvarint(nil, uint64(n)), uint64(len(raw))))
	zw, _ := compressors.Get().(*flate.Writer)
	if zw == nil {
		zw, _ = flate.NewWriter(out, flate.BestSpeed) // only fails for a bad level
	} else {
		zw.Reset(out)
	}
	zw.Write(raw) // a bytes.Buffer does not fail
	zw.Close()
	compressors.Put(zw)
	return out.Bytes()
}

// maxBatchBytes bounds a batch once decompressed.
var maxBatchBytes int64 = 1 << 30

// unpackBatch returns the encoded batch that packBatch packed, in a buffer
// of its exact size.
func unpackBatch(data []byte) ([]byte, error) {
	d := batchDecoder{data: data}
	d.uvarint("the URL count")
	at := d.off
	size := d.uvarint("the length")
	if d.err != nil {
		return nil, d.err
	}
	if size > uint64(maxBatchBytes) {
		return nil, &batchError{at, fmt.Sprintf("a length of %d, more than %d", size, maxBatchBytes)}
	}
	src := bytes.NewReader(data[d.off:])
	zr, _ := decompressors.Get().(io.ReadCloser)
	if zr == nil {
		zr = flate.NewReader(src)
	} else {
		zr.(flate.Resetter).Reset(src, nil)
	}
	defer decompressors.Put(zr)
	raw := make([]byte, size)
	if _, err := io.ReadFull(zr, raw); err != nil {
		return nil, &batchError{d.off, "deflate: " + err.Error()}
	}
	if n, err := zr.Read(make([]byte, 1)); n > 0 || err != io.EOF {
		return nil, &batchError{d.off, fmt.Sprintf("deflate: more than the length of %d", size)}
	}
	return raw, nil
}

// packedCount is the URL count of a packed batch.
func packedCount(data []byte) int64 {
	v, _ := binary.Uvarint(data)
	return int64(v)
}

// mergeBatches merges batches of one bucket count into one: each URL
// once, with its counts added and its first samples kept (at most
// samples), and each host once with its occurrences added. It streams:
// what it holds beside the batches is the merged batch.
func mergeBatches(samples int, batches [][]byte) ([]byte, error) {
	if len(batches) == 1 {
		return batches[0], nil
	}
	// The merged batch's documents are some of its inputs': their tables
	// bound its header.
	size, reserve := 0, 4*binary.MaxVarintLen64
	for _, b := range batches {
		size += len(b)
		for _, d := range newBatchReader(b).docs {
			reserve += len(d) + binary.MaxVarintLen64
		}
	}
	w := newBatchWriter(reserve, size)
	hosts := hostTotals{hosts: map[string]int64{}}
	err := eachURL(batches, samples, func(url string, u *URLStats) error {
		w.add(url, u)
		return nil
	}, hosts.add)
	if err != nil {
		return nil, err
	}
	return w.finish(max(hosts.buckets, 1), sortedCounts(hosts.hosts)), nil
}

// hostTotals adds up the hosts of the batches of a merge, which must agree
// on the bucket count.
type hostTotals struct {
	buckets int
	hosts   map[string]int64
}

// add reads the hosts of a batch whose URLs have been read.
func (t *hostTotals) add(r *batchReader) error {
	if t.buckets != 0 && r.buckets != t.buckets {
		return fmt.Errorf("%w (%d, %d)", errBuckets, t.buckets, r.buckets)
	}
	t.buckets = r.buckets
	hs, err := r.hosts()
	for _, h := range hs {
		t.hosts[h.Name] += h.Count
	}
	return err
}

// eachURL calls fn for each distinct URL of the batches, in the order of
// compareURLs, with what the batches say of it merged; then done for each
// batch, whose URLs have all been read. fn must not keep u.Samples, which
// the next URL reuses.
func eachURL(batches [][]byte, samples int, fn func(url string, u *URLStats) error, done func(r *batchReader) error) error {
	h := make(readerHeap, 0, len(batches))
	var readers []*batchReader
	for _, data := range batches {
		r := newBatchReader(data)
		readers = append(readers, r)
		if r.next() {
			h = append(h, r)
		} else if r.err() != nil {
			return r.err()
		}
	}
	heap.Init(&h)
	var cur URLStats
	var samplesBuf []Place // cur's samples: a reader reuses its own
	for len(h) > 0 {
		r := h[0]
		url := r.url
		cur = r.stats
		samplesBuf = append(samplesBuf[:0], cur.Samples...)
		cur.Samples = samplesBuf
		for {
			if r.next() {
				heap.Fix(&h, 0)
			} else if r.err() != nil {
				return r.err()
			} else {
				heap.Pop(&h)
			}
			if len(h) == 0 || compareURLs(h[0].url, url) != 0 {
				break
			}
			r = h[0]
			cur = cur.merge(r.stats, samples)
		}
		if err := fn(url, &cur); err != nil {
			return err
		}
	}
	for _, r := range readers {
		if err := done(r); err != nil {
			return err
		}
	}
	return nil
}

// readerHeap orders the readers of a merge by their current URL.
type readerHeap []*batchReader

func (h readerHeap) Len() int           { return len(h) }
func (h readerHeap) Less(i, j int) bool { return compareURLs(h[i].url, h[j].url) < 0 }
func (h readerHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *readerHeap) Push(x any)        { *h = append(*h, x.(*batchReader)) }
func (h *readerHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

// sortedCounts is the counts of m sorted by name.
func sortedCounts(m map[string]int64) []Count {
	out := counts(m)
	slices.SortFunc(out, func(a, b Count) int { return strings.Compare(a.Name, b.Name) })
	return out
}
