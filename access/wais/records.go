package wais

import (
	"fmt"
	"strconv"

	"github.com/rfc1738/rfc1738/access/wais/ber"
)

// Record is one NamePlusRecord of a Search or Present response
// (Z39.50-1995 §3.2.3.2): a retrieval record, or a surrogate diagnostic
// that stands in for a record the target could not give.
type Record struct {
	Database   string      // name [0], if the target sent it
	Syntax     ber.OID     // direct-reference of the EXTERNAL: SUTRS, USMARC, …
	Data       []byte      // SUTRS text, MARC octets, or the encoding of another syntax
	Diagnostic *Diagnostic // set instead of Syntax/Data for a surrogate diagnostic
}

// Text renders the record for reading: SUTRS as it is, USMARC as one line
// per field (see MARCText), a diagnostic as its message, anything else as
// a note of its syntax and size.
func (r Record) Text() string {
	switch {
	case r.Diagnostic != nil:
		return r.Diagnostic.Error()
	case r.Syntax.Equal(SUTRS):
		return string(r.Data)
	case r.Syntax.Equal(USMARC):
		if s, err := MARCText(r.Data); err == nil {
			return s
		}
	}
	return fmt.Sprintf("(%d bytes of record syntax %s)", len(r.Data), syntaxName(r.Syntax))
}

func (r Record) describe() string {
	if r.Diagnostic != nil {
		return "diagnostic:" + r.Diagnostic.describe()
	}
	s := syntaxName(r.Syntax) + ":" + strconv.Itoa(len(r.Data)) + "B"
	if r.Database != "" {
		s = r.Database + "/" + s
	}
	return s
}

// Diagnostic is a Z39.50 diagnostic record (DefaultDiagFormat,
// Z39.50-1995 Appendix 4): the target's reason for refusing a search, a
// present or a single record. It is the error type for a target's "no".
type Diagnostic struct {
	Set     ber.OID // diagnosticSetId; Bib-1 is 1.2.840.10003.4.1
	Code    int     // condition
	AddInfo string  // addinfo: what the condition applies to (e.g. the database name)
}

// bib1Messages are the Bib-1 diagnostics (Z39.50-1995 Appendix 4, "Bib-1
// diagnostics") a WAIS client is likely to meet.
var bib1Messages = map[int]string{
	1:   "Permanent system error",
	2:   "Temporary system error",
	3:   "Unsupported search",
	13:  "Present request out of range",
	14:  "System error in presenting records",
	16:  "Record not authorized to be sent intersystem",
	17:  "Record exceeds Preferred-message-size",
	18:  "Record exceeds Exceptional-record-size",
	22:  "Result set not supported as a search term",
	25:  "Specified element set name not valid for specified database",
	27:  "Result set no longer exists - unilaterally deleted by target",
	28:  "Result set is in use",
	30:  "Specified result set does not exist",
	107: "Query type not supported",
	108: "Malformed query",
	109: "Database unavailable",
	113: "Unsupported attribute type",
	114: "Unsupported Use attribute",
	227: "No data available in requested record syntax",
	235: "Database does not exist",
	236: "Access to specified database denied",
	238: "Record not available in requested syntax",
	239: "Record syntax not supported",
}

// Message returns the standard text of a Bib-1 condition, or "".
func (d *Diagnostic) Message() string {
	if d.Set == nil || d.Set.Equal(Bib1Diagnostics) {
		return bib1Messages[d.Code]
	}
	return ""
}

func (d *Diagnostic) describe() string {
	s := strconv.Itoa(d.Code)
	if m := d.Message(); m != "" {
		s += " " + strconv.Quote(m)
	}
	if d.AddInfo != "" {
		s += " addinfo=" + strconv.Quote(d.AddInfo)
	}
	if d.Set != nil && !d.Set.Equal(Bib1Diagnostics) {
		s += " set=" + d.Set.String()
	}
	return s
}

func (d *Diagnostic) Error() string {
	s := "z39.50 diagnostic " + strconv.Itoa(d.Code)
	if d.Set != nil && !d.Set.Equal(Bib1Diagnostics) {
		s += " (set " + d.Set.String() + ")"
	}
	if m := d.Message(); m != "" {
		s += ": " + m
	}
	if d.AddInfo != "" {
		s += ": " + d.AddInfo
	}
	return s
}

// diagElement encodes DefaultDiagFormat ::= SEQUENCE { diagnosticSetId OID,
// condition INTEGER, addinfo CHOICE { v2Addinfo VisibleString,
// v3Addinfo InternationalString } }.
func diagElement(d Diagnostic) ber.Element {
	set := d.Set
	if set == nil {
		set = Bib1Diagnostics
	}
	oid, _ := ber.NewOID(ber.Universal, ber.TagOID, set)
	return ber.NewConstructed(ber.Universal, ber.TagSequence, oid,
		ber.NewInt(ber.Universal, ber.TagInteger, int64(d.Code)),
		ber.NewString(ber.Universal, ber.TagVisibleString, d.AddInfo))
}

func decodeDiag(e *ber.Element) (Diagnostic, error) {
	var d Diagnostic
	if !e.Constructed {
		return d, fmt.Errorf("diagnostic record %s is primitive", e.TagString())
	}
	if e.Is(ber.Universal, ber.TagExternal) {
		// DiagRec ::= CHOICE { defaultFormat, externallyDefined EXTERNAL }:
		// keep what can be said about a diagnostic format we do not know.
		if o, ok := e.Child(ber.Universal, ber.TagOID); ok {
			d.Set, _ = o.OID()
		}
		d.AddInfo = "(externally defined diagnostic)"
		return d, nil
	}
	for i := range e.Children {
		c := &e.Children[i]
		switch {
		case c.Is(ber.Universal, ber.TagOID):
			o, err := c.OID()
			if err != nil {
				return d, err
			}
			d.Set = o
		case c.Is(ber.Universal, ber.TagInteger):
			n, err := c.Int()
			if err != nil {
				return d, err
			}
			d.Code = int(n)
		case c.Class == ber.Universal && (c.Tag == ber.TagVisibleString || c.Tag == ber.TagGeneralString || c.Tag == ber.TagOctetString):
			s, err := c.Text()
			if err != nil {
				return d, err
			}
			d.AddInfo = s
		}
	}
	return d, nil
}

// recordsElement encodes Records ::= CHOICE { responseRecords [28]
// IMPLICIT SEQUENCE OF NamePlusRecord, nonSurrogateDiagnostic [130]
// IMPLICIT DefaultDiagFormat, multipleNonSurDiagnostics [205] IMPLICIT
// SEQUENCE OF DiagRec }.
func recordsElement(recs []Record, diags []Diagnostic) []ber.Element {
	switch {
	case len(recs) > 0:
		rs := ber.NewConstructed(ber.Context, 28)
		for _, r := range recs {
			rs.Children = append(rs.Children, namePlusRecord(r))
		}
		return []ber.Element{rs}
	case len(diags) == 1:
		d := diagElement(diags[0])
		d.Class, d.Tag = ber.Context, 130
		return []ber.Element{d}
	case len(diags) > 1:
		ds := ber.NewConstructed(ber.Context, 205)
		for _, d := range diags {
			ds.Children = append(ds.Children, diagElement(d))
		}
		return []ber.Element{ds}
	}
	return nil
}

// namePlusRecord encodes NamePlusRecord ::= SEQUENCE { name [0] IMPLICIT
// DatabaseName OPTIONAL, record [1] CHOICE { retrievalRecord [1]
// EXTERNAL, surrogateDiagnostic [2] DiagRec, … } }; the CHOICE and its
// alternatives are EXPLICIT tags.
func namePlusRecord(r Record) ber.Element {
	e := ber.NewConstructed(ber.Universal, ber.TagSequence)
	if r.Database != "" {
		e.Children = append(e.Children, ber.NewString(ber.Context, 0, r.Database))
	}
	var alt ber.Element
	if r.Diagnostic != nil {
		alt = ber.NewConstructed(ber.Context, 2, diagElement(*r.Diagnostic))
	} else {
		oid, _ := ber.NewOID(ber.Universal, ber.TagOID, r.Syntax)
		var enc ber.Element
		if r.Syntax.Equal(SUTRS) {
			// single-ASN1-type [0] ANY: SutrsRecord ::= InternationalString.
			enc = ber.NewConstructed(ber.Context, 0, ber.NewBytes(ber.Universal, ber.TagGeneralString, r.Data))
		} else {
			enc = ber.NewBytes(ber.Context, 1, r.Data) // octet-aligned [1] IMPLICIT OCTET STRING
		}
		alt = ber.NewConstructed(ber.Context, 1, ber.NewConstructed(ber.Universal, ber.TagExternal, oid, enc))
	}
	e.Children = append(e.Children, ber.NewConstructed(ber.Context, 1, alt))
	return e
}

// decodeRecords reads the Records CHOICE out of a response's children.
func decodeRecords(parent *ber.Element) ([]Record, []Diagnostic, error) {
	var recs []Record
	var diags []Diagnostic
	for i := range parent.Children {
		c := &parent.Children[i]
		if c.Class != ber.Context {
			continue
		}
		switch c.Tag {
		case 28: // responseRecords
			for j := range c.Children {
				r, err := decodeNamePlusRecord(&c.Children[j])
				if err != nil {
					return nil, nil, fmt.Errorf("record %d: %w", j+1, err)
				}
				recs = append(recs, r)
			}
		case 130: // nonSurrogateDiagnostic
			d, err := decodeDiag(c)
			if err != nil {
				return nil, nil, err
			}
			diags = append(diags, d)
		case 205: // multipleNonSurDiagnostics
			for j := range c.Children {
				d, err := decodeDiag(&c.Children[j])
				if err != nil {
					return nil, nil, err
				}
				diags = append(diags, d)
			}
		}
	}
	return recs, diags, nil
}

func decodeNamePlusRecord(e *ber.Element) (Record, error) {
	var r Record
	if !e.Constructed {
		return r, fmt.Errorf("NamePlusRecord %s is primitive", e.TagString())
	}
	if n, ok := e.Child(ber.Context, 0); ok {
		s, err := n.Text()
		if err != nil {
			return r, err
		}
		r.Database = s
	}
	rec, ok := e.Child(ber.Context, 1)
	if !ok || len(rec.Children) != 1 {
		return r, fmt.Errorf("NamePlusRecord has no record [1]")
	}
	alt := &rec.Children[0]
	if !alt.Constructed || len(alt.Children) != 1 {
		return r, fmt.Errorf("record alternative %s is not an EXPLICIT tag around one element", alt.TagString())
	}
	switch {
	case alt.Is(ber.Context, 1): // retrievalRecord [1] EXTERNAL
		return decodeExternal(r, &alt.Children[0])
	case alt.Is(ber.Context, 2): // surrogateDiagnostic [2] DiagRec
		d, err := decodeDiag(&alt.Children[0])
		if err != nil {
			return r, err
		}
		r.Diagnostic = &d
		return r, nil
	}
	return r, fmt.Errorf("record alternative %s (a fragment?) is not supported", alt.TagString())
}

// decodeExternal reads EXTERNAL ::= [UNIVERSAL 8] IMPLICIT SEQUENCE {
// direct-reference OID OPTIONAL, indirect-reference INTEGER OPTIONAL,
// data-value-descriptor ObjectDescriptor OPTIONAL, encoding CHOICE {
// single-ASN1-type [0] ANY, octet-aligned [1] IMPLICIT OCTET STRING,
// arbitrary [2] IMPLICIT BIT STRING } } (X.208 §34).
func decodeExternal(r Record, x *ber.Element) (Record, error) {
	if !x.Is(ber.Universal, ber.TagExternal) || !x.Constructed {
		return r, fmt.Errorf("retrieval record %s is not an EXTERNAL", x.TagString())
	}
	found := false
	for i := range x.Children {
		c := &x.Children[i]
		switch {
		case c.Is(ber.Universal, ber.TagOID):
			o, err := c.OID()
			if err != nil {
				return r, err
			}
			r.Syntax = o
		case c.Is(ber.Context, 0): // single-ASN1-type: EXPLICIT
			if !c.Constructed || len(c.Children) != 1 {
				return r, fmt.Errorf("single-ASN1-type is not an EXPLICIT tag around one element")
			}
			v := &c.Children[0]
			if r.Syntax.Equal(SUTRS) || !v.Constructed || v.Tag == ber.TagOctetString || v.Tag == ber.TagGeneralString {
				b, err := v.Bytes()
				if err == nil {
					r.Data = b
					found = true
					break
				}
			}
			r.Data = ber.Append(nil, *v) // structured record: keep its encoding
			found = true
		case c.Is(ber.Context, 1): // octet-aligned
			b, err := c.Bytes()
			if err != nil {
				return r, err
			}
			r.Data = b
			found = true
		case c.Is(ber.Context, 2): // arbitrary
			bs, err := c.BitString()
			if err != nil {
				return r, err
			}
			r.Data = bs.Bytes
			found = true
		}
	}
	if !found {
		return r, fmt.Errorf("EXTERNAL record has no encoding")
	}
	return r, nil
}
