package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
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
	register.Function2x0(keyByShard)
	register.Emitter2[int, CheckLine]()
	register.DoFn5x1[context.Context, int, func(*CheckLine) bool, func(ShardResult), func(string, int64), error](&writeChecksFn{})
	register.Iter1[CheckLine]()
	register.DoFn2x0[[]Count, func(Top)](&tagTopFn{})
	register.Emitter1[Top]()
	register.Function2x1(hostCount)
}

// checksName is the file name of a checks shard.
func checksName(shard, shards int) string {
	return fmt.Sprintf("checks-%05d-of-%05d.jsonl", shard, shards)
}

// writeChecks adds the writing of the checks shards: each verdict goes to
// the shard of its URL (the shard its line has in urls-*.jsonl), each
// shard is sorted and written to a temporary file, and the hosts with
// most broken URLs are ranked. It returns the shards' results and the
// ranking.
func writeChecks(s beam.Scope, o Options, lines beam.PCollection) (results, brokenTop beam.PCollection) {
	s = s.Scope("checks")
	keyed := beam.ParDo(s, keyByShard, lines)
	results, broken := beam.ParDo2(s, &writeChecksFn{Output: o.Output}, beam.GroupByKey(s, keyed))
	brokenTop = top.Largest(s, beam.ParDo(s, hostCount, stats.SumPerKey(s, broken)), o.Top, lessCount)
	return results, brokenTop
}

// hostCount is a host's summed broken URLs as a Count.
func hostCount(host string, n int64) Count { return Count{host, n} }

// keyByShard hands each verdict to its URL's shard.
func keyByShard(l CheckLine, emit func(int, CheckLine)) {
	emit(shardOf(l.URL, l.Shards), l)
}

// writeChecksFn writes one checks shard, sorted as urls-*.jsonl is, to a
// temporary file of its own, and hands on its part of the summary and
// each host's broken URLs.
type writeChecksFn struct {
	Output string
}

func (fn *writeChecksFn) ProcessElement(ctx context.Context, shard int, lines func(*CheckLine) bool,
	emit func(ShardResult), emitBroken func(string, int64)) error {
	var all []CheckLine
	for l := (CheckLine{}); lines(&l); {
		all = append(all, l)
	}
	if len(all) == 0 {
		return nil // not reached: a key comes with its values
	}
	shards := all[0].Shards
	slices.SortFunc(all, func(a, b CheckLine) int { return compareURLs(a.URL, b.URL) })
	res := ShardResult{Shard: shard, Shards: shards, Checks: true}
	res.Temp = joinPath(fn.Output, tempDir+"/"+checksName(shard, shards)+"."+randomSuffix())
	fsys, err := filesystem.New(ctx, res.Temp)
	if err != nil {
		return err
	}
	defer fsys.Close()
	f, err := fsys.OpenWrite(ctx, res.Temp)
	if err != nil {
		return fmt.Errorf("writing %s: %w", res.Temp, err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	verdicts := map[[2]string]int64{}
	years := map[int]*YearRow{}
	broken := map[string]int64{}
	var line []byte
	for i, l := range all {
		if l.Shards != shards || i > 0 && all[i-1].URL == l.URL {
			err = fmt.Errorf("checks shard %d: %q twice, or of two shard counts", shard, l.URL)
			break
		}
		if l.Reused {
			res.Check.Reused++
		} else {
			res.Check.Checked++
		}
		verdicts[[2]string{l.Scheme, l.Verdict}]++
		if l.Verdict == "broken" && l.Host != "" {
			broken[l.Host]++
		}
		if l.Year > 0 {
			y := years[l.Year]
			if y == nil {
				y = &YearRow{Year: l.Year}
				years[l.Year] = y
			}
			y.URLs++
			switch l.Verdict {
			case "ok":
				y.OK++
			case "broken":
				y.Broken++
			}
		}
		line = appendCheckLine(line[:0], l)
		if _, err = w.Write(line); err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if rm, ok := fsys.(filesystem.Remover); ok {
			rm.Remove(ctx, res.Temp)
		}
		return fmt.Errorf("checks shard %d: %w", shard, err)
	}
	for k, n := range verdicts {
		res.Check.Verdicts = append(res.Check.Verdicts, VerdictCount{k[0], k[1], n})
	}
	for _, y := range years {
		res.Check.Years = append(res.Check.Years, *y)
	}
	for h, n := range broken {
		emitBroken(h, n)
	}
	emit(res)
	return nil
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
	for _, y := range p.Years {
		r := years[y.Year]
		if r == nil {
			r = &YearRow{Year: y.Year}
			years[y.Year] = r
		}
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
