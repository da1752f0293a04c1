package rfc1738

import (
	"strconv"
	"strings"
)

// Normalize returns the canonical form of u, so that two URLs that name the
// same resource by the rules of RFC 1738 normalize to the same string. The
// rules, in the order they apply to the text:
//
//  1. §2.1: the scheme is written in lower case ("HTTP:" is read as "http:").
//  2. §2.2: an escape of an unreserved octet (a letter, a digit or one of
//     "$-_.+!*'(),") is decoded: "characters that are not required to be
//     encoded … may be encoded", and then mean the same. Every part that
//     holds escapes allows those octets unencoded (§5), so the result stays
//     valid. Exception: in an http or wais search, %2B stays encoded,
//     because HTML form data (RFC 1866 §8.2.1) writes a space as "+" and
//     servers decode the two differently.
//  3. §2.2: an escape of any other octet stays encoded; in particular an
//     escaped reserved character (";/?:@=&") is NEVER decoded, since
//     "encoding a character reserved for a particular scheme may change
//     the semantics of a URL" (ftp://h/%2Fetc/motd is not ftp://h//etc/motd).
//     Its hex digits are written in upper case, as §2.2 lists them
//     ("0123456789ABCDEF"; "abcdef" may also be used and mean the same).
//  4. §3.1: the host is written in lower case: host names are domain names,
//     and RFC 1034 §3.1 compares those without regard to case. An IPv6
//     literal (RFC 3986 §3.2.2, in a URL from Read) is written in the
//     canonical text of RFC 5952 §4 ("[2001:db8::1]"), its zone ID as is.
//  5. §3.1: a port that equals the scheme's default port (§3.2.2 ftp 21,
//     §3.3 http 80, §3.4 gopher 70, §3.7 nntp 119, §3.8 telnet 23, §3.9
//     wais 210, §3.11 prospero 1525; RFC 2818 §2.3 https 443) is dropped:
//     "If the port is omitted,
//     the default is used". Leading zeros of another port are dropped: the
//     port is "in decimal". A port beyond 65535 names no TCP port and is
//     kept exactly as written, never made into another number.
//  6. §3.3, §3.2.2, §3.4.1, §5 telneturl: in http, ftp, gopher and telnet
//     URLs an absent "/" after the host is written: "http://h" and
//     "http://h/" (§3.3: "the '/' may also be omitted") name the same thing,
//     as do "ftp://h" and "ftp://h/" (no CWD, an empty name) and
//     "telnet://h" and "telnet://h/". Other schemes are left as they are.
//  7. §3.4.1: a gopher-path that is just the type "1" is dropped:
//     "gopher://h", "gopher://h/" and "gopher://h/1" all send the empty
//     selector and read a directory ("If <gopher-path> is empty, the
//     gophertype defaults to 1"), and "gopher://h/" is the form chosen.
//     A type other than 1, or a type 1 with a search, is kept.
//  8. §3.10: a file URL's host "localhost" (in any case) is dropped:
//     "file://localhost/x" and "file:///x" both name this machine's /x.
//  9. RFC 959 §5.3: an ftp typecode is written in lower case (";type=A" is
//     ";type=a"): FTP reads its arguments without regard to case.
//
// Nothing else changes: users and passwords keep their case and their
// empty-versus-absent distinction (§3.1), mailto addresses, message-ids,
// nntp article numbers and host numbers are kept as written, and the
// fragment (Appendix) is kept and has its escapes normalized like a path.
// Encoding what must be encoded only concerns input the strict grammar
// rejects: ParseLenient does that repair before a URL exists.
//
// Normalize is idempotent. When u is already normal it returns u.String()
// itself without allocating.
func Normalize(u URL) string {
	n := normalizer{s: u.s}
	n.run(u)
	if !n.dirty {
		return u.s
	}
	n.out = append(n.out, u.s[n.pos:]...)
	out := string(n.out)
	if u.kind == KindOther && u.flags&flagAuthority == 0 {
		// §5: decoding escapes in an opaque "//" schemepart (rule 2) can
		// make it an ip-schemepart ("foo://H%41/" is "foo://HA/"); its
		// host then follows rule 4, so that Normalize stays idempotent.
		if v, err := Parse(out); err == nil && v.flags&flagAuthority != 0 {
			return Normalize(v)
		}
	}
	return out
}

// AppendNormalize appends the canonical form of u (see Normalize) to dst.
func AppendNormalize(dst []byte, u URL) []byte {
	if u.kind == KindOther && u.flags&flagAuthority == 0 {
		return append(dst, Normalize(u)...) // an opaque schemepart may gain a host
	}
	n := normalizer{s: u.s, out: dst, appendMode: true}
	n.run(u)
	return append(n.out, u.s[n.pos:]...)
}

// IsNormal reports whether u is already in the form Normalize returns.
// It does not allocate.
func IsNormal(u URL) bool {
	n := normalizer{s: u.s, dryRun: true}
	n.run(u)
	return !n.dirty
}

// normalizer copies s to out with edits; nothing is copied before the first
// edit, so a normal URL costs one read-only pass.
type normalizer struct {
	s          string
	out        []byte
	pos        int // s[:pos] has been written to out (or needs no writing)
	dirty      bool
	appendMode bool // out holds the caller's dst: write even when unchanged
	dryRun     bool // only find out whether an edit is needed
}

// start prepares to replace s[i:j].
func (n *normalizer) start(i, j int) bool {
	if n.dryRun {
		n.dirty = true
		return false
	}
	if !n.dirty && !n.appendMode {
		n.out = make([]byte, 0, len(n.s)+4)
	}
	n.dirty = true
	n.out = append(n.out, n.s[n.pos:i]...)
	n.pos = j
	return true
}

func (n *normalizer) replace(i, j int, repl string) {
	if n.start(i, j) {
		n.out = append(n.out, repl...)
	}
}

func (n *normalizer) replaceByte(i, j int, c byte) {
	if n.start(i, j) {
		n.out = append(n.out, c)
	}
}

// lower writes s[i:j] in lower case when it has an upper-case letter.
func (n *normalizer) lower(i, j int) {
	for k := i; k < j; k++ {
		if classes[n.s[k]]&classHialpha != 0 {
			if n.start(i, j) {
				for ; i < j; i++ {
					c := n.s[i]
					if classes[c]&classHialpha != 0 {
						c += 'a' - 'A'
					}
					n.out = append(n.out, c)
				}
			}
			return
		}
	}
}

// escapes applies rules 2 and 3 to the escapes of s[i:j], which a parsed
// URL guarantees are well formed. keepPlus keeps %2B of a search encoded.
func (n *normalizer) escapes(i, j int, keepPlus bool) {
	s := n.s
	for {
		k := strings.IndexByte(s[i:j], '%')
		if k < 0 {
			return
		}
		i += k
		if i+3 > j { // cannot happen in a parsed URL
			return
		}
		hi, lo := s[i+1], s[i+2]
		c := unhex(hi)<<4 | unhex(lo)
		// (An if chain, not a switch: Go's coverage counts a case's
		// condition as run only through its body.)
		if classes[c]&classUnreserved != 0 && !(keepPlus && c == '+') {
			n.replaceByte(i, i+3, c) // rule 2
		} else if classes[hi]&classLowalpha != 0 || classes[lo]&classLowalpha != 0 {
			if n.start(i, i+3) { // rule 3
				n.out = append(n.out, '%', upperhex[c>>4], upperhex[c&15])
			}
		}
		i += 3
	}
}

func (n *normalizer) run(u URL) {
	if u.s == "" {
		return
	}
	s := n.s
	colon := int(u.colon)
	end := int(u.end)
	if u.flags&flagUpperScheme != 0 {
		n.lower(0, colon) // rule 1
	}
	if u.flags&flagAuthority == 0 {
		// mailto, news and generic schemeparts without "//".
		n.escapes(colon+1, end, false)
		n.fragment(u)
		return
	}
	if u.flags&flagUser != 0 {
		// The user and the password in one pass: the ':' between them and
		// the '@' after them are never part of an escape.
		n.escapes(colon+3, int(u.hostStart), false)
	}
	hs, he := int(u.hostStart), int(u.hostEnd)
	if u.kind == KindFile && equalFold(s[hs:he], "localhost") {
		n.replace(hs, he, "") // rule 8
	} else if he > hs && s[hs] == '[' {
		n.ipLiteral(hs, he) // rule 4, for a host only Read takes
	} else {
		n.lower(hs, he) // rule 4
	}
	if u.flags&flagPort != 0 { // rule 5
		pe := int(u.portEnd)
		port, fits := u.PortValue()
		if def := u.DefaultPort(); fits && def != 0 && port == def {
			n.replace(he, pe, "")
		} else if fits && port <= 65535 {
			z := he + 1
			for z < pe-1 && s[z] == '0' {
				z++
			}
			if z > he+1 {
				n.replace(he+1, z, "")
			}
		}
	}
	if u.flags&flagPath == 0 {
		switch u.kind {
		case KindHTTP, KindFTP, KindGopher, KindTelnet:
			n.replace(end, end, "/") // rule 6
		}
		n.fragment(u)
		return
	}
	ps := int(u.portEnd) + 1
	switch u.kind {
	case KindFTP:
		// §3.2.2: the path, then maybe ";type=" and its code.
		t := end
		if i := strings.LastIndex(s[ps:end], ";type="); i >= 0 {
			t = ps + i
		}
		n.escapes(ps, t, false)
		if t < end {
			if c := s[end-1]; classes[c]&classHialpha != 0 {
				n.replaceByte(end-1, end, c+'a'-'A') // rule 9
			}
		}
	case KindHTTP, KindWAIS:
		q := indexByte(s, ps, end, '?')
		n.escapes(ps, q, false)
		if q < end {
			n.escapes(q+1, end, true)
		}
	case KindGopher:
		if p := s[ps:end]; p == "1" || p == "%31" {
			n.replace(ps, end, "") // rule 7
		} else {
			n.escapes(ps, end, false)
		}
	case KindNNTP, KindTelnet:
		// group and digits have no escapes; telnet has no path.
	default: // file, prospero, generic ip-schemepart
		n.escapes(ps, end, false)
	}
	n.fragment(u)
}

func (n *normalizer) fragment(u URL) {
	if u.flags&flagFragment != 0 {
		n.escapes(int(u.end)+1, len(n.s), false)
	}
}

// Equal reports whether a and b name the same resource: whether their
// normalized forms (see Normalize) are the same string. The fragments,
// which are not part of the URL (Appendix), must be the same too; Diff
// says when they alone differ.
func Equal(a, b URL) bool {
	if a.s == b.s {
		return true
	}
	if IsNormal(a) && IsNormal(b) {
		return false
	}
	return Normalize(a) == Normalize(b)
}

// Diff returns "" when a and b are Equal, else a sentence naming the first
// part of the normalized URLs that differs and how.
func Diff(a, b URL) string {
	na, nb := Normalize(a), Normalize(b)
	if na == nb {
		return ""
	}
	// Both are valid, so their normal forms parse.
	x, errA := Parse(na)
	y, errB := Parse(nb)
	if errA != nil || errB != nil {
		return "the normalized forms differ: " + strconv.Quote(na) + " and " + strconv.Quote(nb)
	}
	q := strconv.Quote
	if x.Scheme() != y.Scheme() {
		return "the schemes differ: " + q(x.Scheme()) + " and " + q(y.Scheme())
	}
	if x.HasAuthority() != y.HasAuthority() {
		return "one URL has a //host part and the other has none (§3.1)"
	}
	part := func(name string, s, t string, hasS, hasT bool) string {
		// (An if chain, not a switch: Go's coverage counts a case's
		// condition as run only through its body.)
		if hasS != hasT {
			return "one URL has a " + name + " and the other has none" + absentNote(name)
		}
		if s != t {
			return "the " + name + "s differ: " + q(s) + " and " + q(t) + reservedNote(s, t)
		}
		return ""
	}
	if x.HasAuthority() {
		su, hs := x.RawUser()
		tu, ht := y.RawUser()
		if d := part("user", su, tu, hs, ht); d != "" {
			return d
		}
		sp, hs := x.RawPassword()
		tp, ht := y.RawPassword()
		if d := part("password", sp, tp, hs, ht); d != "" {
			return d
		}
		if x.Host() != y.Host() {
			return "the hosts differ: " + q(x.Host()) + " and " + q(y.Host())
		}
		if x.PortNumber() != y.PortNumber() {
			return "the ports differ: " + strconv.Itoa(x.PortNumber()) + " and " + strconv.Itoa(y.PortNumber())
		}
		sp, hs = x.Path()
		tp, ht = y.Path()
		if d := part("path", sp, tp, hs, ht); d != "" {
			return d
		}
	} else {
		so, _ := x.Opaque()
		to, _ := y.Opaque()
		if d := part("scheme-specific part", so, to, true, true); d != "" {
			return d
		}
	}
	sf, hs := x.Fragment()
	tf, ht := y.Fragment()
	if d := part("fragment", sf, tf, hs, ht); d != "" {
		return d + " (only the fragments differ; they are not part of the URL, Appendix)"
	}
	return "the normalized forms differ: " + q(na) + " and " + q(nb)
}

func absentNote(part string) string {
	switch part {
	case "user", "password":
		return " (§3.1: an empty " + part + " is not an absent one)"
	}
	return ""
}

// reservedNote explains a difference at an escaped reserved character.
func reservedNote(s, t string) string {
	i := 0
	for i < len(s) && i < len(t) && s[i] == t[i] {
		i++
	}
	esc := func(a, b string) bool {
		return i+2 < len(a) && a[i] == '%' && i < len(b) &&
			unhex(a[i+1])<<4|unhex(a[i+2]) == b[i] && classes[b[i]]&classReserved != 0
	}
	if esc(s, t) || esc(t, s) {
		return " (§2.2: an encoded reserved character is not the character itself)"
	}
	return ""
}
