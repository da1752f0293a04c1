package extract_test

import (
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738/extract"
)

// The example of the RFC 1738 Appendix: three URLs in <URL:…>, two broken
// across lines, one with a fragment.
func ExampleAll() {
	text := `Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;
type=d> but you can probably pick it up from <URL:ftp://ds.in
ternic.net/rfc>. Note the warning in <URL:http://ds.internic.
net/instructions/overview.html#WARNING>.`
	for _, m := range extract.All(text) {
		frag, _ := m.Fragment()
		fmt.Printf("%d:%d %s %s valid=%v fragment=%q\n", m.Start.Line, m.Start.Column, m.Form, m.URL, m.Valid, frag)
	}
	// Output:
	// 1:33 url-bracket ftp://info.cern.ch/pub/www/doc;type=d valid=true fragment=""
	// 2:51 url-bracket ftp://ds.internic.net/rfc valid=true fragment=""
	// 3:43 url-bracket http://ds.internic.net/instructions/overview.html#WARNING valid=true fragment="WARNING"
}

// A hyphen at a line break is kept, with a note: the Appendix warns that a
// typesetter may have added it.
func ExampleMatch_notes() {
	m := extract.All("<URL:http://www.ex-\n   ample.org/> and see http://x.org/a_b.\n")[0]
	fmt.Println(m.URL)
	fmt.Println(m.Notes[0].Alternative)
	// Output:
	// http://www.ex-ample.org/
	// http://www.example.org/
}

// The Scanner streams: its memory stays the same whatever the input size.
func ExampleScanner() {
	sc := extract.NewScanner(strings.NewReader("mail mailto:a@b.org, or post to news:comp.lang.c; not to a@b.org.\n"))
	for sc.Scan() {
		m := sc.Match()
		fmt.Println(m.Start.Offset, m.Form, m.URL)
	}
	if err := sc.Err(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 5 bare mailto:a@b.org
	// 32 bare news:comp.lang.c
}
