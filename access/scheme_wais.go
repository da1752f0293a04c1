package access

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/wais"
	"github.com/rfc1738/rfc1738/access/wais/ber"
)

func init() { defaultHandlers["wais"] = WAIS{} }

// DefaultWAISRecords is how many records a wais search presents when
// WAIS.Records is zero.
const DefaultWAISRecords = 10

// WAIS is the handler of wais URLs (RFC 1738 §3.9), spoken as Z39.50 by
// package wais. Its zero value is the default handler; register another
// value with Client.RegisterProtocol to change its settings.
//
// The plan's steps are the APDUs sent, one per line in their readable
// form (InitializeRequest{…}, SearchRequest{…}, PresentRequest{…},
// Close{…}). The three forms of §3.9 plan as:
//
//	wais://host/database          Init, Close: a database URL names a
//	                              database available for searching; the
//	                              response describes the target
//	wais://host/database?search   Init, Search, Present of the first
//	                              Records hits, Close
//	wais://host/database/wtype/wpath
//	                              Init, a Search by WAIS document id,
//	                              Present of its hit, Close
//
// Records are written as Client.Listing says: ListingText, each record's
// text under a header line; ListingJSON, one {"number","syntax","text"}
// object a record; ListingRaw, the record octets (SUTRS text, ISO 2709
// MARC) one after the other.
type WAIS struct {
	// Records is how many records a search presents; 0 means
	// DefaultWAISRecords.
	Records int
	// Syntax is the record syntax asked for: "" or "sutrs" (SUTRS, and
	// USMARC again when the target cannot give SUTRS), "usmarc", or
	// "default" (the target's own choice).
	Syntax string
}

// waisForm is which of the three URL forms of §3.9 a plan is for.
type waisForm uint8

const (
	waisDatabase waisForm = iota
	waisSearch
	waisDocument
)

// waisPlan is the execution detail of a wais plan (Plan.Data).
type waisPlan struct {
	form     waisForm
	database string
	terms    string // decoded <search>
	wtype    string
	wpath    string // decoded document id
	count    int
	syntax   ber.OID
	fallback bool // repeat the present in USMARC if SUTRS is refused
}

// waisSyntax reads WAIS.Syntax.
func waisSyntax(s string) (ber.OID, bool, error) {
	switch strings.ToLower(s) {
	case "", "sutrs":
		return wais.SUTRS, true, nil
	case "usmarc", "marc":
		return wais.USMARC, false, nil
	case "default", "any":
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("wais record syntax %q: want sutrs, usmarc or default", s)
}

// Plan makes the Z39.50 conversation of a wais URL. It touches no network.
func (h WAIS) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	w, ok := u.WAIS()
	if !ok {
		return nil, fmt.Errorf("%s: not a wais URL", Redact(u.String()))
	}
	p := &Plan{Connect: u.HostPort()}
	if u.Host() == "" {
		return nil, fmt.Errorf("%s: a wais URL needs a host (§3.9)", Redact(u.String()))
	}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	// §6: the database, search, wtype and wpath go decoded into the APDUs;
	// the wais client refuses CR, LF and NUL too, but here the URL offset
	// can be named.
	if path, ok := u.Path(); ok {
		if err := CheckLine(u, path, u.PathOffset(), "wais path", LineDelimiters); err != nil {
			return nil, err
		}
	}
	if w.Database == "" {
		return nil, fmt.Errorf("%s: a wais URL needs a database (§3.9: wais://host:port/database)", Redact(u.String()))
	}
	d := &waisPlan{database: w.Database}
	var err error
	d.syntax, d.fallback, err = waisSyntax(h.Syntax)
	if err != nil {
		return nil, err
	}
	d.count = h.Records
	if d.count <= 0 {
		d.count = DefaultWAISRecords
	}
	p.Data = d
	step := func(pdu wais.PDU) { p.Steps = append(p.Steps, Step{Arg: pdu.String()}) }
	step(wais.NewInitRequest(wais.Config{}))
	switch {
	case w.HasSearch:
		d.form = waisSearch
		terms, err := rfc1738.Unescape(w.Search)
		if err != nil {
			return nil, fmt.Errorf("%s: search: %w", Redact(u.String()), err)
		}
		d.terms = terms
		req, err := wais.NewSearchRequest(d.database, terms)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(u.String()), err)
		}
		step(req)
		pr := wais.NewPresentRequest(req.ResultSetName, 1, d.count, d.syntax)
		// The count is cut to the number of hits at run time: a target
		// refuses a present beyond the end of the result set.
		s := pr.String()
		p.Steps = append(p.Steps, Step{Arg: s,
			Placeholder: strings.Replace(s, " count="+strconv.Itoa(d.count)+" ", fmt.Sprintf(" count=<min(%d,hits)> ", d.count), 1)})
		p.Notes = append(p.Notes, fmt.Sprintf("the search %q is a type-1 (RPN) query of its words ANDed: %s", terms,
			strings.Join(quoteAll(wais.SplitTerms(terms)), " AND ")))
		p.Notes = append(p.Notes, fmt.Sprintf("no Present when the search finds nothing; at most %d records are presented", d.count))
		if d.fallback {
			p.Notes = append(p.Notes, "if the target cannot give SUTRS (Bib-1 238, 239), the Present is repeated with syntax=USMARC")
		}
	case w.IsDocument:
		d.form = waisDocument
		d.wtype, d.wpath = w.Type, w.Path
		req, err := wais.NewDocumentRequest(d.database, w.Type, w.Path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", Redact(u.String()), err)
		}
		step(req)
		step(wais.NewPresentRequest(req.ResultSetName, 1, 1, req.PreferredRecordSyntax))
		p.Notes = append(p.Notes,
			"wtype/wpath name one document by its WAIS document id, opaque to all but the server that issued it (§3.9)",
			"the id goes in a type-0 query, the only Z39.50 v2/v3 query for private agreements: a WAIS server or a WAIS-to-Z39.50 gateway can fetch by it; a generic Z39.50 target cannot, and answers with a diagnostic (Bib-1 107) or closes the association (YAZ-based targets such as yaz-ztest)")
	default:
		d.form = waisDatabase
		p.Notes = append(p.Notes, "a database URL names a database available for searching (§3.9); add ?terms to search it: the plan only initializes the association")
	}
	step(wais.Close{Reason: 0})
	return p, nil
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strconv.Quote(w)
	}
	return out
}

// waisDial opens the association of a wais plan (the InitializeRequest).
func waisDial(ctx context.Context, c *Client, p *Plan) (*waisPlan, *wais.Conn, error) {
	d, ok := p.Data.(*waisPlan)
	if !ok {
		return nil, nil, fmt.Errorf("%s: not a plan of the wais handler", p.URL)
	}
	conn, err := wais.Dial(ctx, p.Connect, wais.Config{Trace: c.tracer()})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	return d, conn, nil
}

// Get executes a wais plan: Dial (the InitializeRequest), then the search
// and present or the document retrieval the plan holds, then Close.
func (h WAIS) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	d, conn, err := waisDial(ctx, c, p)
	if err != nil {
		return nil, err
	}
	var body []byte
	switch d.form {
	case waisDatabase:
		body, err = waisDescribe(c, p, d, conn.InitResponse())
	case waisSearch:
		body, err = h.search(ctx, c, p, d, conn)
	case waisDocument:
		var recs []wais.Record
		recs, err = conn.Retrieve(ctx, d.database, d.wtype, d.wpath)
		if err == nil {
			body, err = waisRender(c, recs, 1, "")
		}
	}
	cerr := conn.Close()
	if err != nil {
		var ce *wais.ClosedError
		if errors.As(err, &ce) {
			cerr = nil // the target ended the association itself
		}
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if cerr != nil {
		return nil, fmt.Errorf("%s: close: %w", p.URL, cerr)
	}
	typ := c.Listing.mediaType("application/octet-stream")
	if d.form == waisDatabase {
		typ = ListingText.mediaType("")
	}
	return &Response{Body: io.NopCloser(bytes.NewReader(body)), Size: int64(len(body)), Type: typ}, nil
}

// search runs the search and present of the plan.
func (h WAIS) search(ctx context.Context, c *Client, p *Plan, d *waisPlan, conn *wais.Conn) ([]byte, error) {
	res, err := conn.Search(ctx, d.database, d.terms)
	if err != nil {
		return nil, err
	}
	c.trace('!', fmt.Sprintf("%d hits", res.Hits))
	if res.Hits == 0 {
		return waisRender(c, nil, res.Hits, fmt.Sprintf("no hits for %q in %s\n", d.terms, d.database))
	}
	n := min(d.count, res.Hits)
	recs, err := conn.Present(ctx, 1, n, d.syntax)
	if d.fallback && syntaxRefused(recs, err) {
		c.trace('!', "the target cannot give SUTRS; presenting USMARC")
		recs, err = conn.Present(ctx, 1, n, wais.USMARC)
	}
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("%d hits for %q in %s; records 1 to %d:\n", res.Hits, d.terms, d.database, len(recs))
	return waisRender(c, recs, res.Hits, head)
}

// syntaxRefused reports a present refused for its record syntax: Bib-1
// 238 (record not available in requested syntax) or 239 (record syntax
// not supported), for the whole present or for every record.
func syntaxRefused(recs []wais.Record, err error) bool {
	bad := func(d *wais.Diagnostic) bool { return d != nil && (d.Code == 238 || d.Code == 239) }
	var d *wais.Diagnostic
	if errors.As(err, &d) {
		return bad(d)
	}
	if err != nil || len(recs) == 0 {
		return false
	}
	for _, r := range recs {
		if !bad(r.Diagnostic) {
			return false
		}
	}
	return true
}

// waisRecord is one record of a JSON Lines listing.
type waisRecord struct {
	Number     int    `json:"number"`
	Syntax     string `json:"syntax"`
	Text       string `json:"text"`
	Database   string `json:"database,omitempty"`
	Diagnostic *int   `json:"diagnostic,omitempty"` // Bib-1 code of a surrogate diagnostic
}

// waisRender writes records as c.Listing says; head is the text
// listing's first line.
func waisRender(c *Client, recs []wais.Record, hits int, head string) ([]byte, error) {
	var b bytes.Buffer
	switch c.Listing {
	case ListingRaw:
		for _, r := range recs {
			b.Write(r.Data)
		}
	case ListingJSON:
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		for i, r := range recs {
			j := waisRecord{Number: i + 1, Syntax: recordSyntax(r), Text: r.Text(), Database: r.Database}
			if r.Diagnostic != nil {
				j.Diagnostic = &r.Diagnostic.Code
			}
			if err := enc.Encode(j); err != nil {
				return nil, err
			}
		}
	default:
		b.WriteString(head)
		for i, r := range recs {
			fmt.Fprintf(&b, "\n--- record %d of %d (%s) ---\n", i+1, hits, recordSyntax(r))
			t := r.Text()
			b.WriteString(t)
			if !strings.HasSuffix(t, "\n") {
				b.WriteByte('\n')
			}
		}
	}
	return b.Bytes(), nil
}

func recordSyntax(r wais.Record) string {
	switch {
	case r.Diagnostic != nil:
		return "diagnostic"
	case r.Syntax.Equal(wais.SUTRS):
		return "SUTRS"
	case r.Syntax.Equal(wais.USMARC):
		return "USMARC"
	}
	return r.Syntax.String()
}

// waisDescribe is the response to a database URL: what the target said to
// the InitializeRequest, and what to do next.
func waisDescribe(c *Client, p *Plan, d *waisPlan, ir wais.InitResponse) ([]byte, error) {
	if c.Listing == ListingJSON {
		b, err := json.Marshal(map[string]any{
			"database": d.database, "target": p.Connect,
			"implementation": ir.ImplementationName, "version": ir.ImplementationVersion,
			"protocol_version": ir.Versions.Highest(),
			"note":             "a database URL names a database available for searching; add ?terms",
		})
		return append(b, '\n'), err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s names the database %q of the Z39.50 target at %s (%s %s, protocol version %d).\n",
		p.URL, d.database, p.Connect, ir.ImplementationName, ir.ImplementationVersion, ir.Versions.Highest())
	fmt.Fprintf(&b, "A database URL names a database available for searching (RFC 1738 §3.9); add ?terms to search it, e.g. %s?computer\n", p.URL)
	return b.Bytes(), nil
}

// waisProbeTerm is searched for in a database URL that has no search of
// its own: any answer without a diagnostic proves the database is there.
const waisProbeTerm = "a"

// Stat implements Stater: the Z39.50 init, then a search whose first
// record, if any, is presented; a document URL is retrieved by its WAIS
// document id (§3.9 gives no lighter way).
func (h WAIS) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	d, conn, err := waisDial(ctx, c, p)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if d.form == waisDocument {
		if _, err := conn.Retrieve(ctx, d.database, d.wtype, d.wpath); err != nil {
			return nil, fmt.Errorf("%s: %w", p.URL, err)
		}
		return &Info{Kind: KindFile, Size: -1, Detail: "document retrieved"}, nil
	}
	terms := d.terms
	if d.form == waisDatabase {
		terms = waisProbeTerm
	}
	res, err := conn.Search(ctx, d.database, terms)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if res.Hits > 0 {
		if _, err := conn.Present(ctx, 1, 1, nil); err != nil {
			return nil, fmt.Errorf("%s: %w", p.URL, err)
		}
	}
	if d.form == waisDatabase {
		return &Info{Kind: KindSearch, Size: -1, Detail: fmt.Sprintf("database %s answers a search", d.database)}, nil
	}
	return &Info{Kind: KindSearch, Size: -1, Detail: fmt.Sprintf("%d hits", res.Hits)}, nil
}
