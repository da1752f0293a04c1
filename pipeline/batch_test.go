package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	return &batch{Shards: 7, URLs: []urlEntry{
		{"http://host.dom/%7Efoo", &URLStats{Valid: true, Scheme: "http", Host: "host.dom", Count: 8,
			Samples: []Place{{"a.txt", 2, 16}, {"http://pages.example/1", 1 << 30, 1}}}},
		{"gopher://bad_host/", &URLStats{Scheme: "gopher", Rule: "host", Count: 1 << 40}},
		{"mailto:joe@example.org", &URLStats{Valid: true, Scheme: "mailto", Count: 1, Samples: []Place{{"", 1, 1}}}},
		{"", &URLStats{Count: 3}}, // nothing forbids empty strings
		{"http://ünï.example/", &URLStats{Scheme: "http", Rule: "hostname", Count: 2}},
	}, Hosts: []Count{{"host.dom", 8}, {"", 1}}}
}

func TestBatchRoundTrip(t *testing.T) {
	for _, b := range []*batch{sampleBatch(), {Shards: 1, URLs: []urlEntry{}, Hosts: []Count{}}} {
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

// TestReadBatch: what crosses the runner is the encoding compressed; a
// stream that is not DEFLATE, or inflates past the bound, is an error.
// TestEncodeBatches: the batches encoded at once are each batch's own
// encoding, in order.
func TestEncodeBatches(t *testing.T) {
	var bs []*batch
	for i := range 2*scanWorkers() + 3 {
		bs = append(bs, &batch{Shards: 7, URLs: []urlEntry{{fmt.Sprintf("http://h%d.example/", i), &URLStats{Valid: true, Scheme: "http", Count: int64(i + 1)}}}})
	}
	got := encodeBatches(bs)
	if len(got) != len(bs) {
		t.Fatalf("%d batches encoded, want %d", len(got), len(bs))
	}
	for i, b := range bs {
		if !bytes.Equal(got[i], encodeBatch(b)) {
			t.Errorf("batch %d: not its own encoding", i)
		}
	}
}

func TestReadBatch(t *testing.T) {
	b := sampleBatch()
	data := encodeBatch(b)
	if raw := appendBatch(nil, b); len(data) >= len(raw) {
		t.Errorf("%d bytes compressed, %d raw", len(data), len(raw))
	}
	got, err := readBatch(data)
	if err != nil || !reflect.DeepEqual(got, b) {
		t.Fatalf("got %+v, %v; want %+v", got, err, b)
	}
	var be *batchError
	if _, err := readBatch([]byte{0xff, 0xff}); !errors.As(err, &be) || !strings.HasPrefix(be.Msg, "deflate: ") {
		t.Errorf("not DEFLATE: got %v", err)
	}
	defer func(n int64) { maxBatchBytes = n }(maxBatchBytes)
	maxBatchBytes = int64(len(appendBatch(nil, b))) - 1
	if _, err := readBatch(data); !errors.As(err, &be) || !strings.Contains(be.Msg, "once decompressed") {
		t.Errorf("past the bound: got %v", err)
	}
	maxBatchBytes++
	if _, err := readBatch(data); err != nil {
		t.Errorf("at the bound: %v", err)
	}
}

func TestBatchMalformed(t *testing.T) {
	good := appendBatch(nil, sampleBatch())
	// one URL: "u", valid, scheme "s", host "h", count 1, no samples
	one := []byte{2, 2, 0, 1, 1, 'u', 1, 1, 's', 1, 'h', 1, 0, 0}
	with := func(i int, c byte) []byte { b := slices.Clone(one); b[i] = c; return b }
	// one document "d"; one URL as above with one sample: document 0, line 1, column 1
	sampled := []byte{2, 1, 1, 1, 'd', 1, 1, 'u', 1, 1, 's', 1, 'h', 1, 1, 0, 1, 1, 0}
	for _, tc := range []struct {
		name string
		in   []byte
		off  int
		msg  string
	}{
		{"empty", nil, 0, "want the version: a varint, found the end"},
		{"version", []byte{1, 1, 0, 0, 0}, 0, "version 1, want 2"},
		{"no shards", []byte{2, 0, 0, 0, 0}, 1, "a shard count of 0"},
		{"too many shards", []byte{2, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0}, 1, "the shard count of 4294967296, more than"},
		{"varint overflow", []byte{2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 1, "an overflow"},
		{"document count past the end", []byte{2, 1, 5, 'a'}, 2, "the document count of 5, more than the 1 bytes left hold"},
		{"URL count past the end", []byte{2, 1, 0, 3, 1, 'u', 1, 0, 0, 1, 0}, 3, "the URL count of 3, more than the 7 bytes left hold"},
		{"flags", with(6, 2), 6, "flags 2, want 0 or 1"},
		{"count 0", with(11, 0), 11, "a URL's count of 0, not a count"},
		{"string past the end", with(4, 40), 4, "a URL of 40 bytes, 9 left"},
		{"sample count", with(12, 1), 12, "the sample count of 1, more than the 1 bytes left hold"},
		{"document index", append(slices.Clone(sampled[:15]), 1, 1, 1, 0), 15, "document 1 of 1"},
		{"line too big", append(slices.Clone(sampled[:16]), 0x80, 0x80, 0x80, 0x80, 0x08, 1, 0), 16, "a line of 2147483648, more than 2147483647"},
		{"host count", with(13, 9), 13, "the host count of 9, more than the 0 bytes left hold"},
		{"host count 0", append(with(13, 1), 0, 0), 15, "a host's count of 0, not a count"},
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
	f.Add(appendBatch(nil, &batch{Shards: 1}))
	f.Add([]byte{2, 2, 0, 1, 1, 'u', 1, 1, 's', 1, 'h', 1, 0, 0})
	f.Add([]byte{2, 1, 1, 1, 'd', 1, 1, 'u', 1, 1, 's', 1, 'h', 1, 1, 0, 1, 1, 0})
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

// TestCensusBatches: every distinct URL goes to the batch of its shard,
// every host to the batch of its own shard with the occurrences of its
// valid URLs, and every shard has a batch.
func TestCensusBatches(t *testing.T) {
	c := newCensus(2)
	sc := extract.NewScanner(strings.NewReader(prose + prose + "http://HOST.dom/a http://host.dom/b ftp://host.dom/c gopher://bad_host/x\n"))
	for sc.Scan() {
		c.add("doc", sc.Match())
	}
	const shards = 5
	bs := c.batches(shards)
	if len(bs) != shards {
		t.Fatalf("%d batches, want %d", len(bs), shards)
	}
	seen := map[string]bool{}
	hosts := map[string]int64{}
	for i, b := range bs {
		if b.Shards != shards {
			t.Errorf("batch %d says %d shards", i, b.Shards)
		}
		for _, e := range b.URLs {
			if shardOf(e.URL, shards) != i || seen[e.URL] {
				t.Errorf("%s in batch %d (its shard %d, seen before: %v)", e.URL, i, shardOf(e.URL, shards), seen[e.URL])
			}
			seen[e.URL] = true
			if !reflect.DeepEqual(*e.Stats, *c.urls[e.URL]) {
				t.Errorf("%s: %+v, census %+v", e.URL, *e.Stats, *c.urls[e.URL])
			}
		}
		for _, h := range b.Hosts {
			if shardOf(h.Name, shards) != i {
				t.Errorf("host %s in batch %d, its shard %d", h.Name, i, shardOf(h.Name, shards))
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

func TestAutoShards(t *testing.T) {
	for _, tc := range []struct {
		bytes int64
		want  int
	}{{0, 4}, {300 << 20, 4}, {4 * shardBytes, 4}, {4*shardBytes + 1, 5}, {1 << 40, 4096}} {
		if got := autoShards(tc.bytes); got != tc.want {
			t.Errorf("autoShards(%d) = %d, want %d", tc.bytes, got, tc.want)
		}
	}
}

// TestWriteShard: the writer of a shard merges the batches of all scans:
// one line per distinct URL, counts added, the first samples kept; its
// partial summary adds up the lines and tops its hosts.
func TestWriteShard(t *testing.T) {
	dir := t.TempDir()
	b1 := &batch{Shards: 3, URLs: []urlEntry{
		{"http://a.example/", &URLStats{Valid: true, Scheme: "http", Host: "a.example", Count: 2, Samples: []Place{{"d2", 1, 1}, {"d2", 5, 1}}}},
		{"x:bad", &URLStats{Scheme: "x", Rule: "scheme", Count: 1}},
	}, Hosts: []Count{{"a.example", 2}, {"b.example", 9}}}
	b2 := &batch{Shards: 3, URLs: []urlEntry{
		{"http://a.example/", &URLStats{Valid: true, Scheme: "http", Host: "a.example", Count: 3, Samples: []Place{{"d1", 9, 9}, {"d2", 3, 1}}}},
	}, Hosts: []Count{{"a.example", 3}, {"c.example", 1}}}
	data := [][]byte{encodeBatch(b1), encodeBatch(b2), encodeBatch(&batch{Shards: 3})}
	next := func(p *[]byte) bool {
		if len(data) == 0 {
			return false
		}
		*p, data = data[0], data[1:]
		return true
	}
	fn := &writeShardFn{Output: dir, Samples: 2, Top: 2}
	parts, err := writeBundle(fn, map[int]func(*[]byte) bool{1: next})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(filepath.Join(dir, "urls-00001-of-00003.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"url":"http://a.example/","valid":true,"scheme":"http","count":5,"samples":[{"document":"d1","line":9,"column":9},{"document":"d2","line":1,"column":1}],"rule":null}
{"url":"x:bad","valid":false,"scheme":"x","count":1,"samples":[],"rule":"scheme"}
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if len(parts) != 1 {
		t.Fatalf("%d partials", len(parts))
	}
	p := parts[0]
	slices.SortFunc(p.Schemes, func(a, b SchemeCount) int { return strings.Compare(a.Scheme, b.Scheme) })
	wantP := ShardPartial{
		Totals:  Totals{URLs: 6, Valid: 5, Invalid: 1, Distinct: 2, DistinctValid: 1, DistinctInvalid: 1},
		Schemes: []SchemeCount{{"http", SchemeStats{5, 5, 0, 1}}, {"x", SchemeStats{1, 0, 1, 1}}},
		Rules:   []Count{{"scheme", 1}},
		Hosts:   []Count{{"b.example", 9}, {"a.example", 5}},
	}
	if g, w := jsonOf(p), jsonOf(wantP); g != w {
		t.Errorf("partial\n%s\nwant\n%s", g, w)
	}
	// Batches that disagree on the shard count are an error, not a guess.
	data = [][]byte{encodeBatch(b1), encodeBatch(&batch{Shards: 4})}
	if _, err := writeBundle(fn, map[int]func(*[]byte) bool{1: next}); !errors.Is(err, errShards) {
		t.Errorf("got %v, want %v", err, errShards)
	}
	data = [][]byte{encodeBatch(b1)[:10]}
	var be *batchError
	if _, err := writeBundle(fn, map[int]func(*[]byte) bool{1: next}); !errors.As(err, &be) {
		t.Errorf("got %v, want a *batchError", err)
	}
}

// writeBundle runs fn over one bundle of shards, as a runner does:
// ProcessElement for each shard, in shard order, then FinishBundle.
func writeBundle(fn *writeShardFn, shards map[int]func(*[]byte) bool) ([]ShardPartial, error) {
	var parts []ShardPartial
	emit := func(p ShardPartial) { parts = append(parts, p) }
	for _, shard := range slices.Sorted(maps.Keys(shards)) {
		if err := fn.ProcessElement(context.Background(), shard, shards[shard], emit); err != nil {
			return parts, err
		}
		if len(parts) > 0 {
			return parts, fmt.Errorf("shard %d: a partial emitted before FinishBundle", shard)
		}
	}
	err := fn.FinishBundle(emit)
	return parts, err
}

// TestWriteShardsBundle: the shards of one bundle are written at once,
// each from its own batches even when the runner's iterator reuses its
// buffer; FinishBundle emits every partial in shard order, or none when
// a shard failed, and the writer is ready for the next bundle.
func TestWriteShardsBundle(t *testing.T) {
	const n = 9
	dir := t.TempDir()
	fn := &writeShardFn{Output: dir, Samples: 1, Top: 1}
	// iter hands out the batches of a shard through one buffer, overwritten
	// at each step.
	iter := func(bs ...*batch) func(*[]byte) bool {
		var buf []byte
		return func(p *[]byte) bool {
			if len(bs) == 0 {
				clear(buf)
				return false
			}
			buf = append(buf[:0], encodeBatch(bs[0])...)
			*p, bs = buf, bs[1:]
			return true
		}
	}
	bundle := func(bad int) map[int]func(*[]byte) bool {
		shards := map[int]func(*[]byte) bool{}
		for s := range n {
			url := fmt.Sprintf("http://s%d.example/", s)
			b := &batch{Shards: n, URLs: []urlEntry{{url, &URLStats{Valid: true, Scheme: "http", Host: "h.example", Count: int64(s + 1)}}},
				Hosts: []Count{{fmt.Sprintf("s%d.example", s), int64(s + 1)}}}
			if s == bad {
				b.Shards = n + 1
			}
			shards[s] = iter(b, &batch{Shards: n})
		}
		return shards
	}
	for round := range 2 {
		parts, err := writeBundle(fn, bundle(-1))
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != n {
			t.Fatalf("round %d: %d partials, want %d", round, len(parts), n)
		}
		for s, p := range parts {
			if p.Totals.URLs != int64(s+1) || len(p.Hosts) != 1 || p.Hosts[0].Name != fmt.Sprintf("s%d.example", s) {
				t.Errorf("round %d: partial %d: %s", round, s, jsonOf(p))
			}
			out, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("urls-%05d-of-%05d.jsonl", s, n)))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf(`{"url":"http://s%d.example/","valid":true,"scheme":"http","count":%d,`, s, s+1); !strings.HasPrefix(string(out), want) {
				t.Errorf("shard %d: %s, want %s…", s, out, want)
			}
		}
	}
	parts, err := writeBundle(fn, bundle(5))
	if !errors.Is(err, errShards) || !strings.HasPrefix(err.Error(), "shard 5: ") || len(parts) != 0 {
		t.Errorf("a shard failed: got %v and %d partials, want shard 5's error and none", err, len(parts))
	}
	if parts, err := writeBundle(fn, bundle(-1)); err != nil || len(parts) != n {
		t.Errorf("after a failed bundle: %d partials, %v", len(parts), err)
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
		"ünï", "line\u2028sep\u2029", "nul\x00", "http://host/%7E"}
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
			c.add("d", sc.Match())
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

// TestCensusMerge: two readers' censuses merged are the census of one
// reader that read both documents: counts added, the first samples kept.
func TestCensusMerge(t *testing.T) {
	scan := func(c *census, doc, text string) {
		sc := extract.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			c.add(doc, sc.Match())
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
