package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

func init() {
	register(&command{
		name:    "parse",
		short:   "take URLs apart: parts, scheme view, warnings, errors",
		args:    "[--json] [URL ...]",
		summary: "Take URLs apart: components, the scheme's view, warnings and errors. With no URL, read one per line from stdin.",
		run:     runParse,
	})
}

func runParse(e *env, args []string) int {
	c := commands["parse"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "write JSON Lines, one object per input")
	urls, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	out, enc := jsonLines(e.stdout)
	defer out.Flush()
	status = exitOK
	one := func(in string) {
		r := rfc1738.Check(in)
		if !r.Valid() {
			status = exitNegative
		}
		if *asJSON {
			if err := enc.Encode(newJSONURL(in, r)); err != nil {
				fmt.Fprintln(e.stderr, "rfc1738:", errText(err))
			}
			return
		}
		writeHuman(out, in, r)
	}
	if st := eachInput(e, "parse", urls, out, one); st != exitOK {
		return st
	}
	return status
}

// jsonURL is the JSON Lines object of "rfc1738 parse --json". Its keys are
// fixed: scripts rely on them. An absent part is null; only the object of
// the URL's own scheme is present.
type jsonURL struct {
	Input    string     `json:"input"`
	Valid    bool       `json:"valid"`
	Errors   []jsonDiag `json:"errors"`
	Warnings []jsonDiag `json:"warnings"`
	// MoreErrors, MoreWarnings: how many were found beyond the first
	// rfc1738.MaxDiagnostics of each, which are all a report holds.
	MoreErrors   int          `json:"more_errors"`
	MoreWarnings int          `json:"more_warnings"`
	Scheme       *string      `json:"scheme"`
	User         *string      `json:"user"`
	Password     *string      `json:"password"`
	Host         *string      `json:"host"`
	Port         *json.Number `json:"port"`
	Path         *string      `json:"path"`
	Opaque       *string      `json:"opaque"`
	Fragment     *string      `json:"fragment"`

	FTP      *jsonFTP      `json:"ftp,omitempty"`
	HTTP     *jsonHTTP     `json:"http,omitempty"`
	Gopher   *jsonGopher   `json:"gopher,omitempty"`
	Mailto   *jsonMailto   `json:"mailto,omitempty"`
	News     *jsonNews     `json:"news,omitempty"`
	NNTP     *jsonNews     `json:"nntp,omitempty"`
	WAIS     *jsonWAIS     `json:"wais,omitempty"`
	File     *jsonFile     `json:"file,omitempty"`
	Prospero *jsonProspero `json:"prospero,omitempty"`
	Telnet   *struct{}     `json:"telnet,omitempty"`
}

type jsonDiag struct {
	Offset  int    `json:"offset"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

type jsonFTP struct {
	Cwd  []string `json:"cwd"`
	Name string   `json:"name"`
	Type *string  `json:"type"`
}

type jsonHTTP struct {
	Path   *string `json:"path"`
	Search *string `json:"search"`
}

type jsonGopher struct {
	Type     string  `json:"type"`
	Selector string  `json:"selector"`
	Search   *string `json:"search"`
	Plus     *string `json:"plus"`
	PlusKind *string `json:"plus_kind"`
}

type jsonMailto struct {
	Address string `json:"address"`
}

type jsonNews struct {
	Group   *string `json:"group"`
	Article *string `json:"article"`
}

type jsonWAIS struct {
	Database string  `json:"database"`
	Search   *string `json:"search"`
	Type     *string `json:"type"`
	Path     *string `json:"path"`
}

type jsonFile struct {
	Host string `json:"host"`
	Path string `json:"path"`
}

type jsonProspero struct {
	Hsoname string      `json:"hsoname"`
	Fields  [][2]string `json:"fields"`
}

// opt returns a pointer to s when ok, else nil (JSON null).
func opt(s string, ok bool) *string {
	if !ok {
		return nil
	}
	return &s
}

func diags(ds []rfc1738.Diagnostic) []jsonDiag {
	out := make([]jsonDiag, len(ds))
	for i, d := range ds {
		out[i] = jsonDiag{d.Offset, d.Rule, d.Message}
	}
	return out
}

func newJSONURL(in string, r rfc1738.Report) *jsonURL {
	j := &jsonURL{Input: in, Valid: r.Valid(), Errors: diags(r.Errors), Warnings: diags(r.Warnings),
		MoreErrors: r.MoreErrors, MoreWarnings: r.MoreWarnings}
	if !r.Valid() {
		return j
	}
	u := r.URL
	j.Scheme = opt(u.Scheme(), true)
	j.User = opt(u.User())
	j.Password = opt(u.Password())
	j.Host = opt(u.Host(), u.HasAuthority())
	if digits, ok := u.Port(); ok {
		// §5 port = digits: the exact number they spell, whatever its size
		// (a JSON number has none), leading zeros dropped.
		n := json.Number(strings.TrimLeft(digits, "0"))
		if n == "" {
			n = "0"
		}
		j.Port = &n
	}
	j.Path = opt(u.Path())
	j.Opaque = opt(u.Opaque())
	j.Fragment = opt(u.Fragment())
	switch u.Kind() {
	case rfc1738.KindFTP:
		f, _ := u.FTP()
		jf := &jsonFTP{Cwd: f.Cwd, Name: f.Name, Type: opt(string(f.Type), f.Type != 0)}
		if jf.Cwd == nil {
			jf.Cwd = []string{}
		}
		j.FTP = jf
	case rfc1738.KindHTTP:
		h, _ := u.HTTP()
		j.HTTP = &jsonHTTP{Path: opt(h.Path, h.HasPath), Search: opt(h.Search, h.HasSearch)}
	case rfc1738.KindGopher:
		g, _ := u.Gopher()
		j.Gopher = &jsonGopher{Type: string(g.Type), Selector: g.Selector,
			Search: opt(g.Search, g.HasSearch), Plus: opt(g.Plus, g.HasPlus),
			PlusKind: opt(g.PlusKind.String(), g.HasPlus)}
	case rfc1738.KindMailto:
		m, _ := u.Mailto()
		j.Mailto = &jsonMailto{Address: m.Address}
	case rfc1738.KindNews:
		n, _ := u.News()
		j.News = &jsonNews{Group: opt(n.Group, n.Group != ""), Article: opt(n.MessageID, n.MessageID != "")}
	case rfc1738.KindNNTP:
		n, _ := u.NNTP()
		j.NNTP = &jsonNews{Group: opt(n.Group, true), Article: opt(n.Article, n.HasArticle)}
	case rfc1738.KindWAIS:
		w, _ := u.WAIS()
		j.WAIS = &jsonWAIS{Database: w.Database, Search: opt(w.Search, w.HasSearch),
			Type: opt(w.Type, w.IsDocument), Path: opt(w.Path, w.IsDocument)}
	case rfc1738.KindFile:
		f, _ := u.File()
		j.File = &jsonFile{Host: f.Host, Path: f.Path}
	case rfc1738.KindProspero:
		p, _ := u.Prospero()
		jp := &jsonProspero{Hsoname: p.Hsoname, Fields: [][2]string{}}
		for _, f := range p.Fields {
			jp.Fields = append(jp.Fields, [2]string{f.Name, f.Value})
		}
		j.Prospero = jp
	case rfc1738.KindTelnet:
		j.Telnet = &struct{}{}
	}
	return j
}

// writeHuman writes the report for people: the URL, its parts, the
// scheme's view, then warnings and errors with a caret under the byte.
func writeHuman(w io.Writer, in string, r rfc1738.Report) {
	shown, _ := display(in, 0)
	fmt.Fprintln(w, shown)
	if !r.Valid() {
		fmt.Fprintf(w, "  invalid: %d error(s)\n", len(r.Errors)+r.MoreErrors)
	}
	writeCarets(w, in, "error", r.Errors, r.MoreErrors)
	writeCarets(w, in, "warning", r.Warnings, r.MoreWarnings)
	if !r.Valid() {
		writeReading(w, in)
		fmt.Fprintln(w)
		return
	}
	u := r.URL
	row := func(k, v string) { fmt.Fprintf(w, "  %-14s %s\n", k, v) }
	q := strconv.Quote
	row("scheme", u.Scheme())
	if v, ok := u.User(); ok {
		row("user", q(v))
	}
	if _, ok := u.Password(); ok {
		row("password", "(present)")
	}
	if u.HasAuthority() {
		row("host", q(u.Host()))
		switch p, ok := u.Port(); {
		case ok:
			row("port", p)
		case u.DefaultPort() != 0:
			row("port", strconv.Itoa(u.DefaultPort())+" (default)")
		}
	}
	if v, ok := u.Path(); ok {
		row("path", q(v))
	}
	if v, ok := u.Opaque(); ok {
		row("opaque", q(v))
	}
	if v, ok := u.Fragment(); ok {
		row("fragment", q(v))
	}
	switch u.Kind() {
	case rfc1738.KindFTP:
		f, _ := u.FTP()
		cwd := make([]string, len(f.Cwd))
		for i, c := range f.Cwd {
			cwd[i] = q(c)
		}
		row("ftp cwd", "["+strings.Join(cwd, ", ")+"]")
		row("ftp name", q(f.Name))
		if f.Type != 0 {
			row("ftp type", string(f.Type))
		} else {
			row("ftp type", "(none: guessed from the name, §3.2.3)")
		}
	case rfc1738.KindHTTP:
		h, _ := u.HTTP()
		row("http path", q(h.Path))
		if h.HasSearch {
			row("http search", q(h.Search))
		}
	case rfc1738.KindGopher:
		g, _ := u.Gopher()
		row("gopher type", q(string(g.Type)))
		row("gopher selector", q(g.Selector))
		if g.HasSearch {
			row("gopher search", q(g.Search))
		}
		if g.HasPlus {
			row("gopher+", q(g.Plus)+" ("+g.PlusKind.String()+")")
		}
	case rfc1738.KindMailto:
		m, _ := u.Mailto()
		row("mailto address", q(m.Address))
	case rfc1738.KindNews:
		n, _ := u.News()
		switch {
		case n.All():
			row("news", "all available groups")
		case n.MessageID != "":
			row("news article", q("<"+n.MessageID+">"))
		default:
			row("news group", n.Group)
		}
	case rfc1738.KindNNTP:
		n, _ := u.NNTP()
		row("nntp group", n.Group)
		if n.HasArticle {
			row("nntp article", n.Article)
		}
	case rfc1738.KindTelnet:
		t, _ := u.Telnet()
		row("telnet advice", t.Advice(false))
	case rfc1738.KindWAIS:
		v, _ := u.WAIS()
		row("wais database", q(v.Database))
		if v.HasSearch {
			row("wais search", q(v.Search))
		}
		if v.IsDocument {
			row("wais type", q(v.Type))
			row("wais path", q(v.Path))
		}
	case rfc1738.KindFile:
		f, _ := u.File()
		host := q(f.Host)
		if f.IsLocal() {
			host += " (this machine)"
		}
		row("file host", host)
		row("file path", q(f.Path))
	case rfc1738.KindProspero:
		p, _ := u.Prospero()
		row("prospero name", q(p.Hsoname))
		for _, f := range p.Fields {
			row("prospero field", q(f.Name)+" = "+q(f.Value))
		}
	}
	fmt.Fprintln(w)
}
