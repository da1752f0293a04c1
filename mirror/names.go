package mirror

import (
	"path"
	"strings"
)

// localSegment makes one remote name (an ftp file name, one
// "/"-separated part of a gopher selector) a local name. The local name
// is the server's, as lftp and wget keep it, but for what a local name
// cannot or must not hold, each octet written %XX:
//   - control octets and DEL (no escape sequence of a server reaches a
//     later ls), and NUL and "/" (no file name holds them);
//   - a "%" followed by two hex digits, which would read as such an
//     escape ("%41" is "%2541"; "100%" and "a%zz" stay as they are);
//   - the names "." and "..", which would leave the folder;
//   - the first octet of a name of the mirror's own: a partial transfer
//     (".x.rfc1738-partial"), the manifest, a gopher menu's or root's
//     file ("%gophermap", "%root"), another server's folder (a name
//     starting "%"); and the "%" of a name ending "%gopher+", which
//     holds a Gopher+ item's attributes.
//
// Every "%XX" of a local name is so an escape: unescaping it gives the
// remote name back, and two remote names never meet in one local path.
func localSegment(seg string) string {
	if seg == "." || seg == ".." {
		return strings.ReplaceAll(seg, ".", "%2E")
	}
	i := 0
	for i < len(seg) && !escapeAt(seg, i) {
		i++
	}
	if i == len(seg) {
		return seg
	}
	b := make([]byte, 0, len(seg)+6)
	b = append(b, seg[:i]...)
	for ; i < len(seg); i++ {
		if escapeAt(seg, i) {
			b = appendPercent(b, seg[i])
			continue
		}
		b = append(b, seg[i])
	}
	return string(b)
}

// escapeAt reports whether the octet at i of the remote name seg is
// written %XX (see localSegment).
func escapeAt(seg string, i int) bool {
	c := seg[i]
	if needsPercent(c) {
		return true
	}
	if c == '%' && i+2 < len(seg) && isHex(seg[i+1]) && isHex(seg[i+2]) {
		return true
	}
	if i == 0 {
		return isPartial(seg) || seg == ManifestName || c == '%'
	}
	return c == '%' && i == len(seg)-len(GopherPlusSuffix) && strings.HasSuffix(seg, GopherPlusSuffix)
}

// partialSuffix ends the name of a partial transfer (see partialName).
const partialSuffix = ".rfc1738-partial"

// isPartial reports whether name is a partial transfer's: ".NAME" and
// partialSuffix. localSegment escapes a remote name of that form, so only
// the mirror's own partial files have it.
func isPartial(name string) bool {
	return len(name) > 1+len(partialSuffix) && name[0] == '.' && strings.HasSuffix(name, partialSuffix)
}

func appendPercent(b []byte, c byte) []byte {
	const hex = "0123456789ABCDEF"
	return append(b, '%', hex[c>>4], hex[c&15])
}

// needsPercent reports whether c is written %XX wherever it is: control
// octets, DEL, NUL and "/".
func needsPercent(c byte) bool { return c < 0x20 || c == 0x7f || c == '/' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// localDir is the local path of the remote directory rel, each name
// made a local one by localSegment.
func localDir(rel []string) string {
	parts := make([]string, len(rel))
	for i, seg := range rel {
		parts[i] = localSegment(seg)
	}
	return path.Join(parts...)
}

// A nameSet is the local names one listing named: a 128-bit hash of each
// (pathKey, as the manifest keeps paths), so that a listing of 10⁶ names
// costs the walk some 30 bytes a name, not the names themselves. Two
// names share a key with a chance of about n²/2¹²⁹.
type nameSet map[pathKey]struct{}

// add adds name, and reports whether it was new.
func (s nameSet) add(name string) bool {
	k := keyOf(name)
	if _, ok := s[k]; ok {
		return false
	}
	s[k] = struct{}{}
	return true
}

func (s nameSet) has(name string) bool {
	_, ok := s[keyOf(name)]
	return ok
}
