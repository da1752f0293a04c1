package main

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"

	"github.com/rfc1738/rfc1738/extract"
)

// Options are what a run of the census is told.
type Options struct {
	Input   string // a glob on any Beam file system: /data/*.gz, gs://b/crawl/*.wet.gz
	Output  string // a folder on any Beam file system
	Shards  int    // how many urls-*.jsonl files; 0: from the count of distinct URLs
	Samples int    // places kept per URL
	Top     int    // hosts and error rules listed in the summary

	// DateFromPath dates the files that are not WARC by their path (see
	// scanFn); "": undated.
	DateFromPath string
	// Check, when set, checks every distinct URL (checks-*.jsonl).
	Check *CheckOptions

	// The sizes files are cut to (see cutFn); 0: pieceBytes, rangeBytes.
	PieceBytes, RangeBytes int64
}

// With --shards 0 the URLs are counted in one bucket per bytesPerBucket
// of input (the sum of the files' sizes as stored), a power of two, at
// most maxBuckets; the shard count is then a power of two no larger, so
// each shard is a whole number of buckets. What crosses the runner grows
// with the buckets times the bundles of the scan (a batch per bucket a
// bundle found URLs for), and each costs Beam's encoding, a compressor
// and a merge however small it is: on 300 MB of text (94,000 distinct
// URLs) 1,024 buckets took 1.85 s and 2.5 s of CPU, 16 took 1.2 s and
// 1.6 s. A bucket per 32 MiB still gives each shard at most urlsPerShard
// URLs unless the input holds more than one distinct URL per 64 bytes
// (the densest corpora measured, made of URLs, had one per 67 and per
// 75-79 bytes).
//
// A bucket's batches are merged in memory (a merge holds its inputs and
// its output), so there are at least minBuckets, each a small part of the
// whole: 1,000,000 distinct URLs in 64 MB took 372-392 MB of memory in 2
// buckets, 313-316 MB in 8.
const (
	bytesPerBucket = 32 << 20
	minBuckets     = 8
	maxBuckets     = 1024 // below the 2,000 keys the Go SDK's lifted combine holds per bundle
)

// urlsPerShard is the distinct URLs one shard is made for when the shard
// count is left to the census: the writer of a shard holds its batches,
// about 60 bytes per URL.
const urlsPerShard = 1 << 19

// buckets is how many buckets the URLs of an input of size bytes are
// counted in.
func buckets(shards int, size int64) int {
	if shards > 0 {
		return shards
	}
	n := minBuckets
	for n < maxBuckets && size > int64(n)*bytesPerBucket {
		n *= 2
	}
	return n
}

// shardCount is how many shards a run writes: as told, or the least power
// of two that gives each shard at most urlsPerShard of the distinct URLs,
// at most the bucket count.
func shardCount(shards int, distinct, size int64) int {
	if shards > 0 {
		return shards
	}
	nb := buckets(0, size)
	n := 1
	for n < nb && distinct > int64(n)*urlsPerShard {
		n *= 2
	}
	return n
}

// ScanStats counts what the scan read. A file's bad inputs are counted
// once, by the summary, from its BadInputs.
type ScanStats struct {
	Files, Bytes                                         int64
	Documents, Records, RecordsSkipped, RecordsMalformed int64
}

// addScanStats is the CombineFn of the scans' counts.
func addScanStats(a, b ScanStats) ScanStats {
	return ScanStats{a.Files + b.Files, a.Bytes + b.Bytes,
		a.Documents + b.Documents, a.Records + b.Records, a.RecordsSkipped + b.RecordsSkipped,
		a.RecordsMalformed + b.RecordsMalformed}
}

// BadInput is a file the scan could not read whole, and why.
type BadInput struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// MalformedRecord is a WARC record the scan skipped: its file, the offset
// of the fault in the file's (uncompressed) stream, and what is wrong.
type MalformedRecord struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Reason string `json:"reason"`
}

// Count is a name and how often it was seen: a host, an error rule.
type Count struct {
	Name  string `json:"name"`
	Count int64  `json:"count"`
}

// lessCount orders counts for top.Largest: by count, then by name so that
// ties resolve the same way in every run.
func lessCount(a, b Count) bool {
	if a.Count != b.Count {
		return a.Count < b.Count
	}
	return a.Name > b.Name
}

func init() {
	for _, t := range []any{Cut{}, Range{}, ScanStats{}, BadInput{}, MalformedRecord{}, Count{}, SchemeCount{}, Totals{}, ShardResult{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	beam.RegisterCoder(reflect.TypeOf(mergeAcc{}), encodeAcc, decodeAcc)
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(*int64) bool, func(Range), error](&cutFn{})
	register.Emitter1[Range]()
	register.DoFn7x1[context.Context, *sdf.LockRTracker, Range, func(int, []byte), func(ScanStats), func(BadInput), func(MalformedRecord), error](&scanFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[ScanStats]()
	register.Emitter1[BadInput]()
	register.Emitter1[MalformedRecord]()
	register.Combiner3[mergeAcc, []byte, []byte](&mergeFn{})
	register.Function2x1(addScanStats)
	register.Function2x1(lessCount)
	register.Function2x1(distinctOf)
	register.Function1x1(fileSize)
	register.Function2x1(ruleCount)
	register.DoFn5x0[int, []byte, func(*int64) bool, func(*int64) bool, func(int, []byte)](&assignFn{})
}

// Counters of the scan, which a runner shows while the job runs.
var (
	filesCounter   = beam.NewCounter("census", "files")
	bytesCounter   = beam.NewCounter("census", "bytes")
	recordsCounter = beam.NewCounter("census", "warc_records")
	urlsCounter    = beam.NewCounter("census", "urls")
	badCounter     = beam.NewCounter("census", "bad_inputs")
)

// Build adds the census to the pipeline:
//
//	match (regular files; the rest are bad inputs) → Reshuffle → cut into ranges (the bucket count: a side input,
//	  the sum of the files' sizes) → Reshuffle → scan (splittable)
//	  → KV<bucket, batch> → CombinePerKey(merge) → KV<bucket, batch>
//	  → shard of the bucket (the shard count: a side input, the sum of the
//	  distinct URLs) → GroupByKey → write each shard to a temporary file
//	  → CoGroupByKey of every result → commit: rename the shards into place,
//	  remove stale ones, write summary.json
//
// Nothing crosses the runner per distinct URL: a scan hands on one batch
// per bucket it found URLs for, and the combine merges a bucket's batches
// (in the bundle that made them first, as the SDK lifts the combine).
func Build(s beam.Scope, o Options) {
	s = s.Scope("census")
	if o.PieceBytes <= 0 {
		o.PieceBytes = pieceBytes
	}
	if o.RangeBytes <= 0 {
		o.RangeBytes = rangeBytes
	}
	files, unread, unreadStats := matchFiles(s, o.Input)
	size := stats.Sum(s, beam.ParDo(s, fileSize, files))
	files = beam.Reshuffle(s, files)
	ranges := beam.ParDo(s, &cutFn{Piece: o.PieceBytes, Range: o.RangeBytes, Shards: o.Shards}, files, beam.SideInput{Input: size})
	ranges = beam.Reshuffle(s, ranges)
	parts, scans, bad, malformed := beam.ParDo4(s, &scanFn{Samples: o.Samples, DateFromPath: o.DateFromPath}, ranges)
	merged := beam.CombinePerKey(s, &mergeFn{Samples: o.Samples}, parts)
	distinct := stats.Sum(s, beam.ParDo(s, distinctOf, merged))
	shards := beam.ParDo(s, &assignFn{Shards: o.Shards}, merged, beam.SideInput{Input: distinct}, beam.SideInput{Input: size})
	results, hosts, rules := beam.ParDo3(s, &writeShardFn{Output: o.Output, Samples: o.Samples, Top: o.Top},
		beam.GroupByKey(s, shards))
	tops := []beam.PCollection{
		beam.ParDo(s, &tagTopFn{Kind: "hosts"}, top.Largest(s, hosts, o.Top, lessCount)),
		beam.ParDo(s, &tagTopFn{Kind: "rules"}, top.Largest(s, beam.ParDo(s, ruleCount, stats.SumPerKey(s, rules)), o.Top, lessCount)),
	}
	if o.Check != nil {
		batches, broken := checkStage(s, o.Check, shards)
		checks, brokenTop := writeChecks(s, o, batches, broken)
		results = beam.Flatten(s, results, checks)
		tops = append(tops, beam.ParDo(s, &tagTopFn{Kind: "broken_hosts"}, brokenTop))
	}
	in := commitInputs{
		Results:   results,
		Scan:      beam.Combine(s, addScanStats, beam.Flatten(s, scans, unreadStats)),
		Tops:      beam.Flatten(s, tops...),
		Bad:       beam.Flatten(s, unread, bad),
		Malformed: malformed,
		Distinct:  distinct,
		Size:      size,
	}
	commit(s.Scope("commit"), o, in)
}

// fileSize is the size of a file as stored.
func fileSize(f fileio.FileMetadata) int64 { return f.Size }

// distinctOf is how many distinct URLs a merged batch holds.
func distinctOf(_ int, packed []byte) int64 {
	return packedCount(packed)
}

// ruleCount is a rule's summed occurrences as a Count, for top.Largest.
func ruleCount(rule string, n int64) Count { return Count{rule, n} }

// scanFn finds the URLs of a range of a file. It is splittable between
// the range's pieces: a runner may hand the rest of a range to another
// worker while it runs (dynamic work rebalancing).
type scanFn struct {
	Samples int
	// DateFromPath, a regular expression, dates a file that is not WARC
	// by its path: the year its first group (or its match) starts with.
	DateFromPath string

	fs     map[string]filesystem.Interface // by the scheme of a path, made on first use
	rd     readers
	sc     *extract.Scanner
	dateRE *regexp.Regexp
}

// pathYear is the year of a file's date by its path; 0 when it has none.
func (fn *scanFn) pathYear(path string) int {
	if fn.DateFromPath == "" {
		return 0
	}
	if fn.dateRE == nil {
		fn.dateRE = regexp.MustCompile(fn.DateFromPath) // checked by main
	}
	m := fn.dateRE.FindStringSubmatch(path)
	switch {
	case len(m) > 1:
		return yearOf(m[1])
	case len(m) == 1:
		return yearOf(m[0])
	}
	return 0
}

func (fn *scanFn) CreateInitialRestriction(r Range) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: int64(len(r.Cuts) - 1)}
}

// SplitRestriction keeps a range whole: the cut made it the size of a
// unit of work, and a runner splits it further while it runs.
func (fn *scanFn) SplitRestriction(_ Range, rest offsetrange.Restriction) []offsetrange.Restriction {
	return []offsetrange.Restriction{rest}
}

// RestrictionSize is the bytes of the pieces of the restriction.
func (fn *scanFn) RestrictionSize(r Range, rest offsetrange.Restriction) float64 {
	if rest.End <= rest.Start {
		return 0
	}
	return float64(r.Cuts[rest.End].Off-r.Cuts[rest.Start].Off) + 1
}

func (fn *scanFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *scanFn) Teardown() {
	for _, fsys := range fn.fs {
		fsys.Close()
	}
}

// flushAt bounds the distinct URLs a scan holds before it hands them on.
const flushAt = 1 << 16

func (fn *scanFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, r Range,
	emitBatch func(int, []byte), emitScan func(ScanStats), emitBad func(BadInput), emitMalformed func(MalformedRecord)) error {
	c := newCensus(fn.Samples)
	flush := func() {
		c.batches(r.Buckets, emitBatch)
		year := c.year // of the document being read
		c = newCensus(fn.Samples)
		c.year = year
	}
	if fn.sc == nil {
		fn.sc = extract.NewScanner(nil)
	}
	var st ScanStats
	var n docCounts
	var urls int64
	var f io.ReadCloser
	var pos int64 // where f stands
	var failed error
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	pathYear := fn.pathYear(r.Path)
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	for i := start; rt.TryClaim(i); i++ {
		from, to := r.Cuts[i].Off, r.Cuts[i+1].Off
		if r.First && i == 0 {
			st.Files++
		}
		st.Bytes += to - from
		if failed != nil {
			continue // the file ended at a fault: the rest is not read
		}
		if f == nil {
			fsys, err := fn.fileSystem(ctx, r.Path)
			if err == nil {
				f, err = openRead(ctx, fsys, r.Path)
			}
			if err != nil {
				failed = err
				continue
			}
		}
		if pos != from {
			if err := seek(f, pos, from); err != nil {
				failed = err
				continue
			}
		}
		lr := &io.LimitedReader{R: f, N: to - from}
		failed = fn.rd.eachDocument(r.Path, lr, r.piece(int(i)), &n, func(doc string, year, lines int, rd io.Reader) error {
			fn.sc.Reset(rd)
			c.year = cmp.Or(year, pathYear)
			for fn.sc.Scan() {
				urls++
				c.add(doc, lines, fn.sc.Match())
				if len(c.urls) >= flushAt {
					flush()
				}
			}
			return fn.sc.Err()
		})
		pos = to - lr.N
	}
	if failed != nil {
		badCounter.Inc(ctx, 1)
		emitBad(BadInput{File: r.Path, Reason: failed.Error()})
	}
	st.Documents, st.Records, st.RecordsSkipped, st.RecordsMalformed = n.Documents, n.Records, n.RecordsSkipped, n.Malformed
	for _, e := range n.MalformedAt {
		emitMalformed(MalformedRecord{File: r.Path, Offset: e.Offset, Reason: e.Msg})
	}
	urlsCounter.Inc(ctx, urls)
	filesCounter.Inc(ctx, st.Files)
	bytesCounter.Inc(ctx, st.Bytes)
	recordsCounter.Inc(ctx, st.Records)
	flush()
	if st != (ScanStats{}) { // no empty elements: a split may leave a restriction nothing
		emitScan(st)
	}
	return rt.GetError()
}

// seek moves f from offset pos to offset to: by Seek where f can, else by
// reading on.
func seek(f io.Reader, pos, to int64) error {
	if s, ok := f.(io.Seeker); ok {
		_, err := s.Seek(to, io.SeekStart)
		return err
	}
	if to < pos {
		return fmt.Errorf("cannot seek back from %d to %d", pos, to)
	}
	_, err := io.CopyN(io.Discard, f, to-pos)
	return err
}

func (fn *scanFn) fileSystem(ctx context.Context, path string) (filesystem.Interface, error) {
	scheme := ""
	if i := indexScheme(path); i > 0 {
		scheme = path[:i]
	}
	if fsys, ok := fn.fs[scheme]; ok {
		return fsys, nil
	}
	fsys, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	if fn.fs == nil {
		fn.fs = map[string]filesystem.Interface{}
	}
	fn.fs[scheme] = fsys
	return fsys, nil
}

// indexScheme returns the index of the "://" of a file system path, or -1.
func indexScheme(path string) int {
	for i := 0; i+2 < len(path); i++ {
		switch c := path[i]; {
		case c == ':' && path[i+1] == '/' && path[i+2] == '/':
			return i
		case c == '/':
			return -1
		}
	}
	return -1
}

// mergeAcc is the accumulator of a bucket's merge: encoded batches, each
// sorted, in decreasing size. Adding one merges the last ones while the
// last is at least half the one before, so a bucket holds O(log n)
// batches and each URL is merged O(log n) times. It crosses the runner
// with its batches packed (encodeAcc).
type mergeAcc struct {
	Batches [][]byte
}

// encodeAcc is the coder of mergeAcc: the count of batches, then each
// packed, after its length.
func encodeAcc(a mergeAcc) []byte {
	out := binary.AppendUvarint(nil, uint64(len(a.Batches)))
	for _, b := range a.Batches {
		p := packBatch(b)
		out = binary.AppendUvarint(out, uint64(len(p)))
		out = append(out, p...)
	}
	return out
}

func decodeAcc(data []byte) (mergeAcc, error) {
	var a mergeAcc
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return a, &batchError{0, "want the batch count of an accumulator"}
	}
	data = data[k:]
	for range n {
		size, k := binary.Uvarint(data)
		if k <= 0 || size > uint64(len(data)-k) {
			return a, &batchError{0, "an accumulator's batch is cut"}
		}
		raw, err := unpackBatch(data[k : k+int(size)])
		if err != nil {
			return a, err
		}
		a.Batches = append(a.Batches, raw)
		data = data[k+int(size):]
	}
	return a, nil
}

// mergeFn merges the batches of a bucket into one.
type mergeFn struct {
	Samples int
}

func (fn *mergeFn) CreateAccumulator() mergeAcc { return mergeAcc{} }

func (fn *mergeFn) AddInput(a mergeAcc, b []byte) (mergeAcc, error) {
	return fn.add(a, b)
}

func (fn *mergeFn) MergeAccumulators(a, b mergeAcc) (mergeAcc, error) {
	var err error
	for _, d := range b.Batches {
		if a, err = fn.add(a, d); err != nil {
			return a, err
		}
	}
	return a, nil
}

func (fn *mergeFn) add(a mergeAcc, b []byte) (mergeAcc, error) {
	a.Batches = append(a.Batches, b)
	for n := len(a.Batches); n >= 2 && 2*len(a.Batches[n-1]) >= len(a.Batches[n-2]); n = len(a.Batches) {
		m, err := mergeBatches(fn.Samples, a.Batches[n-2:])
		if err != nil {
			return a, err
		}
		a.Batches = append(a.Batches[:n-2], m)
	}
	return a, nil
}

// ExtractOutput is the bucket's batch, packed.
func (fn *mergeFn) ExtractOutput(a mergeAcc) ([]byte, error) {
	if len(a.Batches) == 0 {
		return nil, errors.New("merge: a bucket without a batch") // not reached: a key comes with its batch
	}
	raw, err := mergeBatches(fn.Samples, a.Batches)
	if err != nil {
		return nil, err
	}
	return packBatch(raw), nil
}

// assignFn hands each bucket's batch to its shard: the bucket modulo the
// shard count, which divides the bucket count, so a URL's shard is its
// hash modulo the shard count. What it hands on is a shard part (appendPart).
type assignFn struct {
	Shards int
}

func (fn *assignFn) ProcessElement(bucket int, data []byte, distinct, size func(*int64) bool, emit func(int, []byte)) {
	n := shardCount(fn.Shards, sideSum(distinct), sideSum(size))
	emit(bucket%n, appendPart(make([]byte, 0, binary.MaxVarintLen64+len(data)), n, data))
}

// A shard part is what the GroupByKey brings the writer of a shard for one
// of its buckets: the shard count of the run, then the bucket's packed
// batch. The writer takes the count from its parts, not from side inputs:
// Prism re-examines a stage that reads side inputs without pause while
// it waits for them (on 300 MB of text, about 190,000 times in a run of
// one second, 0.3 s of CPU), so only the steps that must read one do.
func appendPart(dst []byte, shards int, packed []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(shards)), packed...)
}

// readPart returns the shard count and the packed batch of a shard part.
func readPart(data []byte) (int, []byte, error) {
	d := batchDecoder{data: data}
	at := d.off
	n := d.int("the shard count", math.MaxInt32)
	if d.err == nil && n < 1 {
		d.fail(at, "a shard count of 0")
	}
	return n, data[d.off:], d.err
}

// sideSum reads a side input that is the sum of a collection: one value,
// or none when the collection was empty.
func sideSum(it func(*int64) bool) int64 {
	var v, sum int64
	for it(&v) {
		sum += v
	}
	return sum
}
