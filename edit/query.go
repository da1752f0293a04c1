package edit

import (
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
