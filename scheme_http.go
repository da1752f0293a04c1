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

// HTTP returns the http view of u, and false when u is not an http URL.
func (u URL) HTTP() (HTTP, bool) {
	if u.kind != KindHTTP {
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
