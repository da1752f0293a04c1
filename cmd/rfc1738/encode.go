package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

func init() {
	register(&command{
		name:  "encode",
		short: "build a URL from its parts, or escape a string for one component",
		args:  "SCHEME [--host H] [--port N] [part flags] | --component NAME [STRING ...]",
		summary: "Build a URL of any scheme from decoded parts given as flags (e.g. encode ftp --host h --cwd /etc --name motd --type a), " +
			"or escape raw strings for one component (e.g. encode --component fsegment 'a b;c'; stdin lines when no STRING).",
		run: runEncode,
	})
}

// components maps the --component names to the escaping classes of §5.
var components = map[string]rfc1738.Component{
	"user":       rfc1738.UserComponent,
	"password":   rfc1738.UserComponent,
	"fsegment":   rfc1738.FSegment,
	"psegment":   rfc1738.FSegment,
	"hsegment":   rfc1738.HSegment,
	"search":     rfc1738.Search,
	"selector":   rfc1738.GopherPart,
	"gopher":     rfc1738.GopherPart,
	"address":    rfc1738.Address,
	"article":    rfc1738.ArticlePart,
	"uchar":      rfc1738.UChar,
	"database":   rfc1738.UChar,
	"wtype":      rfc1738.UChar,
	"wpath":      rfc1738.UChar,
	"fieldname":  rfc1738.FieldPart,
	"fieldvalue": rfc1738.FieldPart,
	"fragment":   rfc1738.FragmentPart,
}

// schemeFlags lists the part flags each scheme takes.
var schemeFlags = map[string][]string{
	"ftp":      {"host", "port", "user", "password", "cwd", "name", "type"},
	"http":     {"host", "port", "segment", "path", "search"},
	"gopher":   {"host", "port", "type", "selector", "search", "plus"},
	"mailto":   {"address"},
	"news":     {"group", "message-id"},
	"nntp":     {"host", "port", "group", "article"},
	"telnet":   {"host", "port", "user", "password"},
	"wais":     {"host", "port", "database", "search", "wtype", "wpath"},
	"file":     {"host", "segment", "path"},
	"prospero": {"host", "port", "hsoname", "field"},
}

// optString is a string flag that remembers whether it was given, so that
// an empty value (--user "") differs from an absent one (§3.1).
type optString struct {
	v   string
	set bool
}

func (o *optString) String() string { return o.v }
func (o *optString) Set(s string) error {
	o.v, o.set = s, true
	return nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func runEncode(e *env, args []string) int {
	c := commands["encode"]
	fs := newFlags(e, c)
	names := make([]string, 0, len(components))
	for n := range components {
		names = append(names, n)
	}
	sort.Strings(names)
	component := choice(fs, "component", "", "escape STRINGs for one component instead of building a URL: "+strings.Join(names, ", "), names...)
	var host, port, user, password, name, typ, selector, search, plus, address, group, msgid, article, database, wtype, wpath, path, hsoname optString
	var cwd, segment, field listFlag
	for _, f := range []struct {
		v     flag.Value
		name  string
		usage string
	}{
		{&host, "host", "host name or number (§3.1); never encoded"},
		{&port, "port", "port; omitted: the scheme's default"},
		{&user, "user", "user name, decoded (ftp, telnet); --user '' writes an empty user"},
		{&password, "password", "password, decoded (ftp, telnet)"},
		{&cwd, "cwd", "ftp: one CWD argument, decoded; repeat for each (§3.2.2)"},
		{&name, "name", "ftp: the file name, decoded"},
		{&typ, "type", "ftp: typecode a, i or d; gopher: the gophertype character"},
		{&selector, "selector", "gopher: the selector, decoded"},
		{&search, "search", "http, gopher, wais: the search, decoded"},
		{&plus, "plus", "gopher: the Gopher+ string, decoded; Go escapes like \\t \\r \\n are read"},
		{&address, "address", "mailto: the address, decoded"},
		{&group, "group", "news, nntp: the newsgroup name ('*' for news: all groups)"},
		{&msgid, "message-id", "news: the message-id, with or without <>"},
		{&article, "article", "nntp: the article number"},
		{&database, "database", "wais: the database, decoded"},
		{&wtype, "wtype", "wais: the document type, decoded"},
		{&wpath, "wpath", "wais: the document path, decoded"},
		{&segment, "segment", "http, file: one path segment, decoded; repeat for each"},
		{&path, "path", "file: an absolute local path; http: a decoded path whose '/' separate segments"},
		{&hsoname, "hsoname", "prospero: the host-specific object name, decoded"},
		{&field, "field", "prospero: name=value, decoded; repeat for each"},
	} {
		fs.Var(f.v, f.name, f.usage)
	}
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if *component != "" {
		comp, ok := components[*component]
		if !ok {
			return usageError(e, "encode", "unknown component %q; one of %s", *component, strings.Join(names, ", "))
		}
		return encodeStrings(e, comp, operands)
	}
	if len(operands) != 1 {
		return usageError(e, "encode", "name one scheme (ftp, http, gopher, mailto, news, nntp, telnet, wais, file, prospero), or give --component")
	}
	scheme := strings.ToLower(operands[0])
	allowed, ok := schemeFlags[scheme]
	if !ok {
		return usageError(e, "encode", "RFC 1738 defines no scheme %q to build", operands[0])
	}
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "component" && !slices.Contains(allowed, f.Name) {
			bad = append(bad, "--"+f.Name)
		}
	})
	if len(bad) > 0 {
		return usageError(e, "encode", "%s takes no %s; its flags: --%s", scheme, strings.Join(bad, ", "), strings.Join(allowed, ", --"))
	}
	portN := 0
	if port.set {
		n, err := strconv.Atoi(port.v)
		if err != nil {
			return usageError(e, "encode", "--port %q is not a number", port.v)
		}
		portN = n
	}
	var typeByte byte
	if typ.set {
		if len(typ.v) != 1 {
			return usageError(e, "encode", "--type is one character, not %q", typ.v)
		}
		typeByte = typ.v[0]
	}
	var b interface{ URL() (rfc1738.URL, error) }
	switch scheme {
	case "ftp":
		f := rfc1738.FTPURL{Host: host.v, Port: portN, User: user.v, HasUser: user.set, Password: password.v, HasPassword: password.set,
			Cwd: cwd, Name: name.v, Type: typeByte}
		b = f
	case "http":
		segs := []string(segment)
		if path.set {
			segs = append(strings.Split(strings.TrimPrefix(path.v, "/"), "/"), segs...)
		}
		b = rfc1738.HTTPURL{Host: host.v, Port: portN, Segments: segs, Search: search.v, HasSearch: search.set}
	case "gopher":
		p := plus.v
		if plus.set {
			if uq, err := strconv.Unquote(`"` + strings.ReplaceAll(p, `"`, `\"`) + `"`); err == nil {
				p = uq
			}
		}
		b = rfc1738.GopherURL{Host: host.v, Port: portN, Type: typeByte, Selector: selector.v, Search: search.v, HasSearch: search.set, Plus: p, HasPlus: plus.set}
	case "mailto":
		b = rfc1738.MailtoURL{Address: address.v}
	case "news":
		b = rfc1738.NewsURL{Group: group.v, MessageID: msgid.v}
	case "nntp":
		b = rfc1738.NNTPURL{Host: host.v, Port: portN, Group: group.v, Article: article.v}
	case "telnet":
		b = rfc1738.TelnetURL{Host: host.v, Port: portN, User: user.v, HasUser: user.set, Password: password.v, HasPassword: password.set}
	case "wais":
		b = rfc1738.WAISURL{Host: host.v, Port: portN, Database: database.v, Search: search.v, HasSearch: search.set,
			Type: wtype.v, Path: wpath.v, IsDocument: wtype.set || wpath.set}
	case "file":
		f := rfc1738.FileURL{Host: host.v, Segments: segment}
		if path.set {
			fp, err := rfc1738.FileURLFromPath(path.v)
			if err != nil {
				fmt.Fprintln(e.stderr, "rfc1738 encode:", libError(err, ""))
				return exitNegative
			}
			f.Segments = append(fp.Segments, segment...)
		}
		b = f
	case "prospero":
		p := rfc1738.ProsperoURL{Host: host.v, Port: portN, Hsoname: hsoname.v}
		for _, fv := range field {
			n, v, ok := strings.Cut(fv, "=")
			if !ok {
				return usageError(e, "encode", "--field %q is not name=value", fv)
			}
			p.Fields = append(p.Fields, rfc1738.Field{Name: n, Value: v})
		}
		b = p
	}
	u, err := b.URL()
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 encode:", libError(err, ""))
		var be *rfc1738.BuildError
		if errors.As(err, &be) {
			return exitNegative
		}
		return exitUsage
	}
	fmt.Fprintln(e.stdout, u)
	return exitOK
}

// encodeStrings escapes each string (or each stdin line) for comp.
func encodeStrings(e *env, comp rfc1738.Component, strs []string) int {
	return eachInput(e, "encode", strs, nil, func(s string) {
		fmt.Fprintln(e.stdout, rfc1738.Escape(s, comp))
	})
}
