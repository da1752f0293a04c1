package gopher

import (
	"errors"
	"testing"
)

var lineTests = []struct {
	name string
	req  Request
	want string
}{
	// §3.4.1: <gophertype><selector>: the selector alone.
	{"selector", Request{Type: '0', Selector: "/hello.txt"}, "/hello.txt"},
	// §3.4.1: an empty selector is the top-level directory.
	{"empty", Request{}, ""},
	// §3.4.2: selector, a tab, and the search string.
	{"search", Request{Type: '7', Selector: "/cgi-bin/search", Search: "hello world", HasSearch: true}, "/cgi-bin/search\thello world"},
	// §3.4.2: a present but empty search still sends its tab.
	{"empty search", Request{Type: '7', Selector: "/s", HasSearch: true}, "/s\t"},
	// §3.4.3: "the %09<search> string must be supplied, although the
	// <search> element may be the empty string".
	{"plus no search", Request{Selector: "/hello.txt", Plus: "+", HasPlus: true}, "/hello.txt\t\t+"},
	{"plus search", Request{Selector: "/s", Search: "q", HasSearch: true, Plus: "+", HasPlus: true}, "/s\tq\t+"},
	// §3.4.6, §3.4.7: attribute requests.
	{"attributes", Request{Selector: "/x", Plus: "!", HasPlus: true}, "/x\t\t!"},
	{"named attributes", Request{Selector: "/x", Plus: "!+ABSTRACT +SMELL", HasPlus: true}, "/x\t\t!+ABSTRACT +SMELL"},
	{"dir attributes", Request{Selector: "/", Plus: "$", HasPlus: true}, "/\t\t$"},
	// §3.4.8: "+application/postscript%20Es_ES".
	{"view", Request{Selector: "/x", Plus: "+application/postscript Es_ES", HasPlus: true}, "/x\t\t+application/postscript Es_ES"},
	// §3.4.9: the client sends <a_gopher_selector><tab>+<tab>1<cr><lf>
	// +-1<cr><lf><ask_item1_value><cr><lf><ask_item2_value><cr><lf>.<cr><lf>
	{"form", Request{Selector: "/form", Plus: "+\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n", HasPlus: true},
		"/form\t+\t1\r\n+-1\r\nv1\r\nv2\r\n."},
	// §3.4.9 with an empty (but present) search: the same bytes.
	{"form empty search", Request{Selector: "/form", HasSearch: true, Plus: "+\t1\r\n+-1\r\nv1\r\n.\r\n", HasPlus: true},
		"/form\t+\t1\r\n+-1\r\nv1\r\n."},
	{"form search", Request{Selector: "/form", Search: "q", HasSearch: true, Plus: "+\t1\r\n+-1\r\n.\r\n", HasPlus: true},
		"/form\tq\t+\t1\r\n+-1\r\n."},
	// §3.4.1: selectors are octets; 8-bit and spaces pass unchanged.
	{"octets", Request{Selector: "/caf\xe9 menu"}, "/caf\xe9 menu"},
}

func TestRequestLine(t *testing.T) {
	for _, tt := range lineTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.req.Line()
			if err != nil {
				t.Fatalf("Line() error: %v", err)
			}
			if got != tt.want {
				t.Errorf("Line() = %q, want %q", got, tt.want)
			}
		})
	}
}

var badRequests = []struct {
	name   string
	req    Request
	field  string
	offset int
}{
	// §3.4.1: a selector may contain any octets except TAB, LF and CR;
	// §6: NUL is refused too.
	{"selector tab", Request{Selector: "a\tb"}, "selector", 1},
	{"selector CR", Request{Selector: "ab\r"}, "selector", 2},
	{"selector LF", Request{Selector: "\nab"}, "selector", 0},
	{"selector NUL", Request{Selector: "a\x00"}, "selector", 1},
	{"search tab", Request{Selector: "s", Search: "x\ty", HasSearch: true}, "search", 1},
	{"search CRLF", Request{Selector: "s", Search: "x\r\nQUIT", HasSearch: true}, "search", 1},
	// A Gopher+ string may only carry CR, LF, TAB in the §3.4.9 layout.
	{"plus CRLF", Request{Selector: "s", Plus: "+\r\nGET /", HasPlus: true}, "plus", 1},
	{"plus tab", Request{Selector: "s", Plus: "+\t0", HasPlus: true}, "plus", 1},
	{"plus NUL", Request{Selector: "s", Plus: "+\x00", HasPlus: true}, "plus", 1},
	{"form without end", Request{Selector: "s", Plus: "+\t1\r\n+-1\r\nv1\r\n", HasPlus: true}, "plus", 1},
	{"form trailing", Request{Selector: "s", Plus: "+\t1\r\n+-1\r\n.\r\nX", HasPlus: true}, "plus", 1},
	{"form bare LF", Request{Selector: "s", Plus: "+\t1\r\n+-1\r\nv\n1\r\n.\r\n", HasPlus: true}, "plus", 1},
	{"form tab in value", Request{Selector: "s", Plus: "+\t1\r\n+-1\r\na\tb\r\n.\r\n", HasPlus: true}, "plus", 1},
}

func TestRequestLineRefuses(t *testing.T) {
	for _, tt := range badRequests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.req.Line()
			var re *RequestError
			if !errors.As(err, &re) {
				t.Fatalf("Line() = %q, %v; want a *RequestError", got, err)
			}
			if re.Field != tt.field || re.Offset != tt.offset {
				t.Errorf("error %v: field %q offset %d, want %q %d", err, re.Field, re.Offset, tt.field, tt.offset)
			}
		})
	}
}

func TestFormString(t *testing.T) {
	// §3.4.9: +%091%0D%0A+-1%0D%0A<ask_item1_value>%0D%0A<ask_item2_value>%0D%0A.%0D%0A
	got, err := FormString("v1", "v2")
	if want := "+\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n"; err != nil || got != want {
		t.Fatalf("FormString = %q, %v; want %q", got, err, want)
	}
	if !IsForm(got) {
		t.Errorf("IsForm(%q) = false", got)
	}
	// A value "." would end the +-1 block: it is dot-stuffed.
	got, err = FormString(".", ".x", "")
	if want := "+\t1\r\n+-1\r\n..\r\n..x\r\n\r\n.\r\n"; err != nil || got != want {
		t.Errorf("FormString = %q, %v; want %q", got, err, want)
	}
	for _, bad := range []string{"a\r\nb", "a\nb", "a\rb", "a\tb", "a\x00"} {
		if s, err := FormString("ok", bad); err == nil {
			t.Errorf("FormString(%q) = %q, want an error", bad, s)
		}
	}
}
