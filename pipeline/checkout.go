package main

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/flate"
	"container/heap"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/top"
)

// CheckPart is one checks shard's part of the summary's check section.
type CheckPart struct {
	Checked, Reused int64
	Verdicts        []VerdictCount // by scheme and verdict
	Years           []YearRow
}

// VerdictCount is how many URLs of a scheme got a verdict.
type VerdictCount struct {
	Scheme, Verdict string
	N               int64
}

// YearRow is one row of the link-rot table: the distinct URLs whose
// earliest dated document is of Year, and their verdicts.
type YearRow struct {
	Year   int     `json:"year"`
	URLs   int64   `json:"urls"`
	OK     int64   `json:"ok"`
	Broken int64   `json:"broken"`
	Share  float64 `json:"broken_share"` // broken / (ok + broken)
}

// CheckSummary is the check section of summary.json.
type CheckSummary struct {
	URLs     int64                       `json:"urls"`    // distinct URLs with a verdict
	Checked  int64                       `json:"checked"` // checked in this run
	Reused   int64                       `json:"reused"`  // from --check-from, younger than --max-age
	Verdicts map[string]int64            `json:"verdicts"`
	Schemes  map[string]map[string]int64 `json:"schemes"`
	// TopBrokenHosts are the hosts ("host:port") with most broken URLs.
	TopBrokenHosts []Count `json:"top_broken_hosts"`
	// ByYear is the link-rot table, by the year of the earliest dated
	// document of each URL (WARC-Date, --date-from-path); empty when no
	// document is dated.
	ByYear []YearRow `json:"by_year"`
}

// Top is a top list on its way to the commit: what it ranks, and the
// list.
type Top struct {
	Kind   string // "hosts", "rules", "broken_hosts"
	Counts []Count
}

func init() {
	for _, t := range []any{CheckPart{}, VerdictCount{}, YearRow{}, Top{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
	register.DoFn4x1[context.Context, int, func(*checkBatch) bool, func(ShardResult), error](&writeChecksFn{})
	register.Iter1[checkBatch]()
	register.DoFn2x0[[]Count, func(Top)](&tagTopFn{})
	register.Emitter1[Top]()
	register.Function2x1(hostCount)
}

// checksName is the file name of a checks shard.
func checksName(shard, shards int) string {
	return fmt.Sprintf("checks-%05d-of-%05d.jsonl", shard, shards)
}

// batchLines bounds the verdicts of a check batch.
const batchLines = 1 << 14

// checkBatch is verdicts of one shard, sorted as their lines are: each a
// record (its URL, then its line) in a DEFLATE stream, and what they add
// to the summary.
type checkBatch struct {
	Shards int
	N      int
	Packed []byte
	Part   CheckPart
}

// batchAcc gathers the verdicts of one shard until they make a batch.
type batchAcc struct {
	lines []CheckLine
}

func (a *batchAcc) add(l CheckLine) { a.lines = append(a.lines, l) }

// finish sorts the verdicts, tallies them and packs them.
func (a *batchAcc) finish() checkBatch {
	slices.SortFunc(a.lines, func(x, y CheckLine) int { return compareURLs(x.URL, y.URL) })
	b := checkBatch{N: len(a.lines)}
	verdicts := map[[2]string]int64{}
	years := map[int]*YearRow{}
	var raw, line []byte
	for _, l := range a.lines {
		b.Shards = l.Shards
		if l.Reused {
			b.Part.Reused++
		} else {
			b.Part.Checked++
		}
		verdicts[[2]string{l.Scheme, l.Verdict}]++
		if l.Year > 0 {
			y := yearRow(years, l.Year)
			y.URLs++
			switch l.Verdict {
			case "ok":
				y.OK++
			case "broken":
				y.Broken++
			}
		}
		line = appendCheckLine(line[:0], l)
		raw = appendStr(raw, l.URL)
		raw = binary.AppendUvarint(raw, uint64(len(line)))
		raw = append(raw, line...)
	}
	for k, n := range verdicts {
		b.Part.Verdicts = append(b.Part.Verdicts, VerdictCount{k[0], k[1], n})
	}
	for _, y := range years {
		b.Part.Years = append(b.Part.Years, *y)
	}
	var out bytes.Buffer
	zw, _ := compressors.Get().(*flate.Writer)
	if zw == nil {
		zw, _ = flate.NewWriter(&out, flate.BestSpeed) // only fails for a bad level
	} else {
		zw.Reset(&out)
	}
	zw.Write(raw) // a bytes.Buffer does not fail
	zw.Close()
	compressors.Put(zw)
	b.Packed = out.Bytes()
	a.lines = nil
	return b
}

// batchRecords reads the records of a packed check batch in order.
type batchRecords struct {
	br       *bufio.Reader
	left     int
	url      string
	line     []byte
	err      error
	shards   int
	position int // of the batch, for errors
}

func newBatchRecords(b checkBatch, i int) *batchRecords {
	return &batchRecords{br: bufio.NewReaderSize(flate.NewReader(bytes.NewReader(b.Packed)), 4096), left: b.N, shards: b.Shards, position: i}
}

// next reads the next record; false at the end or at an error.
func (r *batchRecords) next() bool {
	if r.left == 0 || r.err != nil {
		return false
	}
	r.left--
	url, err := readStr(r.br)
	if err == nil {
		r.url = string(url)
		r.line, err = readStr(r.br)
	}
	if err != nil {
		r.err = fmt.Errorf("check batch %d: %w", r.position, err)
		return false
	}
	return true
}

// readStr reads a length and that many bytes.
func readStr(br *bufio.Reader) ([]byte, error) {
	n, err := binary.ReadUvarint(br)
	if err != nil || n > 1<<30 {
		return nil, fmt.Errorf("a record's length: %v", err)
	}
	b := make([]byte, n)
	_, err = io.ReadFull(br, b)
	return b, err
}

// writeChecks adds the writing of the checks shards: a GroupByKey brings
// each shard its batches, whose records its writer merges into its
// sorted file; the hosts' broken URLs are summed and ranked.
func writeChecks(s beam.Scope, o Options, batches, broken beam.PCollection) (results, brokenTop beam.PCollection) {
	s = s.Scope("checks")
	results = beam.ParDo(s, &writeChecksFn{Output: o.Output}, beam.GroupByKey(s, batches))
	brokenTop = top.Largest(s, beam.ParDo(s, hostCount, stats.SumPerKey(s, broken)), o.Top, lessCount)
	return results, brokenTop
}

// hostCount is a host's summed broken URLs as a Count.
func hostCount(host string, n int64) Count { return Count{host, n} }

// writeChecksFn writes one checks shard to a temporary file of its own,
// merging its batches (each sorted) as they are read, and hands on its
// part of the summary.
type writeChecksFn struct {
	Output string
}

func (fn *writeChecksFn) ProcessElement(ctx context.Context, shard int, batches func(*checkBatch) bool, emit func(ShardResult)) error {
	res := ShardResult{Shard: shard, Checks: true}
	years := map[int]*YearRow{}
	var h recordHeap
	for b := (checkBatch{}); batches(&b); {
		if res.Shards != 0 && b.Shards != res.Shards {
			return fmt.Errorf("checks shard %d: batches of %d and of %d shards", shard, res.Shards, b.Shards)
		}
		res.Shards = b.Shards
		addPart(&res.Check, b.Part, years)
		if r := newBatchRecords(b, len(h)); r.next() {
			h = append(h, r)
		} else if r.err != nil {
			return r.err
		}
	}
	for _, y := range years {
		res.Check.Years = append(res.Check.Years, *y)
	}
	heap.Init(&h)
	res.Temp = joinPath(fn.Output, tempDir+"/"+checksName(shard, res.Shards)+"."+randomSuffix())
	fsys, f, w, err := openTemp(ctx, res.Temp)
	if err != nil {
		return err
	}
	defer fsys.Close()
	last := ""
	for first := true; len(h) > 0 && err == nil; first = false {
		r := h[0]
		if !first && r.url == last {
			err = fmt.Errorf("checks shard %d: %q twice", shard, r.url)
			break
		}
		last = r.url
		if _, err = w.Write(r.line); err != nil {
			break
		}
		if r.next() {
			heap.Fix(&h, 0)
		} else if err = r.err; err == nil {
			heap.Pop(&h)
		}
	}
	if err := closeTemp(ctx, fsys, f, w, res.Temp, err); err != nil {
		return fmt.Errorf("checks shard %d: %w", shard, err)
	}
	emit(res)
	return nil
}

// recordHeap orders the batches of a checks shard by their current URL.
type recordHeap []*batchRecords

func (h recordHeap) Len() int           { return len(h) }
func (h recordHeap) Less(i, j int) bool { return compareURLs(h[i].url, h[j].url) < 0 }
func (h recordHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *recordHeap) Push(x any)        { *h = append(*h, x.(*batchRecords)) }
func (h *recordHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	*h = old[:len(old)-1]
	return r
}

// addPart adds a batch's tallies to a shard's (its years to years).
func addPart(dst *CheckPart, p CheckPart, years map[int]*YearRow) {
	dst.Checked += p.Checked
	dst.Reused += p.Reused
	dst.Verdicts = append(dst.Verdicts, p.Verdicts...)
	addYears(years, p.Years)
}

// appendCheckLine appends l as its JSON line, keys in a fixed order,
// status null when the scheme gave none.
func appendCheckLine(b []byte, l CheckLine) []byte {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, l.URL)
	b = append(b, `,"scheme":`...)
	b = appendJSONString(b, l.Scheme)
	b = append(b, `,"host":`...)
	b = appendJSONString(b, l.Host)
	b = append(b, `,"verdict":`...)
	b = appendJSONString(b, l.Verdict)
	b = append(b, `,"detail":`...)
	b = appendJSONString(b, l.Detail)
	b = append(b, `,"status":`...)
	if l.Status == 0 {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(l.Status), 10)
	}
	b = append(b, `,"checked_at":`...)
	b = appendJSONString(b, l.CheckedAt)
	return append(b, "}\n"...)
}

// tagTopFn names a top list for the commit.
type tagTopFn struct {
	Kind string
}

func (fn *tagTopFn) ProcessElement(c []Count, emit func(Top)) {
	emit(Top{Kind: fn.Kind, Counts: c})
}

// addCheckPart adds a shard's part to the check section.
func (c *CheckSummary) addCheckPart(p CheckPart, years map[int]*YearRow) {
	c.Checked += p.Checked
	c.Reused += p.Reused
	for _, v := range p.Verdicts {
		c.URLs += v.N
		c.Verdicts[v.Verdict] += v.N
		if c.Schemes[v.Scheme] == nil {
			c.Schemes[v.Scheme] = map[string]int64{}
		}
		c.Schemes[v.Scheme][v.Verdict] += v.N
	}
	addYears(years, p.Years)
}

// yearRow is years' row of year, made when missing.
func yearRow(years map[int]*YearRow, year int) *YearRow {
	r := years[year]
	if r == nil {
		r = &YearRow{Year: year}
		years[year] = r
	}
	return r
}

// addYears adds rows to years, row by row of the same year.
func addYears(years map[int]*YearRow, rows []YearRow) {
	for _, y := range rows {
		r := yearRow(years, y.Year)
		r.URLs += y.URLs
		r.OK += y.OK
		r.Broken += y.Broken
	}
}

// yearTable is the link-rot table, by year.
func yearTable(years map[int]*YearRow) []YearRow {
	out := []YearRow{}
	for _, y := range years {
		if y.OK+y.Broken > 0 {
			y.Share = math.Round(float64(y.Broken)/float64(y.OK+y.Broken)*1e4) / 1e4
		}
		out = append(out, *y)
	}
	slices.SortFunc(out, func(a, b YearRow) int { return cmp.Compare(a.Year, b.Year) })
	return out
}
