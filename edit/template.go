package edit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// Options change how a template is filled.
type Options struct {
	// Encoded writes every part as encoded (Raw), as {:part} does.
	Encoded bool
	// Escape, when not nil, is applied to each value: a decoded part
	// may hold any byte, a line end or a terminal escape included.
	Escape func(string) string
}

// Expand fills a template as trurl's --get does: each {part} is replaced
// by the part's value (empty when absent, and for another scheme's part,
// so that one template serves a list of mixed URLs); "{{" is a literal
// "{", a "{" with no "}" after it is itself, and "}" alone is itself.
// "[part]" is the same as "{part}" when "[" comes before any "{" (the
// first of the two in the template is the one that opens a part, "[["
// then being the literal). "\n", "\t", "\r", "\\", "\{" and "\[" are a
// line feed, a tab, a carriage return and the character.
//
// A part name may carry prefixes, trurl's: ":" or "url:" (the part as
// encoded, Raw), "default:" (a {default:url} with the scheme's default
// port written in; {port} has it already), "must:" (an error when the
// part is absent), "strict:" (an error when the decoded value holds a
// NUL), "puny:" (nothing: §3.1 host names are ASCII already), and,
// last, "query:NAME" (the value of the query's first NAME=value pair,
// decoded) or "query-all:NAME" (every NAME's value, separated by
// spaces). A name no scheme has, or an unknown prefix, is an error
// naming it.
func Expand(u rfc1738.URL, template string) (string, error) {
	return ExpandWith(u, template, Options{})
}

// ExpandFunc is Expand with each value passed through esc (when not
// nil).
func ExpandFunc(u rfc1738.URL, template string, esc func(string) string) (string, error) {
	return ExpandWith(u, template, Options{Escape: esc})
}

// ExpandWith is Expand with options.
func ExpandWith(u rfc1738.URL, template string, opt Options) (string, error) {
	var b strings.Builder
	var open, end byte // the opening byte, "{" or "[", once one is seen
	// (An if chain, not a switch: Go's coverage counts a case's condition
	// as run only through its body.)
	for i := 0; i < len(template); i++ {
		c := template[i]
		if open == 0 && (c == '{' || c == '[') {
			open, end = c, '}'
			if c == '[' {
				end = ']'
			}
		}
		if c == '\\' && i+1 < len(template) {
			i++
			if e, ok := backslash[template[i]]; ok {
				b.WriteByte(e)
			} else {
				b.WriteByte(c)
				b.WriteByte(template[i])
			}
			continue
		}
		if c != open {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(template) && template[i+1] == open {
			b.WriteByte(open) // "{{": the brace itself
			i++
			continue
		}
		n := strings.IndexByte(template[i+1:], end)
		if n < 0 {
			b.WriteByte(c) // no end: trurl writes the brace as it is
			continue
		}
		v, err := fill(u, template[i+1:i+1+n], opt)
		if err != nil {
			return "", fmt.Errorf("template offset %d: %w", i, err)
		}
		b.WriteString(v)
		i += 1 + n
	}
	return b.String(), nil
}

// backslash maps the character after a "\" in a template to what it
// writes, as trurl's --get does; any other pair is written as it is.
var backslash = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', '\\': '\\', '{': '{', '[': '['}

// fill returns the value of one template variable: name with its
// prefixes.
func fill(u rfc1738.URL, name string, opt Options) (string, error) {
	whole := name
	encoded, dflt, must, strict := opt.Encoded, false, false, false
	if rest, ok := strings.CutPrefix(name, ":"); ok {
		encoded, name = true, rest
	}
	query, all := false, false
	for {
		word, rest, ok := strings.Cut(name, ":")
		if !ok {
			break
		}
		switch word {
		case "url":
			encoded = true
		case "default":
			dflt = true
		case "must":
			must = true
		case "strict":
			strict = true
		case "puny":
			// §3.1: a host name is ASCII; it is its own punycode.
		case "query":
			query = true
		case "query-all":
			query, all = true, true
		default:
			return "", fmt.Errorf("{%s}: %q is not a prefix (:, url:, default:, must:, strict:, puny:, query:NAME, query-all:NAME)", whole, word+":")
		}
		name = rest
		if query {
			break
		}
	}
	var v string
	switch {
	case query:
		v = queryValues(u, name, encoded, all)
	default:
		if !has(u, name) && !schemePart(name) && !commonParts[name] {
			return "", fmt.Errorf("{%s}: %w in a %s URL; it has %s", name, ErrUnknownPart, u.Scheme(), strings.Join(Names(u), ", "))
		}
		get := Get
		if encoded {
			get = Raw
		}
		if dflt && name == "url" {
			u = withDefaultPort(u)
		}
		var ok bool
		if v, ok = get(u, name); !ok && must {
			return "", fmt.Errorf("{%s}: the URL has no %s", whole, name)
		}
	}
	if strict && strings.IndexByte(v, 0) >= 0 {
		return "", fmt.Errorf("{%s}: the decoded %s holds a NUL (%%00)", whole, name)
	}
	if opt.Escape != nil {
		v = opt.Escape(v)
	}
	return v, nil
}

// withDefaultPort returns u with its scheme's default port written in
// when it names none (§3.1: "the default port for the scheme is used").
func withDefaultPort(u rfc1738.URL) rfc1738.URL {
	if _, ok := u.Port(); ok || !u.HasAuthority() || u.DefaultPort() == 0 {
		return u
	}
	if d, err := Set(u, "port", strconv.Itoa(u.DefaultPort())); err == nil {
		return d
	}
	return u
}

// queryValues returns the value of u's first query pair named name (the
// decoded name, or the name as written when encoded), or with all every
// such value joined by spaces. As in trurl, a pair without "=" has no
// value to show.
func queryValues(u rfc1738.URL, name string, encoded, all bool) string {
	var vals []string
	for _, p := range Pairs(u) {
		rawName, rawValue, ok := strings.Cut(p.Raw, "=")
		if !ok {
			continue
		}
		n, v := p.Name, p.Value
		if encoded {
			n, v = rawName, rawValue
		}
		if n != name {
			continue
		}
		vals = append(vals, v)
		if !all {
			break
		}
	}
	return strings.Join(vals, " ")
}
