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
	var p encodeParts
	p.register(fs)
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
	b, status := p.builder(e, scheme)
	if b == nil {
		return status
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

// encodeParts are the parts encode's flags give, decoded.
type encodeParts struct {
	host, port, user, password, name, typ, selector, search, plus, address, group, msgid, article, database, wtype, wpath, path, hsoname optString
	cwd, segment, field                                                                                                                  listFlag
}

// register defines a flag for each part.
func (p *encodeParts) register(fs *flag.FlagSet) {
	for _, f := range []struct {
		v     flag.Value
		name  string
		usage string
	}{
		{&p.host, "host", "host name or number (§3.1); never encoded"},
		{&p.port, "port", "port; omitted: the scheme's default"},
		{&p.user, "user", "user name, decoded (ftp, telnet); --user '' writes an empty user"},
		{&p.password, "password", "password, decoded (ftp, telnet)"},
		{&p.cwd, "cwd", "ftp: one CWD argument, decoded; repeat for each (§3.2.2)"},
		{&p.name, "name", "ftp: the file name, decoded"},
		{&p.typ, "type", "ftp: typecode a, i or d; gopher: the gophertype character"},
		{&p.selector, "selector", "gopher: the selector, decoded"},
		{&p.search, "search", "http, gopher, wais: the search, decoded"},
		{&p.plus, "plus", "gopher: the Gopher+ string, decoded; Go escapes like \\t \\r \\n are read"},
		{&p.address, "address", "mailto: the address, decoded"},
		{&p.group, "group", "news, nntp: the newsgroup name ('*' for news: all groups)"},
		{&p.msgid, "message-id", "news: the message-id, with or without <>"},
		{&p.article, "article", "nntp: the article number"},
		{&p.database, "database", "wais: the database, decoded"},
		{&p.wtype, "wtype", "wais: the document type, decoded"},
		{&p.wpath, "wpath", "wais: the document path, decoded"},
		{&p.segment, "segment", "http, file: one path segment, decoded; repeat for each"},
		{&p.path, "path", "file: an absolute local path; http: a decoded path whose '/' separate segments"},
		{&p.hsoname, "hsoname", "prospero: the host-specific object name, decoded"},
		{&p.field, "field", "prospero: name=value, decoded; repeat for each"},
	} {
		fs.Var(f.v, f.name, f.usage)
	}
}

// builder returns the builder of scheme's URL from the parts (§3's
// productions, through the root package's builders), or nil and the exit
// status of what is wrong with them.
func (p *encodeParts) builder(e *env, scheme string) (interface{ URL() (rfc1738.URL, error) }, int) {
	portN := 0
	if p.port.set {
		n, err := strconv.Atoi(p.port.v)
		if err != nil {
			return nil, usageError(e, "encode", "--port %q is not a number", p.port.v)
		}
		portN = n
	}
	var typeByte byte
	if p.typ.set {
		if len(p.typ.v) != 1 {
			return nil, usageError(e, "encode", "--type is one character, not %q", p.typ.v)
		}
		typeByte = p.typ.v[0]
	}
	switch scheme {
	case "ftp":
		return rfc1738.FTPURL{Host: p.host.v, Port: portN, User: p.user.v, HasUser: p.user.set, Password: p.password.v, HasPassword: p.password.set,
			Cwd: p.cwd, Name: p.name.v, Type: typeByte}, 0
	case "http":
		segs := []string(p.segment)
		if p.path.set {
			segs = append(strings.Split(strings.TrimPrefix(p.path.v, "/"), "/"), segs...)
		}
		return rfc1738.HTTPURL{Host: p.host.v, Port: portN, Segments: segs, Search: p.search.v, HasSearch: p.search.set}, 0
	case "gopher":
		plus := p.plus.v
		if p.plus.set {
			if uq, err := strconv.Unquote(`"` + strings.ReplaceAll(plus, `"`, `\"`) + `"`); err == nil {
				plus = uq
			}
		}
		return rfc1738.GopherURL{Host: p.host.v, Port: portN, Type: typeByte, Selector: p.selector.v, Search: p.search.v, HasSearch: p.search.set, Plus: plus, HasPlus: p.plus.set}, 0
	case "mailto":
		return rfc1738.MailtoURL{Address: p.address.v}, 0
	case "news":
		return rfc1738.NewsURL{Group: p.group.v, MessageID: p.msgid.v}, 0
	case "nntp":
		return rfc1738.NNTPURL{Host: p.host.v, Port: portN, Group: p.group.v, Article: p.article.v}, 0
	case "telnet":
		return rfc1738.TelnetURL{Host: p.host.v, Port: portN, User: p.user.v, HasUser: p.user.set, Password: p.password.v, HasPassword: p.password.set}, 0
	case "wais":
		return rfc1738.WAISURL{Host: p.host.v, Port: portN, Database: p.database.v, Search: p.search.v, HasSearch: p.search.set,
			Type: p.wtype.v, Path: p.wpath.v, IsDocument: p.wtype.set || p.wpath.set}, 0
	case "file":
		f := rfc1738.FileURL{Host: p.host.v, Segments: p.segment}
		if p.path.set {
			fp, err := rfc1738.FileURLFromPath(p.path.v)
			if err != nil {
				fmt.Fprintln(e.stderr, "rfc1738 encode:", libError(err, ""))
				return nil, exitNegative
			}
			f.Segments = append(fp.Segments, p.segment...)
		}
		return f, 0
	}
	// prospero (schemeFlags names no other scheme)
	pr := rfc1738.ProsperoURL{Host: p.host.v, Port: portN, Hsoname: p.hsoname.v}
	for _, fv := range p.field {
		n, v, ok := strings.Cut(fv, "=")
		if !ok {
			return nil, usageError(e, "encode", "--field %q is not name=value", fv)
		}
		pr.Fields = append(pr.Fields, rfc1738.Field{Name: n, Value: v})
	}
	return pr, 0
}

// encodeStrings escapes each string (or each stdin line) for comp.
func encodeStrings(e *env, comp rfc1738.Component, strs []string) int {
	return eachInput(e, "encode", strs, nil, func(s string) {
		fmt.Fprintln(e.stdout, rfc1738.Escape(s, comp))
	})
}
