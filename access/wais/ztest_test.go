package wais

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// These tests run against yaz-ztest (shared/reference/loopback-servers.md
// §4), a standard Z39.50 v2/v3 target: databases Default, Slow and db1;
// "computer" gives 23 hits; SUTRS records read "This is dummy SUTRS record
// number N"; USMARC gives one fixed record; other databases give 109.

func dialZtest(t *testing.T) (*Conn, *[]string) {
	t.Helper()
	d := testserver.YazZtest(t)
	var trace []string
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, d.Addr, Config{Trace: func(dir byte, line string) {
		trace = append(trace, string(dir)+" "+line)
		t.Logf("%c %s", dir, line)
	}})
	if err != nil {
		t.Fatalf("Dial %s: %v", d.Addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return c, &trace
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestZtestInit(t *testing.T) {
	c, trace := dialZtest(t)
	ir := c.InitResponse()
	if !ir.Result || ir.Options&OptSearch == 0 || ir.Options&OptPresent == 0 {
		t.Errorf("InitResponse = %v, want accepted with search and present", ir)
	}
	if v := ir.Versions.Highest(); v != 2 && v != 3 {
		t.Errorf("negotiated version %d, want 2 or 3", v)
	}
	if ir.ImplementationName == "" {
		t.Errorf("target sent no implementationName: %v", ir)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	want := []string{"> InitializeRequest{", "< InitializeResponse{result=accepted", "> Close{reason=finished}", "< Close{"}
	if len(*trace) != len(want) {
		t.Fatalf("trace = %q", *trace)
	}
	for i, w := range want {
		if !strings.HasPrefix((*trace)[i], w) {
			t.Errorf("trace[%d] = %q, want prefix %q", i, (*trace)[i], w)
		}
	}
}

func TestZtestSearchPresent(t *testing.T) {
	c, _ := dialZtest(t)
	ctx := ctxT(t)
	res, err := c.Search(ctx, "Default", "computer")
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	if res.Hits != 23 || res.ResultSetName != "default" || len(res.Diagnostics) != 0 {
		t.Errorf("Search computer = %+v, want 23 hits", res)
	}
	recs, err := c.Present(ctx, 1, 3, SUTRS)
	if err != nil {
		t.Fatalf("Present SUTRS: %v", err)
	}
	if len(recs) != 3 {
		t.Fatalf("Present 1+3 gave %d records", len(recs))
	}
	for i, r := range recs {
		want := "This is dummy SUTRS record number " + string(rune('1'+i))
		if !r.Syntax.Equal(SUTRS) || strings.TrimSpace(r.Text()) != want || r.Database != "Default" {
			t.Errorf("record %d = %s %q (db %q), want SUTRS %q", i+1, syntaxName(r.Syntax), r.Text(), r.Database, want)
		}
	}
	recs, err = c.Present(ctx, 1, 1, USMARC)
	if err != nil {
		t.Fatalf("Present USMARC: %v", err)
	}
	if len(recs) != 1 || !recs[0].Syntax.Equal(USMARC) {
		t.Fatalf("Present USMARC = %+v", recs)
	}
	text := recs[0].Text()
	for _, w := range []string{"245 10 $a How to program a computer", "100 10 $a Jack Collins", "001 "} {
		if !strings.Contains(text, w) {
			t.Errorf("USMARC text lacks %q:\n%s", w, text)
		}
	}
	// Two words are ANDed: @and computer water (6 hits on yaz-ztest, fewer
	// than either word alone).
	res, err = c.Search(ctx, "Default", "computer+water")
	if err != nil || res.Hits != 6 {
		t.Errorf("Search computer+water = %+v, %v; want 6 hits", res, err)
	}
	res, err = c.Search(ctx, "Default", "water")
	if err != nil || res.Hits != 19 {
		t.Errorf("Search water = %+v, %v; want 19 hits", res, err)
	}
}

func TestZtestUnknownDatabase(t *testing.T) {
	c, _ := dialZtest(t)
	ctx := ctxT(t)
	res, err := c.Search(ctx, "xyz", "test")
	var d *Diagnostic
	if !errors.As(err, &d) {
		t.Fatalf("Search on xyz: err = %v, want a *Diagnostic", err)
	}
	if d.Code != 109 || d.AddInfo != "xyz" || !d.Set.Equal(Bib1Diagnostics) {
		t.Errorf("diagnostic = %+v, want Bib-1 109 addinfo xyz", d)
	}
	if !strings.Contains(err.Error(), "109") || !strings.Contains(err.Error(), "Database unavailable") {
		t.Errorf("error text %q", err)
	}
	if len(res.Diagnostics) != 1 || res.Hits != 0 {
		t.Errorf("result = %+v", res)
	}
	// The association survives a refused search.
	if res, err := c.Search(ctx, "Default", "computer"); err != nil || res.Hits != 23 {
		t.Errorf("Search after 109 = %+v, %v", res, err)
	}
}

func TestZtestRetrieve(t *testing.T) {
	d := testserver.YazZtest(t)
	var trace []string
	ctx := ctxT(t)
	c, err := Dial(ctx, d.Addr, Config{Trace: func(dir byte, line string) {
		trace = append(trace, string(dir)+" "+line)
		t.Logf("%c %s", dir, line)
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Retrieve(ctx, "Default", "TEXT", "0 2 /tmp/some/doc.txt")
	t.Logf("Retrieve: %v", err)
	// yaz-ztest cannot decode a type-0 query: it closes the association
	// with reason protocolError, which Retrieve reports as a refusal of
	// WAIS document ids.
	var re *RetrieveError
	var ce *ClosedError
	if !errors.As(err, &re) || !errors.As(err, &ce) {
		t.Fatalf("Retrieve: err = %v (%T), want a *RetrieveError wrapping a *ClosedError", err, err)
	}
	if ce.Close.Reason != 6 || ce.Close.Diagnostic != "Malformed package" {
		t.Errorf("Close = %v, want protocolError \"Malformed package\"", ce.Close)
	}
	if !strings.Contains(err.Error(), "does not understand WAIS document-id queries") {
		t.Errorf("error %q does not explain the refusal", err)
	}
	if !strings.Contains(strings.Join(trace, "\n"), `query=type-0 WAISDocumentQuery{type="TEXT" docid="0 2 /tmp/some/doc.txt"}`) {
		t.Errorf("trace lacks the document query:\n%s", strings.Join(trace, "\n"))
	}
	// The association is over; the Conn says so without touching the net.
	if _, err := c.Search(ctx, "Default", "computer"); err == nil {
		t.Error("Search on a closed association succeeded")
	}
	// The target itself is fine: a new association searches as before.
	c2, err := Dial(ctx, d.Addr, Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if res, err := c2.Search(ctx, "Default", "computer"); err != nil || res.Hits != 23 {
		t.Errorf("Search on a new association = %+v, %v", res, err)
	}
}
