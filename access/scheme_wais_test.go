package access

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/wais"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestWAISPlan: the APDUs of the three §3.9 forms, without a network.
func TestWAISPlan(t *testing.T) {
	init := wais.NewInitRequest(wais.Config{}).String()
	tests := []struct {
		url   string
		h     WAIS
		lines []string
		note  string
	}{
		// §3.9: wais://host:port/database?search
		{"wais://h/Default?computer+water", WAIS{}, []string{init,
			`SearchRequest{resultSet="default" replace=true databases=Default query=type-1 @attrset 1.2.840.10003.3.1 @and "computer" "water" smallSetUpperBound=0 largeSetLowerBound=1 mediumSetPresentNumber=0}`,
			`PresentRequest{resultSet="default" start=1 count=<min(10,hits)> elementSet=F syntax=SUTRS}`,
			"Close{reason=finished}"}, "repeated with syntax=USMARC"},
		// the search is %-decoded before it becomes terms
		{"wais://h/db1?a%20b", WAIS{Records: 3, Syntax: "usmarc"}, []string{init,
			`SearchRequest{resultSet="default" replace=true databases=db1 query=type-1 @attrset 1.2.840.10003.3.1 @and "a" "b" smallSetUpperBound=0 largeSetLowerBound=1 mediumSetPresentNumber=0}`,
			`PresentRequest{resultSet="default" start=1 count=<min(3,hits)> elementSet=F syntax=USMARC}`,
			"Close{reason=finished}"}, `"a" AND "b"`},
		// §3.9: wais://host:port/database — Init only
		{"wais://h:210/Default", WAIS{}, []string{init, "Close{reason=finished}"}, "available for searching"},
		// §3.9: wais://host:port/database/wtype/wpath
		{"wais://h/Default/TEXT/0%202%20%2Fdocs%2Fa.txt", WAIS{}, []string{init,
			`SearchRequest{resultSet="default" replace=true databases=Default query=type-0 WAISDocumentQuery{type="TEXT" docid="0 2 /docs/a.txt"} smallSetUpperBound=0 largeSetLowerBound=1 mediumSetPresentNumber=0 syntax=SUTRS}`,
			`PresentRequest{resultSet="default" start=1 count=1 elementSet=F syntax=SUTRS}`,
			"Close{reason=finished}"}, "generic Z39.50 target cannot"},
	}
	for _, tt := range tests {
		c := NewClient()
		c.RegisterProtocol("wais", tt.h)
		p, err := c.Plan(mustParse(t, tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if got := p.Lines(); strings.Join(got, "\n") != strings.Join(tt.lines, "\n") {
			t.Errorf("%s: lines\n%s\nwant\n%s", tt.url, strings.Join(got, "\n"), strings.Join(tt.lines, "\n"))
		}
		if !strings.Contains(strings.Join(p.Notes, "\n"), tt.note) {
			t.Errorf("%s: notes %q lack %q", tt.url, p.Notes, tt.note)
		}
		if !strings.HasSuffix(p.Connect, ":210") && !strings.HasSuffix(tt.url, ":210/Default") {
			t.Errorf("%s: connect %q, want port 210 (§3.9)", tt.url, p.Connect)
		}
	}
}

// TestWAISPlanRefusals: §6 guards with the URL offset, and URLs the
// handler cannot serve.
func TestWAISPlanRefusals(t *testing.T) {
	tests := []struct {
		url    string
		h      WAIS
		offset int // of a GuardError; -1 for another error
		want   string
	}{
		{"wais://h/Default?a%0Db", WAIS{}, 18, "CR"},
		{"wais://h/Def%00ault", WAIS{}, 12, "NUL"},
		{"wais://h/Default/TEXT/a%0A", WAIS{}, 23, "LF"},
		{"wais://h:25/Default", WAIS{}, 9, "smtp"},
		{"wais://h/?computer", WAIS{}, -1, "needs a database"},
		{"wais://h/Default?++", WAIS{}, -1, "no words"},
		{"wais://h/Default?x", WAIS{Syntax: "grs-1"}, -1, "want sutrs, usmarc or default"},
	}
	for _, tt := range tests {
		c := NewClient()
		c.RegisterProtocol("wais", tt.h)
		_, err := c.Plan(mustParse(t, tt.url))
		var g *GuardError
		switch {
		case err == nil:
			t.Errorf("%s: planned", tt.url)
		case tt.offset >= 0 && (!errors.As(err, &g) || g.Offset != tt.offset):
			t.Errorf("%s: %v, want a GuardError at offset %d", tt.url, err, tt.offset)
		case !strings.Contains(err.Error(), tt.want):
			t.Errorf("%s: %v, want it to say %q", tt.url, err, tt.want)
		}
	}
	c := NewClient()
	p, err := c.Plan(mustParse(t, "wais://h:2100/Default?x"))
	if err != nil || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "210") {
		t.Errorf("non-default port: %v, warnings %q", err, p.Warnings)
	}
}

// waisRun fetches a wais URL through Client.Get with a trace, and returns
// the body, the plan and the APDUs sent.
func waisRun(t *testing.T, c *Client, url string) (string, *Plan, []string, error) {
	t.Helper()
	var mu sync.Mutex
	var sent []string
	c.Trace = func(dir byte, line string) {
		t.Logf("%c %s", dir, line)
		if dir == '>' {
			mu.Lock()
			sent = append(sent, line)
			mu.Unlock()
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	u := mustParse(t, url)
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(ctx, u)
	if err != nil {
		return "", p, sent, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Size != int64(len(b)) {
		t.Errorf("Size %d for %d bytes", resp.Size, len(b))
	}
	return string(b), p, sent, nil
}

// sameAPDUs checks that Get sent exactly the plan's steps.
func sameAPDUs(t *testing.T, p *Plan, sent []string) {
	t.Helper()
	var want []string
	for _, s := range p.Steps {
		want = append(want, s.Arg)
	}
	if strings.Join(sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("sent\n%s\nplan\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
}

// TestWAISZtestSearch: a search of yaz-ztest (loopback-servers.md §4):
// 23 hits for "computer" on Default, the first 10 presented as SUTRS.
func TestWAISZtestSearch(t *testing.T) {
	d := testserver.YazZtest(t)
	c := NewClient()
	body, p, sent, err := waisRun(t, c, "wais://"+d.Addr+"/Default?computer")
	if err != nil {
		t.Fatal(err)
	}
	sameAPDUs(t, p, sent)
	if !strings.HasPrefix(body, "23 hits for \"computer\" in Default; records 1 to 10:\n") {
		t.Errorf("body starts %.80q", body)
	}
	for _, want := range []string{
		"\n--- record 1 of 23 (SUTRS) ---\nThis is dummy SUTRS record number 1\n",
		"\n--- record 10 of 23 (SUTRS) ---\nThis is dummy SUTRS record number 10\n",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "record 11 ") {
		t.Errorf("more than 10 records:\n%s", body)
	}
}

// TestWAISZtestListings: JSON Lines and raw records, USMARC, and a present
// cut to the number of hits.
func TestWAISZtestListings(t *testing.T) {
	d := testserver.YazZtest(t)

	c := NewClient()
	c.RegisterProtocol("wais", WAIS{Records: 3})
	c.Listing = ListingJSON
	body, p, sent, err := waisRun(t, c, "wais://"+d.Addr+"/Default?computer")
	if err != nil {
		t.Fatal(err)
	}
	sameAPDUs(t, p, sent)
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d JSON lines:\n%s", len(lines), body)
	}
	for i, l := range lines {
		var r struct {
			Number int
			Syntax string
			Text   string
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Number != i+1 || r.Syntax != "SUTRS" || !strings.HasPrefix(r.Text, "This is dummy SUTRS record number ") {
			t.Errorf("line %d = %s", i, l)
		}
	}

	c = NewClient()
	c.RegisterProtocol("wais", WAIS{Records: 2})
	c.Listing = ListingRaw
	body, _, _, err = waisRun(t, c, "wais://"+d.Addr+"/Default?computer")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(body, "This is dummy SUTRS record number 1") || strings.Contains(body, "---") {
		t.Errorf("raw body = %q", body)
	}

	// USMARC: yaz-ztest gives one fixed MARC record.
	c = NewClient()
	c.RegisterProtocol("wais", WAIS{Records: 1, Syntax: "usmarc"})
	body, p, sent, err = waisRun(t, c, "wais://"+d.Addr+"/Default?computer")
	if err != nil {
		t.Fatal(err)
	}
	sameAPDUs(t, p, sent)
	if !strings.Contains(body, "(USMARC) ---\n") || !strings.Contains(body, "245 ") {
		t.Errorf("USMARC body:\n%s", body)
	}

	// "zz" has 4 hits on yaz-ztest: the present asks for 4, not 10.
	c = NewClient()
	body, _, sent, err = waisRun(t, c, "wais://"+d.Addr+"/Default?zz")
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 4 || !strings.Contains(sent[2], " count=4 ") || !strings.Contains(body, "record 4 of 4") {
		t.Errorf("sent %q\n%s", sent, body)
	}
	// "x" has none: no Present at all.
	body, _, sent, err = waisRun(t, NewClient(), "wais://"+d.Addr+"/Default?x")
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != 3 || !strings.HasPrefix(sent[2], "Close") || !strings.Contains(body, "no hits") {
		t.Errorf("sent %q\n%s", sent, body)
	}
}

// TestWAISZtestDatabaseAndDocument: a database URL initializes only; a
// document URL is refused by a generic target, plainly; an unknown
// database keeps the target's diagnostic.
func TestWAISZtestDatabaseAndDocument(t *testing.T) {
	d := testserver.YazZtest(t)
	body, p, sent, err := waisRun(t, NewClient(), "wais://"+d.Addr+"/Default")
	if err != nil {
		t.Fatal(err)
	}
	sameAPDUs(t, p, sent)
	if !strings.Contains(body, `names the database "Default"`) || !strings.Contains(body, "add ?terms") {
		t.Errorf("database body:\n%s", body)
	}

	_, p, sent, err = waisRun(t, NewClient(), "wais://"+d.Addr+"/Default/TEXT/0%202%20%2Fdocs%2Fa.txt")
	var re *wais.RetrieveError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "generic Z39.50 target") {
		t.Fatalf("document: %v, want a RetrieveError naming a generic target", err)
	}
	if len(sent) != 2 || sent[1] != p.Steps[1].Arg {
		t.Errorf("document: sent %q", sent)
	}

	_, _, _, err = waisRun(t, NewClient(), "wais://"+d.Addr+"/Nowhere?computer")
	var diag *wais.Diagnostic
	if !errors.As(err, &diag) || diag.Code != 109 || !strings.Contains(err.Error(), "Nowhere") {
		t.Errorf("unknown database: %v, want Bib-1 109", err)
	}
}

// TestWAISSyntaxRefused: when the USMARC fallback applies — Bib-1 238 or
// 239 for the whole present, or as the surrogate of every record.
func TestWAISSyntaxRefused(t *testing.T) {
	d238 := &wais.Diagnostic{Code: 238}
	d239 := &wais.Diagnostic{Code: 239}
	other := &wais.Diagnostic{Code: 13}
	rec := wais.Record{Syntax: wais.SUTRS, Data: []byte("x")}
	tests := []struct {
		recs []wais.Record
		err  error
		want bool
	}{
		{nil, d238, true},
		{nil, d239, true},
		{nil, other, false},
		{nil, errors.New("broken"), false},
		{[]wais.Record{{Diagnostic: d238}, {Diagnostic: d239}}, nil, true},
		{[]wais.Record{{Diagnostic: d238}, rec}, nil, false}, // some came: keep them
		{[]wais.Record{rec}, nil, false},
		{nil, nil, false},
	}
	for i, tt := range tests {
		if got := syntaxRefused(tt.recs, tt.err); got != tt.want {
			t.Errorf("%d: syntaxRefused = %v, want %v", i, got, tt.want)
		}
	}
}
