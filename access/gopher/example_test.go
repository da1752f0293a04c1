package gopher_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rfc1738/rfc1738/access/gopher"
)

// The request line a §3.4.9 filled form sends, and the same form refused
// when an answer would smuggle in a line break.
func ExampleRequest_Line() {
	form, _ := gopher.FormString("v1", "v2")
	line, _ := gopher.Request{Type: '0', Selector: "/form", Plus: form, HasPlus: true}.Line()
	fmt.Printf("%q\n", line+"\r\n")

	_, err := gopher.Request{Type: '0', Selector: "/a\r\nb"}.Line()
	fmt.Println(err)
	// Output:
	// "/form\t+\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n"
	// gopher: selector "/a\r\nb": CR would end the request line at offset 2
}

func ExampleItem_URL() {
	it, _ := gopher.ParseItem("0Doc with space\t/docs/with space.txt\texample.org\t70\t+")
	fmt.Println(it.URL())
	fmt.Println(it.PlusURL())
	// Output:
	// gopher://example.org/0/docs/with%20space.txt
	// gopher://example.org/0/docs/with%20space.txt%09%09+
}

func ExampleWriteListing() {
	items, _ := gopher.ParseMenu(strings.NewReader(
		"iWelcome\t\tnull.host\t1\r\n" +
			"1Docs\t/docs\tgopher.example.org\t70\r\n" +
			"7Search\t/search\tgopher.example.org\t7070\r\n" +
			".\r\n"))
	gopher.WriteListing(os.Stdout, items)
	// Output:
	// (INFO)  Welcome
	// (DIR)   Docs  <URL:gopher://gopher.example.org/1/docs>
	// (?)     Search  <URL:gopher://gopher.example.org:7070/7/search>
}
