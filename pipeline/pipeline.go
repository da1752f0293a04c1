package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"slices"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/rtrackers/offsetrange"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rfc1738/rfc1738/extract"
)

// Options are what a run of the census is told.
type Options struct {
	Input   string // a glob on any Beam file system: /data/*.gz, gs://b/crawl/*.wet.gz
	Output  string // a folder on any Beam file system
	Shards  int    // how many urls-*.jsonl files; 0: one per shardBytes of input, at least 4
	Samples int    // places kept per URL
	Top     int    // hosts and error rules listed in the summary
}

// FileRef is one input file. In a FileSet each file owns the positions
// [Start, Start+Size+1) of the scan's offset range, so a split of the range
// divides the work by bytes and every file, even an empty one, has a
// position of its own.
type FileRef struct {
	Path  string
	Size  int64
	Start int64
}

// FileSet is the files the input glob matched, in name order.
type FileSet struct {
	Files  []FileRef
	Total  int64 // the end of the offset range
	Shards int   // how many urls-*.jsonl files the run writes
}

// shardBytes is the input that one shard is made for when the shard count
// is left to the census (--shards 0): the writer of a shard holds all its
// distinct URLs in memory, so the count must grow with the corpus. Text
// as dense in URLs as this machine's documentation has about 300,000
// distinct URLs per GB, 80,000 per 256 MiB, a few tens of MB of memory.
const shardBytes = 256 << 20

// autoShards is the shard count for an input of total bytes.
func autoShards(total int64) int {
	return int(max(4, (total+shardBytes-1)/shardBytes))
}

// ScanStats counts what the scan read.
type ScanStats struct {
	Files, FilesBad, Bytes                               int64
	Documents, Records, RecordsSkipped, RecordsMalformed int64
}

func (a ScanStats) add(b ScanStats) ScanStats {
	return ScanStats{a.Files + b.Files, a.FilesBad + b.FilesBad, a.Bytes + b.Bytes,
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
	for _, t := range []any{FileRef{}, FileSet{}, ScanStats{}, BadInput{}, MalformedRecord{}, Count{}, SchemeCount{}, Totals{}, ShardPartial{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, []byte, func(FileSet), error](&listFn{})
	register.Emitter1[FileSet]()
	register.DoFn7x1[context.Context, *sdf.LockRTracker, FileSet, func(int, []byte), func(ScanStats), func(BadInput), func(MalformedRecord), error](&scanFn{})
	register.Emitter2[int, []byte]()
	register.Emitter1[ScanStats]()
	register.Emitter1[BadInput]()
	register.Emitter1[MalformedRecord]()
}

// Build adds the census to the pipeline: files → URLs (extract, Normalize),
// counted per scan → one batch per scan and shard → each shard's batches
// merged into urls-*.jsonl and a partial summary → summary.json.
//
// Nothing crosses the runner per distinct URL: the scan hands on one
// compact batch per output shard (see batch), so the runner's work is
// O(scans × shards) elements, whatever the number of URLs; the writer of
// a shard holds that shard's distinct URLs, so --shards must grow with
// the corpus (it does by default, see autoShards).
func Build(s beam.Scope, o Options) {
	s = s.Scope("census")
	imp := beam.Impulse(s)
	sets := beam.ParDo(s, &listFn{Glob: o.Input, Shards: o.Shards}, imp)
	batches, scans, bad, malformed := beam.ParDo4(s, &scanFn{Samples: o.Samples}, sets)
	partials := beam.ParDo(s.Scope("shards"), &writeShardFn{Output: o.Output, Samples: o.Samples, Top: o.Top},
		beam.GroupByKey(s.Scope("shards"), batches))
	writeSummary(s.Scope("summary"), o, imp, summaryInputs{Scan: scans, Partials: partials, Bad: bad, Malformed: malformed})
}

// listFn expands the input glob on its file system.
type listFn struct {
	Glob   string
	Shards int // 0: autoShards of the input's size
}

func (fn *listFn) ProcessElement(ctx context.Context, _ []byte, emit func(FileSet)) error {
	fsys, err := filesystem.New(ctx, fn.Glob)
	if err != nil {
		return err
	}
	defer fsys.Close()
	names, err := fsys.List(ctx, fn.Glob)
	if err != nil {
		return fmt.Errorf("listing %s: %w", fn.Glob, err)
	}
	if len(names) == 0 {
		return fmt.Errorf("no file matches %s", fn.Glob)
	}
	slices.Sort(names)
	var set FileSet
	for _, name := range names {
		// A size that cannot be read is 0: the open fails later and the
		// file is reported with the reason.
		size, err := fsys.Size(ctx, name)
		if err != nil || size < 0 {
			size = 0
		}
		set.Files = append(set.Files, FileRef{Path: name, Size: size, Start: set.Total})
		set.Total += size + 1
	}
	set.Shards = fn.Shards
	if set.Shards <= 0 {
		set.Shards = autoShards(set.Total)
	}
	emit(set)
	return nil
}

// flushAt bounds the distinct URLs a reader of a scan holds before it
// hands them on, one batch per shard; a scan holds at most scanWorkers
// times as many.
const flushAt = 1 << 18

// scanFn finds the URLs of the files of a FileSet. It is splittable over
// the set's byte positions, so a runner divides a large set between its
// workers, and splits it again while it runs (dynamic work rebalancing).
type scanFn struct {
	Samples int

	fs map[string]filesystem.Interface // by the scheme of a path, made on first use
}

func (fn *scanFn) CreateInitialRestriction(set FileSet) offsetrange.Restriction {
	return offsetrange.Restriction{Start: 0, End: set.Total}
}

// initialSplit is the work of one restriction before any dynamic split.
const initialSplit = 256 << 20

func (fn *scanFn) SplitRestriction(_ FileSet, rest offsetrange.Restriction) []offsetrange.Restriction {
	return rest.SizedSplits(initialSplit)
}

func (fn *scanFn) RestrictionSize(_ FileSet, rest offsetrange.Restriction) float64 {
	return rest.Size()
}

func (fn *scanFn) CreateTracker(rest offsetrange.Restriction) *sdf.LockRTracker {
	return sdf.NewLockRTracker(offsetrange.NewTracker(rest))
}

func (fn *scanFn) Teardown() {
	for _, fsys := range fn.fs {
		fsys.Close()
	}
}

// scanWorkers is how many files one scan reads at once: the cores the
// process may use. A runner also runs many scans at once (Prism as many as
// it has split the input into, a Dataflow worker one per core); this is
// what lets a single scan use the cores before the runner has split it.
func scanWorkers() int { return max(1, runtime.GOMAXPROCS(0)) }

// scanJob is a claimed file for a reader of the scan.
type scanJob struct {
	f    FileRef
	fsys filesystem.Interface
	err  error // the file system of the path could not be made
}

// scanResult is what a reader of the scan hands back: a file read (f, n,
// err), or its census when it is full or when the reader is done (c).
type scanResult struct {
	f     FileRef
	n     docCounts
	err   error // why the file could not be read whole
	c     *census
	last  bool  // c is the reader's last census
	fatal error // a reader failed: the bundle fails
}

func (fn *scanFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, set FileSet,
	emitBatch func(int, []byte), emitScan func(ScanStats), emitBad func(BadInput), emitMalformed func(MalformedRecord)) error {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	// Every shard gets a batch from every scan, empty or not, so that every
	// urls-*.jsonl is written.
	emit := func(c *census) {
		for shard, data := range encodeBatches(c.batches(set.Shards)) {
			emitBatch(shard, data)
		}
	}

	// Files are claimed in order, each only when a reader is free for it,
	// so that a split of the restriction while it runs leaves no more
	// than scanWorkers files claimed and not yet read. Emitting stays on
	// this goroutine: Beam's emitters are not safe for concurrent use.
	jobs := make(chan scanJob)
	results := make(chan scanResult)
	var wg sync.WaitGroup
	for range scanWorkers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn.read(ctx, jobs, results)
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()

	var st ScanStats
	var total *census // the readers' last censuses, merged
	var fatal error
	handle := func(r scanResult) {
		switch {
		case r.fatal != nil:
			fatal = cmp.Or(fatal, r.fatal)
		case r.c != nil && r.last:
			if total == nil {
				total = r.c
			} else {
				total.merge(r.c)
			}
		case r.c != nil:
			emit(r.c)
		default:
			st.Files++
			st.Bytes += r.f.Size
			if r.err != nil {
				st.FilesBad++
				emitBad(BadInput{File: r.f.Path, Reason: r.err.Error()})
			}
			st.Documents += r.n.Documents
			st.Records += r.n.Records
			st.RecordsSkipped += r.n.RecordsSkipped
			st.RecordsMalformed += r.n.Malformed
			for _, e := range r.n.MalformedAt {
				emitMalformed(MalformedRecord{File: r.f.Path, Offset: e.Offset, Reason: e.Msg})
			}
		}
	}
	whole := true
	for _, f := range set.Files {
		if f.Start < start {
			continue
		}
		if !rt.TryClaim(f.Start) {
			whole = false
			break
		}
		job := scanJob{f: f}
		job.fsys, job.err = fn.fileSystem(ctx, f.Path)
	send:
		for {
			select {
			case jobs <- job:
				break send
			case r := <-results:
				handle(r)
			}
		}
	}
	if whole {
		rt.TryClaim(set.Total) // the end: the restriction is done
	}
	close(jobs)
	for r := range results {
		handle(r)
	}
	if fatal != nil {
		return fatal
	}
	emit(total)
	emitScan(st)
	return rt.GetError()
}

// read is one reader of a scan: it reads the files of jobs into a census
// of its own, and hands the census back when it is full and when jobs is
// closed.
func (fn *scanFn) read(ctx context.Context, jobs <-chan scanJob, results chan<- scanResult) {
	c := newCensus(fn.Samples)
	sc := extract.NewScanner(nil)
	var rd readers
	defer func() {
		// A panic here would end the process, not the bundle: it fails
		// the bundle like a panic in ProcessElement.
		if p := recover(); p != nil {
			results <- scanResult{fatal: fmt.Errorf("scan: panic: %v", p)}
		}
	}()
	for job := range jobs {
		r := scanResult{f: job.f, err: job.err}
		if r.err == nil {
			r.err = scanFile(ctx, job.fsys, job.f.Path, &rd, sc, c, &r.n)
		}
		results <- r
		if len(c.urls) >= flushAt {
			results <- scanResult{c: c}
			c = newCensus(fn.Samples)
		}
	}
	results <- scanResult{c: c, last: true}
}

// scanFile adds the URLs of one file to c. An error is the reason the file
// could not be read whole; what was read before it is counted.
func scanFile(ctx context.Context, fsys filesystem.Interface, path string, rd *readers, sc *extract.Scanner, c *census, n *docCounts) error {
	r, err := fsys.OpenRead(ctx, path)
	if err != nil {
		return err
	}
	defer r.Close()
	return rd.eachDocument(path, r, n, func(doc string, r io.Reader) error {
		sc.Reset(r)
		for sc.Scan() {
			c.add(doc, sc.Match())
		}
		return sc.Err()
	})
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
