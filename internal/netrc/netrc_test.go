package netrc

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const text = `# logins
machine files.example login joe password s3cret
machine Other.Example
  login ann
  password "x"   # a quote is part of the token

macdef init
cd /pub
binary

default login anonymous password me@here.example
`
	f, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		host, login, password string
	}{
		{"files.example", "joe", "s3cret"},
		{"other.example", "ann", `"x"`},
		{"elsewhere", "anonymous", "me@here.example"},
	} {
		e, ok := f.Lookup(tc.host)
		if !ok || e.Login != tc.login || e.Password != tc.password {
			t.Errorf("Lookup(%s) = %+v, %v", tc.host, e, ok)
		}
	}
	for _, bad := range []string{"machine", "login joe", "machine h frobnicate x"} {
		if _, err := Parse(strings.NewReader(bad)); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
	f, _ = Parse(strings.NewReader("machine h login a password b"))
	if _, ok := f.Lookup("x"); ok {
		t.Error("a host without an entry and no default found one")
	}
}
