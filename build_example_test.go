package rfc1738_test

import (
	"fmt"

	"github.com/rfc1738/rfc1738"
)

func ExampleFTPURL() {
	// §3.2.2: "CWD /etc" then "RETR motd": the "/" inside the CWD argument
	// is encoded.
	u, err := rfc1738.FTPURL{Host: "host.dom", User: "myname", Cwd: []string{"/etc"}, Name: "motd", Type: 'a'}.URL()
	fmt.Println(u, err)
	// Output:
	// ftp://myname@host.dom/%2Fetc/motd;type=a <nil>
}

func ExampleGopherURL() {
	// §3.4.9: a filled-out Gopher+ form; a TAB in a selector is refused.
	u, _ := rfc1738.GopherURL{Host: "h", Type: '0', Selector: "sel", Plus: "+\t1\r\n+-1\r\nyes\r\n.\r\n"}.URL()
	fmt.Println(u)
	_, err := rfc1738.GopherURL{Host: "h", Selector: "a\tb"}.URL()
	fmt.Println(err)
	// Output:
	// gopher://h/0sel%09%09+%091%0D%0A+-1%0D%0Ayes%0D%0A.%0D%0A
	// rfc1738: build gopher URL: Selector "a\tb": offset 1: selector: a selector cannot hold a TAB: %09 would end it (§3.4.1)
}

func ExampleFileURLFromPath() {
	f, _ := rfc1738.FileURLFromPath("/home/joe/東京 notes.txt")
	u, _ := f.URL()
	fmt.Println(u)
	// Output:
	// file:///home/joe/%E6%9D%B1%E4%BA%AC%20notes.txt
}

func ExampleNormalize() {
	u, _ := rfc1738.Parse("HTTP://WWW.Example.COM:80/%7ejoe/%41%2fb")
	fmt.Println(rfc1738.Normalize(u))
	// Output:
	// http://www.example.com/%7Ejoe/A%2Fb
}

func ExampleDiff() {
	// §2.2: an encoded reserved character is not the character itself.
	a, _ := rfc1738.Parse("ftp://h/%2Fetc/motd")
	b, _ := rfc1738.Parse("ftp://h//etc/motd")
	fmt.Println(rfc1738.Equal(a, b), rfc1738.Diff(a, b))
	c, _ := rfc1738.Parse("gopher://h")
	d, _ := rfc1738.Parse("gopher://h:70/1")
	fmt.Println(rfc1738.Equal(c, d))
	// Output:
	// false the paths differ: "%2Fetc/motd" and "/etc/motd" (§2.2: an encoded reserved character is not the character itself)
	// true
}

func ExampleParseLenient() {
	u, devs, err := rfc1738.ParseLenient("http://www.example.com/~joe/my notes")
	fmt.Println(u, err)
	for _, d := range devs {
		fmt.Println(d)
	}
	// Output:
	// http://www.example.com/%7Ejoe/my%20notes <nil>
	// offset 23: hsegment: '~' is unsafe and must be encoded as %7E (§2.2); encoded
	// offset 30: hsegment: a space is unsafe and must be encoded as %20 (§2.2); encoded
}

func ExampleToNetURL() {
	u, _ := rfc1738.Parse("ftp://host.dom/%2Fetc/motd")
	nu := rfc1738.ToNetURL(u)
	fmt.Printf("%q %q %s\n", nu.Path, nu.EscapedPath(), nu)
	// Output:
	// "//etc/motd" "/%2Fetc/motd" ftp://host.dom/%2Fetc/motd
}
