package edit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// resolve maps a short part name ("name", "search", "selector", "type")
// to the scheme's own one when u has no common part of that name.
func resolve(u rfc1738.URL, part string) (string, error) {
	if has(u, part) {
		return part, nil
	}
	scheme := u.Scheme()
	if kindOf(u) == rfc1738.KindHTTP {
		scheme = "http" // https has http's parts (RFC 2818 §2.4)
	}
	if full := scheme + "." + part; has(u, full) {
		return full, nil
	}
	return "", fmt.Errorf("%s: %w in a %s URL; it has %s", part, ErrUnknownPart, u.Scheme(), strings.Join(Names(u)[1:], ", "))
}

// splice returns s with s[i:j] replaced by repl, parsed. A URL with an
// IPv6 literal host (RFC 3986 §3.2.2) or a "/" or "?" in an http search
// (§3.4), which only rfc1738.Read takes, is read so again; nothing else
// that Parse refuses is let through.
func splice(s string, i, j int, repl string) (rfc1738.URL, error) {
	t := s[:i] + repl + s[j:]
	u, err := rfc1738.Parse(t)
	if err != nil && !rfc1738.Valid(s) {
		if r, deps, rerr := rfc1738.Read(t); rerr == nil && r.String() == t && readForms(deps) {
			return r, nil
		}
	}
	return u, err
}

// readForms reports whether every departure is one an edit keeps: an
// IPv6 literal or a "/" or "?" in a search.
func readForms(deps []rfc1738.Departure) bool {
	for _, d := range deps {
		if d.Rule != "host" && d.Rule != "search" {
			return false
		}
	}
	return true
}

// pathSpan returns where u's path lies: [i, j) after the "/" that
// follows the host and port, and whether it is written at all.
func pathSpan(u rfc1738.URL) (i, j int, ok bool) {
	p, ok := u.Path()
	if !ok {
		end := len(u.WithoutFragment())
		return end, end, false
	}
	i = u.PathOffset()
	return i, i + len(p), true
}

// withPath returns u with its path (after the "/") replaced by p, as
// already encoded.
func withPath(u rfc1738.URL, p string) (rfc1738.URL, error) {
	i, j, ok := pathSpan(u)
	if !ok {
		p = "/" + p
	}
	return splice(u.String(), i, j, p)
}

// withQuery returns u with its query (after the "?") replaced by q, as
// already encoded, or removed with its "?" when present is false.
func withQuery(u rfc1738.URL, q string, present bool) (rfc1738.URL, error) {
	s := u.String()
	i, j, ok := querySpan(u)
	switch {
	case ok && present:
		return splice(s, i, j, q)
	case ok:
		return splice(s, i-1, j, "")
	case !present:
		return u, nil
	}
	if _, _, hasPath := pathSpan(u); !hasPath {
		q = "/?" + q // §3.3: "/" comes before the searchpart
	} else {
		q = "?" + q
	}
	return splice(s, i, i, q)
}

// built is a builder of the root package.
type built interface {
	Append([]byte) ([]byte, error)
}

// builtPath builds b on the host "h" and returns what follows
// "scheme://h/": the path as the builder encodes it.
func builtPath(b built, scheme string) (string, error) {
	s, err := b.Append(nil)
	if err != nil {
		return "", err
	}
	prefix := scheme + "://h/"
	if !strings.HasPrefix(string(s), prefix) {
		return "", nil // the builder wrote "scheme://h": no path
	}
	return string(s[len(prefix):]), nil
}

// Set returns u with the named part set to value: decoded parts are
// encoded as their component needs (§2.2; §3's scheme rules through the
// root package's builders); "path" is taken as written. An empty value
// removes an optional part with its delimiter, as trurl does: user,
// password, port (the default applies), query, fragment, http.search,
// gopher.search, gopher.plus; a part the URL lacks is added where the
// grammar puts it.
func Set(u rfc1738.URL, part, value string) (rfc1738.URL, error) {
	part, err := resolve(u, part)
	if err != nil {
		return rfc1738.URL{}, err
	}
	out, err := set(u, part, value)
	if err != nil {
		return rfc1738.URL{}, fmt.Errorf("set %s: %w", part, err)
	}
	return out, nil
}

// set is Set without the error's context: a common part, else the part
// of the scheme named before its ".".
func set(u rfc1738.URL, part, value string) (rfc1738.URL, error) {
	if out, err := setCommon(u, part, value); err != errNotCommon {
		return out, err
	}
	scheme, name, _ := strings.Cut(part, ".")
	switch scheme {
	case "ftp":
		return setFTPPart(u, name, value)
	case "http":
		return setHTTPPart(u, name, value)
	case "gopher":
		return setGopherPart(u, name, value)
	case "mailto":
		return setMailtoPart(u, name, value)
	case "news":
		return setNewsPart(u, name, value)
	case "nntp":
		return setNNTPPart(u, name, value)
	case "wais":
		return setWAISPart(u, name, value)
	case "file":
		return setFilePart(u, name, value)
	case "prospero":
		return setProsperoPart(u, name, value)
	}
	return rfc1738.URL{}, fmt.Errorf("%w", ErrUnknownPart)
}

// errNotCommon is setCommon's answer for a part that is a scheme's own.
var errNotCommon = errors.New("not a common part")

// setCommon sets one of the common parts of §3.1 (and the url, path,
// query and fragment of every URL).
func setCommon(u rfc1738.URL, part, value string) (rfc1738.URL, error) {
	s := u.String()
	switch part {
	case "url", "scheme":
		return rfc1738.URL{}, fmt.Errorf("the %s is not set part by part; give a new URL", part)
	case "host":
		i := u.HostOffset()
		return splice(s, i, i+len(u.Host()), value)
	case "port":
		end := u.HostOffset() + len(u.Host())
		if digits, ok := u.Port(); ok {
			if value == "" {
				return splice(s, end, u.PortOffset()+len(digits), "")
			}
			return splice(s, u.PortOffset(), u.PortOffset()+len(digits), value)
		}
		if value == "" {
			return u, nil
		}
		return splice(s, end, end, ":"+value)
	case "user":
		enc := rfc1738.Escape(value, rfc1738.UserComponent)
		raw, ok := u.RawUser()
		_, hasPassword := u.RawPassword()
		switch {
		case value == "" && !ok:
			return u, nil
		case value == "" && !hasPassword:
			// An empty value removes the part, as trurl does: §3.1's
			// "user@" goes whole.
			return splice(s, u.UserOffset(), u.HostOffset(), "")
		case ok:
			return splice(s, u.UserOffset(), u.UserOffset()+len(raw), enc)
		}
		return splice(s, u.HostOffset(), u.HostOffset(), enc+"@")
	case "password":
		enc := rfc1738.Escape(value, rfc1738.UserComponent)
		if raw, ok := u.RawPassword(); ok {
			if value == "" {
				// §3.1: ":password" goes with its ":".
				return splice(s, u.PasswordOffset()-1, u.PasswordOffset()+len(raw), "")
			}
			return splice(s, u.PasswordOffset(), u.PasswordOffset()+len(raw), enc)
		}
		if value == "" {
			return u, nil
		}
		raw, ok := u.RawUser()
		if !ok {
			return rfc1738.URL{}, fmt.Errorf("a password needs a user (§3.1: user:password@host); set the user first")
		}
		end := u.UserOffset() + len(raw)
		return splice(s, end, end, ":"+enc)
	case "path":
		if kindOf(u) == rfc1738.KindHTTP {
			// §3.3: the path is the hpath alone; the searchpart stays.
			return set(u, "http.path", value)
		}
		if u.HasAuthority() {
			value = strings.TrimPrefix(value, "/")
			if qi, _, ok := querySpan(u); ok {
				// RFC 1808 §2.4.4: the query stays; a query implies the path's "/".
				i, _, _ := pathSpan(u)
				return splice(s, i, qi-1, value)
			}
			return withPath(u, value)
		}
		op, _ := u.Opaque()
		i := u.OpaqueOffset()
		return splice(s, i, i+len(op), value)
	case "query":
		if kindOf(u) == rfc1738.KindHTTP && value != "" {
			return set(u, "http.search", value)
		}
		return withQuery(u, rfc1738.Escape(value, rfc1738.Search), value != "")
	case "fragment":
		end := len(u.WithoutFragment())
		if value == "" {
			return splice(s, end, len(s), "")
		}
		// Appendix: fragment = *xchar, the rest encoded.
		return splice(s, end, len(s), "#"+rfc1738.Escape(value, rfc1738.FragmentPart))
	}
	return rfc1738.URL{}, errNotCommon
}

// setFTPPart sets the ftp part name (§3.2.2) of u to value.
func setFTPPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	f, _ := u.FTP()
	b := rfc1738.FTPURL{Host: "h", Cwd: f.Cwd, Name: f.Name, Type: f.Type}
	switch name {
	case "cwd":
		b.Cwd = splitCwd(value)
	case "name":
		b.Name = value
	case "type":
		if len(value) > 1 {
			return rfc1738.URL{}, fmt.Errorf("a typecode is one character (§3.2.2), not %q", value)
		}
		b.Type = 0
		if value != "" {
			b.Type = value[0]
		}
	}
	p, err := builtPath(b, "ftp")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// setHTTPPart sets the http part name (§3.3) of u to value.
func setHTTPPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	h, _ := u.HTTP()
	path, search := h.Path, ""
	if h.HasSearch {
		search = "?" + h.Search
	}
	switch name {
	case "path":
		p, err := builtPath(rfc1738.HTTPURL{Host: "h", Segments: strings.Split(strings.TrimPrefix(value, "/"), "/")}, "http")
		if err != nil {
			return rfc1738.URL{}, err
		}
		path = p
	case "search":
		if value == "" {
			search = "" // as query=: the "?" goes too
			break
		}
		p, err := builtPath(rfc1738.HTTPURL{Host: "h", Search: value, HasSearch: true}, "http")
		if err != nil {
			return rfc1738.URL{}, err
		}
		search = p // "?…"
	}
	return withPath(u, path+search)
}

// setGopherPart sets the gopher part name (§3.4) of u to value.
func setGopherPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	g, _ := u.Gopher()
	b := rfc1738.GopherURL{Host: "h", Type: g.Type, Selector: g.Selector, Search: g.Search, HasSearch: g.HasSearch, Plus: g.Plus, HasPlus: g.HasPlus}
	switch name {
	case "type":
		if len(value) != 1 {
			return rfc1738.URL{}, fmt.Errorf("a gophertype is one character (§3.4.1), not %q", value)
		}
		b.Type = value[0]
	case "selector":
		b.Selector = value
	case "search":
		// An empty value removes the part, its tab too (§3.4).
		b.Search, b.HasSearch = value, value != ""
	case "plus":
		b.Plus, b.HasPlus = value, value != ""
	}
	p, err := builtPath(b, "gopher")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// setMailtoPart sets the mailto part name (§3.5) of u to value.
func setMailtoPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	return rfc1738.MailtoURL{Address: value}.URL()
}

// setNewsPart sets the news part name (§3.6) of u to value.
func setNewsPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	if name == "group" {
		return rfc1738.NewsURL{Group: value}.URL()
	}
	return rfc1738.NewsURL{MessageID: value}.URL()
}

// setNNTPPart sets the nntp part name (§3.7) of u to value.
func setNNTPPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	n, _ := u.NNTP()
	b := rfc1738.NNTPURL{Host: "h", Group: n.Group, Article: n.Article}
	if name == "group" {
		b.Group = value
	} else {
		b.Article = value
	}
	p, err := builtPath(b, "nntp")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// setWAISPart sets the wais part name (§3.9) of u to value.
func setWAISPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	w, _ := u.WAIS()
	search, err := rfc1738.Unescape(w.Search)
	if err != nil {
		return rfc1738.URL{}, err
	}
	b := rfc1738.WAISURL{Host: "h", Database: w.Database, Search: search, HasSearch: w.HasSearch, Type: w.Type, Path: w.Path, IsDocument: w.IsDocument}
	switch name {
	case "database":
		b.Database = value
	// §3.9: a search or a document, not both; setting a part of one
	// drops the other's.
	case "search":
		b.Search, b.HasSearch = value, true
		b.Type, b.Path, b.IsDocument = "", "", false
	case "wtype":
		b.Type, b.IsDocument = value, true
		b.Search, b.HasSearch = "", false
	case "wpath":
		b.Path, b.IsDocument = value, true
		b.Search, b.HasSearch = "", false
	}
	p, err := builtPath(b, "wais")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// setFilePart sets the file part name (§3.10) of u to value.
func setFilePart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	fp, err := rfc1738.FileURLFromPath(value)
	if err != nil {
		return rfc1738.URL{}, err
	}
	fp.Host = "h"
	p, err := builtPath(fp, "file")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// setProsperoPart sets the prospero part name (§3.11) of u to value.
func setProsperoPart(u rfc1738.URL, name, value string) (rfc1738.URL, error) {
	pr, _ := u.Prospero()
	b := rfc1738.ProsperoURL{Host: "h", Hsoname: value, Fields: pr.Fields}
	p, err := builtPath(b, "prospero")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// Append returns u with value added to the named part: for "path", a new
// last segment (ftp: the <name> becomes a <cwd> and value the new name,
// §3.2.2; http and file: a segment; gopher: "/value" on the selector);
// for "search" (http), "&value" on the search as written; for ftp.cwd,
// one more <cwd>. value is decoded and encoded as Set does.
func Append(u rfc1738.URL, part, value string) (rfc1738.URL, error) {
	out, err := appendPart(u, part, value)
	if err != nil {
		return rfc1738.URL{}, fmt.Errorf("append %s: %w", part, err)
	}
	return out, nil
}

func appendPart(u rfc1738.URL, part, value string) (rfc1738.URL, error) {
	switch kindOf(u) {
	case rfc1738.KindFTP:
		f, _ := u.FTP()
		switch part {
		case "path":
			if f.Name != "" {
				f.Cwd = append(f.Cwd, f.Name)
			}
			return setFTP(u, f.Cwd, value, f.Type)
		case "cwd", "ftp.cwd":
			return setFTP(u, append(f.Cwd, value), f.Name, f.Type)
		}
	case rfc1738.KindHTTP:
		h, _ := u.HTTP()
		switch part {
		case "path", "http.path":
			p, _ := Get(u, "http.path")
			segs := strings.Split(p, "/")
			if segs[len(segs)-1] == "" {
				segs = segs[:len(segs)-1]
			}
			return Set(u, "http.path", strings.Join(append(segs, value), "/"))
		case "search", "query", "http.search":
			if !h.HasSearch || h.Search == "" {
				return Set(u, "http.search", value)
			}
			enc, err := builtPath(rfc1738.HTTPURL{Host: "h", Search: value, HasSearch: true}, "http")
			if err != nil {
				return rfc1738.URL{}, err
			}
			return withPath(u, h.Path+"?"+h.Search+"&"+enc[1:])
		}
	case rfc1738.KindOther:
		if part == "query" && hasQuery(u) {
			// RFC 1808 §2.4.4: the query is all after the first "?".
			q, ok := Get(u, "query")
			enc := rfc1738.Escape(value, rfc1738.Search)
			if ok && q != "" {
				enc = q + "&" + enc
			}
			return withQuery(u, enc, true)
		}
	case rfc1738.KindGopher:
		if part == "path" || part == "selector" || part == "gopher.selector" {
			g, _ := u.Gopher()
			sel := g.Selector
			if !strings.HasSuffix(sel, "/") {
				sel += "/"
			}
			return Set(u, "gopher.selector", sel+value)
		}
	case rfc1738.KindFile:
		if part == "path" || part == "file.path" {
			p, _ := Get(u, "file.path")
			return Set(u, "file.path", strings.TrimSuffix(p, "/")+"/"+value)
		}
	}
	return rfc1738.URL{}, fmt.Errorf("%s: a %s URL has no part that can be appended to by this name (path, query, ftp.cwd)", part, u.Scheme())
}

func setFTP(u rfc1738.URL, cwd []string, name string, typ byte) (rfc1738.URL, error) {
	p, err := builtPath(rfc1738.FTPURL{Host: "h", Cwd: cwd, Name: name, Type: typ}, "ftp")
	if err != nil {
		return rfc1738.URL{}, err
	}
	return withPath(u, p)
}

// splitCwd reads ftp.cwd as Get writes it: elements joined by "/". A
// leading "/" belongs to the first element, an absolute CWD (§3.2.2's
// %2Fetc), so "/etc/x" is CWD /etc, CWD x.
func splitCwd(v string) []string {
	if v == "" {
		return nil
	}
	abs := strings.HasPrefix(v, "/")
	cwd := strings.Split(strings.TrimPrefix(v, "/"), "/")
	if abs {
		cwd[0] = "/" + cwd[0]
	}
	return cwd
}
