package rfc1738

import (
	"slices"
	"strings"
)

// ParseLenient reads a URL as it is found in the wild: it accepts what the
// strict grammar rejects when the meaning is still clear, repairs it, and
// returns the repaired URL together with one Diagnostic per deviation
// (offset into s, the §5 rule that was broken, and what was done).
//
// The returned URL is a strictly valid URL: its String() is the repaired
// form, which Parse accepts. When s is already valid, the URL is Parse(s)
// and there are no deviations.
//
// What is repaired:
//
//   - white space before and after the URL, and the "<URL:…>" or "<…>"
//     wrappers of the Appendix, are taken off;
//   - in every part that allows escapes (paths, searches, selectors, user
//     and password, opaque parts, fragments), an octet that §2.2 says must
//     be encoded is encoded: a space, the unsafe characters
//     `{ } | \ ^ ~ [ ] ` + "`" + ` " < >`, a "#" after the first (which
//     starts the fragment), a "%" that does not begin an escape (as %25),
//     and the octets 80–FF (UTF-8 text is so encoded octet by octet).
//
// What is not repaired, because the meaning is no longer clear: control
// characters (a line break may have cut the URL), a reserved character in
// the wrong place (";" in an ftp path: data or a typecode?), anything in a
// host name or a port (hosts are never escaped), an unknown structure. The
// error is then an *Error naming the first such violation in s.
func ParseLenient(s string) (URL, []Diagnostic, error) {
	if u, err := Parse(s); err == nil {
		return u, nil, nil
	}
	in, base, devs := unwrapAppendix(s)

	r := check(in, 0) // every violation: each is repaired or refused
	var unrepaired *Diagnostic
	fix := make([]bool, len(in)) // octets to encode
	login := genericLogin(in)
	for i := range r.Errors {
		d := r.Errors[i]
		if d.Offset < len(in) && repairableRule(d.Rule) && repairableByte(in[d.Offset]) && d.Offset >= login {
			for k := d.Offset; k < charEnd(in, d.Offset, len(in)); k++ {
				fix[k] = true // every octet of the character (§2.2)
			}
			d.Message += "; encoded"
			d.Offset += base
			devs = append(devs, d)
			continue
		}
		if unrepaired == nil {
			unrepaired = &r.Errors[i]
		}
	}
	if unrepaired != nil {
		d := *unrepaired
		d.Offset += base
		slices.SortStableFunc(devs, func(a, b Diagnostic) int { return a.Offset - b.Offset })
		return URL{}, devs, errorOf(s, d)
	}
	var b strings.Builder
	b.Grow(len(in) + 2*len(devs))
	start := 0
	for i := 0; i < len(in); i++ {
		if fix[i] {
			b.WriteString(in[start:i])
			c := in[i]
			b.WriteByte('%')
			b.WriteByte(upperhex[c>>4])
			b.WriteByte(upperhex[c&15])
			start = i + 1
		}
	}
	b.WriteString(in[start:])
	repaired := b.String()
	slices.SortStableFunc(devs, func(a, b Diagnostic) int { return a.Offset - b.Offset })
	u, err := Parse(repaired)
	if err != nil {
		// Encoding an octet never adds structure, so this means Check
		// missed a violation; report it at the matching offset of s.
		e := err.(*Error)
		d := e.Diagnostic()
		d.Offset = base + originalOffset(fix, d.Offset)
		return URL{}, devs, errorOf(s, d)
	}
	return u, devs, nil
}

// unwrapAppendix takes off the white space around a URL and its "<URL:…>"
// or "<…>" wrapper (Appendix): it returns the URL, its offset in s, and a
// Diagnostic for each part taken off.
func unwrapAppendix(s string) (in string, base int, devs []Diagnostic) {
	// Appendix: white space around a URL and its "<URL:…>" wrapper are not
	// part of it.
	in = s
	if t := strings.TrimLeft(in, " \t\r\n"); len(t) != len(in) {
		devs = append(devs, Diagnostic{Offset: 0, Rule: "url", Message: "white space before the URL is not part of it (Appendix); removed"})
		base += len(in) - len(t)
		in = t
	}
	if t := strings.TrimRight(in, " \t\r\n"); len(t) != len(in) {
		devs = append(devs, Diagnostic{Offset: base + len(t), Rule: "url", Message: "white space after the URL is not part of it (Appendix); removed"})
		in = t
	}
	if len(in) >= 2 && in[0] == '<' && in[len(in)-1] == '>' {
		devs = append(devs, Diagnostic{Offset: base, Rule: "url", Message: "the angle brackets around the URL delimit it in text (Appendix); removed"})
		base++
		in = in[1 : len(in)-1]
	}
	if len(in) >= 4 && equalFold(in[:4], "url:") {
		devs = append(devs, Diagnostic{Offset: base, Rule: "url", Message: "the \"URL:\" prefix marks a URL in text (Appendix); removed"})
		base += 4
		in = in[4:]
	}

	return in, base, devs
}

// genericLogin returns where the "//" login of a generic URL ends (hosts
// are never escaped, so nothing before is repaired), or 0.
func genericLogin(s string) int {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || KindOf(s[:colon]) != KindOther || !strings.HasPrefix(s[colon+1:], "//") {
		return 0
	}
	return indexByte(s, colon+3, len(s), '/')
}

// originalOffset maps an offset in the repaired text back to the input.
func originalOffset(fix []bool, off int) int {
	r := 0
	for i, f := range fix {
		w := 1
		if f {
			w = 3
		}
		if r+w > off {
			return i
		}
		r += w
	}
	return len(fix)
}

// repairableRule reports whether rule is a §5 production that allows
// escapes, so that encoding an octet there keeps the URL's structure.
func repairableRule(rule string) bool {
	switch rule {
	case "escape", "fragment", "encoded822addr", "schemepart", "urlpath",
		"hsegment", "search", "selector", "database", "wtype", "wpath",
		"psegment", "fieldname", "fieldvalue", "fsegment", "article",
		"user", "password":
		return true
	}
	return false
}

// repairableByte reports whether c is an octet that §2.2 says must always
// be encoded and that carries no structure: a space, the unsafe characters,
// "%" and "#" (reached only where they are not an escape or the fragment
// delimiter), and the octets that are not US-ASCII.
func repairableByte(c byte) bool {
	return c == ' ' || c >= 0x80 || classes[c]&(classNational|classPunctuation) != 0
}
