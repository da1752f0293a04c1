package rfc1738

import (
	"strconv"
	"strings"
)

// Relative URLs: RFC 1808, the companion of RFC 1738, and RFC 3986 §5.2,
// which browsers follow. Both work on strings (the base's input and the
// reference) and hand the absolute form they make to Parse, so Parse's
// one-pass, allocation-free path is the only way to a URL value.

// ResolveError is the error returned by Resolve and ResolveRFC3986. It names
// the base, the reference, and the absolute form the algorithm made when it
// made one (Resolved), so a caller can still show what the reference means
// when that form is not an RFC 1738 URL (RFC 1808 §5.2 resolves "http:g" to
// "http:g", which §3.3 does not allow).
type ResolveError struct {
	Base     string // the base URL as written; "" when unknown
	Ref      string // the reference as written
	Resolved string // the absolute form made, or "" when none was made
	Err      error  // the cause: a *Error from Parse, or why no form was made
}

func (e *ResolveError) Error() string {
	s := "rfc1738: resolve " + quote(e.Ref)
	if e.Base != "" {
		s += " against " + quote(e.Base)
	}
	if e.Resolved != "" {
		s += ": " + quote(e.Resolved)
	}
	if pe, ok := e.Err.(*Error); ok {
		// The resolved form is quoted above, in a window: the parse
		// error's own message would quote all of it again.
		return s + ": " + pe.Diagnostic().String()
	}
	return s + ": " + e.Err.Error()
}

func (e *ResolveError) Unwrap() error { return e.Err }

// resolveFault is a cause that is a sentence, not a parse error.
type resolveFault string

func (f resolveFault) Error() string { return string(f) }

// quote quotes s as Go would, shortened to a window: a diagnostic shows a
// window of its input, not all of it.
func quote(s string) string {
	const window = 200
	if len(s) > window {
		return strconv.Quote(s[:window]) + "…"
	}
	return strconv.Quote(s)
}

// Resolve returns the absolute form of the reference ref in the context of
// the base URL u, by the algorithm of RFC 1808 §4, parsed as an RFC 1738
// URL. The zero URL is an unknown base (§4 step 1): ref must then be
// absolute. When the form made is not an RFC 1738 URL, or u is a mailto,
// news or telnet URL, which RFC 1808 §2.3 says are never bases, the error
// is a *ResolveError.
//
// RFC 1808 and RFC 3986 read some references differently (a "..", past the
// root, a ";params", an empty reference): ResolveRFC3986 gives the other
// reading.
func (u URL) Resolve(ref string) (URL, error) {
	base := u.s
	// Step 1: an unknown base: the embedded URL is interpreted as an
	// absolute URL and we are done.
	if base == "" {
		return parseResolved("", ref, ref)
	}
	// Step 2: both URLs are parsed into their component parts (§2.4).
	// a) An entirely empty reference inherits the entire base URL.
	if ref == "" {
		return u, nil
	}
	r := parse1808(ref)
	// b) A reference that starts with a scheme name is absolute.
	if r.hasScheme {
		return parseResolved(base, ref, ref)
	}
	// §2.3: mailto, news and telnet URLs are never used with relative URLs.
	if k := u.kind; k == KindMailto || k == KindNews || k == KindTelnet {
		return URL{}, &ResolveError{Base: base, Ref: ref, Err: resolveFault("RFC 1808 §2.3: " + article(k) + " URL is never a base for relative URLs")}
	}
	b := parse1808(base)
	// c) Otherwise the reference inherits the scheme of the base.
	r.scheme, r.hasScheme = b.scheme, true
	// Step 3: a non-empty <net_loc> skips to step 7; otherwise the
	// reference inherits the base's (if any).
	if r.authority == "" {
		r.authority, r.hasAuthority = b.authority, b.hasAuthority
		switch {
		case r.absPath:
			// Step 4: a path preceded by "/" is not relative: step 7.
		case r.path == "":
			// Step 5: an empty path (not preceded by "/") inherits the
			// base's path, and
			r.path, r.absPath = b.path, b.absPath
			// a) a non-empty <params> skips to step 7; otherwise the
			// base's <params> (if any) are inherited, and
			if r.params == "" {
				r.params, r.hasParams = b.params, b.hasParams
				// b) a non-empty <query> skips to step 7; otherwise the
				// base's <query> (if any) is inherited.
				if r.query == "" {
					r.query, r.hasQuery = b.query, b.hasQuery
				}
			}
		default:
			// Step 6: the last segment of the base's path (after its
			// rightmost "/", or all of it) is removed and the
			// reference's path appended in its place, then "." and ".."
			// segments are removed (a–d).
			dir := b.path[:strings.LastIndexByte(b.path, '/')+1]
			r.path, r.absPath = removeDots1808(dir+r.path), b.absPath
			// RFC 1738 §3.1: the "/" between the host and the url-path
			// is there whenever a path follows a host; a base with a
			// host and no path (http://a) is read as the root (http://a/).
			if r.hasAuthority && r.path != "" {
				r.absPath = true
			}
		}
	}
	// Step 7: the components, with those inherited from the base, are
	// recombined to give the absolute form.
	return parseResolved(base, ref, r.String())
}

// parseResolved parses the absolute form s made from ref against base.
func parseResolved(base, ref, s string) (URL, error) {
	v, err := Parse(s)
	if err != nil {
		return URL{}, &ResolveError{Base: base, Ref: ref, Resolved: s, Err: err}
	}
	return v, nil
}

// parts1808 are the six components of RFC 1808 §2.1,
//
//	<scheme>://<net_loc>/<path>;<params>?<query>#<fragment>
//
// as §2.4 parses them; the authority of parts is the net_loc, and its path
// is without the "/" that may precede it (absPath) and without the params.
// The algorithm of §4 asks only whether a component is empty; the has*
// fields remember whether its delimiter was written, so that step 7 gives
// back an empty "?" or "#" the reference had rather than dropping it.
type parts1808 struct {
	parts
	params    string
	hasParams bool
	absPath   bool // a "/" precedes the path (§2.4.6)
}

// parse1808 parses s into its components by the rules of RFC 1808 §2.4,
// in their order: §2.4.1 the fragment after the first "#"; §2.4.2 the
// scheme before a ":" that follows the first character and precedes any
// octet a scheme name cannot hold; §2.4.3 the net_loc after "//", up to
// the next "/"; §2.4.4 the query after the first "?"; then
func parse1808(s string) parts1808 {
	p := parts1808{parts: split(s, "/", false)}
	// §2.4.5: after the first ";" are the params.
	if i := strings.IndexByte(p.path, ';'); i >= 0 {
		p.params, p.hasParams, p.path = p.path[i+1:], true, p.path[:i]
	}
	// §2.4.6: the rest is the path, and the "/" that may precede it.
	if strings.HasPrefix(p.path, "/") {
		p.absPath, p.path = true, p.path[1:]
	}
	return p
}

// String recombines the components (RFC 1808 §4 step 7).
func (p parts1808) String() string {
	q := p.parts
	if p.absPath {
		q.path = "/" + q.path
	}
	if p.hasParams {
		q.path += ";" + p.params
	}
	return q.String()
}

// parts are the components a reference is split into before either
// RFC's rules apply: scheme, authority (RFC 1808's net_loc), path, query
// and fragment, with whether each delimiter was written (RFC 3986 §5.2.2
// and §5.3 tell an empty component from an undefined one).
type parts struct {
	scheme, authority, path, query, fragment string

	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

// split splits s into parts in the order both RFCs give (RFC 1808 §2.4.1
// to §2.4.4, RFC 3986 Appendix B): the fragment after the first "#", a
// scheme, an authority after "//" that ends at one of authEnd's octets,
// the query after the first "?", and the rest, the path. A scheme is the
// text before a ":" that follows at least one octet a scheme name may
// hold (RFC 1808 §2.4.2, §2.2); with alphaFirst its first octet must be
// a letter (RFC 3986 §3.1), else it is the start of a path.
func split(s, authEnd string, alphaFirst bool) parts {
	var p parts
	if i := strings.IndexByte(s, '#'); i >= 0 {
		p.fragment, p.hasFragment, s = s[i+1:], true, s[:i]
	}
	if i := schemeColon(s); i > 0 && (!alphaFirst || classes[s[0]]&classAlpha != 0) {
		p.scheme, p.hasScheme, s = s[:i], true, s[i+1:]
	}
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexAny(s, authEnd)
		if i < 0 {
			i = len(s)
		}
		p.authority, p.hasAuthority, s = s[:i], true, s[i:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		p.query, p.hasQuery, s = s[i+1:], true, s[:i]
	}
	p.path = s
	return p
}

// schemeColon returns the index of the ":" that ends a scheme name at the
// start of s (scheme = 1*( alpha | digit | "+" | "-" | "." ), RFC 1808
// §2.2), or -1.
func schemeColon(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			if i == 0 {
				return -1
			}
			return i
		}
		if classes[c]&(classScheme|classHialpha) == 0 {
			return -1
		}
	}
	return -1
}

// String recomposes the components (RFC 3986 §5.3; RFC 1808 §4 step 7).
func (p parts) String() string {
	var b strings.Builder
	b.Grow(len(p.scheme) + len(p.authority) + len(p.path) + len(p.query) + len(p.fragment) + 6)
	if p.hasScheme {
		b.WriteString(p.scheme)
		b.WriteByte(':')
	}
	if p.hasAuthority {
		b.WriteString("//")
		b.WriteString(p.authority)
	}
	b.WriteString(p.path)
	if p.hasQuery {
		b.WriteByte('?')
		b.WriteString(p.query)
	}
	if p.hasFragment {
		b.WriteByte('#')
		b.WriteString(p.fragment)
	}
	return b.String()
}

// removeDots1808 applies RFC 1808 §4 step 6 a–d to a path (without the
// "/" that may precede it), as the pair of segment stacks the RFC allows
// in place of its string patterns.
func removeDots1808(path string) string {
	var out []string
	for rest := path; ; {
		i := strings.IndexByte(rest, '/')
		last := i < 0
		seg := rest
		if !last {
			seg, rest = rest[:i], rest[i+1:]
		}
		switch {
		case seg == "." && !last:
			// a) every "./" where "." is a complete segment is removed.
		case seg == ".":
			// b) a final "." segment is removed (its "/" stays).
			out = append(out, "")
		case seg == ".." && len(out) > 0 && out[len(out)-1] != "..":
			out = out[:len(out)-1]
			if last {
				// d) a final "<segment>/.." is removed.
				out = append(out, "")
			}
			// c) otherwise "<segment>/../", leftmost first: a stack
			// pops the segment the ".." follows.
		default:
			// A ".." with no segment before it stays (§5.2:
			// "../../../g" is http://a/../g).
			out = append(out, seg)
		}
		if last {
			break
		}
	}
	return strings.Join(out, "/")
}

// ResolveRFC3986 returns the absolute form of the reference ref in the
// context of the base URL u by RFC 3986 §5.2 (strict, §5.2.2), the reading
// browsers follow, parsed as an RFC 1738 URL. The zero URL is an unknown
// base: ref must then have a scheme. When the form made is not an RFC 1738
// URL the error is a *ResolveError naming it.
//
// Where the readings differ (docs/conformance.md): "." and ".."
// segments are removed from every path, and ".." never climbs above the
// root (§5.2.4); ";" is part of a path segment (§3.3), not a delimiter; the
// empty reference is the base without its fragment (§5.2.2: T.fragment =
// R.fragment); an empty "?" or "//" is a component (§5.2.2 asks whether a
// component is defined, not whether it is empty).
func (u URL) ResolveRFC3986(ref string) (URL, error) {
	base := u.s
	r := parse3986(ref)
	var t parts
	if r.hasScheme {
		// §5.2.2: a reference with a scheme is absolute; its path still
		// loses its dot segments.
		t = r
		t.path = removeDots3986(r.path)
		return parseResolved(base, ref, t.String())
	}
	if base == "" {
		// §5.1: without a base URI a relative reference has no meaning.
		return URL{}, &ResolveError{Ref: ref, Err: resolveFault("RFC 3986 §5.1: a relative reference needs a base URL")}
	}
	b := parse3986(base) // §5.2.1: the base's fragment plays no part
	if r.hasAuthority {
		t.authority, t.hasAuthority = r.authority, true
		t.path = removeDots3986(r.path)
		t.query, t.hasQuery = r.query, r.hasQuery
	} else {
		switch {
		case r.path == "":
			t.path = b.path
			if r.hasQuery {
				t.query, t.hasQuery = r.query, true
			} else {
				t.query, t.hasQuery = b.query, b.hasQuery
			}
		case r.path[0] == '/':
			t.path = removeDots3986(r.path)
			t.query, t.hasQuery = r.query, r.hasQuery
		default:
			t.path = removeDots3986(merge3986(b, r.path))
			t.query, t.hasQuery = r.query, r.hasQuery
		}
		t.authority, t.hasAuthority = b.authority, b.hasAuthority
	}
	t.scheme, t.hasScheme = b.scheme, b.hasScheme
	t.fragment, t.hasFragment = r.fragment, r.hasFragment
	return parseResolved(base, ref, t.String())
}

// parse3986 splits s into components as RFC 3986 Appendix B does, with a
// scheme only where §3.1 allows one (ALPHA *( ALPHA / DIGIT / "+" / "-" /
// ".")): any other text before a ":" is the start of a path.
func parse3986(s string) parts { return split(s, "/?", true) }

// merge3986 merges a relative-path reference with the base's path (RFC
// 3986 §5.2.3).
func merge3986(b parts, ref string) string {
	if b.hasAuthority && b.path == "" {
		return "/" + ref
	}
	return b.path[:strings.LastIndexByte(b.path, '/')+1] + ref
}

// removeDots3986 is remove_dot_segments of RFC 3986 §5.2.4, step by step.
func removeDots3986(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	out := make([]byte, 0, len(in))
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			// A: remove a prefix "../" or "./".
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			// B: replace a prefix "/./" or a whole "/." with "/".
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../") || in == "/..":
			// C: replace a prefix "/../" or a whole "/.." with "/", and
			// remove the output's last segment and the "/" before it.
			if in == "/.." {
				in = "/"
			} else {
				in = in[3:]
			}
			j := 0
			for k := len(out) - 1; k >= 0; k-- {
				if out[k] == '/' {
					j = k
					break
				}
			}
			out = out[:j]
		case in == "." || in == "..":
			// D: remove a whole "." or "..".
			in = ""
		default:
			// E: move the first segment, with its leading "/" if any,
			// up to the next "/".
			j := strings.IndexByte(in[1:], '/') + 1
			if j == 0 {
				j = len(in)
			}
			out = append(out, in[:j]...)
			in = in[j:]
		}
	}
	return string(out)
}
