package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// Totals counts URLs over the whole input.
type Totals struct {
	URLs            int64 `json:"urls"` // occurrences
	Valid           int64 `json:"valid"`
	Invalid         int64 `json:"invalid"`
	Distinct        int64 `json:"distinct"`
	DistinctValid   int64 `json:"distinct_valid"` // distinct normal forms
	DistinctInvalid int64 `json:"distinct_invalid"`
}

func (a Totals) add(b Totals) Totals {
	return Totals{a.URLs + b.URLs, a.Valid + b.Valid, a.Invalid + b.Invalid,
		a.Distinct + b.Distinct, a.DistinctValid + b.DistinctValid, a.DistinctInvalid + b.DistinctInvalid}
}

// SchemeStats counts the URLs of one scheme.
type SchemeStats struct {
	URLs     int64 `json:"urls"`
	Valid    int64 `json:"valid"`
	Invalid  int64 `json:"invalid"`
	Distinct int64 `json:"distinct"`
}

func (a SchemeStats) add(b SchemeStats) SchemeStats {
	return SchemeStats{a.URLs + b.URLs, a.Valid + b.Valid, a.Invalid + b.Invalid, a.Distinct + b.Distinct}
}

// tally is what one distinct URL adds to the summary: the totals and its
// scheme's counts, each weighed by its occurrences.
func tally(u *URLStats) (Totals, SchemeStats) {
	t := Totals{URLs: u.Count, Distinct: 1}
	sc := SchemeStats{URLs: u.Count, Distinct: 1}
	if u.Valid {
		t.Valid, t.DistinctValid, sc.Valid = u.Count, 1, u.Count
	} else {
		t.Invalid, t.DistinctInvalid, sc.Invalid = u.Count, 1, u.Count
	}
	return t, sc
}

// SchemeCount is the counts of one scheme.
type SchemeCount struct {
	Scheme string
	Stats  SchemeStats
}

// ShardPartial is what one shard adds to the summary. Its hosts are the
// top of the hosts of its host shard: all the occurrences of a host are
// counted in the one shard its hash picks, so the top hosts of the whole
// input are the top of the shards' tops.
type ShardPartial struct {
	Totals  Totals
	Schemes []SchemeCount
	Rules   []Count // the first error rules of the shard's invalid URLs, by occurrences
	Hosts   []Count // at most the summary's top count
}

func init() {
	register.DoFn4x1[context.Context, int, func(*[]byte) bool, func(ShardPartial), error](&writeShardFn{})
	register.Iter1[[]byte]()
	register.Emitter1[ShardPartial]()
	register.DoFn6x1[context.Context, []byte, func(*ScanStats) bool, func(*ShardPartial) bool,
		func(*BadInput) bool, func(*MalformedRecord) bool, error](&summaryFn{})
	register.Iter1[ScanStats]()
	register.Iter1[ShardPartial]()
	register.Iter1[BadInput]()
	register.Iter1[MalformedRecord]()
}

// urlLine is one line of urls-*.jsonl. Its keys are fixed: scripts rely on
// them.
type urlLine struct {
	URL     string  `json:"url"` // the normal form when valid, as written when not
	Valid   bool    `json:"valid"`
	Scheme  string  `json:"scheme"`
	Count   int64   `json:"count"`
	Samples []Place `json:"samples"`
	Rule    *string `json:"rule"` // the §5 rule of the first error; null when valid
}

// writeShardFn merges the batches of one shard into its distinct URLs,
// writes them to urls-SSSSS-of-NNNNN.jsonl, one line each, sorted, and
// hands on the shard's part of the summary.
//
// A runner may give all the shards to one bundle (Prism does), and calls
// ProcessElement once at a time: so ProcessElement only reads the shard's
// batches (its iterator is valid only there) and hands the merge and the
// write to a goroutine, at most scanWorkers at once; FinishBundle waits
// for them and emits the partials, in shard order.
type writeShardFn struct {
	Output       string
	Samples, Top int

	slots chan struct{} // one per shard being written
	wg    sync.WaitGroup
	mu    sync.Mutex
	done  []shardDone // the shards of the bundle written, or failed
}

// shardDone is what the writing of one shard came to.
type shardDone struct {
	shard int
	p     ShardPartial
	err   error
}

func (fn *writeShardFn) ProcessElement(ctx context.Context, shard int, batches func(*[]byte) bool, _ func(ShardPartial)) error {
	var all [][]byte
	var data []byte
	for batches(&data) {
		// A copy: the bytes are read after the iterator has moved on.
		all = append(all, bytes.Clone(data))
	}
	if fn.slots == nil {
		fn.slots = make(chan struct{}, scanWorkers())
	}
	fn.slots <- struct{}{}
	fn.wg.Add(1)
	go func() {
		d := shardDone{shard: shard}
		defer func() {
			// A panic here would end the process, not the bundle: it
			// fails the bundle like a panic in ProcessElement.
			if p := recover(); p != nil {
				d.err = fmt.Errorf("shard %d: panic: %v", shard, p)
			}
			fn.mu.Lock()
			fn.done = append(fn.done, d)
			fn.mu.Unlock()
			<-fn.slots
			fn.wg.Done()
		}()
		d.p, d.err = fn.write(ctx, shard, all)
	}()
	return nil
}

// FinishBundle waits for the shards of the bundle and emits their
// partials, or fails with the error of the first shard that failed.
func (fn *writeShardFn) FinishBundle(emit func(ShardPartial)) error {
	fn.wg.Wait()
	done := fn.done
	fn.done = nil
	slices.SortFunc(done, func(a, b shardDone) int { return cmp.Compare(a.shard, b.shard) })
	for _, d := range done {
		if d.err != nil {
			return d.err
		}
	}
	for _, d := range done {
		emit(d.p)
	}
	return nil
}

// Teardown waits for the shards of a bundle that failed: no file is
// written after the DoFn is gone.
func (fn *writeShardFn) Teardown() {
	fn.wg.Wait()
}

// write merges the batches of a shard, writes its file and returns its
// partial.
func (fn *writeShardFn) write(ctx context.Context, shard int, batches [][]byte) (ShardPartial, error) {
	var p ShardPartial
	c := newCensus(fn.Samples)
	hosts := map[string]int64{}
	shards := 0
	for _, data := range batches {
		b, err := readBatch(data)
		if err != nil {
			return p, fmt.Errorf("shard %d: %w", shard, err)
		}
		if shards != 0 && b.Shards != shards {
			return p, fmt.Errorf("shard %d: %w (%d, %d)", shard, errShards, shards, b.Shards)
		}
		shards = b.Shards
		for _, e := range b.URLs {
			c.put(e.URL, e.Stats)
		}
		for _, h := range b.Hosts {
			hosts[h.Name] += h.Count
		}
	}
	if shard < 0 || shard >= shards {
		return p, fmt.Errorf("shard %d of %d", shard, shards)
	}

	schemes := map[string]SchemeStats{}
	rules := map[string]int64{}
	// all holds the lines, one after the other: sized once, from the
	// lengths of their strings and a bound on the rest of a line.
	size := 0
	for url, u := range c.urls {
		size += len(url) + len(u.Scheme) + len(u.Rule) + 100
		for _, s := range u.Samples {
			size += len(s.Document) + 60
		}
	}
	all := make([]byte, 0, size)
	ends := make([]int, 0, len(c.urls))
	for url, u := range c.urls {
		t, sc := tally(u)
		p.Totals = p.Totals.add(t)
		schemes[u.Scheme] = schemes[u.Scheme].add(sc)
		l := urlLine{URL: url, Valid: u.Valid, Scheme: u.Scheme, Count: u.Count, Samples: u.Samples}
		if !u.Valid {
			rules[u.Rule] += u.Count
			l.Rule = &u.Rule
		}
		all = appendURLLine(all, l)
		ends = append(ends, len(all))
	}
	lines := make([][]byte, len(ends))
	start := 0
	for i, end := range ends {
		lines[i], start = all[start:end:end], end
	}
	slices.SortFunc(lines, bytes.Compare)
	out := make([]byte, 0, len(all))
	for _, l := range lines {
		out = append(out, l...)
	}
	name := fmt.Sprintf("urls-%05d-of-%05d.jsonl", shard, shards)
	if err := writeFile(ctx, joinPath(fn.Output, name), out); err != nil {
		return p, err
	}

	for name, st := range schemes {
		p.Schemes = append(p.Schemes, SchemeCount{name, st})
	}
	for name, n := range rules {
		p.Rules = append(p.Rules, Count{name, n})
	}
	p.Hosts = topK(counts(hosts), fn.Top)
	return p, nil
}

// appendURLLine appends l and a newline to b, byte for byte as
// encoding/json's Encoder writes it with HTML escaping off (nil samples are
// []), without its reflection.
func appendURLLine(b []byte, l urlLine) []byte {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, l.URL)
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, l.Valid)
	b = append(b, `,"scheme":`...)
	b = appendJSONString(b, l.Scheme)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, l.Count, 10)
	b = append(b, `,"samples":[`...)
	for i, s := range l.Samples {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"document":`...)
		b = appendJSONString(b, s.Document)
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(s.Line), 10)
		b = append(b, `,"column":`...)
		b = strconv.AppendInt(b, int64(s.Column), 10)
		b = append(b, '}')
	}
	b = append(b, `],"rule":`...)
	if l.Rule == nil {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, *l.Rule)
	}
	return append(b, "}\n"...)
}

// appendJSONString appends s as a JSON string. encoding/json writes
// printable ASCII other than '"' and '\' as it is; any other string is
// left to it (control bytes, invalid UTF-8, U+2028 and U+2029 are escaped).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func counts(m map[string]int64) []Count {
	out := make([]Count, 0, len(m))
	for name, n := range m {
		out = append(out, Count{name, n})
	}
	return out
}

// topK returns the k largest counts by lessCount, largest first. It keeps
// k at a time, never sorting all of them.
func topK(all []Count, k int) []Count {
	best := make([]Count, 0, max(k, 0)+1)
	if k <= 0 {
		return best
	}
	for _, c := range all {
		if len(best) == k && !lessCount(best[k-1], c) {
			continue
		}
		// best is sorted largest first: find the first that c beats.
		i, _ := slices.BinarySearchFunc(best, c, func(e, c Count) int {
			if lessCount(c, e) {
				return -1
			}
			return 1
		})
		best = slices.Insert(best, i, c)
		if len(best) > k {
			best = best[:k]
		}
	}
	return best
}

// summaryInputs are the collections the summary is made of.
type summaryInputs struct {
	Scan, Partials, Bad, Malformed beam.PCollection
}

func writeSummary(s beam.Scope, o Options, imp beam.PCollection, in summaryInputs) {
	beam.ParDo0(s, &summaryFn{Input: o.Input, Output: o.Output, Top: o.Top}, imp,
		beam.SideInput{Input: in.Scan}, beam.SideInput{Input: in.Partials},
		beam.SideInput{Input: in.Bad}, beam.SideInput{Input: in.Malformed})
}

// Summary is summary.json.
type Summary struct {
	Input            string                 `json:"input"`
	Files            int64                  `json:"files"`
	FilesBad         int64                  `json:"files_bad"`
	Bytes            int64                  `json:"bytes"` // as stored (compressed or not)
	Documents        int64                  `json:"documents"`
	Records          int64                  `json:"warc_records"`
	RecordsSkipped   int64                  `json:"warc_records_skipped"`   // not a document, or binary
	RecordsMalformed int64                  `json:"warc_records_malformed"` // skipped to the next record
	Totals           Totals                 `json:"totals"`
	Schemes          map[string]SchemeStats `json:"schemes"`
	TopHosts         []Count                `json:"top_hosts"`
	TopErrorRules    []Count                `json:"top_error_rules"`
	BadInputs        []BadInput             `json:"bad_inputs"`
	// MalformedRecords lists each malformed WARC record (at most
	// maxMalformedListed per file; warc_records_malformed counts them all).
	MalformedRecords []MalformedRecord `json:"malformed_warc_records"`
}

type summaryFn struct {
	Input, Output string
	Top           int
}

func (fn *summaryFn) ProcessElement(ctx context.Context, _ []byte, scans func(*ScanStats) bool, partials func(*ShardPartial) bool,
	bad func(*BadInput) bool, malformed func(*MalformedRecord) bool) error {
	sum := Summary{Input: fn.Input, Schemes: map[string]SchemeStats{}, BadInputs: []BadInput{}, MalformedRecords: []MalformedRecord{}}
	var st ScanStats
	for v := (ScanStats{}); scans(&v); {
		st = st.add(v)
	}
	sum.Files, sum.FilesBad, sum.Bytes = st.Files, st.FilesBad, st.Bytes
	sum.Documents, sum.Records, sum.RecordsSkipped, sum.RecordsMalformed = st.Documents, st.Records, st.RecordsSkipped, st.RecordsMalformed
	rules := map[string]int64{}
	var hosts []Count
	for v := (ShardPartial{}); partials(&v); {
		sum.Totals = sum.Totals.add(v.Totals)
		for _, sc := range v.Schemes {
			sum.Schemes[sc.Scheme] = sum.Schemes[sc.Scheme].add(sc.Stats)
		}
		for _, r := range v.Rules {
			rules[r.Name] += r.Count
		}
		hosts = append(hosts, v.Hosts...)
	}
	sum.TopHosts = topK(hosts, fn.Top)
	sum.TopErrorRules = topK(counts(rules), fn.Top)
	for v := (BadInput{}); bad(&v); {
		sum.BadInputs = append(sum.BadInputs, v)
	}
	slices.SortFunc(sum.BadInputs, func(a, b BadInput) int { return strings.Compare(a.File, b.File) })
	for v := (MalformedRecord{}); malformed(&v); {
		sum.MalformedRecords = append(sum.MalformedRecords, v)
	}
	slices.SortFunc(sum.MalformedRecords, func(a, b MalformedRecord) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmp.Compare(a.Offset, b.Offset)
	})
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		return err
	}
	return writeFile(ctx, joinPath(fn.Output, "summary.json"), buf.Bytes())
}

// joinPath joins a folder on a Beam file system and a file name.
func joinPath(dir, name string) string {
	if indexScheme(dir) > 0 {
		return strings.TrimSuffix(dir, "/") + "/" + name
	}
	return path.Join(dir, name)
}

// writeFile writes a whole file. Where the file system can rename (local
// files), it writes a temporary file beside it and renames it, so a failed
// run never leaves a partial file that looks complete; object stores (gs://,
// s3://) publish an object only when it is closed.
func writeFile(ctx context.Context, name string, data []byte) error {
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fsys.Close()
	rn, canRename := fsys.(filesystem.Renamer)
	target := name
	if canRename {
		dir, base := path.Split(name)
		target = dir + "." + base + ".tmp-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	}
	if err := filesystem.Write(ctx, fsys, target, data); err != nil {
		if rm, ok := fsys.(filesystem.Remover); ok && canRename {
			rm.Remove(ctx, target)
		}
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if canRename {
		if err := rn.Rename(ctx, target, name); err != nil {
			return fmt.Errorf("writing %s: %w", name, err)
		}
	}
	return nil
}
