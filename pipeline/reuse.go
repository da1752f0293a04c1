package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/rfc1738/rfc1738/linkcheck"
)

func init() {
	register.DoFn3x1[context.Context, []byte, func(string), error](&listChecksFn{})
	register.Emitter1[string]()
	register.Function3x1(readChecks)
	register.Emitter2[string, siteOld]()
}

// oldVerdicts reads the verdicts of an earlier run (from; none when ""),
// keyed by site like this run's URLs, a few elements per site: the check
// joins the two by site, so no worker holds an earlier run whole.
func oldVerdicts(s beam.Scope, from string) beam.PCollection {
	s = s.Scope("reuse")
	files := beam.Reshuffle(s, beam.ParDo(s, &listChecksFn{From: from}, beam.Impulse(s)))
	return beam.ParDo(s, readChecks, files)
}

// listChecksFn names the checks files of an earlier run: the run must
// be complete (its summary.json is there, and has a check section), and
// every one of its checks shards there.
type listChecksFn struct {
	From string
}

func (fn *listChecksFn) ProcessElement(ctx context.Context, _ []byte, emit func(string)) error {
	if fn.From == "" {
		return nil
	}
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

// readChecks reads one checks file, its lines gathered by site (at most
// batchLines at a time); a line that does not read fails the run, naming
// the file and the line: a verdict is kept only from a file read whole.
func readChecks(ctx context.Context, name string, emit func(string, siteOld)) error {
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
	bySite := map[string][]CheckLine{}
	held := 0
	flush := func() {
		for site, lines := range bySite {
			emit(site, siteOld{lines})
		}
		clear(bySite)
		held = 0
	}
	for n := 1; sc.Scan(); n++ {
		var l CheckLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.URL == "" || l.Verdict == "" {
			if err == nil {
				err = fmt.Errorf("no url or no verdict")
			}
			return fmt.Errorf("--check-from: %s:%d: %w", name, n, err)
		}
		site := linkcheck.Site(l.URL, false)
		bySite[site] = append(bySite[site], l)
		if held++; held >= batchLines {
			flush()
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("--check-from: %s: %w", name, err)
	}
	flush()
	return nil
}
