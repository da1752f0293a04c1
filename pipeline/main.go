// Command pipeline is a URL census of text corpora as an Apache Beam
// pipeline: every URL of every document, found as package extract finds
// them (RFC 1738 Appendix) and counted by its §2.2 normal form.
//
//	go run . --input 'corpus/*.warc.wet.gz' --output out
//
// runs on Beam's embedded Prism runner; --runner=flink, spark or dataflow
// run the same pipeline on a cluster (see the README). Input: plain text,
// gzip, and WARC or WET files (each record's text a document named by its
// WARC-Target-URI), on any Beam file system (local, gs://, s3://). Output:
// DIR/urls-*.jsonl, one line per distinct URL, and DIR/summary.json.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

var (
	input   = flag.String("input", "", "files to read: a glob on a Beam file system (local, gs://, s3://)")
	output  = flag.String("output", "", "folder to write urls-*.jsonl and summary.json to")
	shards  = flag.Int("shards", 0, "how many urls-*.jsonl files; 0: one per 256 MiB of input, at least 4 (the writer of a shard holds its distinct URLs)")
	samples = flag.Int("samples", 3, "places (document, line, column) kept per URL")
	topN    = flag.Int("top", 20, "hosts and error rules listed in summary.json")
	cpuProf = flag.String("cpuprofile", "", "write a CPU profile of the whole process (Prism runs in it) to this file")
)

func main() {
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" || *shards < 0 || *samples < 0 || *topN < 1 {
		fmt.Fprintln(os.Stderr, "usage: pipeline --input GLOB --output DIR [--shards N|0] [--samples N] [--top N] [--runner prism|flink|spark|dataflow ...]")
		os.Exit(2)
	}
	if *cpuProf != "" {
		f, err := os.Create(*cpuProf)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pipeline:", err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "pipeline:", err)
			os.Exit(1)
		}
		defer f.Close()
	}
	p, s := beam.NewPipelineWithRoot()
	Build(s, Options{Input: *input, Output: *output, Shards: *shards, Samples: *samples, Top: *topN})
	err := beamx.Run(context.Background(), p)
	if *cpuProf != "" {
		pprof.StopCPUProfile()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}
