package gopher_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func reply(s string) testserver.GopherReply { return testserver.GopherReply{Reply: []byte(s)} }

// fetchAll fetches req from the fake and returns the body as read.
func fetchAll(t *testing.T, c *gopher.Client, addr string, req gopher.Request) (*gopher.Response, []byte, error) {
	t.Helper()
	resp, err := c.Fetch(ctxT(t), addr, req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// The exact bytes each request puts on the wire (RFC 1738 §3.4.1–§3.4.9).
func TestFetchSendsExactBytes(t *testing.T) {
	form, err := gopher.FormString("v1", "v2")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  gopher.Request
		want string
	}{
		{"selector", gopher.Request{Type: '0', Selector: "/hello.txt"}, "/hello.txt\r\n"},
		{"root", gopher.Request{}, "\r\n"},
		{"search", gopher.Request{Type: '7', Selector: "/s", Search: "hello world", HasSearch: true}, "/s\thello world\r\n"},
		{"plus", gopher.Request{Type: '0', Selector: "/hello.txt", Plus: "+", HasPlus: true}, "/hello.txt\t\t+\r\n"},
		{"attributes", gopher.Request{Type: '0', Selector: "/x", Plus: "!", HasPlus: true}, "/x\t\t!\r\n"},
		// §3.4.9 byte for byte:
		// <selector><tab>+<tab>1<cr><lf>+-1<cr><lf>v1<cr><lf>v2<cr><lf>.<cr><lf>
		{"form", gopher.Request{Type: '0', Selector: "/form", Plus: form, HasPlus: true},
			"/form\t+\t1\r\n+-1\r\nv1\r\nv2\r\n.\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, reply("+-2\r\nok\r\n"))
			var sent []string
			c := &gopher.Client{Trace: func(dir byte, line string) {
				if dir == '>' {
					sent = append(sent, line)
				}
			}}
			if _, _, err := fetchAll(t, c, f.Addr, tt.req); err != nil {
				t.Fatal(err)
			}
			reqs := f.Requests()
			if len(reqs) != 1 || string(reqs[0]) != tt.want {
				t.Fatalf("server got %q, want %q", reqs, tt.want)
			}
			wantTrace := tt.want
			if tt.name == "form" { // answers may be passwords
				wantTrace = "/form\t+\t1\r\n+-1\r\n<redacted>\r\n<redacted>\r\n.\r\n"
			}
			if got := strings.Join(sent, "\r\n") + "\r\n"; got != wantTrace {
				t.Errorf("trace shows %q, want %q", got, wantTrace)
			}
		})
	}
}

func TestFetchRefusesBeforeSending(t *testing.T) {
	f := testserver.NewGopherFake(t, reply("x"))
	c := &gopher.Client{}
	for _, req := range []gopher.Request{
		{Type: '0', Selector: "/a\r\nb"},
		{Type: '7', Selector: "/s", Search: "q\nx", HasSearch: true},
		{Type: '0', Selector: "/s", Plus: "+\r\n", HasPlus: true},
		{Type: '8', Selector: "login"}, // telnet: not a gopher item
		{Type: 'i', Selector: "x"},
	} {
		_, err := c.Fetch(ctxT(t), f.Addr, req)
		var re *gopher.RequestError
		if !errors.As(err, &re) {
			t.Errorf("Fetch(%+v) err = %v, want a *RequestError", req, err)
		}
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("%d connections made, want none", n)
	}
}

func TestFetchText(t *testing.T) {
	tests := []struct {
		name, reply, want string
		terminated        bool
	}{
		// A lone "." line ends the text only when the close follows it;
		// ".." lines are kept as sent (most servers never dot-stuff).
		{"terminated", "line 1\r\n..dots\r\n.x\r\nend\r\n.\r\n", "line 1\r\n..dots\r\n.x\r\nend\r\n", true},
		{"LF only", "a\n.\n", "a\n", true},
		// RFC 1436's terminator is a line: ".", CRLF. A last "." with no
		// line ending is a file's own last line, sent as stored
		// (gophernicus, pygopherd): data, as curl and lynx keep it.
		{"last dot without CRLF is data", "a\r\n.", "a\r\n.", false},
		{"last dot without LF is data", "a\r\n.\r", "a\r\n.\r", false},
		{"only a dot without CRLF is data", ".", ".", false},
		// gophernicus: no terminator, the server just closes.
		{"closed", "Hello\r\nSecond line.\r\n", "Hello\r\nSecond line.\r\n", false},
		{"no final newline", "Hello", "Hello", false},
		{"empty", "", "", false},
		{"only a dot", ".\r\n", "", true},
		// A file holding a lone "." line: it is data, since more follows.
		{"lone dot inside", "line1\r\n.\r\n..dots\r\nend\r\n", "line1\r\n.\r\n..dots\r\nend\r\n", false},
		{"lone dots inside", ".\n.\n.\nx", ".\n.\n.\nx", false},
		{"dot lines", ".\r\n.\r\n", ".\r\n", true},
		{"bytes after a lone dot kept", "a\r\n.\r\ngarbage", "a\r\n.\r\ngarbage", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, reply(tt.reply))
			resp, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '0', Selector: "/t"})
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != tt.want {
				t.Errorf("body %q, want %q", body, tt.want)
			}
			if resp.Terminated() != tt.terminated {
				t.Errorf("Terminated() = %v, want %v", resp.Terminated(), tt.terminated)
			}
		})
	}
}

// TestFetchTextStreams: a line of a text item is delivered when it has
// arrived, although the server stalls before the next one.
func TestFetchTextStreams(t *testing.T) {
	f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("first line\r\n"), Hold: true})
	resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: '0', Selector: "/slow"})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		got <- string(b[:n])
	}()
	select {
	case s := <-got:
		if s != "first line\r\n" {
			t.Errorf("read %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the first line is held back until the server sends more")
	}
}

func TestFetchBinaryRaw(t *testing.T) {
	blob := testserver.GopherBlob()
	blob = append(blob, "\r\n.\r\n..\r\n"...) // dots mean nothing in binary
	f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: blob})
	for _, typ := range []byte{'9', 'g', 'I', '5', 's', ';', 'd', 'X'} {
		_, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: typ, Selector: "/b"})
		if err != nil || !bytes.Equal(body, blob) {
			t.Errorf("type %c: %d bytes, %v; want the %d bytes unchanged", typ, len(body), err, len(blob))
		}
	}
}

func TestFetchMenu(t *testing.T) {
	menu := "iWelcome\t\tnull.host\t1\r\n" +
		"0Hello\t/hello.txt\t127.0.0.1\t7070\r\n" +
		"1Docs\t/docs\texample.org\t70\t+\r\n" +
		"0Form\t/form\texample.org\t70\t?\r\n" +
		"0Broken line\r\n" +
		"9Bad port\t/b\th\tx\r\n" +
		".\r\n"
	f := testserver.NewGopherFake(t, reply(menu))
	resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{})
	if err != nil {
		t.Fatal(err)
	}
	items, err := resp.Items()
	var me *gopher.MenuError
	if !errors.As(err, &me) || len(me.Lines) != 2 || me.Lines[0].Line != 5 || me.Lines[1].Line != 6 {
		t.Fatalf("err = %v, want a MenuError for lines 5 and 6", err)
	}
	want := []gopher.Item{
		{Type: 'i', Display: "Welcome", Host: "null.host", Port: 1, Raw: "iWelcome\t\tnull.host\t1"},
		{Type: '0', Display: "Hello", Selector: "/hello.txt", Host: "127.0.0.1", Port: 7070, Raw: "0Hello\t/hello.txt\t127.0.0.1\t7070"},
		{Type: '1', Display: "Docs", Selector: "/docs", Host: "example.org", Port: 70, Plus: true, Raw: "1Docs\t/docs\texample.org\t70\t+"},
		{Type: '0', Display: "Form", Selector: "/form", Host: "example.org", Port: 70, Plus: true, Ask: true, Raw: "0Form\t/form\texample.org\t70\t?"},
	}
	if len(items) != len(want) {
		t.Fatalf("got %d items %+v, want %d", len(items), items, len(want))
	}
	for i := range want {
		if items[i] != want[i] {
			t.Errorf("item %d = %+v, want %+v", i, items[i], want[i])
		}
	}
}

// pygopherd's menus have no final "."; search results (type 7) are menus.
func TestFetchMenuWithoutTerminator(t *testing.T) {
	f := testserver.NewGopherFake(t, reply("0A\t/a\th\t70\n0B\t/b\th\t70\n"))
	resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: '7', Selector: "/s", Search: "q", HasSearch: true})
	if err != nil {
		t.Fatal(err)
	}
	items, err := resp.Items()
	if err != nil || len(items) != 2 || items[1].Selector != "/b" {
		t.Fatalf("items %+v, %v", items, err)
	}
	if resp.Terminated() {
		t.Error("Terminated() = true for a menu without a final dot")
	}
}

func TestFetchTypeThreeError(t *testing.T) {
	for _, tt := range []struct {
		typ   byte
		reply string
	}{
		{'1', "3'/nope' does not exist\t\terror.host\t1\r\n.\r\n"},
		{'1', "3Gone\r\n"},
		{'0', "3Not found\tfake\terror.host\t0\r\n"},
		// gophernicus and pygopherd answer a missing binary item so too.
		{'9', "3 '/nope' does not exist!\t\terror.host\t1\r\n.\r\n"},
		{'I', "3Not found\tfake\terror.host\t0\n"},
	} {
		f := testserver.NewGopherFake(t, reply(tt.reply))
		_, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: tt.typ, Selector: "/nope"})
		var se *gopher.ServerError
		if !errors.As(err, &se) || se.Code != 0 || se.Selector != "/nope" {
			t.Errorf("type %c reply %q: err = %v, want a type-3 *ServerError", tt.typ, tt.reply, err)
			continue
		}
		var te *textproto.Error
		if !errors.As(err, &te) {
			t.Errorf("ServerError does not unwrap to *textproto.Error")
		}
	}
	// Binary data that starts with "3" is data, unless it starts with a
	// whole type-3 menu line.
	for _, data := range []string{"3\x00\x01binary", "3 fields\tonly\t3\r\n", "3a\tb\tc\t70 and no line end"} {
		f := testserver.NewGopherFake(t, reply(data))
		_, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '9', Selector: "/b"})
		if err != nil || string(body) != data {
			t.Errorf("binary %q: %q, %v", data, body, err)
		}
	}
	// A text file that merely starts with "3" is text.
	f := testserver.NewGopherFake(t, reply("3 reasons\r\n"))
	_, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '0', Selector: "/t"})
	if err != nil || string(body) != "3 reasons\r\n" {
		t.Errorf("text starting with 3: %q, %v", body, err)
	}
}

func TestFetchGopherPlus(t *testing.T) {
	tests := []struct {
		name, reply, want string
		size              int64
		terminated        bool
	}{
		// Gopher+: "+N" announces N bytes; nothing after them is read.
		{"size", "+5\r\nHelloEXTRA", "Hello", 5, true},
		{"size zero", "+0\r\n", "", 0, true},
		// "+-1": ends with a lone "." line.
		{"dot", "+-1\r\nline\r\n..x\r\n.\r\n", "line\r\n..x\r\n", -1, true},
		// "+-2": ends when the server closes.
		{"close", "+-2\r\nall\r\nof it", "all\r\nof it", -1, false},
		{"LF header", "+3\nabc", "abc", 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, reply(tt.reply))
			resp, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '0', Selector: "/x", Plus: "+", HasPlus: true})
			if err != nil {
				t.Fatal(err)
			}
			if string(body) != tt.want || resp.Size != tt.size || !resp.Plus || resp.Terminated() != tt.terminated {
				t.Errorf("body %q size %d plus %v terminated %v; want %q %d true %v",
					body, resp.Size, resp.Plus, resp.Terminated(), tt.want, tt.size, tt.terminated)
			}
		})
	}
	// A Gopher-0 server (gophernicus) ignores the Gopher+ string.
	f := testserver.NewGopherFake(t, reply("+plain text, not a header\r\n"))
	resp, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '0', Selector: "/x", Plus: "+", HasPlus: true})
	if err != nil || resp.Plus || string(body) != "+plain text, not a header\r\n" {
		t.Errorf("gopher-0 reply: plus %v body %q err %v", resp != nil && resp.Plus, body, err)
	}
}

func TestFetchGopherPlusError(t *testing.T) {
	tests := []struct {
		name, reply     string
		code            int
		contact, msgHas string
	}{
		// pygopherd's error block ("--2": read to close).
		{"close", "--2\r\n1 Admin <a@b>\r\n'/nothere' does not exist\r\n", 1, "Admin <a@b>", "does not exist"},
		// "--1": the block ends with a lone ".".
		{"dot", "--1\r\n2 admin@example.org\r\nbusy\r\nsecond\r\n.\r\nignored", 2, "admin@example.org", "busy\nsecond"},
		{"sized", "-16\r\n3 x\r\nmoved here\r\nrest", 3, "x", "moved here"},
		// A hostile block: its text reaches Error() escaped.
		{"escapes", "--2\r\n1 x\r\n" + testserver.EscapeBytes + "\r\n", 1, "x", testserver.EscapeBytes},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, reply(tt.reply))
			_, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: '0', Selector: "/nothere", Plus: "+", HasPlus: true})
			var se *gopher.ServerError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *ServerError", err)
			}
			if se.Code != tt.code || se.Contact != tt.contact || !strings.Contains(se.Message, tt.msgHas) {
				t.Errorf("got %+v", se)
			}
			if strings.Contains(se.Message, "ignored") || strings.Contains(se.Message, "rest") {
				t.Errorf("message read past the block: %q", se.Message)
			}
			var te *textproto.Error
			if !errors.As(err, &te) || te.Code != tt.code {
				t.Errorf("no *textproto.Error with code %d in %v", tt.code, err)
			}
			if msg := err.Error(); safetext.Escape(msg) != msg {
				t.Errorf("Error() carries raw control bytes: %q", msg)
			}
		})
	}
}

// Faults: a server that drops the connection, stalls, sends an oversized
// line or floods a menu.
func TestFetchFaults(t *testing.T) {
	t.Run("drop mid sized item", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply("+100\r\nonly some"))
		_, body, err := fetchAll(t, &gopher.Client{}, f.Addr, gopher.Request{Type: '9', Selector: "/b", Plus: "+", HasPlus: true})
		var pe *gopher.ProtocolError
		if !errors.As(err, &pe) || !errors.Is(err, io.ErrUnexpectedEOF) || string(body) != "only some" {
			t.Errorf("body %q err %v, want the 9 bytes and a truncation ProtocolError", body, err)
		}
	})
	t.Run("drop mid menu line", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply("0A\t/a\th\t70\r\n0Trunc\t/tr"))
		resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		var me *gopher.MenuError
		if len(items) != 1 || !errors.As(err, &me) || me.Lines[0].Line != 2 {
			t.Errorf("items %+v err %v, want one item and line 2 malformed", items, err)
		}
	})
	t.Run("stall past deadline", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("first part\r\n"), Hold: true})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		resp, err := (&gopher.Client{}).Fetch(ctx, f.Addr, gopher.Request{Type: '0', Selector: "/slow"})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if !errors.Is(err, context.DeadlineExceeded) || string(body) != "first part\r\n" {
			t.Errorf("body %q err %v, want the first part then DeadlineExceeded", body, err)
		}
	})
	t.Run("stall before status", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("+"), Hold: true})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		_, err := (&gopher.Client{}).Fetch(ctx, f.Addr, gopher.Request{Type: '0', Selector: "/slow", Plus: "+", HasPlus: true})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err %v, want DeadlineExceeded", err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte("part"), Hold: true})
		ctx, cancel := context.WithCancel(context.Background())
		resp, err := (&gopher.Client{}).Fetch(ctx, f.Addr, gopher.Request{Type: '9', Selector: "/slow"})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		buf := make([]byte, 4)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			t.Fatal(err)
		}
		cancel()
		if _, err := resp.Body.Read(buf); !errors.Is(err, context.Canceled) {
			t.Errorf("read after cancel: %v, want context.Canceled", err)
		}
	})
	t.Run("oversized menu line", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply("0"+strings.Repeat("x", 2000)+"\t/a\th\t70\r\n.\r\n"))
		resp, err := (&gopher.Client{MaxLineLength: 1024}).Fetch(ctxT(t), f.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = resp.Items()
		var pe *gopher.ProtocolError
		if !errors.As(err, &pe) || !errors.Is(err, gopher.ErrLineTooLong) || pe.Line != 1 {
			t.Errorf("err %v, want ErrLineTooLong on line 1", err)
		}
	})
	t.Run("too many menu items", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply(strings.Repeat("iinfo\t\th\t1\r\n", 50)))
		resp, err := (&gopher.Client{MaxMenuItems: 10}).Fetch(ctxT(t), f.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if !errors.Is(err, gopher.ErrTooManyItems) || len(items) != 10 {
			t.Errorf("%d items, err %v; want 10 and ErrTooManyItems", len(items), err)
		}
	})
	t.Run("menu beyond DefaultMaxMenuBytes", func(t *testing.T) {
		// Lines and line count within their bounds (64 KiB, 100,000):
		// the bytes are not, and the read stops at 16 MiB.
		h := testserver.NewHostile(t, testserver.HostileConfig{Fault: testserver.FaultEndless,
			Line: "i" + strings.Repeat("x", 60000) + "	line %d	h	1"})
		resp, err := (&gopher.Client{}).Fetch(ctxT(t), h.Addr, gopher.Request{})
		if err != nil {
			t.Fatal(err)
		}
		items, err := resp.Items()
		if !errors.Is(err, gopher.ErrTooLarge) || len(items) > gopher.DefaultMaxMenuBytes/60000 {
			t.Errorf("%d items, err %v; want ErrTooLarge", len(items), err)
		}
	})
	t.Run("attributes beyond MaxMenuBytes", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply("+-2\r\n+ABSTRACT:\r\n"+strings.Repeat(" abstract line\r\n", 1000)))
		_, err := (&gopher.Client{MaxMenuBytes: 4096}).Attributes(ctxT(t), f.Addr, gopher.Request{Type: '0', Selector: "/a"})
		if !errors.Is(err, gopher.ErrTooLarge) {
			t.Errorf("err %v, want ErrTooLarge", err)
		}
	})
	t.Run("oversized error block", func(t *testing.T) {
		f := testserver.NewGopherFake(t, reply("--2\r\n1 a\r\n"+strings.Repeat("y", 5000)+"\r\n"))
		_, err := (&gopher.Client{MaxLineLength: 1024}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: '0', Plus: "+", HasPlus: true})
		if !errors.Is(err, gopher.ErrLineTooLong) {
			t.Errorf("err %v, want ErrLineTooLong", err)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		addr := "127.0.0.1:" + itoa(testserver.FreePort(t))
		if _, err := (&gopher.Client{}).Fetch(ctxT(t), addr, gopher.Request{}); err == nil {
			t.Error("Fetch to a closed port succeeded")
		}
	})
}

// The ASK flow (RFC 1738 §3.4.5, §3.4.9): fetch the "!" attributes, find
// the +ASK block, fill the form, send it.
func TestAskFlow(t *testing.T) {
	attrs := "+-2\r\n" +
		"+INFO: 0form\t/form\t127.0.0.1\t70\t?\r\n" +
		"+ADMIN:\r\n Admin: someone <a@b>\r\n" +
		"+ASK:\r\n Note: Please answer\r\n Ask: Your name\tnobody\r\n Choose: Colour\tred\tgreen\r\n AskL: Comments\r\n"
	f := testserver.NewGopherFake(t, reply(attrs), reply("+-1\r\nThanks, Ann.\r\n.\r\n"))
	c := &gopher.Client{}
	ctx := ctxT(t)
	blocks, err := c.Attributes(ctx, f.Addr, gopher.Request{Type: '0', Selector: "/form"})
	if err != nil {
		t.Fatal(err)
	}
	info, _ := gopher.Find(blocks, "INFO")
	if it, err := info.Item(); err != nil || !it.Ask {
		t.Fatalf("+INFO item %+v, %v: want a ? item", it, err)
	}
	ask, ok := gopher.Find(blocks, "ASK")
	if !ok {
		t.Fatal("no +ASK block")
	}
	qs, err := ask.Questions()
	if err != nil || len(qs) != 4 {
		t.Fatalf("questions %+v, %v", qs, err)
	}
	form, err := gopher.FillForm(qs, func(i int, q gopher.Question) ([]string, error) {
		switch q.Kind {
		case "Ask":
			return []string{"Ann"}, nil
		case "Choose":
			return []string{q.Defaults[1]}, nil
		case "AskL":
			return []string{"one", "two"}, nil
		}
		t.Errorf("asked %+v", q)
		return nil, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, body, err := fetchAll(t, c, f.Addr, gopher.Request{Type: '0', Selector: "/form", Plus: form, HasPlus: true})
	if err != nil || string(body) != "Thanks, Ann.\r\n" {
		t.Fatalf("form reply %q, %v", body, err)
	}
	reqs := f.Requests()
	want := []string{"/form\t\t!\r\n", "/form\t+\t1\r\n+-1\r\nAnn\r\ngreen\r\n2\r\none\r\ntwo\r\n.\r\n"}
	if len(reqs) != 2 || string(reqs[0]) != want[0] || string(reqs[1]) != want[1] {
		t.Errorf("requests %q, want %q", reqs, want)
	}
	// Answers with CR/LF are refused before anything is sent.
	if _, err := gopher.FillForm(qs, gopher.Answers("Ann\r\nQUIT", "red", "x")); err == nil {
		t.Error("FillForm accepted an answer with CRLF")
	}
}

func TestAttributesFromGopher0Server(t *testing.T) {
	f := testserver.NewGopherFake(t, reply("Just the file.\r\n"))
	_, err := (&gopher.Client{}).Attributes(ctxT(t), f.Addr, gopher.Request{Type: '0', Selector: "/x"})
	if !errors.Is(err, gopher.ErrNotGopherPlus) {
		t.Errorf("err %v, want ErrNotGopherPlus", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
