package rfc1738

import "strings"

// WAIS is the view of a wais URL (§3.9): a database, a search of it, or one
// document (wtype and wpath) within it.
type WAIS struct {
	Database  string // decoded database name
	Search    string // the search as written, without "?"
	HasSearch bool   // waisindex
	// Type and Path are the decoded wtype and wpath of a waisdoc. The wpath
	// is the WAIS document-id: opaque, decomposed only by the server that
	// issued it.
	Type, Path string
	IsDocument bool // waisdoc
}

// WAIS returns the wais view of u, and false when u is not a wais URL.
func (u URL) WAIS() (WAIS, bool) {
	if u.kind != KindWAIS {
		return WAIS{}, false
	}
	path, _ := u.Path()
	var w WAIS
	if i := strings.IndexByte(path, '?'); i >= 0 {
		w.Database = unescape(path[:i])
		w.Search, w.HasSearch = path[i+1:], true
		return w, true
	}
	if i := strings.IndexByte(path, '/'); i >= 0 {
		rest := path[i+1:]
		j := strings.IndexByte(rest, '/')
		w.Database = unescape(path[:i])
		w.Type, w.Path, w.IsDocument = unescape(rest[:j]), unescape(rest[j+1:]), true
		return w, true
	}
	w.Database = unescape(path)
	return w, true
}
