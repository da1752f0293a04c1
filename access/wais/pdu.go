package wais

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738/access/wais/ber"
)

// Z39.50-1995 §3.2 (ASN.1 module Z39-50-APDU-1995): PDU ::= CHOICE, each
// alternative a context-specific IMPLICIT tag.
const (
	tagInitRequest     = 20
	tagInitResponse    = 21
	tagSearchRequest   = 22
	tagSearchResponse  = 23
	tagPresentRequest  = 24
	tagPresentResponse = 25
	tagClose           = 48
)

// Object identifiers this client uses (Z39.50-1995 Appendix 3, "OID").
var (
	Bib1AttributeSet = ber.MustOID("1.2.840.10003.3.1")   // Bib-1 attribute set
	Bib1Diagnostics  = ber.MustOID("1.2.840.10003.4.1")   // Bib-1 diagnostic set
	SUTRS            = ber.MustOID("1.2.840.10003.5.101") // simple unstructured text record syntax
	USMARC           = ber.MustOID("1.2.840.10003.5.10")  // USMARC record syntax
)

// syntaxName names the record syntaxes this package knows.
func syntaxName(o ber.OID) string {
	switch {
	case o == nil:
		return "default"
	case o.Equal(SUTRS):
		return "SUTRS"
	case o.Equal(USMARC):
		return "USMARC"
	}
	return o.String()
}

// PDU is one Z39.50 APDU: it encodes itself as a BER element and describes
// itself in one line for traces and plans.
type PDU interface {
	fmt.Stringer
	Element() ber.Element
}

// Options is the Z39.50 Options bit string (Z39.50-1995 §3.2.1.1.6), one
// bit per service; bit i set means service i.
type Options uint32

// The Options bits this package names.
const (
	OptSearch Options = 1 << iota
	OptPresent
	OptDelSet
	OptResourceReport
	OptTriggerResourceCtrl
	OptResourceCtrl
	OptAccessCtrl
	OptScan
	OptSort
	_
	OptExtendedServices
	OptLevel1Segmentation
	OptLevel2Segmentation
	OptConcurrentOperations
	OptNamedResultSets
)

var optionNames = []string{"search", "present", "delSet", "resourceReport", "triggerResourceCtrl",
	"resourceCtrl", "accessCtrl", "scan", "sort", "reserved9", "extendedServices", "level1Segmentation",
	"level2Segmentation", "concurrentOperations", "namedResultSets", "encapsulation",
	"resultCountInPresent", "negotiationModel", "duplicateDetection", "queryType104",
	"pQESCorrection", "stringSchema"}

func (o Options) String() string {
	var names []string
	for i := range 32 {
		if o&(1<<i) == 0 {
			continue
		}
		if i < len(optionNames) {
			names = append(names, optionNames[i])
		} else {
			names = append(names, "bit"+strconv.Itoa(i))
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

func (o Options) bits() ber.BitString {
	var set []int
	for i := range 32 {
		if o&(1<<i) != 0 {
			set = append(set, i)
		}
	}
	return ber.NewBitString(16, set...)
}

func optionsFrom(b ber.BitString) Options {
	var o Options
	for i := range min(b.Length, 32) {
		if b.At(i) {
			o |= 1 << i
		}
	}
	return o
}

// Versions is the ProtocolVersion bit string (§3.2.1.1.1): bit 0 is
// version 1, bit 1 version 2, bit 2 version 3.
type Versions uint8

func (v Versions) String() string {
	var s []string
	for i := range 8 {
		if v&(1<<i) != 0 {
			s = append(s, strconv.Itoa(i+1))
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ",")
}

// Highest returns the highest version in v (0 if none).
func (v Versions) Highest() int {
	for i := 7; i >= 0; i-- {
		if v&(1<<i) != 0 {
			return i + 1
		}
	}
	return 0
}

// InitRequest is the InitializeRequest APDU [20] (Z39.50-1995 §3.2.1.1).
type InitRequest struct {
	Versions              Versions
	Options               Options
	PreferredMessageSize  int
	ExceptionalRecordSize int
	ImplementationID      string
	ImplementationName    string
	ImplementationVersion string
}

// Element encodes the request.
func (p InitRequest) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagInitRequest,
		ber.NewBitStringElement(ber.Context, 3, ber.NewBitString(3, versionBits(p.Versions)...)), // protocolVersion [3]
		ber.NewBitStringElement(ber.Context, 4, p.Options.bits()),                                // options [4]
		ber.NewInt(ber.Context, 5, int64(p.PreferredMessageSize)),                                // preferredMessageSize [5]
		ber.NewInt(ber.Context, 6, int64(p.ExceptionalRecordSize)),                               // exceptionalRecordSize [6]
	)
	for i, s := range []string{p.ImplementationID, p.ImplementationName, p.ImplementationVersion} {
		if s != "" {
			e.Children = append(e.Children, ber.NewString(ber.Context, uint32(110+i), s)) // [110] [111] [112]
		}
	}
	return e
}

func versionBits(v Versions) []int {
	var set []int
	for i := range 3 {
		if v&(1<<i) != 0 {
			set = append(set, i)
		}
	}
	return set
}

func (p InitRequest) String() string {
	return fmt.Sprintf("InitializeRequest{version=%v options=%v preferredMessageSize=%d exceptionalRecordSize=%d implementation=%q/%q/%q}",
		p.Versions, p.Options, p.PreferredMessageSize, p.ExceptionalRecordSize,
		p.ImplementationID, p.ImplementationName, p.ImplementationVersion)
}

// InitResponse is the InitializeResponse APDU [21] (§3.2.1.2).
type InitResponse struct {
	Versions              Versions
	Options               Options
	PreferredMessageSize  int
	ExceptionalRecordSize int
	Result                bool // true: the target accepts the association
	ImplementationID      string
	ImplementationName    string
	ImplementationVersion string
}

// Element encodes the response (for fakes and round-trip tests).
func (p InitResponse) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagInitResponse,
		ber.NewBitStringElement(ber.Context, 3, ber.NewBitString(3, versionBits(p.Versions)...)),
		ber.NewBitStringElement(ber.Context, 4, p.Options.bits()),
		ber.NewInt(ber.Context, 5, int64(p.PreferredMessageSize)),
		ber.NewInt(ber.Context, 6, int64(p.ExceptionalRecordSize)),
		ber.NewBool(ber.Context, 12, p.Result),
	)
	for i, s := range []string{p.ImplementationID, p.ImplementationName, p.ImplementationVersion} {
		if s != "" {
			e.Children = append(e.Children, ber.NewString(ber.Context, uint32(110+i), s))
		}
	}
	return e
}

func (p InitResponse) String() string {
	r := "rejected"
	if p.Result {
		r = "accepted"
	}
	return fmt.Sprintf("InitializeResponse{result=%s version=%v options=%v preferredMessageSize=%d exceptionalRecordSize=%d implementation=%q/%q/%q}",
		r, p.Versions, p.Options, p.PreferredMessageSize, p.ExceptionalRecordSize,
		p.ImplementationID, p.ImplementationName, p.ImplementationVersion)
}

// QueryKind says which Query alternative a Query is.
type QueryKind int

// The query alternatives this package sends.
const (
	QueryRPN          QueryKind = 1 // type-1 [1] IMPLICIT RPNQuery (§3.7)
	QueryWAISDocument QueryKind = 0 // type-0 [0] ANY holding a WAISDocumentQuery (see the package doc)
)

// Query is the query of a SearchRequest.
type Query struct {
	Kind QueryKind
	// For QueryRPN: the attribute set and the terms, ANDed left to right.
	AttributeSet ber.OID
	Terms        []string
	// For QueryWAISDocument: the WAIS document id and type.
	DocID   []byte
	DocType string
}

// Element encodes the query as the Query CHOICE, tagged [21] EXPLICIT as
// the SearchRequest's query field.
func (q Query) Element() ber.Element {
	var inner ber.Element
	switch q.Kind {
	case QueryWAISDocument:
		// type-0 [0] ANY: an EXPLICIT tag around our WAISDocumentQuery.
		inner = ber.NewConstructed(ber.Context, 0,
			ber.NewConstructed(ber.Universal, ber.TagSequence,
				ber.NewBytes(ber.Context, 1, q.DocID),
				ber.NewString(ber.Context, 2, q.DocType)))
	default:
		// type-1 [1] IMPLICIT RPNQuery ::= SEQUENCE { attributeSet OID, rpn RPNStructure }.
		set, err := ber.NewOID(ber.Universal, ber.TagOID, q.AttributeSet)
		if err != nil {
			set, _ = ber.NewOID(ber.Universal, ber.TagOID, Bib1AttributeSet)
		}
		inner = ber.NewConstructed(ber.Context, 1, set, rpn(q.Terms))
	}
	return ber.NewConstructed(ber.Context, 21, inner)
}

// rpn builds the RPNStructure for terms ANDed left-deep (§3.7.1):
//
//	RPNStructure ::= CHOICE { op [0] Operand, rpnRpnOp [1] IMPLICIT SEQUENCE {
//	    rpn1 RPNStructure, rpn2 RPNStructure, op Operator } }
//	Operand ::= CHOICE { attrTerm AttributesPlusTerm, … }
//	AttributesPlusTerm ::= [102] IMPLICIT SEQUENCE { attributes AttributeList, term Term }
//	AttributeList ::= [44] IMPLICIT SEQUENCE OF AttributeElement
//	Term ::= CHOICE { general [45] IMPLICIT OCTET STRING, … }
//	Operator ::= [46] CHOICE { and [0] IMPLICIT NULL, … }
func rpn(terms []string) ber.Element {
	operand := func(t string) ber.Element {
		return ber.NewConstructed(ber.Context, 0, // op [0] (EXPLICIT: Operand is a CHOICE)
			ber.NewConstructed(ber.Context, 102,
				ber.NewConstructed(ber.Context, 44), // no attributes: the target's default access point
				ber.NewString(ber.Context, 45, t)))
	}
	if len(terms) == 0 {
		return operand("")
	}
	tree := operand(terms[0])
	for _, t := range terms[1:] {
		tree = ber.NewConstructed(ber.Context, 1, tree, operand(t),
			ber.NewConstructed(ber.Context, 46, ber.NewNull(ber.Context, 0)))
	}
	return tree
}

// String renders the query in YAZ's prefix query notation, which
// yaz-client accepts: "@attrset 1.2.840.10003.3.1 @and computer water".
func (q Query) String() string {
	if q.Kind == QueryWAISDocument {
		return fmt.Sprintf("type-0 WAISDocumentQuery{type=%q docid=%q}", q.DocType, q.DocID)
	}
	var b strings.Builder
	b.WriteString("type-1 @attrset ")
	b.WriteString(q.AttributeSet.String())
	for range max(len(q.Terms)-1, 0) {
		b.WriteString(" @and")
	}
	for _, t := range q.Terms {
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(t))
	}
	return b.String()
}

// SearchRequest is the SearchRequest APDU [22] (§3.2.2.1).
type SearchRequest struct {
	SmallSetUpperBound     int
	LargeSetLowerBound     int
	MediumSetPresentNumber int
	ReplaceIndicator       bool
	ResultSetName          string
	Databases              []string
	PreferredRecordSyntax  ber.OID // nil: none
	Query                  Query
}

// Element encodes the request.
func (p SearchRequest) Element() ber.Element {
	dbs := ber.NewConstructed(ber.Context, 18) // databaseNames [18] IMPLICIT SEQUENCE OF DatabaseName
	for _, d := range p.Databases {
		dbs.Children = append(dbs.Children, ber.NewString(ber.Context, 105, d)) // DatabaseName ::= [105] IMPLICIT InternationalString
	}
	e := ber.NewConstructed(ber.Context, tagSearchRequest,
		ber.NewInt(ber.Context, 13, int64(p.SmallSetUpperBound)),
		ber.NewInt(ber.Context, 14, int64(p.LargeSetLowerBound)),
		ber.NewInt(ber.Context, 15, int64(p.MediumSetPresentNumber)),
		ber.NewBool(ber.Context, 16, p.ReplaceIndicator),
		ber.NewString(ber.Context, 17, p.ResultSetName),
		dbs,
	)
	if p.PreferredRecordSyntax != nil {
		if o, err := ber.NewOID(ber.Context, 104, p.PreferredRecordSyntax); err == nil {
			e.Children = append(e.Children, o)
		}
	}
	e.Children = append(e.Children, p.Query.Element())
	return e
}

func (p SearchRequest) String() string {
	s := fmt.Sprintf("SearchRequest{resultSet=%q replace=%v databases=%s query=%v smallSetUpperBound=%d largeSetLowerBound=%d mediumSetPresentNumber=%d",
		p.ResultSetName, p.ReplaceIndicator, strings.Join(p.Databases, ","), p.Query,
		p.SmallSetUpperBound, p.LargeSetLowerBound, p.MediumSetPresentNumber)
	if p.PreferredRecordSyntax != nil {
		s += " syntax=" + syntaxName(p.PreferredRecordSyntax)
	}
	return s + "}"
}

// SearchResponse is the SearchResponse APDU [23] (§3.2.2.2).
type SearchResponse struct {
	ResultCount             int
	NumberOfRecordsReturned int
	NextResultSetPosition   int
	SearchStatus            bool
	ResultSetStatus         int // 0 if absent; 1 subset, 2 interim, 3 none
	PresentStatus           int // 0 success, 1 partial-1 … 5 failure
	Records                 []Record
	Diagnostics             []Diagnostic // non-surrogate diagnostics
}

// Element encodes the response (for fakes and round-trip tests).
func (p SearchResponse) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagSearchResponse,
		ber.NewInt(ber.Context, 23, int64(p.ResultCount)),
		ber.NewInt(ber.Context, 24, int64(p.NumberOfRecordsReturned)),
		ber.NewInt(ber.Context, 25, int64(p.NextResultSetPosition)),
		ber.NewBool(ber.Context, 22, p.SearchStatus),
	)
	if p.ResultSetStatus != 0 {
		e.Children = append(e.Children, ber.NewInt(ber.Context, 26, int64(p.ResultSetStatus)))
	}
	if p.PresentStatus != 0 {
		e.Children = append(e.Children, ber.NewInt(ber.Context, 27, int64(p.PresentStatus)))
	}
	e.Children = append(e.Children, recordsElement(p.Records, p.Diagnostics)...)
	return e
}

func (p SearchResponse) String() string {
	st := "success"
	if !p.SearchStatus {
		st = "failure"
	}
	s := fmt.Sprintf("SearchResponse{status=%s hits=%d returned=%d next=%d", st, p.ResultCount, p.NumberOfRecordsReturned, p.NextResultSetPosition)
	if p.ResultSetStatus != 0 {
		s += " resultSetStatus=" + resultSetStatusName(p.ResultSetStatus)
	}
	return s + describeRecords(p.Records, p.Diagnostics) + "}"
}

func resultSetStatusName(n int) string {
	switch n {
	case 1:
		return "subset"
	case 2:
		return "interim"
	case 3:
		return "none"
	}
	return strconv.Itoa(n)
}

// PresentRequest is the PresentRequest APDU [24] (§3.2.3.1).
type PresentRequest struct {
	ResultSetID           string
	Start                 int // resultSetStartPoint, from 1
	Count                 int // numberOfRecordsRequested
	ElementSetName        string
	PreferredRecordSyntax ber.OID // nil: none
}

// Element encodes the request.
func (p PresentRequest) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagPresentRequest,
		ber.NewString(ber.Context, 31, p.ResultSetID), // ResultSetId ::= [31] IMPLICIT InternationalString
		ber.NewInt(ber.Context, 30, int64(p.Start)),
		ber.NewInt(ber.Context, 29, int64(p.Count)),
	)
	if p.ElementSetName != "" {
		// recordComposition simple [19] ElementSetNames (EXPLICIT: a CHOICE);
		// genericElementSetName [0] IMPLICIT InternationalString.
		e.Children = append(e.Children, ber.NewConstructed(ber.Context, 19, ber.NewString(ber.Context, 0, p.ElementSetName)))
	}
	if p.PreferredRecordSyntax != nil {
		if o, err := ber.NewOID(ber.Context, 104, p.PreferredRecordSyntax); err == nil {
			e.Children = append(e.Children, o)
		}
	}
	return e
}

func (p PresentRequest) String() string {
	return fmt.Sprintf("PresentRequest{resultSet=%q start=%d count=%d elementSet=%s syntax=%s}",
		p.ResultSetID, p.Start, p.Count, p.ElementSetName, syntaxName(p.PreferredRecordSyntax))
}

// PresentResponse is the PresentResponse APDU [25] (§3.2.3.2).
type PresentResponse struct {
	NumberOfRecordsReturned int
	NextResultSetPosition   int
	PresentStatus           int // 0 success, 1 partial-1 … 5 failure
	Records                 []Record
	Diagnostics             []Diagnostic // non-surrogate diagnostics
}

// Element encodes the response (for fakes and round-trip tests).
func (p PresentResponse) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagPresentResponse,
		ber.NewInt(ber.Context, 24, int64(p.NumberOfRecordsReturned)),
		ber.NewInt(ber.Context, 25, int64(p.NextResultSetPosition)),
		ber.NewInt(ber.Context, 27, int64(p.PresentStatus)),
	)
	e.Children = append(e.Children, recordsElement(p.Records, p.Diagnostics)...)
	return e
}

var presentStatusNames = []string{"success", "partial-1", "partial-2", "partial-3", "partial-4", "failure"}

func (p PresentResponse) String() string {
	st := strconv.Itoa(p.PresentStatus)
	if p.PresentStatus >= 0 && p.PresentStatus < len(presentStatusNames) {
		st = presentStatusNames[p.PresentStatus]
	}
	return fmt.Sprintf("PresentResponse{status=%s returned=%d next=%d%s}", st, p.NumberOfRecordsReturned, p.NextResultSetPosition,
		describeRecords(p.Records, p.Diagnostics))
}

// Close is the Close APDU [48] (§3.2.11.1), sent by either side.
type Close struct {
	Reason     int    // closeReason: 0 finished, 1 shutdown, 2 systemProblem, …
	Diagnostic string // diagnosticInformation, optional
}

var closeReasons = []string{"finished", "shutdown", "systemProblem", "costLimit", "resources",
	"securityViolation", "protocolError", "lackOfActivity", "peerAbort", "unspecified"}

// Element encodes the Close.
func (p Close) Element() ber.Element {
	e := ber.NewConstructed(ber.Context, tagClose, ber.NewInt(ber.Context, 211, int64(p.Reason)))
	if p.Diagnostic != "" {
		e.Children = append(e.Children, ber.NewString(ber.Context, 3, p.Diagnostic))
	}
	return e
}

func (p Close) String() string {
	r := strconv.Itoa(p.Reason)
	if p.Reason >= 0 && p.Reason < len(closeReasons) {
		r = closeReasons[p.Reason]
	}
	if p.Diagnostic != "" {
		return fmt.Sprintf("Close{reason=%s diagnostic=%q}", r, p.Diagnostic)
	}
	return "Close{reason=" + r + "}"
}

// UnknownPDU is an APDU this client does not interpret (Scan, Sort, …).
type UnknownPDU struct{ Raw ber.Element }

// Element returns the APDU as received.
func (p UnknownPDU) Element() ber.Element { return p.Raw }

func (p UnknownPDU) String() string { return "UnknownPDU{tag=" + p.Raw.TagString() + "}" }

func describeRecords(recs []Record, diags []Diagnostic) string {
	var b strings.Builder
	if len(recs) > 0 {
		b.WriteString(" records=[")
		for i, r := range recs {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(r.describe())
		}
		b.WriteString("]")
	}
	for _, d := range diags {
		b.WriteString(" diagnostic=")
		b.WriteString(d.describe())
	}
	return b.String()
}
