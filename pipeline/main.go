// Command pipeline is a URL census of text corpora as an Apache Beam
// pipeline: every URL of every document, found as package extract finds
// them (RFC 1738 Appendix) and counted by its §2.2 normal form.
//
//	go run . --input 'corpus/*.warc.wet.gz' --output out
//
// runs on Beam's embedded Prism runner; --runner=flink, spark or dataflow
// run the same pipeline on a cluster (see README.md). Input: plain text,
// gzip, and WARC or WET files (each record's text a document named by its
// WARC-Target-URI), on any Beam file system (local, gs://, s3://). Output:
// DIR/urls-SSSSS-of-NNNNN.jsonl, one line per distinct URL, and
// DIR/summary.json, written last.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

// The census's own flags; Beam's (--runner, --endpoint …) are the others.
var (
	input   = flag.String("input", "", "files to read: a glob on a Beam file system (local, gs://, s3://)")
	output  = flag.String("output", "", "folder to write urls-*.jsonl and summary.json to")
	shards  = flag.Int("shards", 0, "how many urls-*.jsonl files; 0: one per 2^19 distinct URLs, a power of two")
	samples = flag.Int("samples", 3, "places (document, line, column) kept per URL")
	topN    = flag.Int("top", 20, "hosts and error rules listed in summary.json")
	cpuProf = flag.String("cpuprofile", "", "write a CPU profile of the whole process (Prism runs in it) to this file")
)

var ownFlags = []string{"input", "output", "shards", "samples", "top", "cpuprofile"}

const usageLine = "usage: pipeline --input GLOB --output DIR [--shards N] [--samples N] [--top N] [--runner prism|flink|spark|dataflow|universal ...]"

// usage prints the census's flags first, then Beam's.
func usage() {
	w := flag.CommandLine.Output()
	fmt.Fprintln(w, usageLine)
	fmt.Fprintln(w, "\nThe census:")
	own := map[string]bool{}
	for _, name := range ownFlags {
		own[name] = true
		printFlag(w, flag.Lookup(name))
	}
	fmt.Fprintln(w, "\nApache Beam (the runner and its options; see README.md):")
	flag.VisitAll(func(f *flag.Flag) {
		if !own[f.Name] {
			printFlag(w, f)
		}
	})
}

func printFlag(w io.Writer, f *flag.Flag) {
	name, use := flag.UnquoteUsage(f)
	if name != "" {
		name = " " + name
	}
	fmt.Fprintf(w, "  --%s%s\n    \t%s", f.Name, name, strings.ReplaceAll(use, "\n", "\n    \t"))
	if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" {
		fmt.Fprintf(w, " (default %s)", f.DefValue)
	}
	fmt.Fprintln(w)
}

// memoryLimit is the garbage collector's soft limit when neither GOGC nor
// GOMEMLIMIT is set. The embedded runner keeps every element's bytes in
// this process, so most of its memory is Prism's copies and their garbage:
// at Go's default GOGC=100 alone, 1,000,000 distinct URLs took 357-450 MB
// of RSS. A lower GOGC bounds that for every run and makes a small run pay
// for it (GOGC=50: 15-25% more CPU on 300 MB of text with 94,000 distinct
// URLs); a limit leaves GOGC's pace to runs whose heap stays well below it
// and collects harder only near it (1,000,000 distinct URLs: 322 MB).
const memoryLimit = 256 << 20

func main() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	flag.Usage = usage
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" || *shards < 0 || *samples < 0 || *topN < 1 {
		fmt.Fprintln(os.Stderr, usageLine)
		fmt.Fprintln(os.Stderr, "pipeline --help lists the flags")
		os.Exit(2)
	}
	line, err := run()
	if err != nil {
		fail(err)
	}
	fmt.Println(line)
}

// run runs the census and returns the line that ends it.
//
// Beam's loopback mode leaves an empty file, beamloopbackworker-*, in the
// temporary folder after every run (runnerlib.Execute makes it as a
// placeholder for a worker binary and never removes it). The run gets a
// temporary folder of its own, removed when it ends.
func run() (string, error) {
	if tmp, err := os.MkdirTemp("", "census-"); err == nil {
		defer os.RemoveAll(tmp)
		os.Setenv("TMPDIR", tmp)
	}
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return "", err
		}
	}
	ctx := context.Background()
	p, s := beam.NewPipelineWithRoot()
	Build(s, Options{Input: *input, Output: *output, Shards: *shards, Samples: *samples, Top: *topN})
	err := beamx.Run(ctx, p)
	if *cpuProf != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		return "", err
	}
	return report(ctx, *output)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pipeline:", err)
	os.Exit(1)
}

// report is the line that ends a run: the totals of summary.json and
// where the output is.
func report(ctx context.Context, out string) (string, error) {
	name := joinPath(out, "summary.json")
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return "", err
	}
	defer fsys.Close()
	data, err := filesystem.Read(ctx, fsys, name)
	if err != nil {
		return "", fmt.Errorf("the job ended, but its summary cannot be read: %w", err)
	}
	var sum Summary
	if err := json.Unmarshal(data, &sum); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	t := sum.Totals
	return fmt.Sprintf("census: %d files (%d bad), %d bytes, %d documents: %d URLs (%d valid, %d invalid), %d distinct -> %s and %s",
		sum.Files, sum.FilesBad, sum.Bytes, sum.Documents, t.URLs, t.Valid, t.Invalid, t.Distinct,
		joinPath(out, fmt.Sprintf("urls-*-of-%05d.jsonl", sum.Shards)), name), nil
}
