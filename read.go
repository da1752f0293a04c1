package rfc1738

import (
	"net/netip"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
)

// A Departure is one place where a URL, read as browsers and curl read it,
// leaves the grammar of RFC 1738: the form that was read, the later RFC
// that allows it, and what RFC 1738 wants there instead.
type Departure struct {
	Offset  int    // byte offset into the input
	Rule    string // the RFC 1738 §5 production the input departs from
	Message string // what was read, e.g. "the search follows a path; read as http://h/?q"
	Allows  string // the RFC (and section) that allows the form, e.g. "RFC 3986 §3.3"
	Wants   string // what RFC 1738 wants, e.g. `RFC 1738 §3.3 wants "/"`
	// Refusal says why the strict grammar refuses the form, naming its
	// real cause, e.g. "IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1".
	Refusal string
}

// String returns the departure as one line: the message, then the RFC
// that allows the form and what RFC 1738 wants.
func (d Departure) String() string {
	s := d.Message
	switch {
	case d.Allows != "" && d.Wants != "":
		s += " (" + d.Allows + "; " + d.Wants + ")"
	case d.Allows != "" || d.Wants != "":
		s += " (" + d.Allows + d.Wants + ")"
	}
	return s
}

// Read reads s as browsers and curl do, and reports every place where
// that reading departs from RFC 1738. Parse, Valid and Check stay exactly
// RFC 1738; Read is what a tool acts on. RFC 3986 updates RFC 1738 (its
// header says so), and Read takes the forms it and its companions allow:
//
//   - an IPv6 literal in brackets as the host (RFC 3986 §3.2.2; the text
//     forms of RFC 4291 §2.2, embedded IPv4 included), with a zone ID
//     introduced by "%25" (RFC 6874 §2): http://[::1]:8080/ has the host
//     "[::1]" and the port 8080, and HostPort gives "[::1]:8080";
//   - an international host name, sent as its A-label (IDNA2008, RFC 5891
//     §5, with the UTS #46 mapping): http://bücher.test/ is read as
//     http://xn--bcher-kva.test/;
//   - an http or https search with no path before it (RFC 3986 §3.3:
//     path-abempty; §6.2.3: an empty http path is "/"): http://h?q is read
//     as http://h/?q;
//   - "/" and "?" in an http or https search (RFC 3986 §3.4);
//   - https with a "//" host, read with its host and port as http's
//     (RFC 2818 §2.4) even where RFC 1738's generic syntax would not;
//   - a scheme in upper case, read in lower case (RFC 3986 §3.1);
//   - and everything ParseLenient repairs: white space and the "<URL:…>"
//     wrapper of the Appendix taken off, and octets §2.2 calls unsafe
//     (a space, "~", "|", 8-bit UTF-8 …) sent %-encoded, as browsers and
//     curl send them (RFC 3986 §2.1).
//
// The URL returned is the one a browser or curl would send; its String
// is that URL, its accessors and scheme views (HTTP, FTP, …) take it
// apart, and Host keeps an IPv6 literal's brackets. When s is a valid RFC
// 1738 URL with a lower-case scheme, Read returns Parse(s) and no
// departures, without allocating.
//
// What nothing reads (http://, a port beyond digits, a malformed IPv6
// literal, a name IDNA refuses) is an *Error, as Parse returns, at its
// offset in s; the departures found before it are returned with it, so
// that a message can name the real cause.
func Read(s string) (URL, []Departure, error) {
	u, err := Parse(s)
	if err == nil && !readsMore(u) {
		if digits, ok := u.Port(); ok && !tcpPortDigits(digits) {
			return URL{}, nil, portError(s, u.PortOffset(), digits)
		}
		return u, nil, nil
	}
	return read(s)
}

// tcpPortDigits reports whether decimal digits name a port a TCP
// connection can use (RFC 793 §3.1: 16 bits), though §5 port = 1*digit.
func tcpPortDigits(digits string) bool {
	n, ok := digitsValue(digits)
	return ok && n <= 65535
}

func portError(s string, off int, digits string) error {
	return errorOf(s, Diagnostic{Offset: off, Rule: "port", Message: "port " + digits + " is not a TCP port (RFC 793 §3.1: 0 to 65535); nothing can reach it"})
}

// readsMore reports whether a valid RFC 1738 URL is read otherwise: an
// upper-case scheme, or an https URL that §5 genericurl reads as opaque
// although it has a "//" host (https://h?q).
func readsMore(u URL) bool {
	if u.flags&flagUpperScheme != 0 {
		return true
	}
	return u.IsHTTPS() && u.flags&flagAuthority == 0
}

// reading is the text being read: the input unwrapped, its scheme in lower
// case, its host as sent, and a "/" where one is read. pieces map each
// part back to the input for offsets.
type reading struct {
	in     string // the input without its Appendix wrapper
	base   int    // offset of in within the input
	b      []byte // the text Parse sees (an IPv6 literal stands as x's)
	pieces []piece
	deps   []Departure
	// restore holds bytes of b that stand in for what Parse refuses (an
	// IPv6 literal, a "/" in an http search), put back once parsed.
	restore []restoreAt
}

// A piece is a run of the read text taken from the input: the same bytes
// (same) or a replacement of in[origStart:origEnd].
type piece struct {
	readStart, origStart int
	same                 bool
}

type restoreAt struct {
	at int
	s  string
}

func (r *reading) add(s string, origStart int, same bool) {
	r.pieces = append(r.pieces, piece{readStart: len(r.b), origStart: origStart, same: same})
	r.b = append(r.b, s...)
}

// orig maps an offset in the read text to the input.
func (r *reading) orig(off int) int {
	o := 0
	for _, p := range r.pieces {
		if p.readStart > off {
			break
		}
		o = p.origStart
		if p.same {
			o += off - p.readStart
		}
	}
	return r.base + o
}

func (r *reading) depart(d Departure) { r.deps = append(r.deps, d) }

func read(s string) (URL, []Departure, error) {
	in, base, wrap := unwrapAppendix(s)
	r := &reading{in: in, base: base}
	for _, d := range wrap {
		r.depart(Departure{Offset: d.Offset, Rule: d.Rule, Message: d.Message, Allows: "RFC 3986 Appendix C", Wants: "RFC 1738 Appendix"})
	}
	colon := schemeColon(in)
	if colon <= 0 {
		return r.fail(s, in)
	}
	kind := KindOf(in[:colon])
	scheme := strings.ToLower(in[:colon])
	if scheme != in[:colon] {
		r.depart(Departure{Offset: base, Rule: "scheme", Message: "the scheme " + quote(in[:colon]) + " is read as " + quote(scheme),
			Allows: "RFC 3986 §3.1", Wants: "RFC 1738 §2.1 writes schemes in lower case"})
	}
	r.add(scheme, 0, true)
	rest := in[colon:]
	https := kind == KindOther && scheme == "https"
	if !strings.HasPrefix(rest, "://") || kind == KindMailto || kind == KindNews {
		r.add(rest, colon, true)
		return r.finish(s)
	}
	// RFC 3986 §3.2: the authority ends at the first "/", "?" or "#".
	a := colon + 3
	authEnd := a + strings.IndexAny(in[a:], "/?#")
	if authEnd < a {
		authEnd = len(in)
	}
	hostStart := a
	if at := strings.LastIndexByte(in[a:authEnd], '@'); at >= 0 {
		hostStart = a + at + 1
	}
	r.add(in[colon:hostStart], colon, true)
	if err := r.host(s, hostStart, authEnd); err != nil {
		return URL{}, r.deps, err
	}
	web := kind == KindHTTP || https
	if web && authEnd < len(in) && in[authEnd] == '?' {
		// RFC 3986 §3.3: a path-abempty may be empty before the query;
		// §6.2.3: for http an empty path is "/".
		read := scheme + in[colon:authEnd] + "/" + in[authEnd:]
		r.depart(Departure{Offset: base + authEnd, Rule: "hpath",
			Message: "the search follows a path; read as " + read,
			Allows:  "RFC 3986 §3.3", Wants: `RFC 1738 §3.3 wants "/"`,
			Refusal: "the search follows the path: add `/` before `?`"})
		r.add("/", authEnd, false)
	}
	tail := in[authEnd:]
	if q := strings.IndexByte(tail, '?'); web && q >= 0 {
		// RFC 3986 §3.4: query = *( pchar / "/" / "?" ); RFC 1738's
		// search allows neither.
		end := strings.IndexByte(tail, '#')
		if end < 0 {
			end = len(tail)
		}
		if q < end {
			start := len(r.b) + q + 1
			first := -1
			buf := []byte(tail)
			for i := q + 1; i < end; i++ {
				if c := tail[i]; c == '/' || c == '?' {
					if first < 0 {
						first = authEnd + i
					}
					buf[i] = 'x'
					r.restore = append(r.restore, restoreAt{at: start + i - q - 1, s: string(c)})
				}
			}
			if first >= 0 {
				r.depart(Departure{Offset: base + first, Rule: "search",
					Message: "a " + quote(in[first:first+1]) + " in the search is sent as written",
					Allows:  "RFC 3986 §3.4", Wants: `RFC 1738 §3.3 allows neither "/" nor "?" in a search`})
				tail = string(buf)
			}
		}
	}
	r.add(tail, authEnd, true)
	return r.finish(s)
}

// idnaProfile maps and checks international names: IDNA2008 (RFC 5891)
// with the UTS #46 mapping, non-transitional, as browsers look names up.
var idnaProfile = idna.New(idna.MapForLookup(), idna.BidiRule(), idna.Transitional(false))

// host reads in[start:end], the host and port of a "//" login.
func (r *reading) host(s string, start, end int) error {
	in := r.in
	hp := in[start:end]
	if strings.HasPrefix(hp, "[") {
		return r.literal(s, start, end)
	}
	hostEnd := end
	if c := strings.LastIndexByte(hp, ':'); c >= 0 {
		hostEnd = start + c
	}
	if port := in[hostEnd:end]; len(port) > 1 && !tcpPortDigits(port[1:]) && allDigits(port[1:]) {
		return portError(s, r.base+hostEnd+1, port[1:])
	}
	host := in[start:hostEnd]
	if !isASCII(host) {
		alabel, err := idnaProfile.ToASCII(host)
		if err != nil || alabel == "" || !isASCII(alabel) {
			msg := "international name " + quote(host) + " is not a valid IDNA2008 name (RFC 5891 §5)"
			if err != nil {
				msg += ": " + strings.TrimPrefix(err.Error(), "idna: ")
			}
			return errorOf(s, Diagnostic{Offset: r.base + start, Rule: "hostname", Message: msg})
		}
		shown := "international name " + quote(host)
		if mixedScripts(host) {
			// A label that mixes scripts may imitate another name
			// (UTS #39 §5.1): shown as its A-label only.
			shown = "international name with labels that mix scripts"
		}
		r.depart(Departure{Offset: r.base + start, Rule: "hostname",
			Message: shown + "; sent as its A-label " + alabel,
			Allows:  "IDNA2008: RFC 5891 §5, UTS #46",
			Wants:   "RFC 1738 §3.1 wants letters, digits and \"-\"",
			Refusal: "international name; its A-label is " + alabel})
		r.add(alabel, start, false)
	} else {
		r.add(host, start, true)
	}
	r.add(in[hostEnd:end], hostEnd, true)
	return nil
}

// literal reads an IP-literal host (RFC 3986 §3.2.2) at in[start:], up to
// end, the end of the login.
func (r *reading) literal(s string, start, end int) error {
	in := r.in
	fail := func(off int, msg string) error {
		return errorOf(s, Diagnostic{Offset: r.base + off, Rule: "IP-literal", Message: msg})
	}
	closeAt := strings.IndexByte(in[start:end], ']')
	if closeAt < 0 {
		return fail(start, "an IPv6 literal ends with \"]\" (RFC 3986 §3.2.2)")
	}
	closeAt += start
	lit := in[start+1 : closeAt]
	if lit != "" && (lit[0] == 'v' || lit[0] == 'V') {
		return fail(start+1, "IPvFuture literals name no address anything can reach (RFC 3986 §3.2.2)")
	}
	addr, zone, hasZone := strings.Cut(lit, "%")
	if hasZone {
		// RFC 6874 §2: ZoneID = 1*( unreserved / pct-encoded ), after "%25".
		if !strings.HasPrefix(zone, "25") || len(zone) == 2 {
			return fail(start+1+len(addr), "a zone ID follows \"%25\" (RFC 6874 §2)")
		}
		for i := 2; i < len(zone); i++ {
			c := zone[i]
			if c == '%' && i+2 < len(zone) && isHex(zone[i+1]) && isHex(zone[i+2]) {
				i += 2
				continue
			}
			if classes[c]&classAlphadigit == 0 && c != '-' && c != '.' && c != '_' && c != '~' {
				return fail(start+1+len(addr)+1+i, "a zone ID has only unreserved octets and escapes (RFC 6874 §2)")
			}
		}
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil || !ip.Is6() || strings.IndexByte(addr, ':') < 0 {
		return fail(start+1, "not an IPv6 address in the text forms of RFC 4291 §2.2 (RFC 3986 §3.2.2)")
	}
	if closeAt+1 < end && in[closeAt+1] != ':' {
		return fail(closeAt+1, "after an IPv6 literal comes \":\" and the port, or the path (RFC 3986 §3.2)")
	}
	if port := in[closeAt+1 : end]; len(port) > 1 && !tcpPortDigits(port[1:]) && allDigits(port[1:]) {
		return portError(s, r.base+closeAt+2, port[1:])
	}
	r.depart(Departure{Offset: r.base + start, Rule: "host",
		Message: "IPv6 literal " + in[start:closeAt+1],
		Allows:  "RFC 3986 §3.2.2, RFC 4291 §2.2",
		Wants:   "RFC 1738 §3.1 wants a host name or an IPv4 number",
		Refusal: "IPv6 literal: RFC 3986 §3.2.2, not RFC 1738 §3.1"})
	// Parse sees a host name of the same length; the literal is put back.
	r.restore = append(r.restore, restoreAt{at: len(r.b), s: in[start : closeAt+1]})
	r.add(strings.Repeat("x", closeAt+1-start), start, false)
	r.add(in[closeAt+1:end], closeAt+1, true)
	return nil
}

// finish repairs what ParseLenient repairs in the read text, parses it,
// and puts back what Parse could not see.
func (r *reading) finish(s string) (URL, []Departure, error) {
	text := string(r.b)
	u, diags, err := ParseLenient(text)
	if err != nil {
		return r.fail(s, text)
	}
	// ParseLenient encodes one octet per diagnostic (the text has no
	// Appendix wrapper left), three octets in place of one.
	var encoded []int
	seen := map[string]bool{}
	for _, d := range diags {
		encoded = append(encoded, d.Offset)
		if seen[d.Message] {
			continue // each departure once
		}
		seen[d.Message] = true
		r.depart(Departure{Offset: r.orig(d.Offset), Rule: d.Rule,
			Message: strings.TrimSuffix(d.Message, "; encoded") + "; sent %-encoded",
			Allows:  "RFC 3986 §2.1, as browsers and curl send it", Wants: "RFC 1738 §2.2"})
	}
	if len(r.restore) > 0 {
		b := []byte(u.s)
		for _, x := range r.restore {
			at := x.at
			for _, e := range encoded {
				if e < x.at {
					at += 2
				}
			}
			copy(b[at:], x.s)
		}
		u.s = string(b)
	}
	sortDepartures(r.deps)
	return u, r.deps, nil
}

// fail reports what nothing reads: the first violation of text (the read
// text, or the input when it has no scheme), at its offset in s.
func (r *reading) fail(s, text string) (URL, []Departure, error) {
	_, _, err := ParseLenient(text)
	if err == nil {
		_, err = Parse(text)
	}
	e, ok := err.(*Error)
	if !ok {
		return URL{}, r.deps, err
	}
	d := e.Diagnostic()
	if text == r.in {
		d.Offset += r.base
	} else {
		d.Offset = r.orig(d.Offset)
	}
	sortDepartures(r.deps)
	return URL{}, r.deps, errorOf(s, d)
}

func sortDepartures(ds []Departure) {
	for i := 1; i < len(ds); i++ {
		for j := i; j > 0 && ds[j].Offset < ds[j-1].Offset; j-- {
			ds[j], ds[j-1] = ds[j-1], ds[j]
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// ipLiteral writes the IPv6 literal s[i:j], "[" address [ "%25" zone ] "]",
// in the canonical text of RFC 5952 §4 (lower case, leading zeros and
// the longest run of zero groups compressed, §5's dotted form for an
// IPv4-mapped address); the zone ID (RFC 6874 §2) stays as written.
func (n *normalizer) ipLiteral(i, j int) {
	lit := n.s[i+1 : j-1]
	addr, zone := lit, ""
	if k := strings.IndexByte(lit, '%'); k >= 0 {
		addr, zone = lit[:k], lit[k:]
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return // Read takes no other literal
	}
	var buf [64]byte
	canon := ip.AppendTo(buf[:0])
	if string(canon) == addr {
		return
	}
	if n.start(i, j) {
		n.out = append(n.out, '[')
		n.out = append(n.out, canon...)
		n.out = append(n.out, zone...)
		n.out = append(n.out, ']')
	}
}

// mixedScripts reports whether a label of the name mixes letters of
// several scripts (UTS #39 §5.1, single-script), the form of a name made
// to look like another ("pаypal" with a Cyrillic "а"). Japanese (Han with
// Hiragana and Katakana) and Korean (Han with Hangul) count as one script,
// as UTS #39's "highly restrictive" level allows; digits and marks belong
// to none.
func mixedScripts(name string) bool {
	for _, label := range strings.Split(name, ".") {
		var first *unicode.RangeTable
		for _, c := range label {
			if !unicode.IsLetter(c) {
				continue
			}
			t := scriptOf(c)
			switch {
			case t == nil:
			case first == nil:
				first = t
			case t != first && !sameWriting(first, t):
				return true
			}
		}
	}
	return false
}

// scripts are the scripts mixedScripts tells apart.
var scripts = []*unicode.RangeTable{unicode.Latin, unicode.Cyrillic, unicode.Greek, unicode.Armenian,
	unicode.Hebrew, unicode.Arabic, unicode.Devanagari, unicode.Thai, unicode.Georgian, unicode.Han,
	unicode.Hiragana, unicode.Katakana, unicode.Hangul}

func scriptOf(c rune) *unicode.RangeTable {
	for _, t := range scripts {
		if unicode.Is(t, c) {
			return t
		}
	}
	return nil
}

// sameWriting reports whether two scripts are written together in one
// language: Han with Hiragana or Katakana (Japanese), Han with Hangul
// (Korean).
func sameWriting(a, b *unicode.RangeTable) bool {
	cjk := func(t *unicode.RangeTable) bool {
		return t == unicode.Han || t == unicode.Hiragana || t == unicode.Katakana || t == unicode.Hangul
	}
	if !cjk(a) || !cjk(b) {
		return false
	}
	return a == unicode.Han || b == unicode.Han || (a == unicode.Hiragana || a == unicode.Katakana) && (b == unicode.Hiragana || b == unicode.Katakana)
}
