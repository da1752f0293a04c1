package edit_test

import (
	"fmt"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/edit"
)

// A part is read by name, decoded (§2.2); a template reads several.
func ExampleGet() {
	u, _ := rfc1738.Parse("ftp://anonymous@ftp.example.org/pub/my%20file;type=i")
	name, _ := edit.Get(u, "ftp.name")
	typ, _ := edit.Get(u, "ftp.type")
	port, _ := edit.Get(u, "port")
	fmt.Printf("%q %q %q\n", name, typ, port)
	s, _ := edit.Expand(u, "{host}:{port} {user} {ftp.cwd}")
	fmt.Println(s)
	// Output:
	// "my file" "i" "21"
	// ftp.example.org:21 anonymous pub
}

// Set encodes the new value as its part needs (§2.2, §3) and keeps every
// other byte of the URL as written; a value its part cannot hold is an
// error that says why.
func ExampleSet() {
	u, _ := rfc1738.Parse("http://www.example.org/a%2Fb?q=1")
	u, _ = edit.Set(u, "host", "mirror.example.org")
	fmt.Println(u)
	g, _ := rfc1738.Parse("gopher://gopher.example.org/1/")
	g, _ = edit.Set(g, "gopher.selector", "/my docs/x")
	fmt.Println(g)
	_, err := edit.Set(g, "gopher.selector", "a\tb")
	fmt.Println(err)
	// Output:
	// http://mirror.example.org/a%2Fb?q=1
	// gopher://gopher.example.org/1/my%20docs/x
	// set gopher.selector: rfc1738: build gopher URL: Selector "a\tb": offset 1: selector: a selector cannot hold a TAB: %09 would end it (§3.4.1)
}
