// Package edit reads and changes the parts of RFC 1738 URLs, as trurl
// does for later URL specs: the value of a part by name (Get, Expand for
// "{host}:{port}" templates), and a new URL with one part replaced (Set)
// or extended (Append), the new value encoded as §2.2 and the scheme's
// own rules (§3) ask.
//
// An edit replaces the bytes of one part and keeps every other byte of
// the URL as written: an http search stays exactly as encoded when only
// the host changes. The result is parsed again, so an edit never returns
// an invalid URL.
//
// Part names: the common parts of §3.1, "scheme", "user", "password",
// "host", "port" (the default port when none is written), "path" (as
// written, with its leading "/"; an http URL's stops before "?", §3.3),
// "query" (as written, without "?": an http URL's searchpart, §3.3, or
// the query RFC 1808 §2.4.4 parses out of a scheme RFC 1738 does not
// define), "fragment" (decoded; Appendix) and "url"; and each scheme's
// own parts (decoded), named
// scheme.part: ftp.cwd (the <cwd> elements joined by "/"; a leading "/"
// is the first element's, an absolute CWD, as in §3.2.2's %2Fetc), ftp.name,
// ftp.type; http.path (decoded, "/" between segments), http.search (as
// written: "&" and "=" are its delimiters), of https URLs too (RFC 2818
// §2.4); gopher.type,
// gopher.selector, gopher.search, gopher.plus; mailto.address;
// news.group, news.message-id; nntp.group, nntp.article; wais.database,
// wais.search, wais.wtype, wais.wpath; file.path (decoded); and
// prospero.hsoname.
package edit

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// ErrUnknownPart is wrapped by the error for a part name a scheme does not
// have.
var ErrUnknownPart = errors.New("no such part")

// Names returns the part names u has, common parts first.
func Names(u rfc1738.URL) []string {
	names := []string{"url", "scheme"}
	if u.HasAuthority() {
		names = append(names, "user", "password", "host", "port")
	}
	names = append(names, "path")
	if hasQuery(u) {
		names = append(names, "query")
	}
	names = append(names, "fragment")
	switch kindOf(u) {
	case rfc1738.KindFTP:
		names = append(names, "ftp.cwd", "ftp.name", "ftp.type")
	case rfc1738.KindHTTP:
		names = append(names, "http.path", "http.search")
	case rfc1738.KindGopher:
		names = append(names, "gopher.type", "gopher.selector", "gopher.search", "gopher.plus")
	case rfc1738.KindMailto:
		names = append(names, "mailto.address")
	case rfc1738.KindNews:
		names = append(names, "news.group", "news.message-id")
	case rfc1738.KindNNTP:
		names = append(names, "nntp.group", "nntp.article")
	case rfc1738.KindWAIS:
		names = append(names, "wais.database", "wais.search", "wais.wtype", "wais.wpath")
	case rfc1738.KindFile:
		names = append(names, "file.path")
	case rfc1738.KindProspero:
		names = append(names, "prospero.hsoname")
	}
	return names
}

// Get returns the value of the named part of u (see the package
// documentation), and false when u has no such part or it is absent. It
// is one switch, a case per part name, and reads best whole.
func Get(u rfc1738.URL, part string) (string, bool) {
	switch part {
	case "url":
		return u.String(), true
	case "scheme":
		return u.Scheme(), true
	case "user":
		return u.User()
	case "password":
		return u.Password()
	case "host":
		return u.Host(), u.HasAuthority()
	case "port":
		if p, ok := u.Port(); ok {
			return p, true
		}
		if d := u.DefaultPort(); d != 0 && u.HasAuthority() {
			return strconv.Itoa(d), true
		}
		return "", false
	case "path":
		if !u.HasAuthority() {
			return u.Opaque()
		}
		i, j, ok := pathSpan(u)
		if qi, _, has := querySpan(u); has {
			j = qi - 1 // before the "?"
		}
		return "/" + u.String()[i:j], ok
	case "query":
		i, j, ok := querySpan(u)
		return u.String()[i:j], ok
	case "fragment":
		f, ok := u.Fragment()
		if !ok {
			return "", false
		}
		d, err := rfc1738.Unescape(f)
		return d, err == nil
	}
	scheme, name, ok := strings.Cut(part, ".")
	if !ok || scheme != kindOf(u).String() || scheme == "" {
		return "", false
	}
	return getSchemePart(u, scheme, name)
}

// getSchemePart is Get of a part of a scheme's own syntax (§3): "ftp.cwd",
// "gopher.selector", "wais.wpath", ...; scheme is u's.
func getSchemePart(u rfc1738.URL, scheme, name string) (string, bool) {
	switch scheme {
	case "ftp":
		f, _ := u.FTP()
		switch name {
		case "cwd":
			return strings.Join(f.Cwd, "/"), len(f.Cwd) > 0
		case "name":
			return f.Name, true
		case "type":
			if f.Type == 0 {
				return "", false
			}
			return string(f.Type), true
		}
	case "http":
		h, _ := u.HTTP()
		switch name {
		case "path":
			p, err := rfc1738.Unescape(h.Path)
			return p, err == nil && h.HasPath
		case "search":
			return h.Search, h.HasSearch
		}
	case "gopher":
		g, _ := u.Gopher()
		switch name {
		case "type":
			return string(g.Type), true
		case "selector":
			return g.Selector, true
		case "search":
			return g.Search, g.HasSearch
		case "plus":
			return g.Plus, g.HasPlus
		}
	case "mailto":
		m, _ := u.Mailto()
		if name == "address" {
			return m.Address, true
		}
	case "news":
		n, _ := u.News()
		switch name {
		case "group":
			return n.Group, n.Group != ""
		case "message-id":
			return n.MessageID, n.MessageID != ""
		}
	case "nntp":
		n, _ := u.NNTP()
		switch name {
		case "group":
			return n.Group, true
		case "article":
			return n.Article, n.HasArticle
		}
	case "wais":
		w, _ := u.WAIS()
		switch name {
		case "database":
			return w.Database, true
		case "search":
			return w.Search, w.HasSearch
		case "wtype":
			return w.Type, w.IsDocument
		case "wpath":
			return w.Path, w.IsDocument
		}
	case "file":
		f, _ := u.File()
		if name == "path" {
			p, err := rfc1738.Unescape(f.Path)
			return "/" + p, err == nil
		}
	case "prospero":
		p, _ := u.Prospero()
		if name == "hsoname" {
			return p.Hsoname, true
		}
	}
	return "", false
}

// Raw returns the named part as written in u, encoded: the user, the
// password and the fragment undecoded; any other part as Get gives it.
func Raw(u rfc1738.URL, part string) (string, bool) {
	switch part {
	case "user":
		return u.RawUser()
	case "password":
		return u.RawPassword()
	case "fragment":
		return u.Fragment()
	}
	return Get(u, part)
}

// kindOf is u's Kind, with https read as http: RFC 2818 §2.4 gives https
// http's syntax, so an https URL with a host and no login (u.HTTP) has
// http's parts.
func kindOf(u rfc1738.URL) rfc1738.Kind {
	if _, ok := u.HTTP(); ok {
		return rfc1738.KindHTTP
	}
	return u.Kind()
}

// hasQuery reports whether u can hold a query: an http URL (§3.3
// searchpart) or a URL of a scheme RFC 1738 does not define that uses the
// "//" syntax, whose query RFC 1808 §2.4.4 parses from the first "?".
func hasQuery(u rfc1738.URL) bool {
	return kindOf(u) == rfc1738.KindHTTP || u.Kind() == rfc1738.KindOther && u.HasAuthority()
}

// querySpan returns where u's query lies, [i, j) after the "?", and
// whether one is written; i == j at the end of the URL proper otherwise.
func querySpan(u rfc1738.URL) (i, j int, ok bool) {
	end := len(u.WithoutFragment())
	p, has := u.Path()
	if !hasQuery(u) || !has {
		return end, end, false
	}
	// §3.3: an hsegment cannot hold "?", so the first one starts the
	// searchpart; RFC 1808 §2.4.4 takes the first one for the rest.
	q := strings.IndexByte(p, '?')
	if q < 0 {
		return end, end, false
	}
	return u.PathOffset() + q + 1, end, true
}

// commonParts are the parts every template may name: empty where a URL
// lacks them, so that one template serves a mixed list.
var commonParts = map[string]bool{"url": true, "scheme": true, "user": true, "password": true,
	"host": true, "port": true, "path": true, "query": true, "fragment": true}

// has reports whether part is one of u's part names.
func has(u rfc1738.URL, part string) bool {
	for _, n := range Names(u) {
		if n == part {
			return true
		}
	}
	return false
}

// schemeParts are the part names of every scheme.
var schemeParts = map[string]bool{}

func init() {
	for _, s := range []string{"ftp://h/", "http://h/", "gopher://h/", "mailto:a@b", "news:a", "nntp://h/a", "wais://h/d", "file:///", "prospero://h/x"} {
		u, _ := rfc1738.Parse(s)
		for _, n := range Names(u) {
			if strings.Contains(n, ".") {
				schemeParts[n] = true
			}
		}
	}
}

// schemePart reports whether name is a part of some scheme.
func schemePart(name string) bool { return schemeParts[name] }
