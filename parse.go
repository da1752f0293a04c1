package rfc1738

import (
	"math"
	"math/bits"
	"strings"

	"github.com/rfc1738/rfc1738/internal/cpuid"
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

// validFile is Valid's fast path for a file URL whose scheme ends at
// colon: true when the URL has a host name or none, and a path with no ";"
// (§5 fileurl = "file://" [ host | "localhost" ] "/" fpath), then maybe a
// fragment. It reports false for anything else (a hostnumber, a ";", a
// violation), which Parse then reads rule by rule.
func validFile(s string, colon int) bool {
	if !strings.HasPrefix(s[colon+1:], "//") {
		return false
	}
	h := hostnameEnd(s, colon+3, len(s))
	if h < 0 || h >= len(s) || s[h] != '/' {
		return false
	}
	e := span(s, h+1, len(s), fpathOctets)
	return e == len(s) || s[e] == '#' && span(s, e+1, len(s), xcharOctets) == len(s)
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
	limit   int   // Check mode: how many diagnostics to keep; the rest are counted
	more    int   // Check mode: violations found beyond limit
	first   fault // Parse mode: the first violation
	stop    bool  // Parse mode only: a violation was found
	bad     bool  // Check mode: at least one violation was found
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
		p.diags = make([]Diagnostic, 0, 4) // one allocation for the first few
	}
	p.diags = append(p.diags, Diagnostic{Offset: f.Offset, Rule: f.Rule, Message: f.message(p.s)})
	return false
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
		} else if p.failByte(i, rule) {
			return false
		}
		i++
	}
}

// span returns the index of the first byte of s[i:j] that is neither an
// octet of set nor part of a well-formed escape, or j. With vector,
// spanBlocks reads 64 octets a step. Without, eight octets are looked up
// at a time, with one test for the eight: most bytes of a URL are plain,
// and a branch per byte costs more than the look-ups.
//
// The last few octets are read as the last 8 before j (the ones before i
// among them, when all 8 are in set, change nothing): one test, not a
// branch per octet. Only when that fails are they taken one by one.
func span(s string, i, j int, set *octets) int {
	if vectorFor(s) {
		// spanBlocks finds the first octet not in set; it ends the span
		// unless it begins a well-formed escape, after which the search
		// goes on.
		for {
			k := spanBlocks(s, i, j, set.nibbles())
			if k+2 < j && s[k] == '%' && isHex(s[k+1]) && isHex(s[k+2]) {
				i = k + 3
				continue
			}
			return k
		}
	}
	// (The tests of tail and len(t) < 8 only decide when the one test is
	// tried; at j == 8 or len(t) == 8 trying it or not gives the same.)
	t := s[i:j]
	tail := j >= 8 // the last 8 octets before j have not been tried at once
	for len(t) > 0 {
		for len(t) >= 8 && set[t[0]]&set[t[1]]&set[t[2]]&set[t[3]]&set[t[4]]&set[t[5]]&set[t[6]]&set[t[7]] != 0 {
			t = t[8:]
		}
		if len(t) == 0 {
			break
		}
		if tail && len(t) < 8 {
			if all8(s[j-8:], set) {
				return j
			}
			tail = false
		}
		if c := t[0]; set[c] != 0 {
			t = t[1:]
		} else if c == '%' && len(t) > 2 && isHex(t[1]) && isHex(t[2]) {
			t = t[3:]
		} else {
			return j - len(t)
		}
	}
	return j
}

// vector is whether span, hostnameEnd and generic read 64 octets a step
// with the AVX2 kernels of span_amd64.s (spanBlocks, blocks64), when s has
// at least 32 octets (the kernels read 32 at once, the last 32 of s near
// its end). It is false off amd64 and with the purego build tag; the tests
// turn it off to compare the two readings. (A span of a few octets gains
// nothing from it, and loses nothing measurable: the datasets' figures are
// the same whether the kernels start at spans of 1 octet or of 16.)
var vector = cpuid.AVX2

// vectorFor reports whether the kernels read s: vector is true, and s has
// the 32 octets they read at once.
func vectorFor(s string) bool {
	return vector && len(s) >= 32
}

// all8 reports whether the first 8 octets of s are all in set.
func all8(s string, set *octets) bool {
	_ = s[7]
	return set[s[0]]&set[s[1]]&set[s[2]]&set[s[3]]&set[s[4]]&set[s[5]]&set[s[6]]&set[s[7]] != 0
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
		if kind == KindOther && i > 0 && !upper && !p.collect && p.generic(i) {
			return !p.stop
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
// rule-by-rule reading records it. It reports false, leaving p.u as it
// found it, for anything else, which parse then reads rule by rule. Parse
// mode only: it records one violation.
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
				p.u = URL{}
				if f < len(s) {
					p.scan(f, len(s), xcharOctets, "fragment")
				} else {
					p.scan(e, len(s), xcharOctets, "schemepart")
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
// "//" syntax of §3.1: the login, then one switch with a case per
// scheme's urlpath (§3.2–§3.9), which reads best whole.
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
		// §5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]
		if !hasSlash {
			p.fail(end, rule, "an nntp URL needs '/' and a newsgroup name (§3.7)")
			return
		}
		slash := indexByte(s, path, end, '/')
		if !p.group(path, slash) {
			return
		}
		if slash < end {
			if slash+1 == end {
				p.fail(end, "digits", "an article number must follow the '/' after the group (§3.7)")
				return
			}
			for i := slash + 1; i < end; i++ {
				if classes[s[i]]&classDigit == 0 && p.fail(i, "digits", "an article number has only digits (§3.7)") {
					return
				}
			}
		}
	case KindTelnet:
		// §5: telneturl = "telnet://" login [ "/" ]
		if hasSlash && path < end {
			p.fail(path, rule, "nothing may follow the final '/' of a telnet URL (§3.8)")
		}
	case KindWAIS:
		// §5: waisdatabase = "wais://" hostport "/" database
		//     waisindex    = "wais://" hostport "/" database "?" search
		//     waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
		if !hasSlash {
			p.fail(end, rule, "a wais URL needs '/' and a database name (§3.9)")
			return
		}
		i := path
		for i < end && s[i] != '/' && s[i] != '?' {
			i++
		}
		if !p.scan(path, i, ucharOctets, "database") || i == end {
			return
		}
		if s[i] == '?' {
			p.scan(i+1, end, hsegmentOctets, "search")
			return
		}
		t := indexByte(s, i+1, end, '/')
		if t == end {
			p.fail(end, "waisdoc", "a wais document URL is database/wtype/wpath: the '/' before wpath is missing (§3.9)")
			return
		}
		if p.scan(i+1, t, ucharOctets, "wtype") {
			p.scan(t+1, end, ucharOctets, "wpath")
		}
	case KindProspero:
		// §5: prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
		//     fieldspec   = ";" fieldname "=" fieldvalue
		if !hasSlash {
			p.fail(end, rule, "a prospero URL needs '/' and an hsoname (§3.11)")
			return
		}
		semi := indexByte(s, path, end, ';')
		if !p.scan(path, semi, fpathOctets, "psegment") {
			return
		}
		for semi < end {
			next := indexByte(s, semi+1, end, ';')
			eq := indexByte(s, semi+1, next, '=')
			if eq == next {
				if p.fail(next, "fieldspec", "a prospero field is ;name=value: '=' is missing (§3.11)") {
					return
				}
			} else if !p.scan(semi+1, eq, fieldOctets, "fieldname") || !p.scan(eq+1, next, fieldOctets, "fieldvalue") {
				return
			}
			semi = next
		}
	}
}

// fpath checks §5 fpath = fsegment *[ "/" fsegment ], followed in ftp URLs by
// an optional ";type=" ftptype (§3.2.2). Within a segment ";" and "/" are
// reserved.
func (p *parser) fpath(i, end int, ftp bool) {
	s := p.s
	if span(s, i, end, fpathOctets) == end {
		return // no ';' and nothing to report: the common case, in one pass
	}
	semi := indexByte(s, i, end, ';')
	if !p.scan(i, semi, fpathOctets, "fsegment") || semi == end {
		return
	}
	if ftp && strings.HasPrefix(s[semi:end], ";type=") {
		t := semi + len(";type=")
		if t == end {
			p.fail(t, "ftptype", "the typecode after ';type=' is missing: one of a, i, d (§3.2.2)")
			return
		}
		switch s[t] {
		case 'a', 'i', 'd', 'A', 'I', 'D':
		default:
			if p.fail(t, "ftptype", "the typecode is one of a, i, d (§3.2.2)") {
				return
			}
		}
		if t+1 < end {
			p.fail(t+1, "ftpurl", "nothing may follow ';type=' and its typecode (§3.2.2)")
		}
		return
	}
	msg := "';' is reserved in a path segment and must be encoded as %3B (§3.2.2)"
	if ftp {
		msg = "';' is reserved in an ftp path: encode it as %3B, or write ';type=' and a typecode (§3.2.2)"
	}
	if p.fail(semi, "fsegment", msg) {
		return
	}
	p.scan(semi+1, end, fpathOctets, "fsegment")
}

// news checks §5 newsurl = "news:" grouppart; grouppart = "*" | group | article.
func (p *parser) news(i, end int) {
	// The conditions are an if chain, not switch cases: coverage tools
	// count a case's condition as run only through its body.
	s := p.s
	if i == end {
		p.fail(i, "grouppart", "a news URL names a group, a message-id or '*' (§3.6)")
		return
	}
	if end-i == 1 && s[i] == '*' {
		return // §3.6: news:* refers to all available news groups.
	}
	at := indexByte(s, i, end, '@')
	if at == end {
		p.group(i, end)
		return
	}
	// §3.6: a message-id is told from a group by its "@".
	// article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
	if at == i {
		p.fail(i, "article", "a message-id has a unique part before '@' (§3.6)")
		return
	}
	if p.scan(i, at, articleOctets, "article") {
		p.host(at+1, end)
	}
}

// group checks §5 group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ].
func (p *parser) group(i, end int) bool {
	s := p.s
	if i == end {
		return !p.fail(i, "group", "the newsgroup name is empty (§3.6)")
	}
	if classes[s[i]]&classAlpha == 0 && p.fail(i, "group", "a newsgroup name starts with a letter (§5 group)") {
		return false
	}
	for j := i + 1; j < end; j++ {
		if charsets[s[j]]&setGroup == 0 && p.failByte(j, "group") {
			return false
		}
	}
	return true
}

// login parses §5 login = [ user [ ":" password ] "@" ] hostport from i, up
// to the first "/" or end. It returns the index of that "/" (or end).
func (p *parser) login(i, end int, allowUser, needHost bool, urlRule string) int {
	p.u.flags |= flagAuthority
	if stop, ok := p.hostport(i, end, needHost); ok {
		return stop
	}
	s := p.s
	// One pass finds the end of the login and its "@": logins are short,
	// and a loop beats three IndexByte calls on them.
	stop, at := end, end
	for j := i; j < end; j++ {
		if c := s[j]; c == '/' {
			stop = j
			break
		} else if c == '@' && at == end {
			at = j
		}
	}
	at = min(at, stop)
	hs := i
	if at < stop {
		if !allowUser {
			if p.failKind(i, urlRule, msgNoUser) {
				return stop
			}
		}
		// §3.1: within user and password, ":", "@" and "/" are encoded, so
		// the first ":" ends the user and the first "@" ends the password.
		p.u.flags |= flagUser
		c := indexByte(s, i, at, ':')
		p.u.userEnd = int32(c)
		if !p.scan(i, c, userOctets, "user") {
			return stop
		}
		if c < at {
			p.u.flags |= flagPassword
			if !p.scan(c+1, at, userOctets, "password") {
				return stop
			}
		}
		hs = at + 1
	}
	p.u.hostStart = int32(hs)
	he := indexByte(s, hs, stop, ':')
	p.u.hostEnd = int32(he)
	p.u.portEnd = int32(stop)
	if he == hs && needHost {
		if p.fail(hs, "host", "the host name is missing (§3.1)") {
			return stop
		}
	} else if he > hs && !p.host(hs, he) {
		return stop
	}
	if he < stop {
		// §5: hostport = host [ ":" port ]; port = digits
		if p.u.kind == KindFile {
			p.fail(he, "fileurl", "a file URL has no port (§3.10)")
			return stop
		}
		if he+1 == stop {
			p.u.flags |= flagPort
			p.fail(stop, "port", "the port after ':' is missing; omit the ':' too (§3.1)")
			return stop
		}
		if j := p.port(he+1, stop); j < stop {
			for ; j < stop; j++ {
				if classes[s[j]]&classDigit == 0 && p.fail(j, "port", "a port has only decimal digits (§3.1)") {
					return stop
				}
			}
		}
	}
	return stop
}

// hostport is the fast path of login: a hostname, maybe empty when
// !needHost, then maybe ":" port, then "/" or end, read in one pass. It
// reports false, having set nothing that login does not set again, when
// the login is anything else (a user, a hostnumber, a violation); login
// then reads it again rule by rule.
func (p *parser) hostport(i, end int, needHost bool) (int, bool) {
	s := p.s
	j := hostnameEnd(s, i, end)
	if j < 0 || j == i && needHost {
		return 0, false
	}
	hostEnd := j
	if j < end && s[j] == ':' {
		if p.u.kind == KindFile || j+1 == end {
			return 0, false
		}
		if j = p.port(j+1, end); j == hostEnd+1 || j < end && s[j] != '/' {
			p.u.flags &^= flagPort | flagBigPort
			p.u.port = 0
			return 0, false
		}
	} else if j < end && s[j] != '/' {
		return 0, false
	}
	p.u.hostStart, p.u.hostEnd, p.u.portEnd = int32(i), int32(hostEnd), int32(j)
	return j, true
}

// hostnameEnd reads a §5 hostname from s[i:end], maybe empty, in one pass,
// and returns where it ends: at end or at a byte that cannot be part of a
// host name. It returns -1 when what it read is not a hostname (a label
// that starts or ends with '-', an empty label, a hostnumber), which host
// then explains.
//
//	hostname    = *[ domainlabel "." ] toplabel
//	domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
//	toplabel    = alpha | alpha *[ alphadigit | "-" ] alphadigit
//
// It reads 8 octets at a time (hosts average 17): one word classifies
// them all, letters, digits, '-' and '.', and the label rules are tests
// of the '.' and '-' masks shifted by one octet: no '.' or '-' after a
// '.' (nor first), no '.' after a '-'.
func hostnameEnd(s string, i, end int) int {
	if i == end || s[i] == '/' {
		return i // no host at all, as in file:///x: no word to read
	}
	if vectorFor(s) {
		j, _ := hostnameEndVector(s, i, end)
		return j
	}
	if end < 8 { // (at end == 8 both readings give the same)
		// Fewer than 8 octets in all: read behind 8 zeros, so that every
		// word below is 8 octets of the input.
		var b [16]byte
		copy(b[8:], s[:end])
		j := hostnameEnd(string(b[:8+end]), 8+i, 8+end)
		if j < 0 {
			return -1
		}
		return j - 8
	}
	var dotBefore, dashBefore uint64 = 1, 0 // the octet before: a '.' before the first
	lastStart := i                          // where the last label starts
	for k := i; ; k += 8 {
		// s[k:k+8], zero at and after end: near the end, the last 8
		// octets, shifted (by 64 bits or more, to 0, when k ≥ end).
		w := le64(s[min(k, end-8):]) >> (8 * max(k+8-end, 0))
		x := w &^ hi8 // octets ≥ 0x80 are no host octets: their high bit is dropped, then tested below
		// '-' (0x2d) and '.' (0x2e), told apart by their lowest bit; '0'
		// to '9' (0x30-0x39); letters in either case.
		punct := between(x, '-', '.')
		host := between(x|lo8*0x20, 'a', 'z') | between(x, '0', '9') | punct
		stop := (^host | w) & hi8 // the high bit of each octet that ends the host
		n := 8                    // the host's octets in w
		if stop != 0 {
			n = bits.TrailingZeros64(stop) / 8
			punct &= uint64(1)<<(8*n) - 1
		}
		dash := punct & (w << 7)
		dot := punct &^ dash
		if (dot<<8|dotBefore<<7)&punct != 0 || (dash<<8|dashBefore<<7)&dot != 0 {
			return -1 // an empty label, a label that starts or ends with '-'
		}
		if dot != 0 {
			lastStart = k + (63-bits.LeadingZeros64(dot))/8 + 1
		}
		if n < 8 {
			return hostnameLast(s, i, k+n, lastStart)
		}
		dotBefore, dashBefore = dot>>63, dash>>63
	}
}

// hostnameLast is hostnameEnd's last test, of the host s[i:j] whose last
// label starts at lastStart, the labels before it checked.
func hostnameLast(s string, i, j, lastStart int) int {
	// (If chains, not a switch: Go's coverage counts a case's condition
	// only through its body.)
	if j == i {
		return i // no host at all
	}
	if s[j-1] == '.' || s[j-1] == '-' {
		return -1 // an empty last label, or one that ends with '-'
	}
	if classes[s[lastStart]]&classAlpha == 0 {
		// §3.1: a last label that starts with a digit makes a hostnumber.
		return -1
	}
	return j
}

// hostnameEndVector is hostnameEnd 64 octets a step, with the same tests
// on masks64's masks, bit t for octet t of the step: the host's octets
// end at the first stop; no '.' or '-' after a '.' (nor first), no '.'
// after a '-'. It needs len(s) ≥ 32. It also returns masks64's xchar
// stops of its first step, s[i:i+64], for xcharEnd.
func hostnameEndVector(s string, i, end int) (int, uint64) {
	var dotBefore, dashBefore uint64 = 1, 0 // the octet before: a '.' before the first
	lastStart := i                          // where the last label starts
	stop, dot, dash, xstop := masks64(s, i)
	for k := i; ; k += 64 {
		stop |= ^uint64(0) << (end - k) // the octets from end on (none when end-k ≥ 64)
		n := bits.TrailingZeros64(stop) // the host's octets in the step
		host := uint64(1)<<n - 1        // (all 64 when n is 64)
		dot &= host
		dash &= host
		if (dot<<1|dotBefore)&(dot|dash) != 0 || (dash<<1|dashBefore)&dot != 0 {
			return -1, xstop // an empty label, a label that starts or ends with '-'
		}
		if dot != 0 {
			lastStart = k + 64 - bits.LeadingZeros64(dot)
		}
		if n < 64 {
			return hostnameLast(s, i, k+n, lastStart), xstop
		}
		dotBefore, dashBefore = dot>>63, dash>>63
		stop, dot, dash, _ = masks64(s, k+64)
	}
}

// masks64 returns blocks64's masks of s[i:i+64], bit t for s[i+t], the
// octets past the end of s counted as stops (in neither set). It needs
// len(s) ≥ 32 and i ≤ len(s): near the end of s it reads the last 64
// octets, or, when s is shorter, its first and last 32, and shifts.
func masks64(s string, i int) (stop, dot, dash, xstop uint64) {
	n := len(s)
	a := min(i, max(n-64, 0)) // where the 64 octets read start: i, or as late as s allows
	b := min(a+32, n-32)
	stop, dot, dash, xstop = blocks64(s, a, b, b-a, hostOctets.nibbles(), xcharOctets.nibbles())
	past := ^uint64(0) << n // the octets from the end of s on: only when s is shorter than 64 and a is 0
	sh := i - a
	fill := ^(^uint64(0) >> sh) // the octets shifted in: past the end of s
	return (stop|past)>>sh | fill, dot >> sh, dash >> sh, (xstop|past)>>sh | fill
}

// xcharEnd is span(s, i, len(s), xcharOctets), the end of an urlpath
// (§5 *xchar) that starts at i, given xstop, the xchar stops of
// s[h:h+64] (h ≤ i) that hostnameEndVector returned, which generic calls
// when vectorFor(s).
func xcharEnd(s string, i, h int, xstop uint64) int {
	if !vectorFor(s) {
		return span(s, i, len(s), xcharOctets)
	}
	// The stops from i on; those past h+64 are not known (0), nor any
	// when i is past h+64 (a shift by 64 or more leaves 0).
	if x := xstop >> (i - h); x != 0 {
		k := i + bits.TrailingZeros64(x)
		if k < len(s) && s[k] == '%' {
			return span(s, k, len(s), xcharOctets) // an escape goes on; a bad one span reports
		}
		return k
	}
	// No stop known: a path that runs past h+64 (rare: a URL of more
	// than 70 octets or so) is read from i again.
	return span(s, i, len(s), xcharOctets)
}

// Eight octets in a word, the first lowest; lo8*c repeats c in each.
const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// le64 returns the first 8 octets of s as a word, the first lowest (one
// load: the compiler joins the eight).
func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// between marks with its high bit each octet of x, all below 0x80, that
// is in [lo, hi].
func between(x uint64, lo, hi byte) uint64 {
	return (x + lo8*uint64(0x80-lo)) &^ (x + lo8*uint64(0x7f-hi)) & hi8
}

// port reads the §5 port = digits from i: it sets flagPort and the port's
// value, and returns the index of the first byte that is not a digit. A
// value beyond math.MaxInt32 is not kept (flagBigPort): the digits are
// read with a test that comes before the multiplication, so nothing can
// wrap round (a port must never become a different port).
func (p *parser) port(i, end int) int {
	s := p.s
	p.u.flags |= flagPort
	n := int32(0)
	j := i
	for ; j < end; j++ {
		d := s[j] - '0'
		if d > 9 {
			break
		}
		if n > (math.MaxInt32-int32(d))/10 {
			p.u.flags |= flagBigPort
			n = 0
			for j++; j < end && s[j]-'0' <= 9; j++ {
			}
			break
		}
		n = n*10 + int32(d)
	}
	p.u.port = n
	return j
}

// host checks §5 host = hostname | hostnumber:
//
//	hostname    = *[ domainlabel "." ] toplabel
//	domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
//	toplabel    = alpha | alpha *[ alphadigit | "-" ] alphadigit
//	hostnumber  = digits "." digits "." digits "." digits
//
// §3.1: the rightmost label of a domain name never starts with a digit,
// which tells hostnames from hostnumbers.
func (p *parser) host(i, end int) bool {
	s := p.s
	if validHostname(s[i:end]) {
		return true
	}
	if i == end {
		return !p.fail(i, "host", "the host name is missing (§3.1)")
	}
	last := strings.LastIndexByte(s[i:end], '.') + i + 1 // start of the last label
	if last < end && classes[s[last]]&classDigit != 0 && !digitsAndDots(s[i:end]) {
		return !p.fail(last, "toplabel", "the last label of a host name starts with a letter; a host number has only digits and dots (§3.1)")
	}
	if last < end && classes[s[last]]&classDigit != 0 {
		// A hostnumber: exactly four groups of digits.
		groups := 0
		start := i
		for j := i; j <= end; j++ {
			if j < end && s[j] != '.' {
				if classes[s[j]]&classDigit == 0 && p.fail(j, "hostnumber", "a host number has four groups of digits separated by '.' (§3.1)") {
					return false
				}
				continue
			}
			groups++
			if j == start && p.fail(j, "hostnumber", "a group of digits is missing in the host number (§3.1)") {
				return false
			}
			start = j + 1
		}
		if groups != 4 {
			return !p.fail(i, "hostnumber", "a host number has exactly four groups of digits (§3.1); a host name's last label starts with a letter")
		}
		return true
	}
	start := i
	for j := i; j <= end; j++ {
		if j < end && s[j] != '.' {
			continue
		}
		rule := "domainlabel"
		if j == end {
			rule = "toplabel"
		}
		if !p.label(start, j, rule) {
			return false
		}
		start = j + 1
	}
	return true
}

// label checks one domainlabel or toplabel s[i:j].
func (p *parser) label(i, j int, rule string) bool {
	s := p.s
	if i == j {
		msg := "a host name has an empty label (§3.1)"
		if rule == "toplabel" {
			msg = "a host name may not end with '.' (§3.1)"
		}
		return !p.fail(i, rule, msg)
	}
	first := classAlphadigit
	if rule == "toplabel" {
		first = classAlpha
	}
	if classes[s[i]]&first == 0 {
		msg := "a label of a host name starts with a letter or a digit (§3.1)"
		if rule == "toplabel" {
			msg = "the last label of a host name starts with a letter (§3.1)"
		}
		if p.fail(i, rule, msg) {
			return false
		}
	}
	for k := i + 1; k < j; k++ {
		c := s[k]
		if classes[c]&classAlphadigit != 0 || (c == '-' && k < j-1) {
			continue
		}
		msg := "a host name has only letters, digits, '-' and '.' (§3.1)"
		if c == '-' {
			msg = "a label of a host name may not end with '-' (§3.1)"
		}
		if p.fail(k, rule, msg) {
			return false
		}
	}
	return true
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

// validHostname reports, in one pass, whether s is a §5 hostname. It is
// the fast path of host; host explains any failure, hostnumbers included.
func validHostname(s string) bool {
	prev := byte('.') // the byte before s[k]; a label may not start after '.' with '-'
	lastStart := 0
	for k := 0; k < len(s); k++ {
		c := s[k]
		if c == '.' {
			if prev == '.' || prev == '-' {
				return false
			}
			lastStart = k + 1
		} else if classes[c]&classAlphadigit == 0 && (c != '-' || prev == '.') {
			return false
		}
		prev = c
	}
	return prev != '.' && prev != '-' && classes[s[lastStart]]&classAlpha != 0
}

func digitsAndDots(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '.' && classes[s[i]]&classDigit == 0 {
			return false
		}
	}
	return true
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
