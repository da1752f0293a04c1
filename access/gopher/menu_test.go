package gopher

import (
	"bytes"
	"errors"
	"flag"
	"github.com/rfc1738/rfc1738"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var urlTests = []struct {
	item Item
	want string
}{
	// §3.4.1: gopher://<host>:<port>/<gopher-path>; port 70 is the default.
	{Item{Type: '0', Selector: "/hello.txt", Host: "example.org", Port: 70}, "gopher://example.org/0/hello.txt"},
	{Item{Type: '1', Selector: "/docs", Host: "127.0.0.1", Port: 7070}, "gopher://127.0.0.1:7070/1/docs"},
	// §3.4.1: the empty selector is the top-level directory.
	{Item{Type: '1', Selector: "", Host: "example.org", Port: 70}, "gopher://example.org/1"},
	// §3.4.1: a selector may begin with a copy of the type character.
	{Item{Type: '1', Selector: "1/menu", Host: "h", Port: 70}, "gopher://h/11/menu"},
	// §5: "%", space, unsafe and national characters are escaped.
	{Item{Type: '0', Selector: "/100% done.txt", Host: "h", Port: 70}, "gopher://h/0/100%25%20done.txt"},
	{Item{Type: '0', Selector: `<>"#{}|\^~[]` + "`", Host: "h", Port: 70}, "gopher://h/0%3C%3E%22%23%7B%7D%7C%5C%5E%7E%5B%5D%60"},
	// §5: 8-bit and control octets are escaped.
	{Item{Type: '0', Selector: "/caf\xe9\x7f\x01", Host: "h", Port: 70}, "gopher://h/0/caf%E9%7F%01"},
	// §3.4.1: "Within the <gopher-path>, no characters are reserved":
	// reserved, safe and extra characters stay as they are.
	{Item{Type: '0', Selector: "/a;b/c?d:e@f&g=h$-_.+!*'(),", Host: "h", Port: 70}, "gopher://h/0/a;b/c?d:e@f&g=h$-_.+!*'(),"},
	// The type is an xchar too.
	{Item{Type: '#', Selector: "x", Host: "h", Port: 70}, "gopher://h/%23x"},
	// A type that is not printable is escaped, never read as "unset": a
	// NUL type is not a directory (found by FuzzParseMenu).
	{Item{Type: 0, Selector: "sel", Host: "A", Port: 1}, "gopher://A:1/%00sel"},
	{Item{Type: 0, Host: "A", Port: 1}, "gopher://A:1/%00"},
	{Item{Type: 0x1b, Selector: "x", Host: "h", Port: 70}, "gopher://h/%1Bx"},
	// No URL for info and error lines, or for a host that is not one.
	{Item{Type: 'i', Display: "info", Host: "null.host", Port: 1}, ""},
	{Item{Type: '3', Display: "error", Host: "error.host", Port: 1}, ""},
	{Item{Type: '0', Selector: "/x", Host: "(NULL)", Port: 0}, ""},
	{Item{Type: '0', Selector: "/x", Host: "", Port: 70}, ""},
}

func TestItemURL(t *testing.T) {
	for _, tt := range urlTests {
		if got := tt.item.URL(); got != tt.want {
			t.Errorf("%+v.URL() = %q, want %q", tt.item, got, tt.want)
		}
	}
}

// TestItemLink: an "h" item with a "URL:" selector is listed with the URL
// it points to; the target is shown only as a valid URL, never with a
// control byte.
func TestItemLink(t *testing.T) {
	h := func(sel string) Item { return Item{Type: 'h', Selector: sel, Host: "g.example", Port: 70} }
	tests := []struct {
		item Item
		want string
	}{
		{h("URL:http://example.org/"), "http://example.org/"},
		{h("URL:ftp://ftp.example.org/pub/x.txt"), "ftp://ftp.example.org/pub/x.txt"},
		{h("URL:https://example.org/~me/a b"), "https://example.org/%7Eme/a%20b"}, // §2.2 repairs
		{h("URL:mailto:me@example.org"), "mailto:me@example.org"},
		// Not a URL, or a control byte in it: the item's gopher URL.
		{h("URL:"), "gopher://g.example/hURL:"},
		{h("URL:http://example.org/[2J"), "gopher://g.example/hURL:http://example.org/%1B%5B2J"},
		{h("URL:not a url"), "gopher://g.example/hURL:not%20a%20url"},
		// Other items and other selectors: the gopher URL.
		{h("/page.html"), "gopher://g.example/h/page.html"},
		{Item{Type: '0', Selector: "URL:http://example.org/", Host: "g.example", Port: 70}, "gopher://g.example/0URL:http://example.org/"},
	}
	for _, tt := range tests {
		if got := tt.item.Link(); got != tt.want {
			t.Errorf("%q.Link() = %q, want %q", tt.item.Selector, got, tt.want)
		}
	}
	var b bytes.Buffer
	WriteListing(&b, []Item{h("URL:http://example.org/")})
	if got := b.String(); !strings.HasSuffix(got, "  <URL:http://example.org/>\n") {
		t.Errorf("listing %q, want the target", got)
	}
	j := NewJSONItem(h("URL:http://example.org/"))
	if j.URL == nil || *j.URL != "http://example.org/" || j.Selector != "URL:http://example.org/" {
		t.Errorf("JSON item %+v", j)
	}
}

func TestItemPlusURL(t *testing.T) {
	// §3.4.4: "+" names the default view; a "?" item has a form.
	it := Item{Type: '0', Selector: "/x", Host: "h", Port: 70, Plus: true}
	if got, want := it.PlusURL(), "gopher://h/0/x%09%09+"; got != want {
		t.Errorf("PlusURL = %q, want %q", got, want)
	}
	it.Ask = true
	if got, want := it.PlusURL(), "gopher://h/0/x%09%09?"; got != want {
		t.Errorf("PlusURL = %q, want %q", got, want)
	}
	if got := (Item{Type: '0', Selector: "/x", Host: "h", Port: 70}).PlusURL(); got != "gopher://h/0/x" {
		t.Errorf("plain item PlusURL = %q", got)
	}
}

func TestURLNoAllocsBeyondResult(t *testing.T) {
	it := Item{Type: '0', Selector: "/some/plain/selector.txt", Host: "example.org", Port: 7070}
	if n := testing.AllocsPerRun(100, func() { _ = it.URL() }); n > 2 {
		t.Errorf("URL allocates %v times, want at most 2 (the buffer and the result)", n)
	}
}

var itemTests = []struct {
	line string
	want Item
	bad  bool
}{
	// RFC 1436: type, display TAB selector TAB host TAB port.
	{line: "0About\t/about.txt\texample.org\t70", want: Item{Type: '0', Display: "About", Selector: "/about.txt", Host: "example.org", Port: 70}},
	// Gopher+: a fifth field "+" or "?".
	{line: "1Dir\t/d\th\t70\t+", want: Item{Type: '1', Display: "Dir", Selector: "/d", Host: "h", Port: 70, Plus: true}},
	{line: "0Form\t/f\th\t70\t?", want: Item{Type: '0', Display: "Form", Selector: "/f", Host: "h", Port: 70, Plus: true, Ask: true}},
	// Ports with spaces are trimmed.
	{line: "0X\t/x\th\t 70 ", want: Item{Type: '0', Display: "X", Selector: "/x", Host: "h", Port: 70}},
	// Info lines are tolerated with any number of fields.
	{line: "iJust text", want: Item{Type: 'i', Display: "Just text"}},
	{line: "i\t\t\t", want: Item{Type: 'i'}},
	{line: "iX\tfake\t(NULL)\t0", want: Item{Type: 'i', Display: "X", Selector: "fake", Host: "(NULL)"}},
	{line: "3Oops", want: Item{Type: '3', Display: "Oops"}},
	// Too few fields, a bad port, an empty line.
	{line: "0No fields", bad: true},
	{line: "0Two\t/x", bad: true},
	{line: "0Three\t/x\th", bad: true},
	{line: "0Port\t/x\th\tseventy", bad: true},
	{line: "0Port\t/x\th\t70000", bad: true},
	{line: "0Port\t/x\th\t-1", bad: true},
	{line: "", bad: true},
}

func TestParseItem(t *testing.T) {
	for _, tt := range itemTests {
		got, err := ParseItem(tt.line)
		if tt.bad {
			var le *LineError
			if !errors.As(err, &le) {
				t.Errorf("ParseItem(%q) = %+v, %v; want a *LineError", tt.line, got, err)
			}
			continue
		}
		tt.want.Raw = tt.line
		if err != nil || got != tt.want {
			t.Errorf("ParseItem(%q) = %+v, %v; want %+v", tt.line, got, err, tt.want)
		}
	}
}

// Golden listings: testdata/NAME.menu rendered by WriteListing must equal
// testdata/NAME.listing.golden (go test -run Listing -update rewrites them).
func TestWriteListingGolden(t *testing.T) {
	menus, err := filepath.Glob("testdata/*.menu")
	if err != nil || len(menus) == 0 {
		t.Fatalf("no testdata/*.menu: %v", err)
	}
	for _, in := range menus {
		name := strings.TrimSuffix(filepath.Base(in), ".menu")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			items, err := ParseMenu(bytes.NewReader(src))
			var me *MenuError
			if err != nil && !errors.As(err, &me) {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := WriteListing(&out, items); err != nil {
				t.Fatal(err)
			}
			if me != nil {
				for _, l := range me.Lines {
					out.WriteString("malformed: " + l.Error() + "\n")
				}
			}
			golden := filepath.Join("testdata", name+".listing.golden")
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("listing of %s differs from %s:\n--- got\n%s--- want\n%s", in, golden, out.Bytes(), want)
			}
		})
	}
}

func FuzzParseMenu(f *testing.F) {
	if seeds, _ := filepath.Glob("testdata/*.menu"); len(seeds) > 0 {
		for _, s := range seeds {
			b, _ := os.ReadFile(s)
			f.Add(b)
		}
	}
	f.Add([]byte("0a\tb\tc\t70\r\n.\r\n"))
	f.Add([]byte("i\n\n\t\t\t\t\t\t+\r\n3\r\n.."))
	f.Fuzz(func(t *testing.T, data []byte) {
		const maxLine, maxItems = 256, 64
		m := NewMenuReader(bytes.NewReader(data))
		m.MaxLineLength, m.MaxItems = maxLine, maxItems
		items, err := readMenu(m)
		if len(items) > maxItems {
			t.Fatalf("%d items, bound %d", len(items), maxItems)
		}
		var pe *ProtocolError
		var me *MenuError
		if err != nil && !errors.As(err, &pe) && !errors.As(err, &me) {
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		for _, it := range items {
			if len(it.Raw) > maxLine {
				t.Fatalf("item line of %d bytes, bound %d", len(it.Raw), maxLine)
			}
			// Property: an item re-parses from its raw line to itself.
			again, err := ParseItem(it.Raw)
			if err != nil || again != it {
				t.Fatalf("ParseItem(%q) = %+v, %v; want %+v", it.Raw, again, err, it)
			}
			// Property: an item's URL is a valid gopher URL naming the
			// item's type and selector.
			if u := it.URL(); u != "" {
				pu, err := rfc1738.Parse(u)
				if err != nil {
					t.Fatalf("URL %q of %+v does not parse: %v", u, it, err)
				}
				g, _ := pu.Gopher()
				if g.Type != it.Type || g.Selector != it.Selector {
					t.Fatalf("URL %q names type %q selector %q, want %q %q", u, g.Type, g.Selector, it.Type, it.Selector)
				}
			}
		}
	})
}
