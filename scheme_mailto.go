package rfc1738

// Mailto is the view of a mailto URL (§3.5): one Internet mail address.
// A mailto URL does not name a data object to be accessed.
type Mailto struct {
	Address string // decoded; §3.5: there are no reserved characters
	// AddrSpec reports whether Address is exactly one RFC 822 addr-spec
	// (local-part "@" domain), as §3.5 requires.
	AddrSpec bool
}

// Mailto returns the mailto view of u, and false when u is not a mailto URL.
func (u URL) Mailto() (Mailto, bool) {
	if u.kind != KindMailto {
		return Mailto{}, false
	}
	raw, _ := u.Opaque()
	addr := unescape(raw)
	return Mailto{Address: addr, AddrSpec: isAddrSpec(addr)}, true
}

// isAddrSpec reports whether s is one RFC 822 §6.1 addr-spec:
//
//	addr-spec  = local-part "@" domain
//	local-part = word *("." word)        word = atom / quoted-string
//	domain     = sub-domain *("." sub-domain)
//	sub-domain = domain-ref / domain-literal
func isAddrSpec(s string) bool {
	i, ok := rfc822Words(s, 0, true)
	if !ok || i >= len(s) || s[i] != '@' {
		return false
	}
	i, ok = rfc822Words(s, i+1, false)
	return ok && i == len(s)
}

// rfc822Words reads word *("." word) (local part) or sub-domain
// *("." sub-domain) from s[i:] and returns where it stopped.
func rfc822Words(s string, i int, local bool) (int, bool) {
	for {
		switch {
		case i < len(s) && local && s[i] == '"':
			// quoted-string = <"> *(qtext / quoted-pair) <">
			i++
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				} else if s[i] == '\r' || s[i] >= 0x80 {
					return i, false
				}
				i++
			}
			if i >= len(s) {
				return i, false
			}
			i++
		case i < len(s) && !local && s[i] == '[':
			// domain-literal = "[" *(dtext / quoted-pair) "]"
			i++
			for i < len(s) && s[i] != ']' {
				if s[i] == '\\' {
					i++
				} else if s[i] == '[' || s[i] == '\r' || s[i] >= 0x80 {
					return i, false
				}
				i++
			}
			if i >= len(s) {
				return i, false
			}
			i++
		default:
			start := i
			for i < len(s) && isAtomChar(s[i]) {
				i++
			}
			if i == start {
				return i, false
			}
		}
		if i >= len(s) || s[i] != '.' {
			return i, true
		}
		i++
	}
}

// isAtomChar reports whether c may appear in an RFC 822 atom: any CHAR
// except specials, SPACE and CTLs.
func isAtomChar(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	switch c {
	case '(', ')', '<', '>', '@', ',', ';', ':', '\\', '"', '.', '[', ']':
		return false
	}
	return true
}
