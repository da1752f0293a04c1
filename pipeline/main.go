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

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

var (
	input   = flag.String("input", "", "files to read: a glob on a Beam file system (local, gs://, s3://)")
	output  = flag.String("output", "", "folder to write urls-*.jsonl and summary.json to")
	shards  = flag.Int("shards", 4, "how many urls-*.jsonl files")
	samples = flag.Int("samples", 3, "places (document, line, column) kept per URL")
	topN    = flag.Int("top", 20, "hosts and error rules listed in summary.json")
)

func main() {
	flag.Parse()
	beam.Init()
	if *input == "" || *output == "" || *shards < 1 || *samples < 0 || *topN < 1 {
		fmt.Fprintln(os.Stderr, "usage: pipeline --input GLOB --output DIR [--shards N] [--samples N] [--top N] [--runner prism|flink|spark|dataflow ...]")
		os.Exit(2)
	}
	p, s := beam.NewPipelineWithRoot()
	Build(s, Options{Input: *input, Output: *output, Shards: *shards, Samples: *samples, Top: *topN})
	if err := beamx.Run(context.Background(), p); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}
