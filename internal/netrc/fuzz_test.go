package netrc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse reads any file: no panic, and what it reads is what it means:
// written back as tokens (an entry whose values a netrc cannot hold as
// tokens is left out) and read again, the same entries; and Lookup finds,
// for each machine named, the first entry of that name.
func FuzzParse(f *testing.F) {
	f.Add([]byte("machine h login u password p\ndefault login anonymous password me@x\n"))
	f.Add([]byte("# c\nmachine a\n\tlogin x # comment\nmacdef init\ncd /pub\n\nmachine b password y account z\n"))
	f.Add([]byte("machine A login 1\nmachine a login 2\nlogin"))
	f.Fuzz(func(t *testing.T, b []byte) {
		nf, err := Parse(strings.NewReader(string(b)))
		if err != nil {
			return
		}
		var w strings.Builder
		var kept []Entry
		for _, e := range nf.Entries {
			if !token(e.Machine) && e.Machine != "" || !token(e.Login) && e.Login != "" || !token(e.Password) && e.Password != "" {
				continue
			}
			kept = append(kept, e)
			if e.Machine == "" {
				w.WriteString("default")
			} else {
				fmt.Fprintf(&w, "machine %s", e.Machine)
			}
			if e.Login != "" {
				fmt.Fprintf(&w, " login %s", e.Login)
			}
			if e.Password != "" {
				fmt.Fprintf(&w, " password %s", e.Password)
			}
			w.WriteString("\n")
		}
		again, err := Parse(strings.NewReader(w.String()))
		if err != nil {
			t.Fatalf("%q read as %+v, written as %q: %v", b, kept, w.String(), err)
		}
		if !reflect.DeepEqual(again.Entries, kept) {
			t.Fatalf("%q read as %+v, written and read again as %+v", b, kept, again.Entries)
		}
		for i, e := range nf.Entries {
			if e.Machine == "" || i > 200 {
				continue
			}
			got, ok := nf.Lookup(e.Machine)
			if !ok || !strings.EqualFold(got.Machine, e.Machine) {
				t.Fatalf("Lookup(%q) = %+v, %v", e.Machine, got, ok)
			}
			for _, before := range nf.Entries[:i] {
				if strings.EqualFold(before.Machine, e.Machine) && got != before {
					t.Fatalf("Lookup(%q) = %+v, not the first entry of that name %+v", e.Machine, got, before)
				}
			}
		}
	})
}

// token reports whether s can be written as one netrc token that reads
// back as a value: no white space, no comment start, not a keyword.
func token(s string) bool {
	switch s {
	case "", "machine", "default", "login", "password", "account", "macdef":
		return false
	}
	return !strings.HasPrefix(s, "#") && len(strings.Fields(s)) == 1 && strings.Fields(s)[0] == s
}
