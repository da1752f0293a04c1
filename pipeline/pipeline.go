package main

import (
	"context"
	"fmt"
	"io"
	"reflect"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/sdf"
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
	Shards  int    // how many urls-*.jsonl files
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
	Files []FileRef
	Total int64 // the end of the offset range
}

// ScanStats counts what the scan read.
type ScanStats struct {
	Files, FilesBad, Bytes             int64
	Documents, Records, RecordsSkipped int64
}

func (a ScanStats) add(b ScanStats) ScanStats {
	return ScanStats{a.Files + b.Files, a.FilesBad + b.FilesBad, a.Bytes + b.Bytes,
		a.Documents + b.Documents, a.Records + b.Records, a.RecordsSkipped + b.RecordsSkipped}
}

// BadInput is a file the scan could not read whole, and why.
type BadInput struct {
	File   string `json:"file"`
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
	for _, t := range []any{FileRef{}, FileSet{}, ScanStats{}, BadInput{}, Count{}, URLStats{}, Place{}, SchemeStats{}, Totals{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn3x1[context.Context, []byte, func(FileSet), error](&listFn{})
	register.Emitter1[FileSet]()
	register.DoFn6x1[context.Context, *sdf.LockRTracker, FileSet, func(string, URLStats), func(ScanStats), func(BadInput), error](&scanFn{})
	register.Emitter2[string, URLStats]()
	register.Emitter1[ScanStats]()
	register.Emitter1[BadInput]()
	register.Combiner1[URLStats](&mergeURLFn{})
	register.Function2x1(ScanStats.add)
	register.Function2x1(lessCount)
}

// Build adds the census to the pipeline: files → URLs (extract, Normalize)
// → one record per distinct URL → urls-*.jsonl and summary.json.
func Build(s beam.Scope, o Options) {
	s = s.Scope("census")
	imp := beam.Impulse(s)
	sets := beam.ParDo(s, &listFn{Glob: o.Input}, imp)
	urls, scans, bad := beam.ParDo3(s, &scanFn{Samples: o.Samples}, sets)
	merged := beam.CombinePerKey(s, &mergeURLFn{Samples: o.Samples}, urls)

	writeShards(s.Scope("shards"), o, imp, merged)

	ss := s.Scope("summary")
	totals, schemes, hosts, rules := beam.ParDo4(ss, tally, merged)
	sum := summaryInputs{
		Scan:    beam.Combine(ss, ScanStats.add, scans),
		Totals:  beam.Combine(ss, Totals.add, totals),
		Schemes: beam.CombinePerKey(ss, SchemeStats.add, schemes),
		Hosts:   topCounts(ss, o.Top, hosts),
		Rules:   topCounts(ss, o.Top, rules),
		Bad:     bad,
	}
	writeSummary(ss, o, imp, sum)
}

// topCounts sums the counts of each name and keeps the n largest, with a
// top-k combiner: each worker keeps its own n best, never a global sort.
func topCounts(s beam.Scope, n int, col beam.PCollection) beam.PCollection {
	sums := stats.SumPerKey(s, col)
	counts := beam.ParDo(s, toCount, sums)
	return top.Largest(s, counts, n, lessCount)
}

func toCount(name string, n int64) Count { return Count{name, n} }

func init() { register.Function2x1(toCount) }

// listFn expands the input glob on its file system.
type listFn struct {
	Glob string
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
	emit(set)
	return nil
}

// flushAt bounds the URLs a scan holds before it hands them on.
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

func (fn *scanFn) ProcessElement(ctx context.Context, rt *sdf.LockRTracker, set FileSet,
	emitURL func(string, URLStats), emitScan func(ScanStats), emitBad func(BadInput)) error {
	start := rt.GetRestriction().(offsetrange.Restriction).Start
	c := newCensus(fn.Samples)
	flush := func() {
		for k, v := range c.urls {
			emitURL(k, *v)
		}
		clear(c.urls)
	}
	sc := extract.NewScanner(nil)
	var rd readers
	var st ScanStats
	whole := true
	for _, f := range set.Files {
		if f.Start < start {
			continue
		}
		if !rt.TryClaim(f.Start) {
			whole = false
			break
		}
		st.Files++
		st.Bytes += f.Size
		var n docCounts
		if err := fn.scanFile(ctx, f.Path, &rd, sc, c, &n); err != nil {
			st.FilesBad++
			emitBad(BadInput{File: f.Path, Reason: err.Error()})
		}
		st.Documents += n.Documents
		st.Records += n.Records
		st.RecordsSkipped += n.RecordsSkipped
		if len(c.urls) >= flushAt {
			flush()
		}
	}
	if whole {
		rt.TryClaim(set.Total) // the end: the restriction is done
	}
	flush()
	emitScan(st)
	return rt.GetError()
}

// scanFile adds the URLs of one file to c. An error is the reason the file
// could not be read whole; what was read before it is counted.
func (fn *scanFn) scanFile(ctx context.Context, path string, rd *readers, sc *extract.Scanner, c *census, n *docCounts) error {
	fsys, err := fn.fileSystem(ctx, path)
	if err != nil {
		return err
	}
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

// mergeURLFn merges the records of one distinct URL.
type mergeURLFn struct {
	Samples int
}

func (fn *mergeURLFn) MergeAccumulators(a, b URLStats) URLStats {
	return a.merge(b, fn.Samples)
}
