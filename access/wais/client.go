package wais

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738/access/wais/ber"

	"github.com/rfc1738/rfc1738/internal/dialerr"
)

// DefaultPort is the WAIS port (RFC 1738 §3.9: "the port defaults to 210").
const DefaultPort = "210"

// DefaultMaxPDUSize bounds a received APDU when Config.MaxPDUSize is zero.
const DefaultMaxPDUSize = 1 << 20

// ResultSetName is the result set every search of this client creates:
// "default", the one name a version 2 target without the namedResultSets
// option accepts (Z39.50-1995 §3.2.2.1.6).
const ResultSetName = "default"

// Config configures a Conn. The zero value works.
type Config struct {
	// Dialer opens the TCP connection; nil means a zero net.Dialer.
	Dialer interface {
		DialContext(ctx context.Context, network, address string) (net.Conn, error)
	}
	// MaxPDUSize bounds every APDU received, and is what the client offers
	// as preferredMessageSize and exceptionalRecordSize. Zero means
	// DefaultMaxPDUSize.
	MaxPDUSize int
	// Trace, if set, is called with '>' and a one-line description of each
	// APDU sent, and '<' and one of each APDU received.
	Trace func(dir byte, line string)
}

func (cfg Config) maxPDU() int {
	if cfg.MaxPDUSize <= 0 {
		return DefaultMaxPDUSize
	}
	return cfg.MaxPDUSize
}

// ProtocolError reports a peer that broke Z39.50: an APDU that does not
// decode, one of the wrong type, an unexpected close, an APDU too large.
type ProtocolError struct {
	Op  string // "init", "search", "present", "close"
	Msg string
	Err error // the cause, if any
}

func (e *ProtocolError) Error() string {
	s := "wais: " + e.Op + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *ProtocolError) Unwrap() error { return e.Err }

// InitRefusedError reports a target that answered the InitializeRequest
// with result FALSE.
type InitRefusedError struct {
	Addr     string
	Response InitResponse
}

func (e *InitRefusedError) Error() string {
	return "wais: " + e.Addr + " refused the association: " + e.Response.String()
}

// Conn is a Z39.50 association with a target. Its methods may be called
// from several goroutines; they take turns, as Z39.50 without the
// concurrentOperations option requires.
type Conn struct {
	cfg  Config
	nc   net.Conn
	r    *ber.Reader
	addr string

	mu     sync.Mutex
	broken error // set once the association is unusable
	init   InitResponse
}

// NewInitRequest returns the InitializeRequest that Dial sends for cfg:
// versions 2 and 3, the search and present services, and cfg's message
// size bound.
func NewInitRequest(cfg Config) InitRequest {
	return InitRequest{
		Versions:              1<<1 | 1<<2,
		Options:               OptSearch | OptPresent,
		PreferredMessageSize:  cfg.maxPDU(),
		ExceptionalRecordSize: cfg.maxPDU(),
		ImplementationID:      "rfc1738",
		ImplementationName:    "rfc1738 wais",
		ImplementationVersion: "1",
	}
}

// Dial connects to a Z39.50 target at addr (host or host:port; RFC 1738
// §3.9 port 210 if none) and initializes the association. ctx bounds the
// dial and the Init exchange.
func Dial(ctx context.Context, addr string, cfg Config) (*Conn, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(strings.Trim(addr, "[]"), DefaultPort)
	}
	if err := checkArg("address", addr); err != nil {
		return nil, err
	}
	var d interface {
		DialContext(context.Context, string, string) (net.Conn, error)
	} = &net.Dialer{}
	if cfg.Dialer != nil {
		d = cfg.Dialer
	}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("wais: dial %s: %w", addr, dialerr.Trim(err))
	}
	c := &Conn{cfg: cfg, nc: nc, r: ber.NewReader(nc, cfg.maxPDU()), addr: addr}
	resp, err := c.roundTrip(ctx, "init", NewInitRequest(cfg))
	if err != nil {
		nc.Close()
		return nil, err
	}
	ir, ok := resp.(InitResponse)
	if !ok {
		nc.Close()
		return nil, unexpected("init", resp)
	}
	if !ir.Result {
		nc.Close()
		return nil, &InitRefusedError{Addr: addr, Response: ir}
	}
	c.init = ir
	return c, nil
}

// InitResponse returns the target's answer to the InitializeRequest.
func (c *Conn) InitResponse() InitResponse { return c.init }

// SearchResult is what a search found.
type SearchResult struct {
	Hits          int          // resultCount
	ResultSetName string       // the result set to Present from
	Diagnostics   []Diagnostic // the target's non-surrogate diagnostics, if any
}

// SplitTerms splits a WAIS search string into the words this client ANDs:
// at '+' and at ASCII spaces and tabs, dropping empty words (see the
// package doc for why).
func SplitTerms(search string) []string {
	return strings.FieldsFunc(search, func(r rune) bool { return r == '+' || r == ' ' || r == '\t' })
}

// NewSearchRequest returns the SearchRequest that Search sends: a type-1
// query over Bib-1 with the words of terms ANDed, no records piggybacked
// (smallSetUpperBound 0, mediumSetPresentNumber 0), into the "default"
// result set.
func NewSearchRequest(database, terms string) (SearchRequest, error) {
	if err := checkArg("database", database); err != nil {
		return SearchRequest{}, err
	}
	if err := checkArg("search", terms); err != nil {
		return SearchRequest{}, err
	}
	words := SplitTerms(terms)
	if len(words) == 0 {
		return SearchRequest{}, fmt.Errorf("wais: search %q has no words", terms)
	}
	return SearchRequest{
		SmallSetUpperBound:     0,
		LargeSetLowerBound:     1,
		MediumSetPresentNumber: 0,
		ReplaceIndicator:       true,
		ResultSetName:          ResultSetName,
		Databases:              []string{database},
		Query:                  Query{Kind: QueryRPN, AttributeSet: Bib1AttributeSet, Terms: words},
	}, nil
}

// Search runs the <search> of wais://host/database?search (RFC 1738 §3.9)
// against database. A target that refuses the search answers with
// diagnostics: Search then returns the result with them and the first as
// a *Diagnostic error.
func (c *Conn) Search(ctx context.Context, database, terms string) (SearchResult, error) {
	req, err := NewSearchRequest(database, terms)
	if err != nil {
		return SearchResult{}, err
	}
	return c.search(ctx, req)
}

func (c *Conn) search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	resp, err := c.roundTrip(ctx, "search", req)
	if err != nil {
		return SearchResult{}, err
	}
	sr, ok := resp.(SearchResponse)
	if !ok {
		return SearchResult{}, c.fail(unexpected("search", resp))
	}
	res := SearchResult{Hits: sr.ResultCount, ResultSetName: req.ResultSetName, Diagnostics: sr.Diagnostics}
	if !sr.SearchStatus {
		if len(sr.Diagnostics) > 0 {
			d := sr.Diagnostics[0]
			return res, &d
		}
		return res, &ProtocolError{Op: "search", Msg: "target reports failure without a diagnostic"}
	}
	return res, nil
}

// NewPresentRequest returns the PresentRequest that Present sends: count
// records from start (1-based) of resultSet, element set "F" (full), in
// the given syntax (nil: the target's default).
func NewPresentRequest(resultSet string, start, count int, syntax ber.OID) PresentRequest {
	return PresentRequest{ResultSetID: resultSet, Start: start, Count: count, ElementSetName: "F", PreferredRecordSyntax: syntax}
}

// Present fetches count records from position start (from 1) of the last
// search's result set, in syntax (SUTRS, USMARC, or nil for the target's
// default). Records the target could not give carry a surrogate
// Diagnostic; a present refused as a whole returns a *Diagnostic error.
func (c *Conn) Present(ctx context.Context, start, count int, syntax ber.OID) ([]Record, error) {
	if start < 1 || count < 1 {
		return nil, fmt.Errorf("wais: present start %d count %d: both must be at least 1", start, count)
	}
	resp, err := c.roundTrip(ctx, "present", NewPresentRequest(ResultSetName, start, count, syntax))
	if err != nil {
		return nil, err
	}
	pr, ok := resp.(PresentResponse)
	if !ok {
		return nil, c.fail(unexpected("present", resp))
	}
	if len(pr.Records) == 0 && len(pr.Diagnostics) > 0 {
		d := pr.Diagnostics[0]
		return nil, &d
	}
	if len(pr.Records) > count {
		return nil, c.fail(&ProtocolError{Op: "present", Msg: fmt.Sprintf("asked for %d records, got %d", count, len(pr.Records))})
	}
	return pr.Records, nil
}

// syntaxForType picks the record syntax to ask for a WAIS document type:
// text types as SUTRS, anything else as the target's default.
func syntaxForType(wtype string) ber.OID {
	switch strings.ToUpper(wtype) {
	case "TEXT", "WSRC", "HTML", "TEXT-HTML", "":
		return SUTRS
	}
	return nil
}

// NewDocumentRequest returns the SearchRequest that Retrieve sends for
// wais://host/database/wtype/wpath: the WAIS document id in a type-0
// query (see the package doc).
func NewDocumentRequest(database, wtype, wpath string) (SearchRequest, error) {
	for _, a := range [][2]string{{"database", database}, {"wtype", wtype}, {"wpath", wpath}} {
		if err := checkArg(a[0], a[1]); err != nil {
			return SearchRequest{}, err
		}
	}
	if wpath == "" {
		return SearchRequest{}, errors.New("wais: empty document id")
	}
	return SearchRequest{
		SmallSetUpperBound:     0,
		LargeSetLowerBound:     1,
		MediumSetPresentNumber: 0,
		ReplaceIndicator:       true,
		ResultSetName:          ResultSetName,
		Databases:              []string{database},
		PreferredRecordSyntax:  syntaxForType(wtype),
		Query:                  Query{Kind: QueryWAISDocument, DocID: []byte(wpath), DocType: wtype},
	}, nil
}

// RetrieveError reports a document the target would not fetch by its WAIS
// document id. Err is the target's answer: a *Diagnostic, or a
// *ClosedError when the target could not even parse the query (YAZ-based
// targets such as yaz-ztest cannot decode a type-0 query and close the
// association with reason protocolError).
type RetrieveError struct {
	Database, Type, DocID string
	Err                   error
}

func (e *RetrieveError) Error() string {
	s := fmt.Sprintf("wais: retrieve %s document %q from %s: ", e.Type, e.DocID, e.Database)
	var d *Diagnostic
	var ce *ClosedError
	if errors.As(e.Err, &d) && d.Code == 107 || errors.As(e.Err, &ce) && ce.Close.Reason == 6 {
		s += "the target does not understand WAIS document-id queries (it is a generic Z39.50 target, not a WAIS server or gateway): "
	}
	return s + e.Err.Error()
}

// Unwrap returns the target's answer.
func (e *RetrieveError) Unwrap() error { return e.Err }

// ClosedError reports a target that answered a request with a Close APDU
// (Z39.50-1995 §3.2.11.1), ending the association.
type ClosedError struct {
	Op    string
	Close Close
}

func (e *ClosedError) Error() string {
	return "wais: " + e.Op + ": the target closed the association: " + e.Close.String()
}

// Retrieve fetches the document of wais://host/database/wtype/wpath
// (RFC 1738 §3.9): a search by document id, then a present of its hit.
// wpath is the %-decoded document id. A target that cannot do it returns
// a *RetrieveError wrapping its *Diagnostic or *ClosedError.
func (c *Conn) Retrieve(ctx context.Context, database, wtype, wpath string) ([]Record, error) {
	req, err := NewDocumentRequest(database, wtype, wpath)
	if err != nil {
		return nil, err
	}
	res, err := c.search(ctx, req)
	var d *Diagnostic
	var ce *ClosedError
	if errors.As(err, &d) || errors.As(err, &ce) {
		return nil, &RetrieveError{Database: database, Type: wtype, DocID: wpath, Err: err}
	}
	if err != nil {
		return nil, err
	}
	if res.Hits == 0 {
		return nil, &RetrieveError{Database: database, Type: wtype, DocID: wpath, Err: errors.New("the search by document id found nothing")}
	}
	return c.Present(ctx, 1, 1, req.PreferredRecordSyntax)
}

// Close ends the association with a Close APDU (reason finished,
// Z39.50-1995 §3.2.11), waits briefly for the target's Close, and closes
// the connection.
func (c *Conn) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c.mu.Lock()
	broken := c.broken
	c.mu.Unlock()
	var err error
	if broken == nil {
		var resp PDU
		resp, err = c.roundTrip(ctx, "close", Close{Reason: 0})
		if err == nil {
			if _, ok := resp.(Close); !ok {
				err = unexpected("close", resp)
			}
		}
	}
	c.mu.Lock()
	if c.broken == nil {
		c.broken = errors.New("wais: connection closed")
	}
	c.mu.Unlock()
	if cerr := c.nc.Close(); err == nil && broken == nil && !errors.Is(cerr, net.ErrClosed) {
		err = cerr
	}
	return err
}

// roundTrip sends one APDU and reads the answer, under ctx. Any failure
// leaves the association unusable: the stream position is unknown.
func (c *Conn) roundTrip(ctx context.Context, op string, req PDU) (PDU, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return nil, c.broken
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, err := ber.Marshal(req.Element())
	if err != nil {
		return nil, err
	}
	dl, _ := ctx.Deadline()
	c.nc.SetDeadline(dl)
	stop := context.AfterFunc(ctx, func() { c.nc.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	c.trace('>', req.String())
	if _, err := c.nc.Write(out); err != nil {
		return nil, c.failLocked(ctx, &ProtocolError{Op: op, Msg: "send " + pduName(req), Err: err})
	}
	in, err := c.r.ReadPDU()
	if err != nil {
		return nil, c.failLocked(ctx, &ProtocolError{Op: op, Msg: "read the answer to " + pduName(req), Err: err})
	}
	resp, err := DecodePDU(in)
	if err != nil {
		c.trace('<', fmt.Sprintf("(undecodable APDU, %d bytes)", len(in)))
		return nil, c.failLocked(ctx, &ProtocolError{Op: op, Msg: "decode the answer", Err: err})
	}
	c.trace('<', resp.String())
	if cl, ok := resp.(Close); ok && op != "close" {
		return nil, c.failLocked(ctx, &ClosedError{Op: op, Close: cl})
	}
	return resp, nil
}

func (c *Conn) trace(dir byte, line string) {
	if c.cfg.Trace != nil {
		c.cfg.Trace(dir, line)
	}
}

// failLocked marks the association broken and closes the connection.
func (c *Conn) failLocked(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		err = fmt.Errorf("%w (%w)", ctx.Err(), err)
	} else if _, ok := ctx.Deadline(); ok && errors.Is(err, os.ErrDeadlineExceeded) {
		// The conn deadline is ctx's; it can fire before ctx's own timer.
		err = fmt.Errorf("%w (%w)", context.DeadlineExceeded, err)
	}
	c.broken = err
	c.nc.Close()
	return err
}

func (c *Conn) fail(err error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failLocked(context.Background(), err)
}

func pduName(p PDU) string {
	s := p.String()
	if i := strings.IndexByte(s, '{'); i >= 0 {
		return s[:i]
	}
	return s
}

func unexpected(op string, p PDU) error {
	return &ProtocolError{Op: op, Msg: "unexpected " + p.String()}
}

// ArgError reports an argument refused before anything was sent: it holds
// CR, LF or NUL (RFC 1738 §6: a URL must not smuggle protocol framing
// into the client's requests).
type ArgError struct {
	Name   string
	Value  string
	Offset int // of the first bad byte
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("wais: %s %q holds %q at offset %d; refused before sending (RFC 1738 §6)",
		e.Name, e.Value, e.Value[e.Offset], e.Offset)
}

func checkArg(name, v string) error {
	if i := strings.IndexAny(v, "\r\n\x00"); i >= 0 {
		return &ArgError{Name: name, Value: v, Offset: i}
	}
	return nil
}
