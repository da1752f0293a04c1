package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// warcRecordText is one WARC/1.0 record as Common Crawl writes it.
func warcRecordText(typ, uri, block string) string {
	var b strings.Builder
	b.WriteString("WARC/1.0\r\n")
	fmt.Fprintf(&b, "WARC-Type: %s\r\n", typ)
	if uri != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", uri)
	}
	b.WriteString("WARC-Date: 2026-11-24T01:00:00Z\r\n")
	b.WriteString("Content-Type: text/plain\r\n")
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(block))
	b.WriteString(block)
	b.WriteString("\r\n\r\n")
	return b.String()
}

// gzipMembers compresses each piece as its own gzip member, as a .warc.gz
// holds one member per record.
func gzipMembers(t testing.TB, pieces ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, p := range pieces {
		zw := gzip.NewWriter(&buf)
		if _, err := zw.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

type readRecord struct {
	Type, URI, Block string
}

func readAllRecords(r io.Reader) ([]readRecord, error) {
	wr := newWARCReader(bufio.NewReaderSize(r, 4096))
	var out []readRecord
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		b, err := io.ReadAll(wr.Block())
		if err != nil {
			return out, err
		}
		out = append(out, readRecord{rec.Type, rec.TargetURI, string(b)})
	}
}

func TestWARCRecords(t *testing.T) {
	in := warcRecordText("warcinfo", "", "software: test\r\n") +
		warcRecordText("conversion", "http://a.example/", "See http://b.example/x.\nEnd") +
		// A folded field (ISO 28500 §4: a continuation line starts with
		// SP or HT) and LF-only line ends, which some writers produce.
		"WARC/1.1\nWARC-Type: conversion\nWARC-Target-URI: http://c.example/\n  long\nContent-Length: 3\n\nabc\n\n"
	want := []readRecord{
		{"warcinfo", "", "software: test\r\n"},
		{"conversion", "http://a.example/", "See http://b.example/x.\nEnd"},
		{"conversion", "http://c.example/ long", "abc"},
	}
	for _, r := range []io.Reader{strings.NewReader(in), gzipOf(t, in)} {
		got, err := readAllRecords(r)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("got %q\nwant %q", got, want)
		}
	}
	// The block need not be read: Next skips what is left of it.
	wr := newWARCReader(bufio.NewReader(strings.NewReader(in)))
	for i := range want {
		rec, err := wr.Next()
		if err != nil || rec.Type != want[i].Type {
			t.Fatalf("record %d: %v %v", i, rec, err)
		}
	}
	if _, err := wr.Next(); err != io.EOF {
		t.Errorf("after the last record: %v, want io.EOF", err)
	}
}

func gzipOf(t *testing.T, s string) io.Reader {
	zr, err := gzip.NewReader(bytes.NewReader(gzipMembers(t, s[:len(s)/2], s[len(s)/2:])))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

var badWARC = []struct {
	name, in string
	offset   int64
	msg      string
}{
	{"not a version line", "WARC/1.0\r\nContent-Length: 0\r\n\r\n\r\n\r\nHTTP/1.0 200\r\n", 35, `want a version line "WARC/1.1", found "HTTP/1.0 200"`},
	{"no Content-Length", "WARC/1.0\r\nWARC-Type: resource\r\n\r\nabc\r\n\r\n", 0, "no Content-Length"},
	{"Content-Length not a number", "WARC/1.0\r\nContent-Length: 12x\r\n\r\n", 10, `Content-Length "12x" is not a length`},
	{"negative Content-Length", "WARC/1.0\r\nContent-Length: -1\r\n\r\n", 10, "is not a length"},
	{"a field without a colon", "WARC/1.0\r\nWARC-Type resource\r\n\r\n", 10, "want a field"},
	{"a continuation first", "WARC/1.0\r\n more\r\n\r\n", 10, "a continuation line before any field"},
	{"header cut", "WARC/1.0\r\nWARC-Type: resource\r\n", 31, "ends before its empty line"},
	{"block cut", "WARC/1.0\r\nContent-Length: 100\r\n\r\nabc", 36, "ends 3 bytes into a block of Content-Length 100"},
	{"line too long", "WARC/1.0\r\nX: " + strings.Repeat("a", maxWARCLine) + "\r\n\r\n", 10, "header line longer than"},
}

func TestWARCMalformed(t *testing.T) {
	for _, tc := range badWARC {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAllRecords(strings.NewReader(tc.in))
			var we *warcError
			if !errors.As(err, &we) {
				t.Fatalf("got %v, want a *warcError", err)
			}
			if we.Offset != tc.offset || !strings.Contains(we.Msg, tc.msg) {
				t.Errorf("got offset %d %q, want offset %d %q", we.Offset, we.Msg, tc.offset, tc.msg)
			}
		})
	}
}

// FuzzWARC: any input ends in records, malformed records (a *warcError,
// after which the reader goes on) and a clean EOF, never a panic or any
// other error; every call of Next reads on, so the end comes; and a block
// is never longer than its Content-Length.
func FuzzWARC(f *testing.F) {
	f.Add(warcRecordText("conversion", "http://a.example/", "text http://b.example/"))
	for _, tc := range badWARC {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		wr := newWARCReader(bufio.NewReaderSize(strings.NewReader(in), 4096))
		for calls := 0; ; calls++ {
			if calls > len(in)+1 {
				t.Fatalf("%d calls of Next on %d bytes", calls, len(in))
			}
			rec, err := wr.Next()
			var we *warcError
			if err == io.EOF {
				return
			}
			if errors.As(err, &we) {
				continue
			}
			if err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			n, err := io.Copy(io.Discard, wr.Block())
			if n > rec.Length {
				t.Fatalf("block of %d bytes, Content-Length %d", n, rec.Length)
			}
			if err != nil && !errors.As(err, &we) {
				t.Fatalf("unexpected error %v", err)
			}
		}
	})
}

// warcEvents reads a WARC stream to its end as the census does, going on
// after each malformed record, and returns what it met: "OFFSET TYPE URI
// BLOCK" per record, "OFFSET error MSG" per malformed one.
func warcEvents(t *testing.T, in string) []string {
	t.Helper()
	wr := newWARCReader(bufio.NewReaderSize(strings.NewReader(in), 4096))
	var out []string
	for range 1000 {
		rec, err := wr.Next()
		if err == io.EOF {
			return out
		}
		var we *warcError
		if errors.As(err, &we) {
			out = append(out, fmt.Sprintf("%d error %s", we.Offset, we.Msg))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(wr.Block())
		if errors.As(err, &we) {
			out = append(out, fmt.Sprintf("%d error %s", we.Offset, we.Msg))
			continue
		}
		out = append(out, fmt.Sprintf("%d %s %s %q", rec.Offset, rec.Type, rec.TargetURI, b))
	}
	t.Fatal("no end after 1000 records")
	return nil
}

// TestWARCResync: after a malformed record the reader goes on at the next
// line that starts with "WARC/1.", so one bad record costs only itself.
func TestWARCResync(t *testing.T) {
	good := warcRecordText("conversion", "http://after.example/", "text")
	for _, tc := range badWARC {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in + good
			if tc.name == "block cut" {
				in = tc.in // a longer stream would fill the block
			}
			got := warcEvents(t, in)
			// The fault: its offset, and (as in TestWARCMalformed) a
			// message that contains tc.msg.
			fault, fi := fmt.Sprintf("%d error ", tc.offset), 0
			if tc.name == "not a version line" {
				fi = 1
			}
			if len(got) > fi && strings.HasPrefix(got[fi], fault) && strings.Contains(got[fi], tc.msg) {
				fault = got[fi]
			}
			want := []string{
				fault,
				fmt.Sprintf(`%d conversion http://after.example/ "text"`, len(tc.in)),
			}
			switch tc.name {
			case "not a version line": // a good record, then the fault
				want = append([]string{`0   ""`}, want...)
			case "header cut": // the next record's version line ends the header
				want[0] = fmt.Sprintf("%d error a new record begins before the header's empty line", tc.offset)
			case "block cut": // reported once, then the end
				want = want[:1]
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("got  %q\nwant %q", got, want)
			}
		})
	}
	// A Content-Length too short: what follows the block is not a version
	// line ("WARC/0.9" is not one either), and the next record is found
	// after it; then garbage with a line longer than the buffer, and a
	// version line with no header before the next record.
	in := "WARC/1.0\r\nWARC-Type: conversion\r\nContent-Length: 4\r\n\r\nfour and more\r\nWARC/0.9 no\r\n\r\n" + good +
		"garbage " + strings.Repeat("x", 10000) + "\nWARC/1.1 \r\n" + good
	first, last := strings.Index(in, good), len(in)-len(good)
	want := []string{
		`0 conversion  "four"`,
		fmt.Sprintf(`%d error want a version line "WARC/1.1", found " and more"`, strings.Index(in, " and more")),
		fmt.Sprintf(`%d conversion http://after.example/ "text"`, first),
		fmt.Sprintf(`%d error a header line longer than %d bytes`, strings.Index(in, "garbage"), maxWARCLine),
		fmt.Sprintf(`%d error a new record begins before the header's empty line`, last),
		fmt.Sprintf(`%d conversion http://after.example/ "text"`, last),
	}
	if got := warcEvents(t, in); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestYearOf: the year a WARC-Date or a path starts with, its first four
// digits standing alone; anything else is undated, never a wrong year.
func TestYearOf(t *testing.T) {
	for in, want := range map[string]int{
		"2016-09-19T17:20:24Z": 2016, "2016": 2016, "/2019/": 2019, "x2021y": 2021,
		"": 0, "garbage": 0, "20160919": 0, "99999-01-01": 0, "0000-01-01": 0,
		"16-09-19": 0, "1-2-3": 0, "201": 0, "2016x2017": 2016, "\x002016": 2016,
	} {
		if got := yearOf(in); got != want {
			t.Errorf("yearOf(%q) = %d, want %d", in, got, want)
		}
	}
}
