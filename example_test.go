package rfc1738_test

import (
	"fmt"

	"github.com/rfc1738/rfc1738"
)

func ExampleParse() {
	// §3.2.2: "CWD /etc" then "RETR motd".
	u, err := rfc1738.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	if err != nil {
		panic(err)
	}
	user, _ := u.User()
	fmt.Println(u.Scheme(), user, u.HostPort())
	f, _ := u.FTP()
	fmt.Printf("cwd %q name %q type %c\n", f.Cwd, f.Name, f.Type)
	// Output:
	// ftp myname host.dom:21
	// cwd ["/etc"] name "motd" type a
}

func ExampleParse_error() {
	_, err := rfc1738.Parse("http://user@host/")
	fmt.Println(err)
	// Output:
	// rfc1738: parse "http://user@host/": offset 7: httpurl: an http URL allows no user name or password (§3)
}

func ExampleURL_User() {
	// §3.1: an empty user name is not the same as no user name.
	for _, s := range []string{"ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/"} {
		u, _ := rfc1738.Parse(s)
		user, hasUser := u.User()
		pass, hasPass := u.Password()
		fmt.Printf("%-22s user %q %v, password %q %v\n", s, user, hasUser, pass, hasPass)
	}
	// Output:
	// ftp://@host.com/       user "" true, password "" false
	// ftp://host.com/        user "" false, password "" false
	// ftp://foo:@host.com/   user "foo" true, password "" true
}

func ExampleCheck() {
	r := rfc1738.Check("HTTP://www.example.com:8080/~joe/a b")
	for _, d := range r.Errors {
		fmt.Println("error:", d)
	}
	for _, d := range r.Warnings {
		fmt.Println("warning:", d)
	}
	// Output:
	// error: offset 28: hsegment: '~' is unsafe and must be encoded as %7E (§2.2)
	// error: offset 34: hsegment: a space is unsafe and must be encoded as %20 (§2.2)
	// warning: offset 0: scheme: scheme names are lower case; "HTTP" is read as "http" (§2.1)
}

func ExampleURL_Gopher() {
	// §3.4.9: a filled-out Gopher+ form.
	u, _ := rfc1738.Parse("gopher://h/0sel%09%09+%091%0D%0A+-1%0D%0Ayes%0D%0A.%0D%0A")
	g, _ := u.Gopher()
	fmt.Printf("type %c selector %q plus %q (%v)\n", g.Type, g.Selector, g.Plus, g.PlusKind)
	// Output:
	// type 0 selector "sel" plus "+\t1\r\n+-1\r\nyes\r\n.\r\n" (form)
}

func ExampleEscape() {
	fmt.Println(rfc1738.Escape("/etc", rfc1738.FSegment))
	fmt.Println(rfc1738.Escape("東京 notes", rfc1738.FSegment))
	// Output:
	// %2Fetc
	// %E6%9D%B1%E4%BA%AC%20notes
}

func ExampleFile_LocalPath() {
	u, _ := rfc1738.Parse("file://localhost/tmp/a%20b.txt")
	f, _ := u.File()
	p, err := f.LocalPath()
	fmt.Println(p, err)
	// Output:
	// /tmp/a b.txt <nil>
}
