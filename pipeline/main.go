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
	"regexp"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/rfc1738/rfc1738/linkcheck"
)

// The census's own flags; Beam's (--runner, --endpoint …) are the others.
var (
	input    = flag.String("input", "", "files to read: a glob on a Beam file system (local, gs://, s3://)")
	output   = flag.String("output", "", "folder to write urls-*.jsonl and summary.json to")
	shards   = flag.Int("shards", 0, "how many urls-*.jsonl files; 0: one per 2^19 distinct URLs, a power of two")
	samples  = flag.Int("samples", 3, "places (document, line, column) kept per URL")
	topN     = flag.Int("top", 20, "hosts and error rules listed in summary.json")
	cpuProf  = flag.String("cpuprofile", "", "write a CPU profile of the whole process (Prism runs in it) to this file")
	datePath = flag.String("date-from-path", "", "a regular expression that dates a file that is not WARC by its path: the year its first group (or its match) starts with")

	check        = flag.Bool("check", false, "check every distinct URL as rfc1738 linkcheck does, one site (scheme, host, port) in one place at a time: checks-*.jsonl")
	perHost      = flag.Int("per-host", 1, "checks of one site at once")
	hostDelay    = flag.Duration("host-delay", time.Second, "least time between two requests to one site")
	noRobots     = flag.Bool("no-robots", false, "check what a site's robots.txt disallows (RFC 9309)")
	hostFailures = flag.Int("host-failures", linkcheck.DefaultMaxFailures, "refusals or timeouts in a row after which a site is unreachable and its other URLs are not tried")
	checkTimeout = flag.Duration("timeout", linkcheck.DefaultTimeout, "bound on one attempt at a check")
	retries      = flag.Int("retries", 2, "attempts again after a transient failure (4xx of ftp or nntp, http 429 or 503, a timeout)")
	checkJobs    = flag.Int("check-jobs", 256, "sites one worker checks at once")
	checkFrom    = flag.String("check-from", "", "an earlier run's output folder: its verdicts younger than --max-age are kept, not checked again")
	maxAge       = flag.Duration("max-age", 168*time.Hour, "with --check-from: how old a verdict may be and still be kept")
	allowPorts   portList
)

func init() {
	flag.Var(&allowPorts, "allow-port", "let a URL use this port although another line protocol owns it (RFC 1738 §6); repeatable, or comma-separated")
}

// portList is a repeatable flag of ports.
type portList []int

func (p *portList) String() string { return fmt.Sprint([]int(*p)) }

func (p *portList) Set(s string) error {
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q is not a port", f)
		}
		*p = append(*p, n)
	}
	return nil
}

var ownFlags = []string{"input", "output", "shards", "samples", "top", "cpuprofile", "date-from-path",
	"check", "per-host", "host-delay", "no-robots", "host-failures", "allow-port", "timeout", "retries", "check-jobs", "check-from", "max-age"}

const usageLine = "usage: pipeline --input GLOB --output DIR [--shards N] [--samples N] [--top N] [--date-from-path REGEX] [--check [--per-host N] [--host-delay D] [--check-from DIR] ...] [--runner prism|flink|spark|dataflow|universal ...]"

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
	if *input == "" || *output == "" || *shards < 0 || *samples < 0 || *topN < 1 ||
		*perHost < 1 || *hostDelay < 0 || *hostFailures < 1 || *retries < 0 || *checkJobs < 1 || *maxAge < 0 {
		fmt.Fprintln(os.Stderr, usageLine)
		fmt.Fprintln(os.Stderr, "pipeline --help lists the flags")
		os.Exit(2)
	}
	if _, err := regexp.Compile(*datePath); err != nil {
		fmt.Fprintf(os.Stderr, "pipeline: --date-from-path: %v\n", err)
		os.Exit(2)
	}
	if *checkFrom != "" && !*check {
		fmt.Fprintln(os.Stderr, "pipeline: --check-from is for a run with --check")
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
	o := Options{Input: *input, Output: *output, Shards: *shards, Samples: *samples, Top: *topN, DateFromPath: *datePath}
	if *check {
		o.Check = &CheckOptions{PerHost: *perHost, HostDelay: *hostDelay, NoRobots: *noRobots, HostFailures: *hostFailures,
			AllowPorts: allowPorts, Timeout: *checkTimeout, Retries: *retries, Jobs: *checkJobs,
			From: *checkFrom, MaxAge: *maxAge, Now: time.Now()}
	}
	Build(s, o)
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
	line := fmt.Sprintf("census: %d files (%d bad), %d bytes, %d documents: %d URLs (%d valid, %d invalid), %d distinct -> %s and %s",
		sum.Files, sum.FilesBad, sum.Bytes, sum.Documents, t.URLs, t.Valid, t.Invalid, t.Distinct,
		joinPath(out, fmt.Sprintf("urls-*-of-%05d.jsonl", sum.Shards)), name)
	if c := sum.Check; c != nil {
		v := c.Verdicts
		line += fmt.Sprintf("\ncheck: %d URLs (%d checked, %d reused): %d ok, %d broken, %d invalid, %d skipped -> %s",
			c.URLs, c.Checked, c.Reused, v["ok"], v["broken"], v["invalid"], v["skipped"],
			joinPath(out, fmt.Sprintf("checks-*-of-%05d.jsonl", sum.Shards)))
	}
	return line, nil
}
