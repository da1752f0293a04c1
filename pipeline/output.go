package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// ShardResult is what the writer of one shard hands the commit: where it
// wrote the shard, and the shard's part of the summary.
type ShardResult struct {
	Shard, Shards int
	Temp          string // the shard's file, until the commit renames it
	Totals        Totals
	Schemes       []SchemeCount
	// Checks marks a checks-*.jsonl shard, and Check is its part of the
	// summary.
	Checks bool
	Check  CheckPart
}

func init() {
	register.DoFn6x1[context.Context, int, func(*[]byte) bool, func(ShardResult), func(Count), func(string, int64), error](&writeShardFn{})
	register.Iter1[[]byte]()
	register.Iter1[int64]()
	register.Emitter1[ShardResult]()
	register.Emitter1[Count]()
	register.Emitter2[string, int64]()
	register.DoFn9x1[context.Context, int, func(*int64) bool, func(*ShardResult) bool, func(*ScanStats) bool, func(*Top) bool,
		func(*BadInput) bool, func(*MalformedRecord) bool, func(*int64) bool, error](&commitFn{})
	register.Iter1[ShardResult]()
	register.Iter1[ScanStats]()
	register.Iter1[Top]()
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

// shardName is the file name of a shard.
func shardName(shard, shards int) string {
	return fmt.Sprintf("urls-%05d-of-%05d.jsonl", shard, shards)
}

// tempDir is the folder of the output where shards are written until the
// commit renames them into place.
const tempDir = ".census-tmp"

// writeShardFn merges the batches of the buckets of one shard straight
// into its lines, sorted, and streams them to a temporary file of its own;
// it hands on the shard's totals, the top of the hosts of its buckets (all
// of a host's occurrences are in one bucket, so the top of the shards'
// tops is exact) and the occurrences of each error rule.
type writeShardFn struct {
	Output       string
	Samples, Top int
}

func (fn *writeShardFn) ProcessElement(ctx context.Context, shard int, parts func(*[]byte) bool,
	emit func(ShardResult), emitHost func(Count), emitRule func(string, int64)) error {
	shards := 0
	var all [][]byte
	var data []byte
	for parts(&data) {
		n, packed, err := readPart(data)
		if err == nil && shards != 0 && n != shards {
			err = fmt.Errorf("parts of %d and of %d shards", shards, n)
		}
		var raw []byte
		if err == nil {
			raw, err = unpackBatch(packed)
		}
		if err != nil {
			return fmt.Errorf("shard %d: %w", shard, err)
		}
		shards = n
		all = append(all, raw)
	}
	if shard < 0 || shard >= shards {
		return fmt.Errorf("shard %d of %d", shard, shards)
	}
	res := ShardResult{Shard: shard, Shards: shards}
	res.Temp = joinPath(fn.Output, tempDir+"/"+shardName(shard, shards)+"."+randomSuffix())
	fsys, f, w, err := openTemp(ctx, res.Temp)
	if err != nil {
		return err
	}
	defer fsys.Close()
	schemes := map[string]SchemeStats{}
	rules := map[string]int64{}
	hosts := hostTotals{hosts: map[string]int64{}}
	var line []byte
	err = eachURL(all, fn.Samples, func(url string, u *URLStats) error {
		t, sc := tally(u)
		res.Totals = res.Totals.add(t)
		schemes[u.Scheme] = schemes[u.Scheme].add(sc)
		l := urlLine{URL: url, Valid: u.Valid, Scheme: u.Scheme, Count: u.Count, Samples: u.Samples}
		if !u.Valid {
			rules[u.Rule] += u.Count
			l.Rule = &u.Rule
		}
		line = appendURLLine(line[:0], l)
		_, err := w.Write(line)
		return err
	}, hosts.add)
	if err := closeTemp(ctx, fsys, f, w, res.Temp, err); err != nil {
		return fmt.Errorf("shard %d: %w", shard, err)
	}
	if hosts.buckets%shards != 0 {
		return fmt.Errorf("shard %d: %d buckets do not divide into %d shards", shard, hosts.buckets, shards)
	}
	for name, st := range schemes {
		res.Schemes = append(res.Schemes, SchemeCount{name, st})
	}
	for name, n := range rules {
		emitRule(name, n)
	}
	for _, h := range topK(counts(hosts.hosts), fn.Top) {
		emitHost(h)
	}
	emit(res)
	return nil
}

// openTemp opens a shard's temporary file for writing, buffered; the
// caller closes the file system, and the file through closeTemp.
func openTemp(ctx context.Context, temp string) (filesystem.Interface, io.WriteCloser, *bufio.Writer, error) {
	fsys, err := filesystem.New(ctx, temp)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := fsys.OpenWrite(ctx, temp)
	if err != nil {
		fsys.Close()
		return nil, nil, nil, fmt.Errorf("writing %s: %w", temp, err)
	}
	return fsys, f, bufio.NewWriterSize(f, 1<<20), nil
}

// closeTemp ends the writing of a shard's temporary file: flushed and
// closed after err (the writing's own error, or nil); a file that failed
// is removed, so that nothing partial is left to look whole.
func closeTemp(ctx context.Context, fsys filesystem.Interface, f io.WriteCloser, w *bufio.Writer, temp string, err error) error {
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if rm, ok := fsys.(filesystem.Remover); ok {
			rm.Remove(ctx, temp)
		}
	}
	return err
}

// randomSuffix tells apart the files of two attempts at one shard.
func randomSuffix() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:]) + ".tmp"
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
// printable ASCII other than '"' and '\', and valid UTF-8 other than
// U+2028 and U+2029, as it is; any other string is left to it (control
// bytes, invalid UTF-8, U+2028 and U+2029 are escaped).
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			// Valid UTF-8 is written as it is, but for U+2028 and U+2029.
			if r, size := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError && r != '\u2028' && r != '\u2029' {
				i += size - 1
				continue
			}
		}
		if !plainOctet(s[i]) {
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

// commitInputs are the collections the commit is made of.
type commitInputs struct {
	Results, Scan, Tops, Bad, Malformed, Distinct, Size beam.PCollection
}

// commit adds the job's last step: everything before it brought together
// under one key by a CoGroupByKey, so it runs once, after every shard is
// written. (Not as side inputs of one element: Prism re-examines a stage
// that reads side inputs without pause while it waits; see appendPart.)
// The match fails on a glob that matches nothing, and what it matches is
// a file (the size of the input has its element) or a bad input, so the
// key is there however empty the rest.
func commit(s beam.Scope, o Options, in commitInputs) {
	grouped := beam.CoGroupByKey(s, beam.AddFixedKey(s, in.Size), beam.AddFixedKey(s, in.Results), beam.AddFixedKey(s, in.Scan),
		beam.AddFixedKey(s, in.Tops), beam.AddFixedKey(s, in.Bad),
		beam.AddFixedKey(s, in.Malformed), beam.AddFixedKey(s, in.Distinct))
	beam.ParDo0(s, &commitFn{Input: o.Input, Output: o.Output, Shards: o.Shards, Top: o.Top, Check: o.Check != nil}, grouped)
}

// Summary is summary.json.
type Summary struct {
	Input            string                 `json:"input"`
	Shards           int                    `json:"shards"` // urls-*-of-SHARDS.jsonl
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
	// Check is there when the run checked its URLs (--check).
	Check *CheckSummary `json:"check,omitempty"`
}

// commitFn publishes the output of a job: it renames every shard into
// place (and writes the shards that got no URL, empty), removes the shards
// of earlier runs with another shard count and the temporary files that
// failed attempts left, and writes summary.json last, so that a
// summary.json says that the urls-*.jsonl beside it are whole and are all
// of one run. It removes summary.json first: a commit that fails midway
// leaves no summary.
type commitFn struct {
	Input, Output string
	Shards, Top   int
	Check         bool
}

func (fn *commitFn) ProcessElement(ctx context.Context, _ int, size func(*int64) bool, results func(*ShardResult) bool, scans func(*ScanStats) bool,
	tops func(*Top) bool, bad func(*BadInput) bool, malformed func(*MalformedRecord) bool, distinct func(*int64) bool) error {
	shards := shardCount(fn.Shards, sideSum(distinct), sideSum(size))
	sum := Summary{Input: fn.Input, Shards: shards, Schemes: map[string]SchemeStats{},
		TopHosts: []Count{}, TopErrorRules: []Count{}, BadInputs: []BadInput{}, MalformedRecords: []MalformedRecord{}}
	var st ScanStats
	for v := (ScanStats{}); scans(&v); {
		st = addScanStats(st, v)
	}
	sum.Files, sum.Bytes = st.Files, st.Bytes
	sum.Documents, sum.Records, sum.RecordsSkipped, sum.RecordsMalformed = st.Documents, st.Records, st.RecordsSkipped, st.RecordsMalformed
	temps := make([]string, shards)
	var checkTemps []string
	years := map[int]*YearRow{}
	if fn.Check {
		checkTemps = make([]string, shards)
		sum.Check = &CheckSummary{Verdicts: map[string]int64{}, Schemes: map[string]map[string]int64{}, TopBrokenHosts: []Count{}}
	}
	for v := (ShardResult{}); results(&v); {
		into := temps
		if v.Checks {
			into = checkTemps
		}
		if v.Shards != shards || v.Shard < 0 || v.Shard >= len(into) || into[v.Shard] != "" {
			return fmt.Errorf("commit: shard %d of %d, in a run of %d shards (or twice)", v.Shard, v.Shards, shards)
		}
		into[v.Shard] = v.Temp
		if v.Checks {
			sum.Check.addCheckPart(v.Check, years)
			continue
		}
		sum.Totals = sum.Totals.add(v.Totals)
		for _, sc := range v.Schemes {
			sum.Schemes[sc.Scheme] = sum.Schemes[sc.Scheme].add(sc.Stats)
		}
	}
	for v := (Top{}); tops(&v); {
		switch v.Kind {
		case "hosts":
			sum.TopHosts = v.Counts
		case "rules":
			sum.TopErrorRules = v.Counts
		case "broken_hosts":
			if sum.Check != nil {
				sum.Check.TopBrokenHosts = v.Counts
			}
		}
	}
	if sum.Check != nil {
		sum.Check.ByYear = yearTable(years)
	}
	sum.BadInputs = badInputs(bad)
	sum.FilesBad = int64(len(sum.BadInputs))
	sum.MalformedRecords = malformedRecords(malformed)

	summary := joinPath(fn.Output, "summary.json")
	fsys, err := filesystem.New(ctx, summary)
	if err != nil {
		return err
	}
	defer fsys.Close()
	if err := removeIfThere(ctx, fsys, summary); err != nil {
		return err
	}
	keep := map[string]bool{}
	if err := publish(ctx, fsys, fn.Output, temps, shardName, keep); err != nil {
		return err
	}
	if err := publish(ctx, fsys, fn.Output, checkTemps, checksName, keep); err != nil {
		return err
	}
	// The shards of earlier runs, and what failed attempts left.
	var stale []string
	for _, glob := range []string{"urls-*-of-*.jsonl", "checks-*-of-*.jsonl", tempDir + "/urls-*.tmp", tempDir + "/checks-*.tmp"} {
		names, err := fsys.List(ctx, joinPath(fn.Output, glob))
		if err != nil {
			return fmt.Errorf("commit: listing %s: %w", fn.Output, err)
		}
		stale = append(stale, names...)
	}
	for _, name := range stale {
		if !keep[name] && shardFile.MatchString(path.Base(name)) {
			if err := removeIfThere(ctx, fsys, name); err != nil {
				return err
			}
		}
	}
	if rm, ok := fsys.(filesystem.Remover); ok && indexScheme(fn.Output) < 0 {
		rm.Remove(ctx, joinPath(fn.Output, tempDir)) // the folder, empty now; object stores have none
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(sum); err != nil {
		return err
	}
	return writeFile(ctx, summary, buf.Bytes())
}

// publish renames each shard's temporary file into place under its name,
// and writes the shards that got nothing, empty; keep gets their names.
func publish(ctx context.Context, fsys filesystem.Interface, output string, temps []string, name func(shard, shards int) string, keep map[string]bool) error {
	shards := len(temps)
	for shard, temp := range temps {
		name := joinPath(output, name(shard, shards))
		keep[name] = true
		if temp == "" {
			// Empty, so whole once it is there: no temporary file.
			f, err := fsys.OpenWrite(ctx, name)
			if err == nil {
				err = f.Close()
			}
			if err != nil {
				return fmt.Errorf("commit: writing %s: %w", name, err)
			}
		} else if err := filesystem.Rename(ctx, fsys, temp, name); err != nil {
			return fmt.Errorf("commit: renaming %s to %s: %w", temp, name, err)
		}
	}
	return nil
}

// shardFile is the name of a shard, or of a shard's temporary file.
var shardFile = regexp.MustCompile(`^(urls|checks)-[0-9]{5,}-of-[0-9]{5,}\.jsonl(\.[0-9a-f]{16}\.tmp)?$`)

// removeIfThere removes a file, if it is there and the file system can.
func removeIfThere(ctx context.Context, fsys filesystem.Interface, name string) error {
	rm, ok := fsys.(filesystem.Remover)
	if !ok {
		return nil
	}
	if _, err := fsys.Size(ctx, name); err != nil {
		return nil // not there
	}
	if err := rm.Remove(ctx, name); err != nil {
		return fmt.Errorf("commit: removing %s: %w", name, err)
	}
	return nil
}

// badInputs are the files that could not be read whole, one reason per
// file (the ranges of one file may each fail), by name.
func badInputs(bad func(*BadInput) bool) []BadInput {
	out := []BadInput{}
	for v := (BadInput{}); bad(&v); {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b BadInput) int {
		return cmp.Or(strings.Compare(a.File, b.File), strings.Compare(a.Reason, b.Reason))
	})
	return slices.CompactFunc(out, func(a, b BadInput) bool { return a.File == b.File })
}

// malformedRecords are the malformed WARC records by file and offset, the
// first maxMalformedListed of each file.
func malformedRecords(malformed func(*MalformedRecord) bool) []MalformedRecord {
	all := []MalformedRecord{}
	for v := (MalformedRecord{}); malformed(&v); {
		all = append(all, v)
	}
	slices.SortFunc(all, func(a, b MalformedRecord) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset))
	})
	out := all[:0]
	for i, m := range all {
		if i < maxMalformedListed || all[i-maxMalformedListed].File != m.File {
			out = append(out, m)
		}
	}
	return out
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
