package gopher_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// transcript collects a client's trace for failure messages and the report.
type transcript struct {
	mu    sync.Mutex
	lines []string
}

func (tr *transcript) trace(dir byte, line string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.lines = append(tr.lines, string(dir)+" "+line)
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.lines, "\n")
}

func TestGophernicus(t *testing.T) {
	testserver.NeedRoot(t)
	srv := testserver.Gophernicus(t)
	tr := &transcript{}
	c := &gopher.Client{Trace: tr.trace}
	defer func() {
		if t.Failed() {
			t.Logf("transcript:\n%s", tr)
		}
	}()

	t.Run("menu", func(t *testing.T) {
		resp, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Terminated() {
			t.Error("gophernicus menus end with a lone dot; Terminated() = false")
		}
		var listing bytes.Buffer
		gopher.WriteListing(&listing, items)
		want := []string{
			"(INFO)  Test gopher root",
			"(FILE)  Hello text  <URL:gopher://127.0.0.1:" + itoa(srv.Port) + "/0/hello.txt>",
			"(FILE)  Doc with space  <URL:gopher://127.0.0.1:" + itoa(srv.Port) + "/0/docs/with%20space.txt>",
			"(?)     Search test  <URL:gopher://127.0.0.1:" + itoa(srv.Port) + "/7/cgi-bin/search>",
			"(DIR)   External example  <URL:gopher://gopher.example.invalid/1/>",
		}
		for _, w := range want {
			if !strings.Contains(listing.String(), w+"\n") {
				t.Errorf("listing lacks %q:\n%s", w, listing.String())
			}
		}
	})
	t.Run("text", func(t *testing.T) {
		// gophernicus sends the file as it is, with no terminator and no
		// dot-stuffing: the body is the file.
		for _, name := range []string{"hello.txt"} {
			resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/" + name})
			if err != nil {
				t.Fatal(err)
			}
			disk, _ := os.ReadFile(filepath.Join(srv.Root, name))
			if !bytes.Equal(body, disk) || resp.Terminated() {
				t.Errorf("%s: got %q (terminated %v), file is %q", name, body, resp.Terminated(), disk)
			}
		}
		// Lines starting "." or "..", and a lone "." line with more after
		// it, are the file's own: gophernicus never dot-stuffs, and
		// nothing is un-stuffed unless asked.
		for _, name := range []string{"dots.txt", "lonedot.txt"} {
			resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/" + name})
			disk, _ := os.ReadFile(filepath.Join(srv.Root, name))
			if err != nil || !bytes.Equal(body, disk) || resp.Terminated() {
				t.Errorf("%s: %q, %v (terminated %v); want the file %q", name, body, err, resp.Terminated(), disk)
			}
		}
		// Asked to un-stuff, a ".." line loses a dot.
		_, body, err := fetchAll(t, &gopher.Client{Unstuff: true}, srv.Addr, gopher.Request{Type: '0', Selector: "/dots.txt"})
		if want := ".dot line\r\n.two dots\r\nplain\r\n"; err != nil || string(body) != want {
			t.Errorf("dots.txt un-stuffed: %q, %v; want %q", body, err, want)
		}
		// A last line that is only "." cannot be told from a terminator:
		// it is taken as one, and Terminated says so.
		resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/dotend.txt"})
		if want := "text\r\n"; err != nil || string(body) != want || !resp.Terminated() {
			t.Errorf("dotend.txt: %q, %v (terminated %v); want %q", body, err, resp.Terminated(), want)
		}
		// Raw: the bytes as sent, to the close.
		_, body, err = fetchAll(t, &gopher.Client{Raw: true}, srv.Addr, gopher.Request{Type: '0', Selector: "/dotend.txt"})
		if err != nil || string(body) != testserver.GopherDotEnd {
			t.Errorf("dotend.txt raw: %q, %v", body, err)
		}
	})
	t.Run("binary", func(t *testing.T) {
		_, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '9', Selector: "/docs/blob.bin"})
		if err != nil || !bytes.Equal(body, testserver.GopherBlob()) {
			t.Errorf("blob.bin: %d bytes, %v; want %d identical bytes", len(body), err, len(testserver.GopherBlob()))
		}
	})
	t.Run("search", func(t *testing.T) {
		// §3.4.2: selector TAB search; the CGI sees the search string.
		resp, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{Type: '7', Selector: "/cgi-bin/search", Search: "hello world", HasSearch: true})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if err != nil || len(items) != 2 {
			t.Fatalf("items %+v, %v", items, err)
		}
		if items[0].Display != "You searched for: hello world" || items[1].Display != "Result for hello world" || items[1].Selector != "/hello.txt" {
			t.Errorf("search results %+v", items)
		}
	})
	t.Run("generated directory", func(t *testing.T) {
		resp, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{Type: '1', Selector: "/docs"})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, it := range items {
			// gophernicus writes spaces in generated selectors as #040.
			if strings.HasPrefix(it.Display, "with space.txt") {
				found = true
				_, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: it.Type, Selector: it.Selector})
				// gophernicus sends type-0 text with CRLF line ends
				// (the file has LF), as RFC 1436 text should be.
				if err != nil || string(body) != "space name\r\n" {
					t.Errorf("%q: %q, %v", it.Selector, body, err)
				}
			}
		}
		if !found {
			t.Errorf("no 'with space.txt' in %+v", items)
		}
	})
	t.Run("gopher+ ignored", func(t *testing.T) {
		// No Gopher+: the plain item comes back, without a status line.
		resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/hello.txt", Plus: "+", HasPlus: true})
		if err != nil || resp.Plus || !strings.HasPrefix(string(body), "Hello from gopher.") {
			t.Errorf("plus=%v body %q err %v", resp != nil && resp.Plus, body, err)
		}
		_, err = c.Attributes(ctxT(t), srv.Addr, gopher.Request{Type: '0', Selector: "/hello.txt"})
		if !errors.Is(err, gopher.ErrNotGopherPlus) {
			t.Errorf("attributes from gophernicus: %v, want ErrNotGopherPlus", err)
		}
	})
}

func TestPygopherd(t *testing.T) {
	testserver.NeedRoot(t)
	srv := testserver.Pygopherd(t)
	tr := &transcript{}
	c := &gopher.Client{Trace: tr.trace}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("transcript:\n%s", tr)
		}
	}()

	t.Run("gopher0 menu without dot", func(t *testing.T) {
		resp, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if err != nil || len(items) < 3 || resp.Terminated() {
			t.Errorf("items %+v, %v, terminated %v", items, err, resp.Terminated())
		}
	})
	t.Run("default view +N", func(t *testing.T) {
		// §3.4.4: "+" is the default view; pygopherd announces the size.
		resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/hello.txt", Plus: "+", HasPlus: true})
		if err != nil {
			t.Fatal(err)
		}
		disk, _ := os.ReadFile(filepath.Join(srv.Root, "hello.txt"))
		if !resp.Plus || resp.Size != int64(len(disk)) || !bytes.Equal(body, disk) || !resp.Terminated() {
			t.Errorf("plus %v size %d body %q; want +%d and %q", resp.Plus, resp.Size, body, len(disk), disk)
		}
	})
	t.Run("binary +N", func(t *testing.T) {
		resp, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '9', Selector: "/docs/blob.bin", Plus: "+", HasPlus: true})
		if err != nil || resp.Size != 5000 || !bytes.Equal(body, testserver.GopherBlob()) {
			t.Errorf("blob: size %d, %d bytes, %v", resp.Size, len(body), err)
		}
	})
	t.Run("+-2 menu", func(t *testing.T) {
		resp, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{Type: '1', Selector: "", Plus: "+", HasPlus: true})
		if err != nil {
			t.Fatal(err)
		}
		if !resp.Plus || resp.Size != -1 {
			t.Errorf("plus %v size %d, want a +-2 reply", resp.Plus, resp.Size)
		}
		items, err := resp.Items()
		if err != nil {
			t.Fatal(err)
		}
		var form, hello *gopher.Item
		for i := range items {
			switch items[i].Selector {
			case "/form.txt":
				form = &items[i]
			case "/hello.txt":
				hello = &items[i]
			}
		}
		if hello == nil || !hello.Plus || hello.Ask {
			t.Errorf("hello item %+v, want a + item", hello)
		}
		if form == nil || !form.Plus {
			t.Errorf("form item %+v, want a Gopher+ item", form)
		}
	})
	t.Run("! attributes", func(t *testing.T) {
		blocks, err := c.Attributes(ctxT(t), srv.Addr, gopher.Request{Type: '0', Selector: "/hello.txt"})
		if err != nil {
			t.Fatal(err)
		}
		abs, ok := gopher.Find(blocks, "ABSTRACT")
		if !ok || len(abs.Lines) != 1 || abs.Lines[0] != "An abstract line." {
			t.Errorf("+ABSTRACT %+v in %+v", abs, blocks)
		}
		views, _ := gopher.Find(blocks, "VIEWS")
		if v := views.Views(); len(v) != 1 || v[0].Type != "text/plain" {
			t.Errorf("+VIEWS %+v", v)
		}
		info, _ := gopher.Find(blocks, "INFO")
		if it, err := info.Item(); err != nil || it.Selector != "/hello.txt" {
			t.Errorf("+INFO %+v, %v", it, err)
		}
	})
	t.Run("$ on a directory", func(t *testing.T) {
		blocks, err := c.Attributes(ctxT(t), srv.Addr, gopher.Request{Type: '1', Selector: "/", Plus: "$", HasPlus: true})
		if err != nil {
			t.Fatal(err)
		}
		groups := gopher.SplitItems(blocks)
		var askItem bool
		for _, g := range groups {
			info, _ := gopher.Find(g, "INFO")
			it, _ := info.Item()
			if ask, ok := gopher.Find(g, "ASK"); ok && it.Selector == "/form.txt" {
				qs, err := ask.Questions()
				if err != nil || len(qs) != 2 || qs[1].Kind != "Choose" || len(qs[1].Defaults) != 2 {
					t.Errorf("+ASK questions %+v, %v", qs, err)
				}
				askItem = true
			}
		}
		if len(groups) < 3 || !askItem {
			t.Errorf("%d items, ask item found %v", len(groups), askItem)
		}
	})
	t.Run("--2 error", func(t *testing.T) {
		_, err := c.Fetch(ctxT(t), srv.Addr, gopher.Request{Type: '0', Selector: "/nothere", Plus: "+", HasPlus: true})
		var se *gopher.ServerError
		if !errors.As(err, &se) || se.Code != 1 || !strings.Contains(se.Message, "does not exist") || se.Contact == "" {
			t.Errorf("err %v (%+v), want Gopher+ error 1", err, se)
		}
	})
	t.Run("ASK form fetch", func(t *testing.T) {
		// pygopherd shows +ASK blocks but does not process forms: a
		// "sel TAB + TAB 1" request is served as plain Gopher (the data
		// block is ignored). The exchange must still complete cleanly.
		blocks, err := c.Attributes(ctxT(t), srv.Addr, gopher.Request{Type: '0', Selector: "/form.txt"})
		if err != nil {
			t.Fatal(err)
		}
		ask, ok := gopher.Find(blocks, "ASK")
		if !ok {
			t.Fatalf("no +ASK in %+v", blocks)
		}
		qs, _ := ask.Questions()
		form, err := gopher.FillForm(qs, gopher.Answers("Ann", "green"))
		if err != nil {
			t.Fatal(err)
		}
		_, body, err := fetchAll(t, c, srv.Addr, gopher.Request{Type: '0', Selector: "/form.txt", Plus: form, HasPlus: true})
		if err != nil || string(body) != "form body\n" {
			t.Errorf("form reply %q, %v", body, err)
		}
	})
}
