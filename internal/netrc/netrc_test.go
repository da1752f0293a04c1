package netrc

import (
	"fmt"
	"os"
	"path/filepath"
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

// TestReadFileWarning: a netrc that group or others may read draws a
// warning naming the file and the mode; a private one none.
func TestReadFileWarning(t *testing.T) {
	dir := t.TempDir()
	for mode, warn := range map[os.FileMode]bool{0o600: false, 0o400: false, 0o640: true, 0o604: true, 0o644: true} {
		path := filepath.Join(dir, fmt.Sprintf("netrc-%o", mode))
		if err := os.WriteFile(path, []byte("machine h login u password p\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		f, err := ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Warning != ""; got != warn || warn && !strings.Contains(f.Warning, fmt.Sprintf("%s is readable by group or others (mode %04o)", path, mode)) {
			t.Errorf("mode %04o: warning %q", mode, f.Warning)
		}
		if e, ok := f.Lookup("h"); !ok || e.Password != "p" {
			t.Errorf("mode %04o: lookup %+v", mode, e)
		}
	}
}
