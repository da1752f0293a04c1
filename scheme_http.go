package rfc1738

import "strings"

// HTTP is the view of an http URL (§3.3). Path and search stay encoded:
// "/", ";" and "?" are reserved in them and decoding would change their
// meaning.
type HTTP struct {
	Path      string // hpath as written, without the leading "/"
	HasPath   bool   // the "/" after hostport is present
	Search    string // searchpart as written, without "?"
	HasSearch bool
}

// httpsPort is the default port of https (RFC 2818 §2.3).
const httpsPort = 443

// IsHTTPS reports whether u is an https URL (RFC 2818 §2.4: http over TLS,
// named by the scheme "https" in place of "http"). RFC 1738 §4 leaves new
// schemes to later documents, so Parse reads https by §5 genericurl and
// its Kind is KindOther.
func (u URL) IsHTTPS() bool {
	return u.kind == KindOther && u.colon == 5 && equalFold(u.s[:5], "https")
}

// HTTP returns the http view of u, and false when u is not an http URL.
// An https URL (RFC 2818 §2.4) has the same view when it has the form of
// §3.3's httpurl: a "//" host, and no user or password.
func (u URL) HTTP() (HTTP, bool) {
	switch {
	case u.kind == KindHTTP:
	case u.IsHTTPS() && u.flags&flagAuthority != 0 && u.flags&(flagUser|flagPassword) == 0:
	default:
		return HTTP{}, false
	}
	var h HTTP
	h.Path, h.HasPath = u.Path()
	if i := strings.IndexByte(h.Path, '?'); i >= 0 {
		h.Search, h.HasSearch = h.Path[i+1:], true
		h.Path = h.Path[:i]
	}
	return h, true
}

// RequestURI returns the path and search to send in a request: "/" when
// the URL has no path.
func (h HTTP) RequestURI() string {
	s := "/" + h.Path
	if h.HasSearch {
		s += "?" + h.Search
	}
	return s
}
