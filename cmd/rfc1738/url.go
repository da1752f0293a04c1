package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/edit"
)

func init() {
	register(&command{
		name:  "url",
		short: "read and change URL parts as trurl does: --get '{host}:{port}', --set, --append, --iterate, --json",
		args:  "[--url URL] [--redirect REF] [--get TEMPLATE] [--set PART=VALUE] [--append PART=VALUE] [--trim query=NAME] [--replace NAME=VALUE] [--sort-query] [--iterate 'PART=V1 V2'] [--json] [--verify] [--url-file FILE] [URL ...]",
		summary: "Take each URL (--url and the operands, --url-file, else stdin one a line), resolve --redirect's relative reference against it, change its parts (--set, --append, each value decoded " +
			"and encoded as §2.2 and the scheme ask; --trim, --sort-query), and write it, or the --get template filled with its parts " +
			"({scheme} {user} {password} {host} {port} {path} {query} {fragment} {url}, {ftp.type}, {gopher.selector} …; --list-parts shows a URL's), " +
			"or with --json a JSON array of the URLs and their parts. With no URL, --set scheme= and host= make one. One output line per input line: " +
			"an invalid input gives an empty line, and its error on stderr (--verify: stops there). The flags are trurl's; where RFC 1738 asks for another answer than trurl's, the README has a table.",
		run: runURL,
	})
}

// partValue is a PART=VALUE flag, repeatable.
type partValue struct{ part, value string }

type partValues []partValue

func (p *partValues) String() string { return fmt.Sprint(*p) }
func (p *partValues) Set(s string) error {
	part, value, ok := strings.Cut(s, "=")
	if !ok || part == "" {
		return fmt.Errorf("%q is not PART=VALUE", s)
	}
	*p = append(*p, partValue{part, value})
	return nil
}

// urlJSON is one element of --json's array, as trurl writes it.
type urlJSON struct {
	URL    string       `json:"url"`
	Parts  urlJSONParts `json:"parts"`
	Params []urlParam   `json:"params,omitempty"`
	// Warnings are the input's departures from RFC 1738 that the reading
	// took (rfc1738.Read), one line each.
	Warnings []string `json:"warnings,omitempty"`
}

type urlJSONParts struct {
	Scheme   string  `json:"scheme"`
	User     *string `json:"user,omitempty"`
	Password *string `json:"password,omitempty"`
	Host     *string `json:"host,omitempty"`
	Port     *string `json:"port,omitempty"`
	Path     *string `json:"path,omitempty"`
	Query    *string `json:"query,omitempty"`
	Fragment *string `json:"fragment,omitempty"`
}

type urlParam struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// jsonOf returns u's --json element, each part from get.
func jsonOf(u rfc1738.URL, get func(rfc1738.URL, string) (string, bool)) urlJSON {
	part := func(name string) *string {
		if v, ok := get(u, name); ok {
			return &v
		}
		return nil
	}
	j := urlJSON{URL: u.String(), Parts: urlJSONParts{Scheme: u.Scheme(), User: part("user"), Password: part("password"),
		Host: part("host"), Port: part("port"), Path: part("path"), Query: part("query"), Fragment: part("fragment")}}
	for _, p := range edit.Pairs(u) {
		j.Params = append(j.Params, urlParam{p.Name, p.Value})
	}
	return j
}

func runURL(e *env, args []string) int {
	fs := newFlags(e, commands["url"])
	var urls stringList
	fs.Var(&urls, "url", "a `URL` to work on, before the operands; repeatable")
	get := fs.String("get", "", "write this `TEMPLATE` filled with each URL's parts: {part} or [part] (decoded where that keeps the meaning), {:part} as written, {query:NAME}, {query-all:NAME}, {default:url}, {must:part}, {strict:part}; {{ or \\{ for a brace, \\n \\t \\r \\\\")
	fs.StringVar(get, "g", "", "as --get `TEMPLATE`")
	var sets, appends, iterates, trims partValues
	fs.Var(&sets, "set", "set a part: `PART=VALUE`, the value decoded (\"path\" of a non-http URL as written); an empty value removes an optional part (user, password, port, query, fragment); with no URL, scheme= and host= make one; repeatable")
	fs.Var(&sets, "s", "as --set `PART=VALUE`")
	fs.Var(&appends, "append", "add to a part: `PART=VALUE` (path: one more segment; query: &VALUE; ftp.cwd: one more CWD); repeatable")
	fs.Var(&appends, "a", "as --append `PART=VALUE`")
	fs.Var(&trims, "trim", "remove the query pairs named NAME, or starting with NAME before a final *: `query=NAME`; repeatable")
	var replaces, replaceAppends stringList
	fs.Var(&replaces, "replace", "replace the value of the query pair named NAME (the first; later ones go): `NAME=VALUE`, or NAME alone; both decoded; repeatable")
	fs.Var(&replaceAppends, "replace-append", "as --replace, and add `NAME=VALUE` at the query's end when no pair has that name")
	verify := fs.Bool("verify", false, "stop at the first URL that is not valid (or --set cannot make), with its error, exit status 1")
	sortQuery := fs.Bool("sort-query", false, "sort the query's name=value pairs by name")
	fs.Var(&iterates, "iterate", "write one URL for each of the space-separated values: `'PART=V1 V2 …'`; repeatable (every combination)")
	asJSON := fs.Bool("json", false, "write a JSON array: for each URL its \"url\", its \"parts\" and its query \"params\", as trurl does")
	urlencode := fs.Bool("urlencode", false, "write the user, password and fragment as encoded in the URL, not decoded, in --get and --json")
	redirect := fs.String("redirect", "", "resolve the relative `REF` against each URL first, by RFC 1808 §4 (--rfc3986: by RFC 3986 §5.2)")
	rfc3986 := fs.Bool("rfc3986", false, "--redirect resolves by RFC 3986 §5.2, as trurl does, instead of RFC 1808 §4")
	urlFile := fs.String("url-file", "", "read URLs from `FILE`, one a line (- is stdin)")
	fs.StringVar(urlFile, "f", "", "as --url-file `FILE`")
	listParts := fs.Bool("list-parts", false, "write each URL's part names and values, one \"name value\" a line, then an empty line")
	strict := fs.Bool("strict", false, "take only RFC 1738 URLs; by default a URL is read as browsers and curl read it (an IPv6 literal, an international name, http://h?q), with a warning for each departure")
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	edits := len(sets)+len(appends)+len(trims)+len(iterates)+len(replaces)+len(replaceAppends) > 0 || *sortQuery || *asJSON || *listParts || *get != ""
	for _, t := range trims {
		if t.part != "query" {
			return usageError(e, "url", "--trim %s=%s: only the query's pairs can be trimmed", t.part, t.value)
		}
	}
	operands = append(urls, operands...)
	if *urlFile != "" && len(operands) > 0 {
		return usageError(e, "url", "give URLs as operands or with --url-file, not both")
	}
	// With no URL, --set scheme= makes one, as trurl does; without it
	// stdin is read (an input URL's scheme cannot be set).
	var built []string
	if len(operands) == 0 && *urlFile == "" {
		var ok bool
		if built, sets, ok = urlFromSets(sets); ok && built == nil {
			return usageError(e, "url", "not enough input for a URL: --set scheme=… needs --set host=… too")
		}
		operands = built
	}
	r := &urlRun{e: e, get: *get, redirect: *redirect, sets: sets, appends: appends, iterates: iterates, trims: trims,
		verify: *verify, sortQuery: *sortQuery, asJSON: *asJSON, urlencode: *urlencode, rfc3986: *rfc3986,
		listParts: *listParts, strict: *strict, edits: edits, status: exitOK, partOf: edit.Get}
	// --redirect '' is the empty reference: what counts is that it was given.
	fs.Visit(func(f *flag.Flag) { r.hasRedirect = r.hasRedirect || f.Name == "redirect" })
	for i, rp := range append(replaces, replaceAppends...) {
		name, value, hasValue := strings.Cut(rp, "=")
		r.repls = append(r.repls, urlReplacement{name, value, hasValue, i >= len(replaces)})
	}
	if *urlencode {
		r.partOf = edit.Raw
	}
	r.out = bufio.NewWriterSize(e.stdout, 64*1024)
	defer r.out.Flush()
	if *urlFile != "" && *urlFile != "-" {
		f, err := os.Open(*urlFile)
		if err != nil {
			return usageError(e, "url", "--url-file: %v", err)
		}
		defer f.Close()
		sub := *e
		sub.stdin = f
		e = &sub
	}
	if *verify {
		sub := *e
		sub.stdin = stopReader{e.stdin, &r.stopped}
		e = &sub
	}
	if st := eachInput(e, "url", operands, r.out, r.one); st != exitOK {
		return st
	}
	if *asJSON {
		if r.jsonOut == nil {
			r.jsonOut = []urlJSON{}
		}
		enc := json.NewEncoder(r.out)
		enc.SetEscapeHTML(false) // a query's "&" as written
		enc.SetIndent("", "  ")
		if err := enc.Encode(r.jsonOut); err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 url: %v\n", errText(err))
			return exitNegative
		}
	}
	return r.status
}

// stopReader reads r until *stop: --verify stops reading its input at
// the first invalid URL.
type stopReader struct {
	r    io.Reader
	stop *bool
}

func (s stopReader) Read(p []byte) (int, error) {
	if *s.stop {
		return 0, io.EOF
	}
	return s.r.Read(p)
}

// urlFromSets returns the URL --set makes when no URL is given, as
// trurl does: "scheme://host/" from the last scheme= and host=, and the
// other sets, to apply to it. ok is false when no scheme= is set (stdin
// is read then); built is nil when the host is missing.
func urlFromSets(sets partValues) (built []string, rest partValues, ok bool) {
	var scheme string
	hasHost := false
	for _, s := range sets {
		switch s.part {
		case "scheme":
			scheme, ok = s.value, true
		case "host":
			hasHost = true
			rest = append(rest, s) // set on the stand-in: the value is checked as a host
		default:
			rest = append(rest, s)
		}
	}
	if !ok {
		return nil, sets, false
	}
	if !hasHost || scheme == "" {
		return nil, rest, true
	}
	// §3.1: "//" <host> "/" <url-path>; the host "h" stands in until
	// --set host= puts the value through its check.
	return []string{scheme + "://h/"}, rest, true
}

// readOperand reads a URL as browsers and curl do (rfc1738.Read), with its
// departures from RFC 1738, or, when strict, as RFC 1738 alone does.
func readOperand(in string, strict bool) (rfc1738.URL, []rfc1738.Departure, error) {
	if strict {
		u, err := rfc1738.Parse(in)
		return u, nil, err
	}
	return rfc1738.Read(in)
}
