package edit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// A query's "name=value" pairs joined by "&" are the HTML forms
// convention, not a rule of RFC 1738: §3.3 gives the searchpart no inner
// structure. The functions below read a query that way only when asked
// to, and keep each pair's bytes as written.

// Pair is one "&"-separated pair of a query: its name and value decoded,
// and the pair as written.
type Pair struct {
	Name, Value string
	Raw         string
}

// Pairs returns the pairs of u's query, in order; none when u has no
// query. A pair without "=" has an empty value; a "+" is kept, not read
// as a space (that is the forms convention's, not §2.2's).
func Pairs(u rfc1738.URL) []Pair {
	q, ok := Get(u, "query")
	if !ok || q == "" {
		return nil
	}
	var pairs []Pair
	for _, raw := range strings.Split(q, "&") {
		name, value, _ := strings.Cut(raw, "=")
		pairs = append(pairs, Pair{Name: decoded(name), Value: decoded(value), Raw: raw})
	}
	return pairs
}

// decoded returns s with its %XX decoded, or s as written when an escape
// is broken.
func decoded(s string) string {
	d, err := rfc1738.Unescape(s)
	if err != nil {
		return s
	}
	return d
}

// SortQuery returns u with its query's pairs sorted by decoded name, pairs
// of one name kept in their order, each pair as written.
func SortQuery(u rfc1738.URL) (rfc1738.URL, error) {
	pairs := Pairs(u)
	if len(pairs) < 2 {
		return u, nil
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Name < pairs[j].Name })
	return joinPairs(u, pairs)
}

// TrimQuery returns u without the query pairs whose decoded name matches
// pattern: the name itself, or, for a pattern ending in "*", any name
// starting with what precedes the "*"; without regard to case. With no
// pair left, the "?" goes too. A URL without a query (an ftp URL has
// none, §3.2.2) is returned as it is, so one --trim serves a mixed list.
func TrimQuery(u rfc1738.URL, pattern string) (rfc1738.URL, error) {
	pairs := Pairs(u)
	prefix, glob := strings.CutSuffix(pattern, "*")
	kept := pairs[:0]
	for _, p := range pairs {
		match := strings.EqualFold(p.Name, pattern)
		if glob {
			match = len(p.Name) >= len(prefix) && strings.EqualFold(p.Name[:len(prefix)], prefix)
		}
		if !match {
			kept = append(kept, p)
		}
	}
	if len(kept) == len(pairs) {
		return u, nil
	}
	return joinPairs(u, kept)
}

// joinPairs returns u with its query made of pairs, as written.
func joinPairs(u rfc1738.URL, pairs []Pair) (rfc1738.URL, error) {
	raws := make([]string, len(pairs))
	for i, p := range pairs {
		raws[i] = p.Raw
	}
	return withQuery(u, strings.Join(raws, "&"), len(pairs) > 0)
}

// ReplaceQuery returns u with the value of its query pair named name
// (decoded, matched with case) replaced, as trurl's --replace does: the
// first such pair becomes name=value (name alone when hasValue is
// false), later pairs of that name go, the others stay as written. With
// add, a pair is added at the end when none has that name. name and
// value are taken decoded and encoded as a search (§3.3) with "&" and
// "=" encoded too, so that they stay data. A URL without a query (an
// ftp URL has none, §3.2.2) is returned as it is unless add asks for a
// pair, which is an error.
func ReplaceQuery(u rfc1738.URL, name, value string, hasValue, add bool) (rfc1738.URL, error) {
	pair := Pair{Name: name, Value: value, Raw: pairEscape(name)}
	if hasValue {
		pair.Raw += "=" + pairEscape(value)
	}
	pairs := Pairs(u)
	kept := pairs[:0:0]
	replaced := false
	for _, p := range pairs {
		if p.Name != name {
			kept = append(kept, p)
			continue
		}
		if !replaced {
			kept = append(kept, pair)
			replaced = true
		}
	}
	switch {
	case !replaced && !add:
		return u, nil
	case !replaced && !hasQuery(u):
		return rfc1738.URL{}, fmt.Errorf("a %s URL has no query to add %q to", u.Scheme(), name)
	case !replaced:
		kept = append(kept, pair)
	}
	return joinPairs(u, kept)
}

// pairEscape encodes one side of a name=value pair: as a search (§3.3),
// and "&", "=" and "+" too, the delimiters of the forms convention.
func pairEscape(s string) string {
	return strings.NewReplacer("&", "%26", "=", "%3D", "+", "%2B").Replace(rfc1738.Escape(s, rfc1738.Search))
}
