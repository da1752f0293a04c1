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

// FuzzWARC: any input ends in records, a clean EOF or a *warcError, never
// a panic, and a block is never longer than its Content-Length.
func FuzzWARC(f *testing.F) {
	f.Add(warcRecordText("conversion", "http://a.example/", "text http://b.example/"))
	for _, tc := range badWARC {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		wr := newWARCReader(bufio.NewReaderSize(strings.NewReader(in), 4096))
		for {
			rec, err := wr.Next()
			if err != nil {
				var we *warcError
				if err != io.EOF && !errors.As(err, &we) {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			n, err := io.Copy(io.Discard, wr.Block())
			if n > rec.Length {
				t.Fatalf("block of %d bytes, Content-Length %d", n, rec.Length)
			}
			if err != nil {
				return
			}
		}
	})
}
