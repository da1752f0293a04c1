package mirror

import (
	"fmt"
	"path"
	"strings"
)

// localSegment makes one remote name (an ftp file name, one
// "/"-separated part of a gopher selector) a local name: "%", control
// bytes and a name of dots are written %XX, so that two different remote
// names never meet in one local path, none leaves the folder, and no
// escape sequence of a server reaches a later ls.
func localSegment(seg string) string {
	if seg == "." || seg == ".." {
		return strings.ReplaceAll(seg, ".", "%2E")
	}
	i := 0
	for i < len(seg) && !needsPercent(seg[i]) {
		i++
	}
	if i == len(seg) {
		return seg
	}
	var b strings.Builder
	b.WriteString(seg[:i])
	for ; i < len(seg); i++ {
		c := seg[i]
		if needsPercent(c) {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func needsPercent(c byte) bool { return c == '%' || c < 0x20 || c == 0x7f }

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
