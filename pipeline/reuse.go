package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(string), error](&listChecksFn{})
	register.Emitter1[string]()
	register.Function3x1(readChecks)
	register.Emitter2[string, CheckLine]()
	register.Function2x0(itemKey)
	register.DoFn5x0[string, func(*checkItem) bool, func(*CheckLine) bool, func(checkItem), func(CheckLine)](&reuseFn{})
	register.Iter1[CheckLine]()
}

// reuseChecks reads the verdicts of an earlier run (o.From) and splits
// the distinct URLs of this one: those whose verdict there is younger
// than o.MaxAge keep it (a CheckLine marked Reused), the others are
// handed on to be checked. The join is keyed by URL, so no worker holds
// the earlier verdicts whole.
func reuseChecks(s beam.Scope, o *CheckOptions, items beam.PCollection) (toCheck, kept beam.PCollection) {
	s = s.Scope("reuse")
	files := beam.Reshuffle(s, beam.ParDo(s, &listChecksFn{From: o.From}, beam.Impulse(s)))
	old := beam.ParDo(s, readChecks, files)
	joined := beam.CoGroupByKey(s, beam.ParDo(s, itemKey, items), old)
	return beam.ParDo2(s, &reuseFn{MaxAge: o.MaxAge, Now: o.Now.UTC().Format(time.RFC3339Nano)}, joined)
}

// listChecksFn names the checks files of an earlier run: the run must
// be complete (its summary.json is there, and has a check section), and
// every one of its checks shards there.
type listChecksFn struct {
	From string
}

func (fn *listChecksFn) ProcessElement(ctx context.Context, _ []byte, emit func(string)) error {
	name := joinPath(fn.From, "summary.json")
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fsys.Close()
	data, err := filesystem.Read(ctx, fsys, name)
	if err != nil {
		return fmt.Errorf("--check-from %s: no complete run there (%w)", fn.From, err)
	}
	var sum Summary
	if err := json.Unmarshal(data, &sum); err != nil {
		return fmt.Errorf("--check-from %s: %w", name, err)
	}
	if sum.Check == nil || sum.Shards < 1 {
		return fmt.Errorf("--check-from %s: that run did not check its URLs (no check section in its summary.json)", fn.From)
	}
	for shard := range sum.Shards {
		f := joinPath(fn.From, checksName(shard, sum.Shards))
		if _, err := fsys.Size(ctx, f); err != nil {
			return fmt.Errorf("--check-from %s: %s is missing: %w", fn.From, f, err)
		}
		emit(f)
	}
	return nil
}

// readChecks reads one checks file, each line keyed by its URL; a line
// that does not read fails the run, naming the file and the line: a
// verdict is kept only from a file read whole.
func readChecks(ctx context.Context, name string, emit func(string, CheckLine)) error {
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fsys.Close()
	f, err := fsys.OpenRead(ctx, name)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var l CheckLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.URL == "" || l.Verdict == "" {
			if err == nil {
				err = fmt.Errorf("no url or no verdict")
			}
			return fmt.Errorf("--check-from: %s:%d: %w", name, n, err)
		}
		emit(l.URL, l)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("--check-from: %s: %w", name, err)
	}
	return nil
}

// itemKey keys a URL of this run by itself.
func itemKey(it checkItem, emit func(string, checkItem)) {
	emit(it.URL, it)
}

// reuseFn keeps an earlier verdict that is young enough, and hands on
// the URLs that have none to be checked. An earlier URL this run does not
// have is dropped.
type reuseFn struct {
	MaxAge time.Duration
	Now    string // RFC 3339: the run's time, the same on every worker
}

func (fn *reuseFn) ProcessElement(url string, items func(*checkItem) bool, olds func(*CheckLine) bool,
	emitCheck func(checkItem), emitKept func(CheckLine)) {
	var it checkItem
	if !items(&it) {
		return
	}
	now, _ := time.Parse(time.RFC3339Nano, fn.Now)
	var old CheckLine
	if olds(&old) {
		at, err := time.Parse(time.RFC3339, old.CheckedAt)
		// A verdict from the future (a clock set wrong) is not young.
		if err == nil && !at.After(now) && now.Sub(at) <= fn.MaxAge {
			old.Reused, old.Year, old.Scheme, old.Shards = true, it.Year, it.Scheme, it.Shards
			emitKept(old)
			return
		}
	}
	emitCheck(it)
}
