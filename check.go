package rfc1738

import (
	"slices"
	"strconv"
	"strings"
)

// Report is the result of Check: the violations of the grammar (Errors)
// and the warnings, in input order. Each list holds at most MaxDiagnostics
// entries; MoreErrors and MoreWarnings count the ones found beyond them.
type Report struct {
	URL          URL // the parsed URL; the zero URL when Errors is not empty
	Errors       []Diagnostic
	Warnings     []Diagnostic
	MoreErrors   int // violations found beyond the first MaxDiagnostics
	MoreWarnings int // warnings found beyond the first MaxDiagnostics
}

// Valid reports whether the input matched its scheme's production.
func (r Report) Valid() bool { return len(r.Errors) == 0 }

// Check parses s like Parse but reports every violation, not only the
// first, and adds the warnings of URL.Warnings. After a violation it skips
// the offending byte and goes on, so one typo yields one error. It keeps
// the first MaxDiagnostics errors and warnings and counts the rest, so a
// report stays small whatever the input. Check does not allocate when s
// is valid and draws no warning.
func Check(s string) (r Report) {
	// (Inlined, Check makes the report in its caller's frame, where check
	// writes it, rather than one that is then copied there.)
	checkInto(&r, s, MaxDiagnostics)
	return r
}

// check is Check with a cap of limit diagnostics of each kind (0: none).
func check(s string, limit int) (r Report) {
	checkInto(&r, s, limit)
	return r
}

// checkInto is check into r, which is empty. The URL is read once, as
// Parse reads it (its fast paths included), but going on after each
// violation.
func checkInto(r *Report, s string, limit int) {
	w := warner{limit: limit}
	p := parser{collect: true, limit: limit}
	if p.parse(s) {
		p.u.warnings(&w)
		r.URL = p.u
	} else {
		r.Errors, r.MoreErrors = p.done(), p.more
		schemeWarnings(s, strings.IndexByte(s, ':'), &w)
	}
	r.Warnings, r.MoreWarnings = w.list, w.more
}

// warner collects warnings up to a limit (0: no limit) and counts the rest.
type warner struct {
	list  []Diagnostic
	limit int
	more  int
}

func (w *warner) add(d Diagnostic) {
	if !w.counted() {
		w.list = append(w.list, d)
	}
}

// counted reports whether the list is full, counting one more warning if
// so: a caller that finds a warning in a loop calls it before making the
// message, which is then never made.
func (w *warner) counted() bool {
	if w.limit > 0 && len(w.list) >= w.limit {
		w.more++
		return true
	}
	return false
}

// reservedSchemes are the names §4 asks IANA to reserve; RFC 1738 defines
// no syntax for them.
var reservedSchemes = []string{"afs", "mid", "cid", "nfs", "tn3270", "mailserver", "z39.50"}

// schemeWarnings reports what §2.1 and §4 say of the scheme name of s,
// which ends at colon (nothing when colon is not above 0).
func schemeWarnings(s string, colon int, w *warner) {
	if colon <= 0 {
		return
	}
	name := s[:colon]
	upper := -1 // the first upper-case letter
	for i := 0; i < len(name); i++ {
		c := classes[name[i]]
		if c&(classScheme|classHialpha) == 0 {
			return // not a scheme name: nothing to say of it
		}
		if c&classHialpha != 0 && upper == -1 {
			upper = i
		}
	}
	if upper != -1 {
		w.add(Diagnostic{Offset: upper, Rule: "scheme", Message: "scheme names are lower case; " +
			strconv.Quote(name) + " is read as " + strconv.Quote(strings.ToLower(name)) + " (§2.1)"})
	}
	// The reserved names have 3, 6 or 10 octets; a name of another length
	// is not compared with them.
	if n := len(name); n == 3 || n == 6 || n == 10 {
		for _, r := range reservedSchemes {
			if equalFoldLower(name, r) {
				w.add(Diagnostic{Offset: 0, Rule: "scheme", Message: strconv.Quote(r) +
					" is reserved by §4 for future definition; RFC 1738 defines no syntax for it"})
			}
		}
	}
	if len(name) >= 2 && name[0]|0x20 == 'x' && name[1] == '-' {
		w.add(Diagnostic{Offset: 0, Rule: "scheme", Message: strconv.Quote(strings.ToLower(name)) +
			" is an experimental scheme (§4): used only by mutual agreement"})
	}
}

// mayBeSpecial reports whether a lower-case scheme name may draw a
// warning of §4: a reserved name has 3, 6 or 10 octets, an experimental
// one starts with "x-". Most names, "https" among them, are neither, and
// are not read again.
func mayBeSpecial(name string) bool {
	n := len(name)
	return n == 3 || n == 6 || n == 10 || strings.HasPrefix(name, "x-")
}

// equalFoldLower reports whether s, in any case, is the lower-case ASCII
// word lower.
func equalFoldLower(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != lower[i] && c|0x20 != lower[i] {
			return false
		}
	}
	return true
}

// Warnings returns what the grammar allows but the RFC's text warns
// against: an upper-case scheme (§2.1), a scheme reserved by §4 or
// experimental, a generic schemepart that starts with "//" but is not an
// ip-schemepart (§3.1, so the URL has no host), a password in the URL
// (§6), a port beyond 65535 or other than the scheme's default (§6), a
// hostnumber part above 255 (§3.1), a decoded CR, LF, NUL or TAB that
// would end up inside a protocol line (§6, §3.4.1), and a mailto address
// that is not one RFC 822 addr-spec (§3.5). Like Check, it returns at most
// MaxDiagnostics of them.
func (u URL) Warnings() []Diagnostic {
	w := warner{limit: MaxDiagnostics}
	u.warnings(&w)
	return w.list
}

// It takes a pointer, read only, so that a URL is not copied per call.
func (u *URL) warnings(w *warner) {
	if u.s == "" {
		return
	}
	// A scheme of §3 in lower case draws no warning: none is reserved or
	// experimental (§4); nor does a lower-case name that cannot be one.
	if u.flags&flagUpperScheme != 0 || u.kind == KindOther && mayBeSpecial(u.s[:u.colon]) {
		schemeWarnings(u.s, int(u.colon), w)
	}
	if u.kind == KindOther && u.flags&flagAuthority == 0 {
		opaqueWarning(*u, w)
	}
	// The flags are asked first: a method of URL inlined on *u copies the
	// URL, which cost more than all the questions of a URL that has no
	// password, port or host number, most of them.
	if u.flags&flagPassword != 0 {
		if pw, _ := u.RawPassword(); pw != "" {
			w.add(Diagnostic{Offset: u.PasswordOffset(), Rule: "password",
				Message: "the URL holds a password; passwords in URLs are unwise (§6)"})
		}
	}
	if u.flags&flagPort != 0 {
		port, _ := u.Port()
		off := u.PortOffset()
		n, fits := u.PortValue()
		// (An if chain, not a switch: Go's coverage counts a case's
		// condition as run only through its body.)
		if !fits || n > 65535 {
			w.add(Diagnostic{Offset: off, Rule: "port", Message: "port " + port + " is beyond 65535, the largest TCP port"})
		} else if u.kind.DefaultPort() != 0 && n != u.kind.DefaultPort() {
			w.add(Diagnostic{Offset: off, Rule: "port", Message: "port " + strconv.Itoa(n) + " is not " +
				u.kind.String() + "'s default " + strconv.Itoa(u.kind.DefaultPort()) +
				"; another protocol may listen there (§6)"})
		}
	}
	if host := u.s[u.hostStart:u.hostEnd]; u.flags&flagAuthority != 0 && host != "" && digitsAndDots(host) {
		start := int(u.hostStart)
		for part := range strings.SplitSeq(host, ".") {
			if n, ok := digitsValue(part); !ok || n > 255 {
				w.add(Diagnostic{Offset: start, Rule: "hostnumber", Message: "host number part " + part + " is above 255"})
			}
			start += len(part) + 1
		}
	}
	switch u.kind {
	case KindMailto:
		if m, _ := u.Mailto(); !m.AddrSpec {
			w.add(Diagnostic{Offset: u.OpaqueOffset(), Rule: "encoded822addr",
				Message: "the address is not one RFC 822 addr-spec, local-part@domain (§3.5)"})
		}
	case KindGopher:
		// §3.4.1: a selector holds no TAB, CR or LF; the Gopher+ string may
		// (§3.4.9 forms), so it is not checked here.
		if ts, te, se, xe, ok := u.gopherSpans(); ok {
			lineEscapes(u.s, ts, te, "gtype", "\t\r\n\x00", w)
			lineEscapes(u.s, te, se, "selector", "\r\n\x00", w)
			if se < int(u.end) {
				lineEscapes(u.s, se+3, xe, "search", "\r\n\x00", w)
			}
		}
	case KindFTP, KindNews, KindNNTP:
		// §6: these parts are sent decoded inside protocol lines.
		lineEscapes(u.s, int(u.colon)+1, int(u.end), "escape", "\r\n\x00", w)
	}
	if len(w.list) > 1 {
		slices.SortStableFunc(w.list, func(a, b Diagnostic) int { return a.Offset - b.Offset })
	}
}

// opaqueWarning says why a generic schemepart that starts with "//" was
// read as *xchar: where and by which rule the ip-schemepart reading
// (§3.1) failed. Such a URL has no host, port or user.
func opaqueWarning(u URL, w *warner) {
	rest := int(u.colon) + 1
	end := int(u.end)
	if !strings.HasPrefix(u.s[rest:end], "//") {
		return
	}
	p := parser{s: u.s}
	p.u.kind = KindOther
	if p.ipSchemepart(rest, end) {
		return // cannot happen: Parse would have taken the parts
	}
	w.add(Diagnostic{Offset: p.first.Offset, Rule: p.first.Rule, Message: "not an ip-schemepart: " +
		p.first.message(u.s) + "; it is read as *xchar (§5), so the URL has no host, port or user"})
}

// lineEscapes reports each escape in s[i:j] that decodes to one of the
// octets in bad: an encoded delimiter of a line protocol (§6).
func lineEscapes(s string, i, j int, rule, bad string, w *warner) {
	for {
		k := IndexEscape(s[i:j], bad)
		if k < 0 {
			return
		}
		i += k
		if w.counted() {
			i += 3
			continue
		}
		c := unhex(s[i+1])<<4 | unhex(s[i+2])
		w.add(Diagnostic{Offset: i, Rule: rule, Message: "the escape " + s[i:i+3] + " decodes to " +
			strconv.QuoteRune(rune(c)) + ", which would end or split a protocol line; clients must not send it (§6)"})
		i += 3
	}
}
