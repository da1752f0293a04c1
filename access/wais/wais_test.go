package wais

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/wais/ber"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hexOf(s string) string { return hex.EncodeToString([]byte(s)) }

// wireTests are APDUs checked byte by byte against Z39.50-1995 §3.2 (and
// seen decoded as intended by yaz-ztest -a -).
var wireTests = []struct {
	name string
	pdu  PDU
	hex  string
}{
	{"close finished", Close{Reason: 0},
		// [48] constructed: bf 30; closeReason [211] IMPLICIT INTEGER: 9f 81 53.
		"bf 30 05 9f 81 53 01 00"},
	{"init", NewInitRequest(Config{}),
		"b4 30" +
			"83 02 05 60" + // protocolVersion [3]: bits 1,2 (v2, v3) of 3
			"84 03 00 c0 00" + // options [4]: search, present
			"85 03 10 00 00" + // preferredMessageSize [5] 1 MiB
			"86 03 10 00 00" + // exceptionalRecordSize [6]
			"9f 6e 07" + hexOf("rfc1738") + // implementationId [110]
			"9f 6f 0c" + hexOf("rfc1738 wais") + // implementationName [111]
			"9f 70 01" + hexOf("1")}, // implementationVersion [112]
	{"search computer", mustSearch("Default", "computer"),
		"b6 41" +
			"8d 01 00 8e 01 01 8f 01 00 90 01 ff" + // set bounds [13]-[15], replaceIndicator [16]
			"91 07" + hexOf("default") + // resultSetName [17]
			"b2 0a 9f 69 07" + hexOf("Default") + // databaseNames [18] { [105] }
			"b5 1e a1 1c" + // query [21] { type-1 [1] RPNQuery
			"06 07 2a 86 48 ce 13 03 01" + // attributeSet Bib-1
			"a0 11 bf 66 0e bf 2c 00" + // op [0] { attrTerm [102] { attributes [44] {}
			"9f 2d 08" + hexOf("computer")}, // term general [45]
	{"present", NewPresentRequest("default", 1, 1, SUTRS),
		"b8 1f 9f 1f 07" + hexOf("default") + // resultSetId [31]
			"9e 01 01 9d 01 01" + // start [30], count [29]
			"b3 03 80 01 46" + // recordComposition simple [19] { generic [0] "F" }
			"9f 68 07 2a 86 48 ce 13 05 65"}, // preferredRecordSyntax [104] SUTRS
}

func mustSearch(db, terms string) SearchRequest {
	r, err := NewSearchRequest(db, terms)
	if err != nil {
		panic(err)
	}
	return r
}

func TestWire(t *testing.T) {
	for _, tt := range wireTests {
		got, err := ber.Marshal(tt.pdu.Element())
		if err != nil {
			t.Fatal(err)
		}
		if want := unhex(t, tt.hex); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got % x\nwant % x", tt.name, got, want)
		}
	}
}

// TestPDURoundTrip: every APDU decodes back to itself.
func TestPDURoundTrip(t *testing.T) {
	doc, _ := NewDocumentRequest("Default", "TEXT", "0 2 /x")
	pdus := []PDU{
		NewInitRequest(Config{MaxPDUSize: 4096}),
		InitResponse{Versions: 6, Options: OptSearch | OptPresent | OptScan, PreferredMessageSize: 1, ExceptionalRecordSize: 2, Result: true, ImplementationName: "x"},
		mustSearch("Default", "computer+water two"),
		doc,
		SearchResponse{ResultCount: 3, NumberOfRecordsReturned: 1, NextResultSetPosition: 2, SearchStatus: true,
			Records: []Record{{Database: "Default", Syntax: SUTRS, Data: []byte("hello")}}},
		SearchResponse{ResultSetStatus: 3, Diagnostics: []Diagnostic{{Set: Bib1Diagnostics, Code: 109, AddInfo: "xyz"}}},
		SearchResponse{Diagnostics: []Diagnostic{{Set: Bib1Diagnostics, Code: 1}, {Set: Bib1Diagnostics, Code: 2, AddInfo: "a"}}},
		NewPresentRequest("default", 5, 2, USMARC),
		PresentResponse{NumberOfRecordsReturned: 2, NextResultSetPosition: 3, PresentStatus: 1, Records: []Record{
			{Syntax: USMARC, Data: []byte{1, 2, 3}},
			{Database: "db1", Diagnostic: &Diagnostic{Set: Bib1Diagnostics, Code: 14, AddInfo: "bad"}}}},
		Close{Reason: 6, Diagnostic: "Malformed package"},
	}
	for _, p := range pdus {
		b, err := ber.Marshal(p.Element())
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodePDU(b)
		if err != nil {
			t.Errorf("%v: DecodePDU: %v", p, err)
			continue
		}
		if !reflect.DeepEqual(got, p) {
			t.Errorf("round trip:\n got %#v\nwant %#v", got, p)
		}
	}
}

var stringTests = []struct {
	pdu  PDU
	want string
}{
	{NewInitRequest(Config{}), `InitializeRequest{version=2,3 options=search,present preferredMessageSize=1048576 exceptionalRecordSize=1048576 implementation="rfc1738"/"rfc1738 wais"/"1"}`},
	{mustSearch("Default", "computer+water"), `SearchRequest{resultSet="default" replace=true databases=Default query=type-1 @attrset 1.2.840.10003.3.1 @and "computer" "water" smallSetUpperBound=0 largeSetLowerBound=1 mediumSetPresentNumber=0}`},
	{SearchResponse{ResultSetStatus: 3, Diagnostics: []Diagnostic{{Set: Bib1Diagnostics, Code: 109, AddInfo: "xyz"}}},
		`SearchResponse{status=failure hits=0 returned=0 next=0 resultSetStatus=none diagnostic=109 "Database unavailable" addinfo="xyz"}`},
	{NewPresentRequest("default", 1, 3, USMARC), `PresentRequest{resultSet="default" start=1 count=3 elementSet=F syntax=USMARC}`},
	{PresentResponse{NumberOfRecordsReturned: 1, NextResultSetPosition: 2, Records: []Record{{Database: "Default", Syntax: SUTRS, Data: []byte("abc")}}},
		`PresentResponse{status=success returned=1 next=2 records=[Default/SUTRS:3B]}`},
	{Close{Reason: 0}, `Close{reason=finished}`},
}

func TestPDUString(t *testing.T) {
	for _, tt := range stringTests {
		if got := tt.pdu.String(); got != tt.want {
			t.Errorf("String:\n got %s\nwant %s", got, tt.want)
		}
	}
	doc, _ := NewDocumentRequest("Default", "TEXT", "0 2 /x")
	if s := doc.String(); !strings.Contains(s, `query=type-0 WAISDocumentQuery{type="TEXT" docid="0 2 /x"}`) || !strings.Contains(s, "syntax=SUTRS") {
		t.Errorf("document request = %s", s)
	}
}

func TestSplitTerms(t *testing.T) {
	for in, want := range map[string][]string{
		"computer":         {"computer"},
		"computer+water":   {"computer", "water"},
		"  a + b\tc ":      {"a", "b", "c"},
		"+++":              nil,
		"some words+here ": {"some", "words", "here"},
	} {
		if got := SplitTerms(in); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
			t.Errorf("SplitTerms(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMARCText renders a small ISO 2709 record built by hand.
func TestMARCText(t *testing.T) {
	fields := []struct{ tag, data string }{
		{"001", "123\x1e"},
		{"245", "10\x1faHow to program\x1fcJ. C.\x1e"},
	}
	var dir, data string
	for _, f := range fields {
		dir += f.tag + pad(len(f.data), 4) + pad(len(data), 5)
		data += f.data
	}
	base := 24 + len(dir) + 1
	rec := "00000nam  22" + pad(base, 5) + "   4500" + dir + "\x1e" + data + "\x1d"
	rec = pad(len(rec), 5) + rec[5:]
	got, err := MARCText([]byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	want := rec[:24] + "\n001 123\n245 10 $a How to program $c J. C.\n"
	if got != want {
		t.Errorf("MARCText =\n%q\nwant\n%q", got, want)
	}
	for _, bad := range []string{"", "short", rec[:30], strings.Replace(rec, "0004", "9999", 1)} {
		if _, err := MARCText([]byte(bad)); err == nil {
			t.Errorf("MARCText(%q) did not fail", bad)
		}
	}
}

func pad(n, width int) string {
	s := strings.Repeat("0", width) + itoa(n)
	return s[len(s)-width:]
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// fake is a scripted Z39.50 target on 127.0.0.1:0. Each step reads one
// APDU from the client and writes the bytes it returns (nil: write
// nothing; the step may also close the connection).
type fake struct {
	addr string
	got  chan PDU
}

func startFake(t *testing.T, steps ...func(req PDU, c net.Conn) []byte) *fake {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{addr: ln.Addr().String(), got: make(chan PDU, 16)}
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); <-done })
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		r := ber.NewReader(c, 1<<20)
		for _, step := range steps {
			b, err := r.ReadPDU()
			if err != nil {
				return
			}
			p, err := DecodePDU(b)
			if err != nil {
				return
			}
			f.got <- p
			if out := step(p, c); out != nil {
				if _, err := c.Write(out); err != nil {
					return
				}
			}
		}
		// Wait for the client to hang up.
		io.Copy(io.Discard, c)
	}()
	return f
}

func reply(p PDU) func(PDU, net.Conn) []byte {
	return func(PDU, net.Conn) []byte {
		b, err := ber.Marshal(p.Element())
		if err != nil {
			panic(err)
		}
		return b
	}
}

var acceptInit = reply(InitResponse{Versions: 6, Options: OptSearch | OptPresent, PreferredMessageSize: 1 << 20, ExceptionalRecordSize: 1 << 20, Result: true})

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestFakeTruncatedPDU(t *testing.T) {
	whole, _ := ber.Marshal(InitResponse{Versions: 6, Result: true}.Element())
	f := startFake(t, func(_ PDU, c net.Conn) []byte {
		c.Write(whole[:len(whole)-3])
		c.Close()
		return nil
	})
	_, err := Dial(testCtx(t), f.addr, Config{})
	var pe *ProtocolError
	if !errors.As(err, &pe) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Dial = %v (%T), want a *ProtocolError wrapping io.ErrUnexpectedEOF", err, err)
	}
	if pe.Op != "init" {
		t.Errorf("Op = %q", pe.Op)
	}
}

func TestFakeOversizedPDU(t *testing.T) {
	f := startFake(t, func(PDU, net.Conn) []byte {
		return unhex(t, "b5 84 00 a0 00 00 00 00") // InitResponse announcing 10 MB
	})
	_, err := Dial(testCtx(t), f.addr, Config{MaxPDUSize: 4096})
	var tl *ber.TooLargeError
	if !errors.As(err, &tl) || tl.Max != 4096 {
		t.Fatalf("Dial = %v, want a *ber.TooLargeError with Max 4096", err)
	}
}

func TestFakeNotAnAPDU(t *testing.T) {
	for _, h := range []string{
		"30 03 02 01 05",                      // a universal SEQUENCE
		"b5 03 83 01 00",                      // InitResponse missing required fields
		"b5 05 83 01 00 8c 80",                // bad BER inside
		"b5 0a 83 01 00 84 01 00 85 03 10 00", // [5] overruns the APDU
	} {
		f := startFake(t, func(PDU, net.Conn) []byte { return unhex(t, h) })
		_, err := Dial(testCtx(t), f.addr, Config{})
		var pe *ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("% s: Dial = %v, want a *ProtocolError", h, err)
		}
	}
}

func TestFakeInitRefused(t *testing.T) {
	f := startFake(t, reply(InitResponse{Versions: 2, Result: false, ImplementationName: "picky"}))
	_, err := Dial(testCtx(t), f.addr, Config{})
	var re *InitRefusedError
	if !errors.As(err, &re) || re.Response.ImplementationName != "picky" {
		t.Fatalf("Dial = %v, want *InitRefusedError", err)
	}
}

func TestFakeDeadline(t *testing.T) {
	f := startFake(t, func(PDU, net.Conn) []byte { return nil }) // never answers
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Dial(ctx, f.addr, Config{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Dial = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Dial returned after %v", d)
	}
}

func TestFakeCancel(t *testing.T) {
	f := startFake(t, acceptInit, func(PDU, net.Conn) []byte { return nil })
	c, err := Dial(testCtx(t), f.addr, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-f.got; <-f.got; cancel() }() // init, then the search arrives
	_, err = c.Search(ctx, "Default", "computer")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Search = %v, want context.Canceled", err)
	}
	if _, err := c.Search(testCtx(t), "Default", "x"); err == nil {
		t.Error("a Conn whose request was cancelled is still usable")
	}
}

// TestFakeRefusesCRLF: §6 guards fire before anything is sent.
func TestFakeRefusesCRLF(t *testing.T) {
	f := startFake(t, acceptInit, reply(SearchResponse{ResultCount: 1, NextResultSetPosition: 1, SearchStatus: true}), reply(Close{}))
	c, err := Dial(testCtx(t), f.addr, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	<-f.got // init
	ctx := testCtx(t)
	for _, call := range []func() error{
		func() error { _, err := c.Search(ctx, "Default", "comp\r\nuter"); return err },
		func() error { _, err := c.Search(ctx, "Def\x00ault", "x"); return err },
		func() error { _, err := c.Retrieve(ctx, "Default", "TEXT", "a\nb"); return err },
		func() error { _, err := c.Retrieve(ctx, "Default", "TE\rXT", "ab"); return err },
	} {
		var ae *ArgError
		if err := call(); !errors.As(err, &ae) {
			t.Errorf("err = %v, want *ArgError", err)
		}
	}
	// Nothing went out: the next APDU the fake sees is this search.
	if res, err := c.Search(ctx, "Default", "ok"); err != nil || res.Hits != 1 {
		t.Fatalf("Search = %+v, %v", res, err)
	}
	p := <-f.got
	if sr, ok := p.(SearchRequest); !ok || !reflect.DeepEqual(sr.Query.Terms, []string{"ok"}) {
		t.Errorf("fake got %v", p)
	}
}

// TestFakeExchange checks the exact APDU sequence of a search and present,
// and how records and diagnostics come back.
func TestFakeExchange(t *testing.T) {
	marc := []byte("not really marc")
	f := startFake(t, acceptInit,
		reply(SearchResponse{ResultCount: 2, NextResultSetPosition: 1, SearchStatus: true}),
		reply(PresentResponse{NumberOfRecordsReturned: 2, NextResultSetPosition: 3, PresentStatus: 2, Records: []Record{
			{Database: "db", Syntax: USMARC, Data: marc},
			{Diagnostic: &Diagnostic{Set: Bib1Diagnostics, Code: 14, AddInfo: "gone"}}}}),
		reply(PresentResponse{PresentStatus: 5, Diagnostics: []Diagnostic{{Set: Bib1Diagnostics, Code: 13, AddInfo: "99"}}}),
		reply(Close{Reason: 0}),
	)
	var trace []string
	c, err := Dial(testCtx(t), f.addr, Config{Trace: func(d byte, l string) { trace = append(trace, string(d)+" "+l) }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	if _, err := c.Search(ctx, "db", "a+b"); err != nil {
		t.Fatal(err)
	}
	recs, err := c.Present(ctx, 1, 2, USMARC)
	if err != nil || len(recs) != 2 {
		t.Fatalf("Present = %v, %v", recs, err)
	}
	if !bytes.Equal(recs[0].Data, marc) || recs[0].Database != "db" || recs[1].Diagnostic == nil || recs[1].Diagnostic.Code != 14 {
		t.Errorf("records = %+v", recs)
	}
	if !strings.Contains(recs[0].Text(), "15 bytes of record syntax USMARC") {
		t.Errorf("Text of a bad MARC record = %q", recs[0].Text())
	}
	_, err = c.Present(ctx, 99, 1, nil)
	var d *Diagnostic
	if !errors.As(err, &d) || d.Code != 13 || d.AddInfo != "99" || !strings.Contains(d.Error(), "Present request out of range") {
		t.Errorf("Present out of range = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	var kinds []string
	for range 5 {
		kinds = append(kinds, pduName(<-f.got))
	}
	if want := []string{"InitializeRequest", "SearchRequest", "PresentRequest", "PresentRequest", "Close"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("fake got %v, want %v", kinds, want)
	}
	if len(trace) != 10 || !strings.HasPrefix(trace[3], "< SearchResponse{status=success hits=2") {
		t.Errorf("trace:\n%s", strings.Join(trace, "\n"))
	}
}

func TestFakeCloseInsteadOfAnswer(t *testing.T) {
	f := startFake(t, acceptInit, reply(Close{Reason: 2, Diagnostic: "out of disk"}))
	c, err := Dial(testCtx(t), f.addr, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Search(testCtx(t), "db", "x")
	var ce *ClosedError
	if !errors.As(err, &ce) || ce.Close.Reason != 2 || !strings.Contains(err.Error(), "systemProblem") {
		t.Fatalf("Search = %v, want *ClosedError systemProblem", err)
	}
}

func FuzzDecodePDU(f *testing.F) {
	for _, tt := range wireTests {
		f.Add(unhex(f, tt.hex))
	}
	b, _ := ber.Marshal(PresentResponse{Records: []Record{{Syntax: SUTRS, Data: []byte("x")}, {Diagnostic: &Diagnostic{Code: 1}}}}.Element())
	f.Add(b)
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePDU(data)
		if err != nil {
			return
		}
		_ = p.String()
		for _, r := range recordsOf(p) {
			_ = r.Text()
		}
	})
}

func recordsOf(p PDU) []Record {
	switch p := p.(type) {
	case SearchResponse:
		return p.Records
	case PresentResponse:
		return p.Records
	}
	return nil
}

func BenchmarkDecodePresentResponse(b *testing.B) {
	var recs []Record
	for range 10 {
		recs = append(recs, Record{Database: "Default", Syntax: SUTRS, Data: []byte("This is dummy SUTRS record number 1\n")})
	}
	in, _ := ber.Marshal(PresentResponse{NumberOfRecordsReturned: 10, NextResultSetPosition: 11, Records: recs}.Element())
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodePDU(in); err != nil {
			b.Fatal(err)
		}
	}
}
