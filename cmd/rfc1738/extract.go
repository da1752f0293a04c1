package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/rfc1738/rfc1738/extract"
)

func init() {
	register(&command{
		name:  "extract",
		short: "find URLs in text, as the Appendix says",
		args:  "[--json] [--valid-only] [--unique] [--strict] [--jobs N] [FILE ...]",
		summary: "Find URLs in text as the RFC 1738 Appendix says: <URL:…>, <…>, URL:… and bare, whole across line breaks. " +
			"Reads stdin when no FILE; gzip is read transparently. Files, and pieces of a large file, are scanned in parallel, " +
			"output in input order. Exit status 1 when no URL is found.",
		run: runExtract,
	})
}

// The JSON keys of "rfc1738 extract --json", one object a line, in this
// order (scripts rely on them): url, file, line, column, offset,
// end_line, end_column, end_offset, form, valid, fragment (null when the
// URL has no '#'), errors [{offset, rule, message}], repaired (the strict
// form of an invalid URL whose unsafe octets can be encoded, §2.2, else
// null) and notes [{offset, message, alternative}]. Line and column count
// from 1, offsets from 0, in bytes of the (decompressed) input; the end
// is just after the URL.

// extractBatch is output of one unit, sent from the worker that scans it
// to the writer.
type extractBatch struct {
	out  []byte
	urls []string // with --unique: the URL of each line
	ends []int    // with --unique: where each line ends in out
	err  error    // the file could not be read (whole or in part)
}

type extractOptions struct {
	json, validOnly, unique, strict bool
}

// extractUnit is what one worker scans at a time: a whole file read as a
// stream, or a piece of a file in memory. Units go to the workers and to
// the writer in input order; the writer drains each unit's channel in
// turn.
type extractUnit struct {
	name string // as given; "-" for stdin
	src  *extractSource
	// A piece of src.data: data[from:to], whose first line is line+1
	// (line counted with --json only).
	from, to int
	line     int
	err      error               // the file could not be opened
	out      chan []extractBatch // the output (see scan)
}

// extractSource is a file in memory (mapped), shared by its pieces; the
// last piece done releases it.
type extractSource struct {
	data    []byte    // the file in memory, or nil
	r       io.Reader // else the file as a stream
	release func()
	mu      sync.Mutex
	left    int
}

func (s *extractSource) done() {
	s.mu.Lock()
	s.left--
	last := s.left == 0
	s.mu.Unlock()
	if last && s.release != nil {
		s.release()
	}
}

// The sizes a file in memory is cut to: pieces of about a quarter of the
// file per job, at least extractPieceMin bytes, at most extractPieceMax.
// A file under extractSplitMin is not cut: scanning pieces at once costs
// a fixed ~10 ms of CPU (the output of a piece ahead held in new memory,
// a second thread, a garbage collection), more than half of what
// scanning 30 MB of documentation takes on one core, for a tenth of its
// wall time; at 190 MB the pieces cost no more CPU than one core and save
// a quarter of the wall time (docs/performance.md). Several files are
// still scanned at once, each whole.
var (
	extractPieceMin = 1 << 20 // tests make these small
	extractPieceMax = 16 << 20
	extractSplitMin = 64 << 20
)

func runExtract(e *env, args []string) int {
	c := commands["extract"]
	fs := newFlags(e, c)
	var o extractOptions
	fs.BoolVar(&o.json, "json", false, `write JSON Lines: {"url","file","line","column","offset","end_line","end_column","end_offset","form","valid","fragment","errors","repaired","notes"}`)
	fs.BoolVar(&o.validOnly, "valid-only", false, "write only the URLs that are valid RFC 1738")
	fs.BoolVar(&o.unique, "unique", false, "write each URL once, where it is first found")
	fs.BoolVar(&o.strict, "strict", false, "end a bare URL at the first octet §2.2 calls unsafe (~, {, [ …) instead of taking it whole and reporting it invalid")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "files, or pieces of a large file, scanned at once")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	workers := max(1, *jobs)

	// The dispatcher opens the files in input order and hands out their
	// units; the writer takes them in the same order. At most a few units
	// per worker are open at a time, so memory stays bounded: a unit's
	// output waits in its channel until the writer reaches it.
	work := make(chan *extractUnit)
	free := make(chan []byte, 8*workers) // output buffers the writer is done with
	order := make(chan *extractUnit, 2*workers)
	go func() {
		defer close(work)
		defer close(order)
		debug.SetPanicOnFault(true) // see mappedFault
		for _, name := range files {
			for _, u := range extractUnits(e, name, workers, o.json) {
				order <- u
				work <- u
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			debug.SetPanicOnFault(true) // see mappedFault
			sc := extract.NewScanner(nil)
			sc.SetStrict(o.strict)
			f := extractFormatter{free: free}
			for u := range work {
				f.scan(sc, u, o)
			}
		}()
	}

	out := bufio.NewWriterSize(e.stdout, 64*1024)
	seen := map[string]bool{}
	found, failed := false, false
	for u := range order {
		for bs := range u.out {
			for _, b := range bs {
				if b.err != nil {
					out.Flush()
					fmt.Fprintf(e.stderr, "rfc1738 extract: %s: %s\n", displayName(u.name), libError(b.err, u.name))
					failed = true
					continue
				}
				if !o.unique {
					found = found || len(b.out) > 0
					out.Write(b.out)
				} else {
					start := 0
					for i, url := range b.urls {
						if !seen[url] {
							seen[url] = true
							found = true
							out.Write(b.out[start:b.ends[i]])
						}
						start = b.ends[i]
					}
				}
				select {
				case free <- b.out[:0]:
				default:
				}
			}
		}
	}
	wg.Wait()
	if err := out.Flush(); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 extract:", errText(err))
		return exitUsage
	}
	switch {
	case failed:
		return exitUsage
	case found:
		return exitOK
	}
	return exitNegative
}

func displayName(name string) string {
	if name == "-" {
		return "<stdin>"
	}
	return name
}

// extractUnits opens a file (stdin for "-") and returns its units: a
// regular file is mapped into memory and, when large, cut into pieces
// that the workers scan at once (see extractCuts); anything else (a
// pipe, a file that cannot be mapped) is one unit read as a stream.
// Lines are counted only for JSON, which prints them.
func extractUnits(e *env, name string, jobs int, lines bool) (units []*extractUnit) {
	one := func(u *extractUnit) []*extractUnit {
		u.name = name
		u.out = make(chan []extractBatch, 4)
		return []*extractUnit{u}
	}
	var f *os.File
	if name == "-" {
		f, _ = e.stdin.(*os.File)
		if f == nil {
			return one(&extractUnit{src: &extractSource{r: e.stdin, left: 1}})
		}
	} else {
		var err error
		if f, err = os.Open(name); err != nil {
			return one(&extractUnit{err: err})
		}
	}
	data, release := mapFile(f)
	if data == nil {
		// Streamed: the worker reads f, and closes it unless it is stdin.
		src := &extractSource{r: f, left: 1}
		if name != "-" {
			src.release = func() { f.Close() }
		}
		return one(&extractUnit{src: src})
	}
	if name != "-" {
		f.Close() // the mapping stays
	}
	defer func() {
		if err := mappedFault(recover()); err != nil {
			release()
			units = one(&extractUnit{err: err})
		}
	}()
	src := &extractSource{data: data, release: release}
	cuts := []int{0}
	// gzip (RFC 1952 §2.3.1, by its magic number) is read as a stream
	// from memory: it cannot be cut.
	if jobs > 1 && len(data) >= extractSplitMin && !isGzip(data) {
		piece := min(max(len(data)/(4*jobs), extractPieceMin), extractPieceMax)
		cuts = append(cuts, extractCuts(data, piece)...)
	}
	cuts = append(cuts, len(data))
	units = make([]*extractUnit, len(cuts)-1)
	src.left = len(units)
	line := 0
	for i := range units {
		if lines && i > 0 {
			line += bytes.Count(data[cuts[i-1]:cuts[i]], nl)
		}
		units[i] = &extractUnit{name: name, src: src, from: cuts[i], to: cuts[i+1], line: line,
			out: make(chan []extractBatch, 4)}
	}
	return units
}

var nl = []byte{'\n'}

// errFileShrank is a mapped file's error when it shrank while it was
// read.
var errFileShrank = errors.New("the file shrank while it was read: its end was not read (run again)")

// mappedFault returns errFileShrank for r, a recovered panic, when it is a
// memory fault: a mapped file that shrinks while it is read faults on the
// pages past its new end (SIGBUS), and a goroutine that reads mapped
// memory sets debug.SetPanicOnFault, so the fault is a panic it recovers
// instead of the end of the process. nil for no panic; any other panic
// goes on.
func mappedFault(r any) error {
	if r == nil {
		return nil
	}
	if _, ok := r.(interface{ Addr() uintptr }); ok {
		return errFileShrank
	}
	panic(r)
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }
