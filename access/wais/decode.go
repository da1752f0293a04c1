package wais

import (
	"fmt"

	"github.com/rfc1738/rfc1738/access/wais/ber"
)

// DecodePDU decodes one BER-encoded APDU. The APDUs this client uses come
// back as their types (InitResponse, SearchResponse, …); any other APDU is
// an UnknownPDU. Fields this client does not use are skipped. At most
// maxElements BER elements are decoded, which bounds the memory a hostile
// APDU can cost to a small multiple of its size.
func DecodePDU(b []byte) (PDU, error) {
	e, rest, err := ber.Limits{MaxElements: maxElements}.Decode(b)
	if err != nil {
		return nil, err
	}
	if len(rest) != 0 {
		return nil, fmt.Errorf("%d bytes after the APDU", len(rest))
	}
	if e.Class != ber.Context || !e.Constructed {
		return nil, fmt.Errorf("APDU %s is not a context-specific constructed tag", e.TagString())
	}
	var p PDU
	switch e.Tag {
	case tagInitRequest:
		p, err = decodeInitRequest(&e)
	case tagInitResponse:
		p, err = decodeInitResponse(&e)
	case tagSearchRequest:
		p, err = decodeSearchRequest(&e)
	case tagSearchResponse:
		p, err = decodeSearchResponse(&e)
	case tagPresentRequest:
		p, err = decodePresentRequest(&e)
	case tagPresentResponse:
		p, err = decodePresentResponse(&e)
	case tagClose:
		p, err = decodeClose(&e)
	default:
		p = UnknownPDU{Raw: e}
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// maxElements is enough for thousands of records in one response.
const maxElements = 1 << 16

// fields walks the context-tagged children of an APDU and hands each to
// the setter registered for its tag.
type fields map[uint32]func(*ber.Element) error

func (f fields) walk(e *ber.Element, required ...uint32) error {
	seen := map[uint32]bool{}
	for i := range e.Children {
		c := &e.Children[i]
		if c.Class != ber.Context {
			continue
		}
		if set, ok := f[c.Tag]; ok {
			if err := set(c); err != nil {
				return fmt.Errorf("field %s: %w", c.TagString(), err)
			}
			seen[c.Tag] = true
		}
	}
	for _, t := range required {
		if !seen[t] {
			return fmt.Errorf("required field [%d] is missing", t)
		}
	}
	return nil
}

func intField(dst *int) func(*ber.Element) error {
	return func(e *ber.Element) error {
		n, err := e.Int()
		if err != nil {
			return err
		}
		if n < -1<<31 || n > 1<<31-1 {
			return fmt.Errorf("integer %d out of range", n)
		}
		*dst = int(n)
		return nil
	}
}

func boolField(dst *bool) func(*ber.Element) error {
	return func(e *ber.Element) error {
		v, err := e.Bool()
		*dst = v
		return err
	}
}

func stringField(dst *string) func(*ber.Element) error {
	return func(e *ber.Element) error {
		s, err := e.Text()
		*dst = s
		return err
	}
}

func oidField(dst *ber.OID) func(*ber.Element) error {
	return func(e *ber.Element) error {
		o, err := e.OID()
		*dst = o
		return err
	}
}

func versionsField(dst *Versions) func(*ber.Element) error {
	return func(e *ber.Element) error {
		b, err := e.BitString()
		if err != nil {
			return err
		}
		for i := range min(b.Length, 8) {
			if b.At(i) {
				*dst |= 1 << i
			}
		}
		return nil
	}
}

func optionsField(dst *Options) func(*ber.Element) error {
	return func(e *ber.Element) error {
		b, err := e.BitString()
		*dst = optionsFrom(b)
		return err
	}
}

func decodeInitRequest(e *ber.Element) (InitRequest, error) {
	var p InitRequest
	err := fields{
		3: versionsField(&p.Versions), 4: optionsField(&p.Options),
		5: intField(&p.PreferredMessageSize), 6: intField(&p.ExceptionalRecordSize),
		110: stringField(&p.ImplementationID), 111: stringField(&p.ImplementationName), 112: stringField(&p.ImplementationVersion),
	}.walk(e, 3, 4, 5, 6)
	if err != nil {
		return p, fmt.Errorf("InitializeRequest: %w", err)
	}
	return p, nil
}

func decodeInitResponse(e *ber.Element) (InitResponse, error) {
	var p InitResponse
	err := fields{
		3: versionsField(&p.Versions), 4: optionsField(&p.Options),
		5: intField(&p.PreferredMessageSize), 6: intField(&p.ExceptionalRecordSize),
		12:  boolField(&p.Result),
		110: stringField(&p.ImplementationID), 111: stringField(&p.ImplementationName), 112: stringField(&p.ImplementationVersion),
	}.walk(e, 3, 4, 5, 6, 12)
	if err != nil {
		return p, fmt.Errorf("InitializeResponse: %w", err)
	}
	return p, nil
}

func decodeSearchRequest(e *ber.Element) (SearchRequest, error) {
	var p SearchRequest
	err := fields{
		13: intField(&p.SmallSetUpperBound), 14: intField(&p.LargeSetLowerBound),
		15: intField(&p.MediumSetPresentNumber), 16: boolField(&p.ReplaceIndicator),
		17: stringField(&p.ResultSetName),
		18: func(e *ber.Element) error {
			for i := range e.Children {
				s, err := e.Children[i].Text()
				if err != nil {
					return err
				}
				p.Databases = append(p.Databases, s)
			}
			return nil
		},
		104: oidField(&p.PreferredRecordSyntax),
		21:  func(e *ber.Element) error { q, err := decodeQuery(e); p.Query = q; return err },
	}.walk(e, 13, 14, 15, 16, 17, 18, 21)
	if err != nil {
		return p, fmt.Errorf("SearchRequest: %w", err)
	}
	return p, nil
}

// decodeQuery reads the two query shapes this client sends; it exists so
// that fakes and tests can check what went on the wire.
func decodeQuery(e *ber.Element) (Query, error) {
	var q Query
	if len(e.Children) != 1 {
		return q, fmt.Errorf("query [21] holds %d elements", len(e.Children))
	}
	c := &e.Children[0]
	switch {
	case c.Is(ber.Context, 0) && len(c.Children) == 1:
		q.Kind = QueryWAISDocument
		s := &c.Children[0]
		if id, ok := s.Child(ber.Context, 1); ok {
			b, err := id.Bytes()
			if err != nil {
				return q, err
			}
			q.DocID = b
		}
		if t, ok := s.Child(ber.Context, 2); ok {
			q.DocType, _ = t.Text()
		}
		return q, nil
	case c.Is(ber.Context, 1) && len(c.Children) == 2:
		q.Kind = QueryRPN
		o, err := c.Children[0].OID()
		if err != nil {
			return q, err
		}
		q.AttributeSet = o
		var walk func(*ber.Element, int) error
		walk = func(n *ber.Element, depth int) error {
			if depth > 64 {
				return fmt.Errorf("RPN tree too deep")
			}
			switch {
			case n.Is(ber.Context, 0) && len(n.Children) == 1:
				apt := &n.Children[0]
				t, ok := apt.Child(ber.Context, 45)
				if !ok {
					return fmt.Errorf("operand without a general term")
				}
				s, err := t.Text()
				q.Terms = append(q.Terms, s)
				return err
			case n.Is(ber.Context, 1) && len(n.Children) == 3:
				if err := walk(&n.Children[0], depth+1); err != nil {
					return err
				}
				return walk(&n.Children[1], depth+1)
			}
			return fmt.Errorf("unsupported RPN node %s", n.TagString())
		}
		return q, walk(&c.Children[1], 0)
	}
	return q, fmt.Errorf("unsupported query %s", c.TagString())
}

func decodeSearchResponse(e *ber.Element) (SearchResponse, error) {
	var p SearchResponse
	err := fields{
		23: intField(&p.ResultCount), 24: intField(&p.NumberOfRecordsReturned),
		25: intField(&p.NextResultSetPosition), 22: boolField(&p.SearchStatus),
		26: intField(&p.ResultSetStatus), 27: intField(&p.PresentStatus),
	}.walk(e, 23, 24, 25, 22)
	if err != nil {
		return p, fmt.Errorf("SearchResponse: %w", err)
	}
	p.Records, p.Diagnostics, err = decodeRecords(e)
	if err != nil {
		return p, fmt.Errorf("SearchResponse: %w", err)
	}
	return p, nil
}

func decodePresentRequest(e *ber.Element) (PresentRequest, error) {
	var p PresentRequest
	err := fields{
		31: stringField(&p.ResultSetID), 30: intField(&p.Start), 29: intField(&p.Count),
		19: func(e *ber.Element) error {
			if n, ok := e.Child(ber.Context, 0); ok {
				p.ElementSetName, _ = n.Text()
			}
			return nil
		},
		104: oidField(&p.PreferredRecordSyntax),
	}.walk(e, 31, 30, 29)
	if err != nil {
		return p, fmt.Errorf("PresentRequest: %w", err)
	}
	return p, nil
}

func decodePresentResponse(e *ber.Element) (PresentResponse, error) {
	var p PresentResponse
	err := fields{
		24: intField(&p.NumberOfRecordsReturned), 25: intField(&p.NextResultSetPosition),
		27: intField(&p.PresentStatus),
	}.walk(e, 24, 25, 27)
	if err != nil {
		return p, fmt.Errorf("PresentResponse: %w", err)
	}
	p.Records, p.Diagnostics, err = decodeRecords(e)
	if err != nil {
		return p, fmt.Errorf("PresentResponse: %w", err)
	}
	return p, nil
}

func decodeClose(e *ber.Element) (Close, error) {
	var p Close
	err := fields{211: intField(&p.Reason), 3: stringField(&p.Diagnostic)}.walk(e, 211)
	if err != nil {
		return p, fmt.Errorf("Close: %w", err)
	}
	return p, nil
}
