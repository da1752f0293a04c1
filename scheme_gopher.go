package rfc1738

import "strings"

// PlusKind classifies a Gopher+ string (§3.4.4–§3.4.9).
type PlusKind uint8

// The kinds of Gopher+ string.
const (
	PlusNone                PlusKind = iota // no Gopher+ string
	PlusDefaultView                         // "+": the default view (§3.4.4)
	PlusAsk                                 // "?": an item with an ASK form (§3.4.4, §3.4.5)
	PlusItemAttributes                      // "!" or "!+ATTR…": the item's attributes (§3.4.6, §3.4.7)
	PlusDirectoryAttributes                 // "$" or "$+ATTR…": attributes of every item of a directory (§3.4.6, §3.4.7)
	PlusAlternateView                       // "+view lang": an alternate view (§3.4.8)
	PlusForm                                // "+\t1\r\n+-1\r\n…": a filled-out ASK form (§3.4.9)
	PlusOther                               // anything else
)

var plusKindNames = [...]string{"", "default-view", "ask", "item-attributes", "directory-attributes", "alternate-view", "form", "other"}

// String returns the kind's name as the CLI prints it, e.g. "default-view".
func (k PlusKind) String() string { return plusKindNames[k] }

// Gopher is the view of a gopher URL (§3.4): item type, selector, search
// and Gopher+ string, split at the first two encoded tabs (%09) and decoded.
type Gopher struct {
	// Type is the decoded gophertype; '1' (a directory) when the
	// gopher-path is empty (§3.4.1).
	Type     byte
	Selector string // decoded selector; "" is the server's top level
	// Search is the decoded search string (§3.4.2). HasSearch is true when
	// the first %09 is present, even if the search is empty (§3.4.3).
	Search    string
	HasSearch bool
	// Plus is the decoded Gopher+ string (§3.4.3).
	Plus     string
	HasPlus  bool
	PlusKind PlusKind

	// The same parts as written in the URL.
	RawSelector, RawSearch, RawPlus string
}

// gopherSpans returns the offsets in u.s of the gopher-path parts: the
// gtype [ts, te), selector [te, se), search [se+3, xe) and Gopher+ string
// [xe+3, end). se == end when there is no search, xe == end when there is
// no Gopher+ string. ok is false when the gopher-path is empty.
func (u URL) gopherSpans() (ts, te, se, xe int, ok bool) {
	path, has := u.Path()
	if !has || path == "" {
		return 0, 0, 0, 0, false
	}
	ts = u.PathOffset()
	te = ts + 1
	if path[0] == '%' {
		te = ts + 3 // gtype = xchar, which may be an escape
	}
	end := int(u.end)
	se = indexString(u.s, te, end, "%09")
	xe = end
	if se < end {
		xe = indexString(u.s, se+3, end, "%09")
	}
	return ts, te, se, xe, true
}

func indexString(s string, i, j int, sub string) int {
	if k := strings.Index(s[i:j], sub); k >= 0 {
		return i + k
	}
	return j
}

// Gopher returns the gopher view of u, and false when u is not a gopher URL.
func (u URL) Gopher() (Gopher, bool) {
	if u.kind != KindGopher {
		return Gopher{}, false
	}
	g := Gopher{Type: '1'} // §3.4.1: an empty gopher-path is type "1"
	ts, te, se, xe, ok := u.gopherSpans()
	if !ok {
		return g, true
	}
	end := int(u.end)
	g.Type = unescape(u.s[ts:te])[0]
	g.RawSelector = u.s[te:se]
	g.Selector = unescape(g.RawSelector)
	if se < end {
		g.HasSearch = true
		g.RawSearch = u.s[se+3 : xe]
		g.Search = unescape(g.RawSearch)
	}
	if xe < end {
		g.HasPlus = true
		g.RawPlus = u.s[xe+3 : end]
		g.Plus = unescape(g.RawPlus)
		g.PlusKind = ClassifyPlus(g.Plus)
	}
	return g, true
}

// ClassifyPlus tells which Gopher+ request a decoded Gopher+ string makes
// (§3.4.4–§3.4.9).
func ClassifyPlus(plus string) PlusKind {
	switch {
	case plus == "+":
		return PlusDefaultView
	case plus == "?":
		return PlusAsk
	case plus == "!" || strings.HasPrefix(plus, "!+"):
		return PlusItemAttributes
	case plus == "$" || strings.HasPrefix(plus, "$+"):
		return PlusDirectoryAttributes
	case strings.HasPrefix(plus, "+\t1\r\n"):
		// §3.4.9: +%091%0D%0A+-1%0D%0A<value>%0D%0A….%0D%0A
		return PlusForm
	case len(plus) > 1 && plus[0] == '+' && strings.IndexAny(plus, "\t\r\n") < 0:
		// §3.4.8: +<view_name>%20<language_name>
		return PlusAlternateView
	}
	return PlusOther
}
