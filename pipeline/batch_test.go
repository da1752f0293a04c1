package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/extract"
)

func sampleBatch() *batch {
	return &batch{Buckets: 7, URLs: []urlEntry{
		{"", &URLStats{Count: 3}}, // nothing forbids empty strings
		{"gopher://bad_host/", &URLStats{Scheme: "gopher", Rule: "host", Count: 1 << 40}},
		{"http://host.dom/%7Efoo", &URLStats{Valid: true, Scheme: "http", Count: 8,
			Samples: []Place{{"a.txt", 2, 16}, {"http://pages.example/1", 1 << 30, 1}}}},
		{"http://ünï.example/", &URLStats{Scheme: "http", Rule: "hostname", Count: 2}},
		{"mailto:joe@example.org", &URLStats{Valid: true, Scheme: "mailto", Count: 1, Samples: []Place{{"", 1, 1}}}},
	}, Hosts: []Count{{"", 1}, {"host.dom", 8}}}
}

func TestBatchRoundTrip(t *testing.T) {
	for _, b := range []*batch{sampleBatch(), {Buckets: 1, URLs: []urlEntry{}, Hosts: []Count{}}} {
		data := appendBatch(nil, b)
		got, err := decodeBatch(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, b) {
			t.Errorf("got  %+v\nwant %+v", got, b)
		}
		// appendBatch appends: a prefix stays.
		if more := appendBatch([]byte("xy"), b); string(more[:2]) != "xy" || string(more[2:]) != string(data) {
			t.Errorf("appendBatch does not append")
		}
	}
}

// TestPackBatch: what crosses the runner is the URL count and the batch
// compressed; a stream that is not DEFLATE, or inflates past the bound, is
// an error.
func TestPackBatch(t *testing.T) {
	raw := appendBatch(nil, sampleBatch())
	data := packBatch(raw)
	if packedCount(data) != int64(len(sampleBatch().URLs)) {
		t.Errorf("count %d", packedCount(data))
	}
	for range 2 { // the second time with pooled compressors
		if got, err := unpackBatch(packBatch(raw)); err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("got %q, %v; want %q", got, err, raw)
		}
	}
	var be *batchError
	if _, err := unpackBatch([]byte{5, 9, 0xff, 0xff}); !errors.As(err, &be) || !strings.HasPrefix(be.Msg, "deflate: ") {
		t.Errorf("not DEFLATE: got %v", err)
	}
	if _, err := unpackBatch(nil); !errors.As(err, &be) {
		t.Errorf("empty: got %v", err)
	}
	// The length said must be the length inflated.
	n := len(binary.AppendUvarint(nil, uint64(len(raw))))
	for _, size := range []int{len(raw) - 1, len(raw) + 1} {
		lied := append(binary.AppendUvarint([]byte{data[0]}, uint64(size)), data[1+n:]...)
		if _, err := unpackBatch(lied); !errors.As(err, &be) || !strings.HasPrefix(be.Msg, "deflate: ") {
			t.Errorf("a length of %d for %d bytes: got %v", size, len(raw), err)
		}
	}
	defer func(n int64) { maxBatchBytes = n }(maxBatchBytes)
	maxBatchBytes = int64(len(raw)) - 1
	if _, err := unpackBatch(data); !errors.As(err, &be) || !strings.Contains(be.Msg, "more than") {
		t.Errorf("past the bound: got %v", err)
	}
	maxBatchBytes++
	if _, err := unpackBatch(data); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	if _, err := decodeAcc(encodeAcc(mergeAcc{Batches: [][]byte{raw, raw}})[:10]); err == nil {
		t.Error("a cut accumulator decodes")
	}
}

func TestBatchMalformed(t *testing.T) {
	good := appendBatch(nil, sampleBatch())
	// one URL: "u", valid, scheme "s", count 1, no samples
	one := []byte{4, 2, 0, 1, 1, 'u', 1, 1, 's', 1, 0, 0}
	with := func(i int, c byte) []byte { b := slices.Clone(one); b[i] = c; return b }
	// one document "d"; one URL as above with one sample: document 0, line 1, column 1
	sampled := []byte{4, 1, 1, 1, 'd', 1, 1, 'u', 1, 1, 's', 1, 1, 0, 1, 1, 0}
	for _, tc := range []struct {
		name string
		in   []byte
		off  int
		msg  string
	}{
		{"empty", nil, 0, "want the version: a varint, found the end"},
		{"version", []byte{3, 1, 0, 0, 0}, 0, "version 3, want 4"},
		{"no buckets", []byte{4, 0, 0, 0, 0}, 1, "a bucket count of 0"},
		{"too many buckets", []byte{4, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0}, 1, "the bucket count of 4294967296, more than"},
		{"varint overflow", []byte{4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, "an overflow"},
		{"document count past the end", []byte{4, 1, 5, 'a'}, 2, "the document count of 5, more than the 1 bytes left hold"},
		{"URL count past the end", []byte{4, 1, 0, 3, 1, 'u', 1, 0, 0, 1, 0}, 3, "the URL count of 3, more than the 7 bytes left hold"},
		{"flags", with(6, 4), 6, "flags 4, want 0 to 3"},
		// flags 3: valid, and a year follows the scheme.
		{"year too big", []byte{4, 2, 0, 1, 1, 'u', 3, 1, 's', 0x90, 0x4e, 1, 0, 0}, 9, "a year of 10000, more than 9999"},
		{"count 0", with(9, 0), 9, "a URL's count of 0, not a count"},
		{"string past the end", with(4, 40), 4, "a URL of 40 bytes, 7 left"},
		{"sample count", with(10, 1), 10, "the sample count of 1, more than the 1 bytes left hold"},
		{"document index", append(slices.Clone(sampled[:13]), 1, 1, 1, 0), 13, "document 1 of 1"},
		// Lines and columns are 64-bit: past 2^31 is a place (a URL after
		// 2 GiB of one line), past an int is not.
		{"line too big", append(slices.Clone(sampled[:14]), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 0), 14, "a line of 9223372036854775808, more than 9223372036854775807"},
		{"host count", with(11, 9), 11, "the host count of 9, more than the 0 bytes left hold"},
		{"host count 0", append(with(11, 1), 0, 0), 13, "a host's count of 0, not a count"},
		{"trailing bytes", append(slices.Clone(good), 0), len(good), "1 bytes after the end"},
		{"cut", good[:len(good)-1], len(good) - 1, "want a host's count: a varint, found the end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := decodeBatch(tc.in)
			var be *batchError
			if !errors.As(err, &be) {
				t.Fatalf("got %+v, %v; want a *batchError", b, err)
			}
			if be.Offset != tc.off || !strings.Contains(be.Msg, tc.msg) {
				t.Errorf("got offset %d %q, want offset %d %q", be.Offset, be.Msg, tc.off, tc.msg)
			}
		})
	}
	if b, err := decodeBatch(one); err != nil || len(b.URLs) != 1 || b.URLs[0].URL != "u" || !b.URLs[0].Stats.Valid {
		t.Errorf("the base of the table does not decode: %+v %v", b, err)
	}
	if b, err := decodeBatch(sampled); err != nil || len(b.URLs) != 1 || !slices.Equal(b.URLs[0].Stats.Samples, []Place{{"d", 1, 1}}) {
		t.Errorf("the sampled base of the table does not decode: %+v %v", b, err)
	}
}

// FuzzBatch: any bytes decode to a batch or a *batchError, never a panic;
// a batch that decodes encodes to bytes that decode to the same batch.
func FuzzBatch(f *testing.F) {
	f.Add(appendBatch(nil, sampleBatch()))
	f.Add(appendBatch(nil, &batch{Buckets: 1}))
	f.Add([]byte{3, 2, 0, 1, 1, 'u', 1, 1, 's', 1, 0, 0})
	f.Add([]byte{3, 1, 1, 1, 'd', 1, 1, 'u', 1, 1, 's', 1, 1, 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		b, err := decodeBatch(in)
		if err != nil {
			var be *batchError
			if !errors.As(err, &be) || be.Offset < 0 || be.Offset > len(in) {
				t.Fatalf("error %v", err)
			}
			return
		}
		again, err := decodeBatch(appendBatch(nil, b))
		if err != nil || !reflect.DeepEqual(again, b) {
			t.Fatalf("round trip: %+v, %v; want %+v", again, err, b)
		}
	})
}

// TestShardOf: a URL's shard is its FNV-1a hash modulo the shard count, as
// README.md says and hash/fnv computes it.
func TestShardOf(t *testing.T) {
	for _, s := range []string{"", "a", "http://host.dom/a", "ftp://ftp.example/%2Fetc", "gopher://x/1\xff\x00", strings.Repeat("é", 100)} {
		h := fnv.New32a()
		h.Write([]byte(s))
		for _, n := range []int{1, 2, 7, 16, 1024, 4096} {
			if got, want := shardOf(s, n), int(h.Sum32()%uint32(n)); got != want {
				t.Errorf("shardOf(%q, %d) = %d, want %d", s, n, got, want)
			}
		}
	}
}

// TestCensusBatches: every distinct URL goes to the batch of its bucket,
// sorted as its lines sort, every host to the batch of its own bucket with
// the occurrences of its valid URLs, and only buckets with something in
// them have a batch.
func TestCensusBatches(t *testing.T) {
	c := newCensus(2)
	sc := extract.NewScanner(strings.NewReader(prose + prose + "http://HOST.dom/a http://host.dom/b ftp://host.dom/c gopher://bad_host/x\n"))
	for sc.Scan() {
		c.add("doc", 0, sc.Match())
	}
	const buckets = 64
	var keys []int
	var bs [][]byte
	c.batches(buckets, func(k int, b []byte) { keys, bs = append(keys, k), append(bs, b) })
	if len(keys) != len(bs) || len(keys) == 0 || len(keys) >= buckets || !slices.IsSorted(keys) {
		t.Fatalf("buckets %v for %d batches", keys, len(bs))
	}
	seen := map[string]bool{}
	hosts := map[string]int64{}
	for i, data := range bs {
		b, err := decodeBatch(data)
		if err != nil {
			t.Fatal(err)
		}
		if b.Buckets != buckets || len(b.URLs)+len(b.Hosts) == 0 {
			t.Errorf("batch %d: %d buckets, %d URLs, %d hosts", keys[i], b.Buckets, len(b.URLs), len(b.Hosts))
		}
		if !slices.IsSortedFunc(b.URLs, func(x, y urlEntry) int { return compareURLs(x.URL, y.URL) }) {
			t.Errorf("batch %d: URLs not sorted", keys[i])
		}
		for _, e := range b.URLs {
			if shardOf(e.URL, buckets) != keys[i] || seen[e.URL] {
				t.Errorf("%s in bucket %d (its bucket %d, seen before: %v)", e.URL, keys[i], shardOf(e.URL, buckets), seen[e.URL])
			}
			seen[e.URL] = true
			want := *c.urls[e.URL]
			want.Host = "" // hosts are counted apart
			if !reflect.DeepEqual(*e.Stats, want) {
				t.Errorf("%s: %+v, census %+v", e.URL, *e.Stats, want)
			}
		}
		for _, h := range b.Hosts {
			if shardOf(h.Name, buckets) != keys[i] {
				t.Errorf("host %s in bucket %d, its bucket %d", h.Name, keys[i], shardOf(h.Name, buckets))
			}
			hosts[h.Name] += h.Count
		}
	}
	if len(seen) != len(c.urls) {
		t.Errorf("%d URLs in the batches, %d in the census", len(seen), len(c.urls))
	}
	// host.dom: 2×2 in the prose (one normal form), a, b (c is ftp, same host).
	if hosts["host.dom"] != 2*2+3 || hosts["bad_host"] != 0 {
		t.Errorf("hosts %v", hosts)
	}
}

// TestCompareURLs: URLs sort as their lines in urls-*.jsonl sort.
func TestCompareURLs(t *testing.T) {
	urls := []string{"", "a", "a!", "a ", "a/", "a\"", "a\\", "ab", "a\x00", "a\x7f", "aü", "a\xff", "http://x/", "http://x", "http://x/!", "b",
		// A common prefix that JSON escapes, or that leaves a UTF-8
		// sequence open (one octet of "ü"), then a plain octet or the end.
		"a\"b", "a\"c", "a\"", "a\xc3", "a\xc3a", "a\xc3b", "a\xc3\xbc", "a\xc3\xbcb", "a\xe2\x80\xa8", "a\xe2\x80\xa8!", "a\xe2\x80",
		// Longer than a word, differing after it and in it.
		"http://example.com/a", "http://example.com/b", "http://example.com/", "http://example.com/\x01", "http://example.org/"}
	for _, x := range urls {
		for _, y := range urls {
			lx := appendURLLine(nil, urlLine{URL: x})
			ly := appendURLLine(nil, urlLine{URL: y})
			if got, want := compareURLs(x, y), bytes.Compare(lx, ly); got != want {
				t.Errorf("compareURLs(%q, %q) = %d, the lines compare %d", x, y, got, want)
			}
		}
	}
}

// TestMergeBatches: batches merged are the batch of one census that
// counted everything: counts added, the first samples kept, hosts added.
func TestMergeBatches(t *testing.T) {
	scan := func(c *census, doc, text string) {
		sc := extract.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			c.add(doc, 0, sc.Match())
		}
	}
	texts := []string{prose, prose + "http://only.example/\n", "ftp://host.dom/x gopher://bad_host/\n", ""}
	one := newCensus(2)
	var parts [][]byte
	for i, text := range texts {
		doc := fmt.Sprintf("d%d", len(texts)-i) // the later documents first
		scan(one, doc, text)
		c := newCensus(2)
		scan(c, doc, text)
		c.batches(1, func(_ int, b []byte) { parts = append(parts, b) })
	}
	var want, other [][]byte
	one.batches(1, func(_ int, b []byte) { want = append(want, b) })
	got, err := mergeBatches(2, parts)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want[0]) {
		g, _ := decodeBatch(got)
		w, _ := decodeBatch(want[0])
		t.Errorf("merged\n%s\nwant\n%s", jsonOf(g), jsonOf(w))
	}
	// The accumulator of the combine gives the same, whatever the order.
	fn := &mergeFn{Samples: 2}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}} {
		a := fn.CreateAccumulator()
		for _, i := range order {
			if a, err = fn.AddInput(a, parts[i]); err != nil {
				t.Fatal(err)
			}
		}
		if len(a.Batches) > 2 {
			t.Errorf("%d batches held", len(a.Batches))
		}
		// The accumulator crosses the runner through its coder.
		if a, err = decodeAcc(encodeAcc(a)); err != nil {
			t.Fatal(err)
		}
		a, _ = fn.MergeAccumulators(a, mergeAcc{Batches: parts[3:]})
		out, err := fn.ExtractOutput(a)
		if err != nil {
			t.Fatal(err)
		}
		if raw, err := unpackBatch(out); err != nil || !bytes.Equal(raw, want[0]) || packedCount(out) != int64(len(one.urls)) {
			t.Errorf("order %v: merged differently (%v)", order, err)
		}
	}
	// Batches of two bucket counts are an error, not a guess.
	one.batches(2, func(_ int, b []byte) { other = append(other, b) })
	if _, err := mergeBatches(2, append(parts[:1:1], other[0])); !errors.Is(err, errBuckets) {
		t.Errorf("got %v, want %v", err, errBuckets)
	}
	if _, err := mergeBatches(2, [][]byte{parts[0], parts[1][:10]}); err == nil {
		t.Error("a cut batch merged")
	}
}

// TestTopK: topK keeps the k largest, largest first, ties by name, as a
// full sort would.
func TestTopK(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		all := make([]Count, n)
		for i := range all {
			all[i] = Count{fmt.Sprintf("h%02d", r.IntN(1000)), int64(r.IntN(5))}
		}
		all = slices.CompactFunc(all, func(a, b Count) bool { return a.Name == b.Name })
		sorted := slices.Clone(all)
		slices.SortFunc(sorted, func(a, b Count) int {
			if lessCount(b, a) {
				return -1
			}
			if lessCount(a, b) {
				return 1
			}
			return 0
		})
		for k := range n + 2 {
			got := topK(slices.Clone(all), k)
			want := sorted[:min(k, len(sorted))]
			if !slices.Equal(got, want) {
				t.Fatalf("n %d k %d: got %v, want %v", n, k, got, want)
			}
		}
	}
}

func TestShardCount(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		shards         int
		distinct, size int64
		buckets, want  int
	}{
		{7, 1 << 40, 1 << 50, 7, 7},
		{0, 0, 0, minBuckets, 1},
		{0, 1, 32 * mb, minBuckets, 1},
		{0, 1, 8*32*mb + 1, 16, 1},
		{0, 94_000, 300 * mb, 16, 1},
		{0, urlsPerShard, 1 << 40, 1024, 1},
		{0, urlsPerShard + 1, 1 << 40, 1024, 2},
		{0, 3 * urlsPerShard, 1 << 40, 1024, 4},
		{0, 1 << 40, 1 << 50, maxBuckets, maxBuckets},
		{0, 1_000_000, 64 * mb, minBuckets, 2},
		// More distinct URLs than the buckets allow for: the shard count
		// is the bucket count.
		{0, 100 * urlsPerShard, 32 * mb, minBuckets, minBuckets},
	} {
		if got := buckets(tc.shards, tc.size); got != tc.buckets {
			t.Errorf("buckets(%d, %d) = %d, want %d", tc.shards, tc.size, got, tc.buckets)
		}
		got := shardCount(tc.shards, tc.distinct, tc.size)
		if got != tc.want {
			t.Errorf("shardCount(%d, %d, %d) = %d, want %d", tc.shards, tc.distinct, tc.size, got, tc.want)
		}
		if tc.buckets%got != 0 {
			t.Errorf("%d shards do not divide %d buckets", got, tc.buckets)
		}
	}
}

// TestWriteShard: the writer of a shard merges the batches of its buckets:
// one line per distinct URL, sorted, counts added, the first samples
// kept; it hands on its totals, the top of its hosts and its rules.
func TestWriteShard(t *testing.T) {
	dir := t.TempDir()
	b1 := &batch{Buckets: 6, URLs: []urlEntry{
		{"http://a.example/", &URLStats{Valid: true, Scheme: "http", Count: 2, Samples: []Place{{"d2", 1, 1}, {"d2", 5, 1}}}},
		{"x:bad", &URLStats{Scheme: "x", Rule: "scheme", Count: 1}},
	}, Hosts: []Count{{"a.example", 2}, {"b.example", 9}}}
	b2 := &batch{Buckets: 6, URLs: []urlEntry{
		{"http://a.example/", &URLStats{Valid: true, Scheme: "http", Count: 3, Samples: []Place{{"d1", 9, 9}, {"d2", 3, 1}}}},
		{"http://b.example/", &URLStats{Valid: true, Scheme: "http", Count: 1}},
	}, Hosts: []Count{{"a.example", 3}, {"c.example", 1}}}
	// The parts of shard 1 of 3 (the shard count of each part is shards[i]).
	runShards := func(shards []int, bs ...*batch) (ShardResult, []Count, map[string]int64, error) {
		var data [][]byte
		for i, b := range bs {
			data = append(data, appendPart(nil, shards[i], packBatch(appendBatch(nil, b))))
		}
		var res ShardResult
		var hosts []Count
		rules := map[string]int64{}
		fn := &writeShardFn{Output: dir, Samples: 2, Top: 2}
		err := fn.ProcessElement(context.Background(), 1, iterOf(data),
			func(r ShardResult) { res = r }, func(c Count) { hosts = append(hosts, c) }, func(r string, n int64) { rules[r] += n })
		return res, hosts, rules, err
	}
	run := func(bs ...*batch) (ShardResult, []Count, map[string]int64, error) {
		return runShards([]int{3, 3, 3}, bs...)
	}
	res, hosts, rules, err := run(b1, b2)
	if err != nil {
		t.Fatal(err)
	}
	if dir, base := filepath.Split(res.Temp); filepath.Base(dir) != tempDir || !shardFile.MatchString(base) || !strings.HasPrefix(base, "urls-00001-of-00003.jsonl.") {
		t.Errorf("temporary file %s", res.Temp)
	}
	out, err := os.ReadFile(res.Temp)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"http://a.example/","valid":true,"scheme":"http","count":5,"samples":[{"document":"d1","line":9,"column":9},{"document":"d2","line":1,"column":1}],"rule":null}
{"url":"http://b.example/","valid":true,"scheme":"http","count":1,"samples":[],"rule":null}
{"url":"x:bad","valid":false,"scheme":"x","count":1,"samples":[],"rule":"scheme"}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	slices.SortFunc(res.Schemes, func(a, b SchemeCount) int { return strings.Compare(a.Scheme, b.Scheme) })
	wantRes := ShardResult{Shard: 1, Shards: 3, Temp: res.Temp,
		Totals:  Totals{URLs: 7, Valid: 6, Invalid: 1, Distinct: 3, DistinctValid: 2, DistinctInvalid: 1},
		Schemes: []SchemeCount{{"http", SchemeStats{6, 6, 0, 2}}, {"x", SchemeStats{1, 0, 1, 1}}},
	}
	if g, w := jsonOf(res), jsonOf(wantRes); g != w {
		t.Errorf("result\n%s\nwant\n%s", g, w)
	}
	if g, w := jsonOf(hosts), jsonOf([]Count{{"b.example", 9}, {"a.example", 5}}); g != w {
		t.Errorf("hosts %s, want %s", g, w)
	}
	if !maps.Equal(rules, map[string]int64{"scheme": 1}) {
		t.Errorf("rules %v", rules)
	}
	// Batches that disagree on the bucket count are an error, not a guess,
	// and leave no temporary file.
	if _, _, _, err := run(b1, &batch{Buckets: 9}); !errors.Is(err, errBuckets) {
		t.Errorf("got %v, want %v", err, errBuckets)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, tempDir, "*")); len(left) != 1 {
		t.Errorf("temporary files %v, want the first run's alone", left)
	}
	// Parts that disagree on the shard count, or name a shard count that
	// has no shard 1, are an error, and nothing is written.
	for _, shards := range [][]int{{3, 4}, {1, 1}, {0, 0}} {
		if _, _, _, err := runShards(shards, b1, b2); err == nil || !strings.Contains(err.Error(), "shard 1: ") && !strings.Contains(err.Error(), "shard 1 of") {
			t.Errorf("parts of %v shards: got %v", shards, err)
		}
	}
	if _, _, _, err := runShards([]int{3}, b1); err != nil {
		t.Errorf("one part: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, tempDir, "*")); len(left) != 2 {
		t.Errorf("temporary files %v, want the two good runs'", left)
	}
}

// iterOf is a runner's iterator over vs.
func iterOf[T any](vs []T) func(*T) bool {
	return func(p *T) bool {
		if len(vs) == 0 {
			return false
		}
		*p, vs = vs[0], vs[1:]
		return true
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAppendURLLine: a line of urls-*.jsonl is what encoding/json writes,
// byte for byte, whatever its strings hold.
func TestAppendURLLine(t *testing.T) {
	strs := []string{"", "http://a.example/~x?y=1&z=<2>", `say "hi"\`, "tab\there", "\x7f", "\xff\xfe",
		"ünï", "line\u2028sep\u2029", "nul\x00", "http://host/%7E", "a\uFFFDb", "é\xc3", "§6 \U0001F600", "\xed\xa0\x80"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if rng.IntN(2) == 0 {
				b[i] = byte(0x20 + rng.IntN(0x5f))
			}
		}
		strs = append(strs, string(b))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i, s := range strs {
		rule := strs[(i+1)%len(strs)]
		l := urlLine{URL: s, Valid: i%2 == 0, Scheme: strs[(i+3)%len(strs)], Count: int64(i) << (i % 40)}
		for j := range i % 4 {
			l.Samples = append(l.Samples, Place{strs[(i+j)%len(strs)], i * j, j + 1})
		}
		if !l.Valid {
			l.Rule = &rule
		}
		got := string(appendURLLine([]byte("x"), l))
		if l.Samples == nil {
			l.Samples = []Place{}
		}
		buf.Reset()
		if err := enc.Encode(l); err != nil {
			t.Fatal(err)
		}
		if want := "x" + buf.String(); got != want {
			t.Errorf("%q:\ngot  %s\nwant %s", s, got, want)
		}
	}
}

// TestCensusAdd: a URL is counted under its normal form whether its
// normal form or another spelling comes first, and an invalid URL under its
// text.
func TestCensusAdd(t *testing.T) {
	const odd, bad = "HTTP://Host.EXAMPLE:80/a", "gopher://bad_host/"
	u, err := rfc1738.Parse(odd)
	if err != nil {
		t.Fatal(err)
	}
	norm := rfc1738.Normalize(u)
	if norm == odd {
		t.Fatalf("%s is its own normal form", odd)
	}
	for _, order := range [][]string{{odd, norm, odd, bad, bad}, {norm, odd, bad, norm, bad}} {
		c := newCensus(5)
		sc := extract.NewScanner(strings.NewReader(strings.Join(order, "\n") + "\n"))
		for sc.Scan() {
			c.add("d", 0, sc.Match())
		}
		rule := ""
		if e := c.urls[bad]; e != nil {
			rule = e.Rule
		}
		want := map[string]*URLStats{
			norm: {Valid: true, Scheme: "http", Host: "host.example", Count: 3},
			bad:  {Scheme: "gopher", Rule: rule, Count: 2},
		}
		for i, url := range order {
			if url != bad {
				url = norm
			}
			want[url].Samples = append(want[url].Samples, Place{"d", i + 1, 1})
		}
		if rule == "" || !reflect.DeepEqual(c.urls, want) {
			t.Errorf("%q:\ngot  %s\nwant %s", order, jsonOf(c.urls), jsonOf(want))
		}
	}
}

// TestCensusHostOfNormalForm: a URL's host is its normal form's, whichever
// spelling comes first (file://localhost/x and file:///x are one URL).
func TestCensusHostOfNormalForm(t *testing.T) {
	const a, b = "file://localhost/x", "file:///x"
	u, err := rfc1738.Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	norm := rfc1738.Normalize(u)
	nu, _ := rfc1738.Parse(norm)
	want := strings.ToLower(nu.Host())
	for _, order := range [][]string{{a, b}, {b, a}} {
		c := newCensus(1)
		sc := extract.NewScanner(strings.NewReader(strings.Join(order, "\n") + "\n"))
		for sc.Scan() {
			c.add("d", 0, sc.Match())
		}
		if len(c.urls) != 1 || c.urls[norm] == nil || c.urls[norm].Host != want {
			t.Errorf("%q: %s, want one URL %s with host %q", order, jsonOf(c.urls), norm, want)
		}
	}
}

// TestCensusMerge: two readers' censuses merged are the census of one
// reader that read both documents: counts added, the first samples kept.
func TestCensusMerge(t *testing.T) {
	scan := func(c *census, doc, text string) {
		sc := extract.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			c.add(doc, 0, sc.Match())
		}
	}
	one, a, b := newCensus(2), newCensus(2), newCensus(2)
	scan(one, "d1", prose)
	scan(one, "d2", prose+"http://only.example/\n")
	scan(a, "d2", prose+"http://only.example/\n") // the later document first
	scan(b, "d1", prose)
	a.merge(b)
	if len(a.urls) != len(one.urls) || len(one.urls) < 5 {
		t.Fatalf("%d URLs merged, %d in one census", len(a.urls), len(one.urls))
	}
	for url, u := range one.urls {
		if !reflect.DeepEqual(a.urls[url], u) {
			t.Errorf("%s: merged %+v, one census %+v", url, a.urls[url], u)
		}
	}
}
