package rfc1738

import (
	"math"
	"math/bits"
	"strings"
	"sync"
	"unicode/utf8"
)

// Parse parses s as an RFC 1738 URL, strictly: s must match its scheme's
// production in §5. An optional "#fragment" after the URL is kept apart
// (Appendix). The error, an *Error, names the byte offset of the first
// violation and the rule that failed; Check reports them all.
//
// Parse does not allocate, whether s is valid or not: the *Error of a
// rejected input holds offsets and codes, and its message is formatted
// only when asked for. (Like any value, the *Error moves to the heap, in
// one allocation, when the caller keeps it.)
func Parse(s string) (URL, error) {
	// Parse is small enough to be inlined, so that the *Error lives in the
	// caller's frame unless the caller keeps it.
	var p parser
	if p.parse(s) {
		return p.u, nil
	}
	return URL{}, p.first.ptr()
}

// Valid reports whether s is an RFC 1738 URL: exactly whether Parse(s)
// returns no error, at the cost of a recogniser. Since every ip-schemepart
// is also *xchar (§5), a URL of any scheme other than the ten of §3 is
// valid when its schemepart and fragment are xchars, which one loop over
// the bytes decides; the ten schemes are held to their productions.
func Valid(s string) bool {
	i, _ := schemeEnd(s, len(s))
	if i == 0 || i == len(s) || s[i] != ':' || len(s) > maxInputLen {
		return false
	}
	switch KindOf(s[:i]) {
	case KindOther:
	case KindFile:
		if validFile(s, i) {
			return true
		}
		fallthrough
	default:
		var p parser
		return p.parse(s)
	}
	// §5 genericurl: schemepart = *xchar, then maybe "#" fragment (Appendix),
	// fragment = *xchar.
	end := span(s, i+1, len(s), xcharOctets)
	return end == len(s) || s[end] == '#' && span(s, end+1, len(s), xcharOctets) == len(s)
}

// MaxDiagnostics is how many errors, and how many warnings, Check collects
// for one input; it counts the rest (Report.MoreErrors, MoreWarnings), so
// that the memory a report takes is bounded whatever the input.
const MaxDiagnostics = 20

// maxInputLen is the longest input Parse, Valid and Check accept: a URL
// keeps its offsets as int32, and every offset, the end included, must fit.
// It is a variable only so that a test can move the limit within reach.
var maxInputLen = math.MaxInt32

// parser holds the state of one parse. In Parse mode (!collect) it stops
// at the first violation; in Check mode it records every violation in
// diags and goes on, skipping the offending byte.
type parser struct {
	s       string
	u       URL
	collect bool
	diags   []Diagnostic
	limit   int       // Check mode: how many diagnostics to keep; the rest are counted
	more    int       // Check mode: violations found beyond limit
	first   fault     // Parse mode: the first violation
	stop    bool      // Parse mode only: a violation was found
	bad     bool      // Check mode: at least one violation was found
	slab    *diagSlab // Check mode: where diags was taken from, if it was
}

// record notes a violation. It returns true when the parse must stop
// (Parse mode).
func (p *parser) record(f fault) bool {
	if !p.collect {
		if !p.stop {
			p.first = f
			p.first.Input = p.s
			p.stop = true
		}
		return true
	}
	p.bad = true
	if p.limit > 0 && len(p.diags) >= p.limit {
		p.more++
		return false
	}
	if p.diags == nil {
		p.slab = slabs.Get().(*diagSlab)
		p.diags = p.slab.take()
	}
	p.diags = append(p.diags, Diagnostic{Offset: f.Offset, Rule: f.Rule, Message: f.message(p.s)})
	return false
}

// A diagSlab holds the storage of the diagnostics of many reports: each
// report's list is a window of it, taken in turn, so that the lists of
// rejected URLs, most of them of one diagnostic, cost an allocation for
// many of them, not one each (and not one of a guessed size). A slab is
// used by one parse at a time (slabs), and a window once given out is
// never written again.
type diagSlab struct {
	free []Diagnostic // the part not given out
}

// diagSlabLen is the number of diagnostics of a slab: a few kilobytes,
// the lists of some sixty rejected URLs.
const diagSlabLen = 64

// slabs holds the slabs between parses.
var slabs = sync.Pool{New: func() any { return new(diagSlab) }}

// take returns an empty list whose storage is the slab's free part, a
// new slab's when none is left. (A list that outgrows the part left is
// moved by append, and the part is taken by the next list.)
func (d *diagSlab) take() []Diagnostic {
	if len(d.free) == 0 {
		d.free = make([]Diagnostic, diagSlabLen)
	}
	return d.free[:0]
}

// done gives the slab back, keeping list, its window, out of the free
// part. list may have outgrown the slab (append moved it); the slab's
// free part is then left as it was.
func (p *parser) done() []Diagnostic {
	list := p.diags
	if p.slab == nil {
		return list
	}
	// (The slab was taken for a diagnostic: list is not empty.)
	if n := len(list); &list[0] == &p.slab.free[:1][0] {
		list = list[:n:n] // an append to the report's list goes elsewhere
		p.slab.free = p.slab.free[n:]
	}
	slabs.Put(p.slab)
	p.slab = nil
	return list
}

// diagnostic returns the first violation of a Parse-mode parser.
func (p *parser) diagnostic() Diagnostic {
	return Diagnostic{Offset: p.first.Offset, Rule: p.first.Rule, Message: p.first.message(p.s)}
}

// fail records a violation at byte offset off with a fixed message.
func (p *parser) fail(off int, rule, msg string) bool {
	return p.record(fault{Offset: off, Rule: rule, why: why{msg: msg}})
}

// failByte records that the byte at off is not allowed in rule (§2.2); the
// message is spelled out only when it is needed.
func (p *parser) failByte(off int, rule string) bool {
	return p.record(fault{Offset: off, Rule: rule, why: why{code: msgByte}})
}

// failKind records a violation whose message names the scheme.
func (p *parser) failKind(off int, rule string, code faultCode) bool {
	return p.record(fault{Offset: off, Rule: rule, why: why{code: code, kind: p.u.kind}})
}

// scan checks that s[i:j] holds only octets of set and well-formed escapes
// (§5 escape = "%" hex hex). Each offending byte is reported under rule.
// It returns false when the parse must stop.
func (p *parser) scan(i, j int, set *octets, rule string) bool {
	for {
		i = span(p.s, i, j, set)
		if i == j {
			return true
		}
		if p.s[i] == '%' {
			if p.fail(i, "escape", "'%' must begin an escape of two hex digits, %XX (§2.2); encode a literal '%' as %25") {
				return false
			}
			i++
		} else if p.failByte(i, rule) {
			return false
		} else {
			i = charEnd(p.s, i, j)
		}
	}
}

// charEnd returns where the character at s[i] ends, within s[:j]: after
// the whole UTF-8 sequence of a character beyond US-ASCII, else after the
// octet. A character is one violation of §2.2, whatever the number of
// octets UTF-8 gives it; an invalid sequence is one octet at a time.
func charEnd(s string, i, j int) int {
	_, n := utf8.DecodeRuneInString(s[i:j]) // 1 for an ASCII octet
	return i + n
}

// parse parses s and reports whether it is valid.
func (p *parser) parse(s string) bool {
	p.s = s
	if len(s) > maxInputLen {
		p.fail(0, "url", "the URL is longer than this parser accepts (2 GiB)")
		return false
	}
	// §2.1, §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] ":"
	i, upper := schemeEnd(s, len(s))
	kind := KindOther
	if i < len(s) && s[i] == ':' {
		kind = KindOf(s[:i])
		if kind == KindOther && i > 0 && !upper && p.generic(i) {
			return !p.stop && !p.bad
		}
	}
	end := strings.IndexByte(s, '#')
	if end >= 0 {
		p.u.flags |= flagFragment
	} else {
		end = len(s)
	}
	p.u.s = s
	p.u.end = int32(end)
	p.url(end, i, upper, kind)
	if end < len(s) && !p.stop {
		// Appendix: a fragment identifier may follow the URL after "#".
		// It is checked last, so violations are reported in input order.
		p.scan(end+1, len(s), xcharOctets, "fragment")
	}
	return !p.stop && !p.bad
}

// schemeEnd returns how many octets at the start of s[:end] can be part of
// a scheme name, and whether one of them is an upper-case letter.
//
// §2.1, §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] ":"; upper
// case letters are read as lower case.
//
// The lower-case letters it starts with, all of most scheme names, are
// found 8 at a time; the octets after them one at a time.
func schemeEnd(s string, end int) (int, bool) {
	t := s[:end]
	upper := false
	i := 0
	if len(t) >= 8 { // (shorter, the loop reads them all the same)
		w := le64(t)
		lower := between(w&^hi8, 'a', 'z') &^ w // an octet ≥ 0x80 is no letter
		i = bits.TrailingZeros64(^lower&hi8) / 8
	}
	for ; i < len(t); i++ {
		c := classes[t[i]]
		if c&(classScheme|classHialpha) == 0 {
			break
		}
		upper = upper || c&classHialpha != 0
	}
	return i, upper
}

// generic parses, in one pass that also finds the fragment, the commonest
// URL of all: a generic scheme's ip-schemepart with a host name and no
// user (https://www.example.com/a); the scheme, in lower case, ends at
// colon. It reports whether it decided: the URL is valid, or, when only an
// octet of its path or fragment is wrong, the violation is recorded as the
// rule-by-rule reading records it (in Check mode, with every violation
// after it). It reports false, leaving p.u as it found it and recording
// nothing, for anything else, which parse then reads rule by rule.
func (p *parser) generic(colon int) bool {
	s := p.s
	i := colon
	if !strings.HasPrefix(s[i:], "://") {
		return false
	}
	h := i + 3
	var j int
	var xstop uint64 // the xchar stops of s[h:h+64], for xcharEnd
	if vectorFor(s) {
		j, xstop = hostnameEndVector(s, h, len(s))
	} else {
		j = hostnameEnd(s, h, len(s))
	}
	if j <= h {
		return false
	}
	p.u.kind, p.u.colon, p.u.flags = KindOther, int32(i), flagAuthority
	p.u.hostStart, p.u.hostEnd = int32(h), int32(j)
	if j < len(s) && s[j] == ':' {
		// §5: hostport = host [ ":" port ]
		k := p.port(j+1, len(s))
		if k == j+1 {
			p.u = URL{}
			return false
		}
		j = k
	}
	p.u.portEnd = int32(j)
	end := len(s)
	if j < len(s) {
		// §5: ip-schemepart = "//" login [ "/" urlpath ]; urlpath = *xchar,
		// then maybe "#" fragment (Appendix), fragment = *xchar.
		if s[j] != '/' {
			p.u = URL{}
			return false
		}
		e := xcharEnd(s, j+1, h, xstop)
		if e < len(s) {
			f := len(s)
			if s[e] == '#' {
				f = span(s, e+1, len(s), xcharOctets)
			}
			if f < len(s) || s[e] != '#' {
				// Up to the octet at e (f) the URL is an ip-schemepart and
				// so *xchar (§5): whichever reading the rule-by-rule parse
				// keeps, its first violation is this octet, in the
				// schemepart (the fragment).
				// The octets after it are read as the rule-by-rule parse
				// reads them in Check mode: the rest of the schemepart,
				// then the fragment after the first "#".
				p.u = URL{}
				if f < len(s) {
					p.scan(f, len(s), xcharOctets, "fragment")
					return true
				}
				hash := len(s)
				if k := strings.IndexByte(s[e:], '#'); k != -1 {
					hash = e + k
				}
				if p.scan(e, hash, xcharOctets, "schemepart") && hash < len(s) {
					p.scan(hash+1, len(s), xcharOctets, "fragment")
				}
				return true
			}
			p.u.flags |= flagFragment
			end = e
		}
		p.u.flags |= flagPath
	}
	p.u.s, p.u.end = s, int32(end)
	return true
}

// url parses the URL proper, s[:end]. The scheme's octets are s[:i]
// (schemeEnd), and kind is its Kind when s[i] is ':'.
func (p *parser) url(end, i int, upper bool, kind Kind) {
	s := p.s
	if upper {
		p.u.flags |= flagUpperScheme
	}
	if i == end {
		p.fail(i, "genericurl", "missing ':' after the scheme name (§2.1)")
		return
	}
	if s[i] != ':' {
		p.fail(i, "scheme", "expected ':' after the scheme name; a scheme has only letters, digits, '+', '-' and '.' (§2.1)")
		return
	}
	if i == 0 {
		p.fail(0, "scheme", "the scheme name is empty (§2.1)")
		return
	}
	p.u.colon = int32(i)
	p.u.kind = kind
	rest := i + 1

	switch p.u.kind {
	case KindMailto:
		// §3.5, §5: mailtourl = "mailto:" encoded822addr; encoded822addr = 1*xchar
		if rest == end {
			p.fail(rest, "encoded822addr", "a mailto URL needs an address (§3.5)")
			return
		}
		p.scan(rest, end, xcharOctets, "encoded822addr")
	case KindNews:
		p.news(rest, end)
	case KindOther:
		// §5: genericurl = scheme ":" schemepart;
		//     schemepart = *xchar | ip-schemepart
		// Either reading makes the URL valid. ip-schemepart (§3.1) is tried
		// first, since it gives the parts; every ip-schemepart is also
		// *xchar, so when it does not match, *xchar decides alone, and the
		// URL is opaque (Warnings says why it has no host).
		if strings.HasPrefix(s[rest:end], "//") {
			collect := p.collect
			p.collect = false // a trial: its violations are not the URL's
			matched := p.ipSchemepart(rest, end)
			p.collect = collect
			if matched {
				return
			}
			p.stop, p.first = false, fault{}
			p.u = URL{s: p.u.s, kind: p.u.kind, flags: p.u.flags & (flagUpperScheme | flagFragment), colon: p.u.colon, end: p.u.end}
		}
		p.scan(rest, end, xcharOctets, "schemepart")
	default:
		p.ipScheme(rest, end)
	}
}

// ipSchemepart reports whether s[rest:end] matches §5 ip-schemepart =
// "//" login [ "/" urlpath ], with urlpath = *xchar, taking its parts.
func (p *parser) ipSchemepart(rest, end int) bool {
	j := p.login(rest+2, end, true, true, "login")
	if p.stop {
		return false
	}
	if j < end { // s[j] == '/'
		p.u.flags |= flagPath
		return p.scan(j+1, end, xcharOctets, "urlpath")
	}
	return true
}

// ipScheme parses the schemepart of the eight named schemes that use the
// "//" syntax of §3.1: the login, then a case per scheme's urlpath
// (§3.2–§3.11).
func (p *parser) ipScheme(rest, end int) {
	s := p.s
	k := p.u.kind
	rule := urlRules[k]
	if !strings.HasPrefix(s[rest:end], "//") {
		p.failKind(rest, rule, msgStartsWith)
		return
	}
	// Only ftp and telnet allow "user:password@" (§3.2.1, §3.8); file has
	// an optional host and no port (§3.10).
	allowUser := k == KindFTP || k == KindTelnet
	j := p.login(rest+2, end, allowUser, k != KindFile, rule)
	if p.stop {
		return
	}
	hasSlash := j < end
	if hasSlash {
		p.u.flags |= flagPath
	}
	path := j + 1 // start of url-path when hasSlash
	switch k {
	case KindFTP:
		// §5: ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
		if hasSlash {
			p.fpath(path, end, true)
		}
	case KindFile:
		// §5: fileurl = "file://" [ host | "localhost" ] "/" fpath
		if !hasSlash {
			p.fail(end, rule, "a file URL needs '/' and a path after the host (§3.10)")
			return
		}
		p.fpath(path, end, false)
	case KindHTTP:
		// §5: httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
		if hasSlash {
			q := span(s, path, end, hpathOctets)
			if q == end {
				return
			}
			if s[q] != '?' {
				q = indexByte(s, path, end, '?')
			}
			if p.scan(path, q, hpathOctets, "hsegment") && q < end {
				p.scan(q+1, end, hsegmentOctets, "search")
			}
		}
	case KindGopher:
		// §5: gopherurl = "gopher://" hostport [ / [ gtype [ selector
		//     [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
		// gtype = xchar; selector, search, gopher+_string = *xchar.
		if hasSlash {
			p.scan(path, end, xcharOctets, "selector")
		}
	case KindNNTP:
		p.nntpPath(hasSlash, path, end, rule)
	case KindTelnet:
		// §5: telneturl = "telnet://" login [ "/" ]
		if hasSlash && path < end {
			p.fail(path, rule, "nothing may follow the final '/' of a telnet URL (§3.8)")
		}
	case KindWAIS:
		p.waisPath(hasSlash, path, end, rule)
	case KindProspero:
		p.prosperoPath(hasSlash, path, end, rule)
	}
}

// urlRules are the §5 production names of each scheme's URL.
var urlRules = [...]string{"genericurl", "ftpurl", "httpurl", "gopherurl", "mailtourl", "newsurl", "nntpurl", "telneturl", "waisurl", "fileurl", "prosperourl"}

// article returns the scheme name with its indefinite article: "an ftp".
func article(k Kind) string {
	switch k {
	case KindFTP, KindHTTP, KindNNTP:
		return "an " + kindNames[k]
	}
	return "a " + kindNames[k]
}

// indexByte returns the index of c in s[i:j], or j.
func indexByte(s string, i, j int, c byte) int {
	if k := strings.IndexByte(s[i:j], c); k >= 0 {
		return i + k
	}
	return j
}

// ptr returns a copy of f, for Parse, which stays small enough to be
// inlined so that the copy lives in its caller's frame.
func (f fault) ptr() *Error { return &f }
