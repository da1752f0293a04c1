package edit

import "testing"

// §3.9: a wais URL is a database, a search of it (waisindex) or a
// document (waisdoc), never both. Setting a document's part makes a
// search URL a document, and setting the search makes a document a
// search: the other kind's parts go.
func TestSetWAISKind(t *testing.T) {
	for _, tc := range []struct{ url, part, value, want string }{
		{"wais://h/db?x", "wais.wtype", "TEXT", "wais://h/db/TEXT/"},
		{"wais://h/db?x", "wais.wpath", "p q", "wais://h/db//p%20q"},
		{"wais://h/db/T/p", "wais.search", "a b", "wais://h/db?a%20b"},
		{"wais://h/db/T/p", "wais.wpath", "q r", "wais://h/db/T/q%20r"},
		{"wais://h/db?s%20t", "wais.database", "d2", "wais://h/d2?s%20t"},
		{"wais://h/db", "wais.search", "a b", "wais://h/db?a%20b"},
	} {
		got, err := Set(mustParse(t, tc.url), tc.part, tc.value)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s set %s=%q = %s, %v; want %s", tc.url, tc.part, tc.value, got, err, tc.want)
		}
	}
}
