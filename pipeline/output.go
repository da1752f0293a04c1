package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"path"
	"slices"
	"strconv"
	"strings"
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

// tally turns one distinct URL into what the summary adds up: the totals,
// its scheme's counts, its host (valid URLs with a host) and its first
// error rule (invalid URLs), each weighed by its occurrences.
func tally(_ string, u URLStats, totals func(Totals), schemes func(string, SchemeStats), hosts, rules func(string, int64)) {
	t := Totals{URLs: u.Count, Distinct: 1}
	sc := SchemeStats{URLs: u.Count, Distinct: 1}
	if u.Valid {
		t.Valid, t.DistinctValid, sc.Valid = u.Count, 1, u.Count
		if u.Host != "" {
			hosts(u.Host, u.Count)
		}
	} else {
		t.Invalid, t.DistinctInvalid, sc.Invalid = u.Count, 1, u.Count
		rules(u.Rule, u.Count)
	}
	totals(t)
	schemes(u.Scheme, sc)
}

func init() {
	register.Function6x0(tally)
	register.Emitter1[Totals]()
	register.Emitter2[string, SchemeStats]()
	register.Emitter2[string, int64]()
	register.Function2x1(Totals.add)
	register.Function2x1(SchemeStats.add)
	register.DoFn2x0[[]byte, func(int, int)](&shardIDsFn{})
	register.Emitter2[int, int]()
	register.DoFn3x1[string, URLStats, func(int, string), error](&formatFn{})
	register.Emitter2[int, string]()
	register.DoFn4x1[context.Context, int, func(*int) bool, func(*string) bool, error](&writeShardFn{})
	register.Iter1[int]()
	register.Iter1[string]()
	register.DoFn8x1[context.Context, []byte, func(*ScanStats) bool, func(*Totals) bool,
		func(*string, *SchemeStats) bool, func(*[]Count) bool, func(*[]Count) bool, func(*BadInput) bool, error](&summaryFn{})
	register.Iter1[ScanStats]()
	register.Iter1[Totals]()
	register.Iter2[string, SchemeStats]()
	register.Iter1[[]Count]()
	register.Iter1[BadInput]()
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

// writeShards writes one urls-SSSSS-of-NNNNN.jsonl per shard, each URL in
// the shard its hash picks, sorted; every shard is written, even empty.
func writeShards(s beam.Scope, o Options, imp, merged beam.PCollection) {
	ids := beam.ParDo(s, &shardIDsFn{Shards: o.Shards}, imp)
	lines := beam.ParDo(s, &formatFn{Shards: o.Shards}, merged)
	grouped := beam.CoGroupByKey(s, ids, lines)
	beam.ParDo0(s, &writeShardFn{Output: o.Output, Shards: o.Shards}, grouped)
}

// shardIDsFn names every shard, so that an empty one is written too.
type shardIDsFn struct{ Shards int }

func (fn *shardIDsFn) ProcessElement(_ []byte, emit func(int, int)) {
	for i := range fn.Shards {
		emit(i, i)
	}
}

type formatFn struct{ Shards int }

func (fn *formatFn) ProcessElement(url string, u URLStats, emit func(int, string)) error {
	l := urlLine{URL: url, Valid: u.Valid, Scheme: u.Scheme, Count: u.Count, Samples: u.Samples}
	if l.Samples == nil {
		l.Samples = []Place{}
	}
	if !u.Valid {
		l.Rule = &u.Rule
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return err
	}
	h := fnv.New32a()
	h.Write([]byte(url))
	emit(int(h.Sum32()%uint32(fn.Shards)), buf.String())
	return nil
}

type writeShardFn struct {
	Output string
	Shards int
}

func (fn *writeShardFn) ProcessElement(ctx context.Context, shard int, _ func(*int) bool, lines func(*string) bool) error {
	var all []string
	var l string
	for lines(&l) {
		all = append(all, l)
	}
	slices.Sort(all)
	var buf bytes.Buffer
	for _, l := range all {
		buf.WriteString(l)
	}
	name := fmt.Sprintf("urls-%05d-of-%05d.jsonl", shard, fn.Shards)
	return writeFile(ctx, joinPath(fn.Output, name), buf.Bytes())
}

// summaryInputs are the collections the summary is made of.
type summaryInputs struct {
	Scan, Totals, Schemes, Hosts, Rules, Bad beam.PCollection
}

func writeSummary(s beam.Scope, o Options, imp beam.PCollection, in summaryInputs) {
	beam.ParDo0(s, &summaryFn{Input: o.Input, Output: o.Output}, imp,
		beam.SideInput{Input: in.Scan}, beam.SideInput{Input: in.Totals},
		beam.SideInput{Input: in.Schemes}, beam.SideInput{Input: in.Hosts},
		beam.SideInput{Input: in.Rules}, beam.SideInput{Input: in.Bad})
}

// Summary is summary.json.
type Summary struct {
	Input          string                 `json:"input"`
	Files          int64                  `json:"files"`
	FilesBad       int64                  `json:"files_bad"`
	Bytes          int64                  `json:"bytes"` // as stored (compressed or not)
	Documents      int64                  `json:"documents"`
	Records        int64                  `json:"warc_records"`
	RecordsSkipped int64                  `json:"warc_records_skipped"` // not a document, or binary
	Totals         Totals                 `json:"totals"`
	Schemes        map[string]SchemeStats `json:"schemes"`
	TopHosts       []Count                `json:"top_hosts"`
	TopErrorRules  []Count                `json:"top_error_rules"`
	BadInputs      []BadInput             `json:"bad_inputs"`
}

type summaryFn struct {
	Input, Output string
}

func (fn *summaryFn) ProcessElement(ctx context.Context, _ []byte, scans func(*ScanStats) bool, totals func(*Totals) bool,
	schemes func(*string, *SchemeStats) bool, hosts, rules func(*[]Count) bool, bad func(*BadInput) bool) error {
	sum := Summary{Input: fn.Input, Schemes: map[string]SchemeStats{}, TopHosts: []Count{}, TopErrorRules: []Count{}, BadInputs: []BadInput{}}
	var st ScanStats
	for v := (ScanStats{}); scans(&v); {
		st = st.add(v)
	}
	sum.Files, sum.FilesBad, sum.Bytes = st.Files, st.FilesBad, st.Bytes
	sum.Documents, sum.Records, sum.RecordsSkipped = st.Documents, st.Records, st.RecordsSkipped
	for v := (Totals{}); totals(&v); {
		sum.Totals = sum.Totals.add(v)
	}
	var name string
	for v := (SchemeStats{}); schemes(&name, &v); {
		sum.Schemes[name] = sum.Schemes[name].add(v)
	}
	for v := []Count(nil); hosts(&v); {
		sum.TopHosts = append(sum.TopHosts, v...)
	}
	for v := []Count(nil); rules(&v); {
		sum.TopErrorRules = append(sum.TopErrorRules, v...)
	}
	for v := (BadInput{}); bad(&v); {
		sum.BadInputs = append(sum.BadInputs, v)
	}
	slices.SortFunc(sum.BadInputs, func(a, b BadInput) int { return strings.Compare(a.File, b.File) })
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
