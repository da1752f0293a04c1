package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/rfc1738/rfc1738/extract"
)

func init() {
	register(&command{
		name:  "extract",
		short: "find URLs in text, as the Appendix says",
		args:  "[--json] [--valid-only] [--unique] [--strict] [--jobs N] [FILE ...]",
		summary: "Find URLs in text as the RFC 1738 Appendix says: <URL:…>, <…>, URL:… and bare, whole across line breaks. " +
			"Reads stdin when no FILE; gzip is read transparently. Files are scanned in parallel, output in input order. " +
			"Exit status 1 when no URL is found.",
		run: runExtract,
	})
}

// jsonMatch is one line of "rfc1738 extract --json". Its keys are fixed:
// scripts rely on them. Line and column count from 1, offsets from 0, in
// bytes of the (decompressed) input; the end is just after the URL.
type jsonMatch struct {
	URL       string     `json:"url"`
	File      string     `json:"file"`
	Line      int        `json:"line"`
	Column    int        `json:"column"`
	Offset    int64      `json:"offset"`
	EndLine   int        `json:"end_line"`
	EndColumn int        `json:"end_column"`
	EndOffset int64      `json:"end_offset"`
	Form      string     `json:"form"`
	Valid     bool       `json:"valid"`
	Fragment  *string    `json:"fragment"`
	Errors    []jsonDiag `json:"errors"`
	// Repaired is the strict form of an invalid URL whose unsafe octets
	// can be encoded (§2.2), null otherwise.
	Repaired *string    `json:"repaired"`
	Notes    []jsonNote `json:"notes"`
}

type jsonNote struct {
	Offset      int64   `json:"offset"`
	Message     string  `json:"message"`
	Alternative *string `json:"alternative"`
}

// extractBatch is a piece of one file's output, sent from the worker that
// scans the file to the writer.
type extractBatch struct {
	out  []byte
	urls []string // with --unique: the URL of each line
	ends []int    // with --unique: where each line ends in out
	err  error    // the file could not be read (whole or in part)
}

type extractOptions struct {
	json, validOnly, unique, strict bool
}

func runExtract(e *env, args []string) int {
	c := commands["extract"]
	fs := newFlags(e, c)
	var o extractOptions
	fs.BoolVar(&o.json, "json", false, `write JSON Lines: {"url","file","line","column","offset","end_line","end_column","end_offset","form","valid","fragment","errors","repaired","notes"}`)
	fs.BoolVar(&o.validOnly, "valid-only", false, "write only the URLs that are valid RFC 1738")
	fs.BoolVar(&o.unique, "unique", false, "write each URL once, where it is first found")
	fs.BoolVar(&o.strict, "strict", false, "end a bare URL at the first octet §2.2 calls unsafe (~, {, [ …) instead of taking it whole and reporting it invalid")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "files scanned at once")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	workers := max(1, min(*jobs, len(files)))

	// Each file has its own channel; a worker takes files in input order
	// and the writer drains the channels in the same order, so the output
	// is in input order and memory stays bounded: a worker ahead of the
	// writer waits once its file's channel is full.
	results := make([]chan extractBatch, len(files))
	for i := range results {
		results[i] = make(chan extractBatch, 4)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := extract.NewScanner(nil)
			sc.SetStrict(o.strict)
			for {
				k := int(next.Add(1) - 1)
				if k >= len(files) {
					return
				}
				extractFile(e, sc, files[k], o, results[k])
			}
		}()
	}

	out := bufio.NewWriterSize(e.stdout, 64*1024)
	seen := map[string]bool{}
	found, failed := false, false
	for k, ch := range results {
		for b := range ch {
			if b.err != nil {
				out.Flush()
				fmt.Fprintf(e.stderr, "rfc1738 extract: %s: %s\n", displayName(files[k]), libError(b.err, files[k]))
				failed = true
				continue
			}
			if !o.unique {
				found = found || len(b.out) > 0
				out.Write(b.out)
				continue
			}
			start := 0
			for i, u := range b.urls {
				if !seen[u] {
					seen[u] = true
					found = true
					out.Write(b.out[start:b.ends[i]])
				}
				start = b.ends[i]
			}
		}
	}
	wg.Wait()
	if err := out.Flush(); err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 extract:", err)
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

// extractFile scans one file (or stdin for "-") and sends its output in
// batches to ch, which it closes.
func extractFile(e *env, sc *extract.Scanner, name string, o extractOptions, ch chan<- extractBatch) {
	defer close(ch)
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			ch <- extractBatch{err: err}
			return
		}
		defer f.Close()
		r = f
	}
	// gzip is told by its magic number (RFC 1952 §2.3.1), not the name,
	// so a .gz on stdin is read too.
	br := bufio.NewReaderSize(r, 64*1024)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			ch <- extractBatch{err: err}
			return
		}
		r = zr
	} else {
		r = br
	}
	shown := displayName(name)
	var b extractBatch
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	sc.Reset(r)
	for sc.Scan() {
		m := sc.Match()
		if o.validOnly && !m.Valid {
			continue
		}
		if o.json {
			enc.Encode(newJSONMatch(shown, m))
		} else {
			buf.WriteString(m.URL)
			buf.WriteByte('\n')
		}
		if o.unique {
			b.urls = append(b.urls, m.URL)
			b.ends = append(b.ends, buf.Len())
		}
		if buf.Len() >= 32*1024 {
			b.out = bytes.Clone(buf.Bytes())
			ch <- b
			b = extractBatch{}
			buf.Reset()
		}
	}
	if buf.Len() > 0 {
		b.out = buf.Bytes()
		ch <- b
	}
	if err := sc.Err(); err != nil {
		ch <- extractBatch{err: err}
	}
}

func newJSONMatch(file string, m extract.Match) jsonMatch {
	j := jsonMatch{URL: m.URL, File: file,
		Line: m.Start.Line, Column: m.Start.Column, Offset: m.Start.Offset,
		EndLine: m.End.Line, EndColumn: m.End.Column, EndOffset: m.End.Offset,
		Form: m.Form.String(), Valid: m.Valid, Fragment: opt(m.Fragment()),
		Errors: diags(m.Errors), Repaired: opt(m.Repaired, m.Repaired != ""), Notes: []jsonNote{}}
	for _, n := range m.Notes {
		j.Notes = append(j.Notes, jsonNote{Offset: n.Offset, Message: n.Message, Alternative: opt(n.Alternative, n.Alternative != "")})
	}
	return j
}
