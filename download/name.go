package download

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// ErrNoName is wrapped by NameFromURL's error for a URL whose path names
// no file (a folder, a menu, a news group, a host alone).
var ErrNoName = errors.New("the URL names no file")

// ErrEmptyName is NameFromURL's error for a URL whose path ends in "/" or
// is empty: it names a folder or a host, whose page a caller may save as
// index.html (wget's name). It is an ErrNoName.
var ErrEmptyName = fmt.Errorf("%w: its path ends in \"/\" or is empty; give -o FILE", ErrNoName)

// NameFromURL returns the local file name a URL suggests: the last
// segment of its path, decoded (§2.2). For ftp it is <name> (§3.2.2),
// without ";type="; for gopher the last part of the selector (§3.4). The
// name is a single path element: one that decodes to contain "/", NUL
// or another control byte, or that is "." or "..", is refused, so that
// a URL can never choose a file outside the folder it is saved in.
func NameFromURL(u rfc1738.URL) (string, error) {
	var seg string
	switch u.Kind() {
	case rfc1738.KindFTP:
		f, _ := u.FTP()
		return checkName(u, f.Name)
	case rfc1738.KindGopher:
		g, _ := u.Gopher()
		seg = g.Selector
		if i := strings.LastIndexByte(seg, '/'); i >= 0 {
			seg = seg[i+1:]
		}
		return checkName(u, seg)
	case rfc1738.KindHTTP:
		h, _ := u.HTTP()
		seg = h.Path
	default:
		seg, _ = u.Path()
		if seg == "" {
			seg, _ = u.Opaque()
		}
	}
	if i := strings.LastIndexByte(seg, '/'); i >= 0 {
		seg = seg[i+1:]
	}
	name, err := rfc1738.Unescape(seg)
	if err != nil {
		return "", fmt.Errorf("%s: %w", u, err)
	}
	return checkName(u, name)
}

func checkName(u rfc1738.URL, name string) (string, error) {
	if name == "" {
		return "", ErrEmptyName
	}
	if name == "." || name == ".." {
		return "", fmt.Errorf("%w: its last segment is %q", ErrNoName, name)
	}
	// (An if chain, not a switch: Go's coverage counts a case's condition
	// as run only through its body.)
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '/' {
			return "", fmt.Errorf("%w: its last segment decodes to a name with \"/\" (offset %d), which would leave the folder", ErrNoName, i)
		}
		if c < 0x20 || c == 0x7f {
			return "", fmt.Errorf("%w: its last segment decodes to a name with byte %#02x (offset %d)", ErrNoName, c, i)
		}
	}
	return name, nil
}

// Reserve returns path, or when taken already holds it the first of
// path.1, path.2, … that it does not (wget's rule for a name that
// coincides), and adds the name returned to taken: two downloads of one
// run never share a file. The choice depends only on the run's own
// names, so that a later run with -C finds the same ones.
func Reserve(taken map[string]bool, path string) string {
	name := path
	for i := 1; taken[name]; i++ {
		name = fmt.Sprintf("%s.%d", path, i)
	}
	taken[name] = true
	return name
}
