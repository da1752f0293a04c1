package access

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGopherPlan: the steps are the request lines exactly as sent, per
// RFC 1738 §3.4.1–§3.4.9.
func TestGopherPlan(t *testing.T) {
	tests := []struct {
		url     string
		connect string
		steps   []string
		note    string // a note the plan must hold
	}{
		// §3.4.1: an empty gopher-path is the top-level menu, selector "".
		{"gopher://h/", "h:70", []string{""}, "type 1"},
		{"gopher://h", "h:70", []string{""}, "top-level menu"},
		{"gopher://h:7070/0/hello.txt", "h:7070", []string{"/hello.txt"}, "text"},
		{"gopher://h/0/with%20space.txt", "h:70", []string{"/with space.txt"}, ""},
		{"gopher://h/9/blob.bin", "h:70", []string{"/blob.bin"}, "binary"},
		// §3.4.2: selector TAB search.
		{"gopher://h/7/cgi-bin/search%09hello%20world", "h:70", []string{"/cgi-bin/search\thello world"}, "search"},
		// A type-7 item without a search: asked at run time.
		{"gopher://h/7/cgi-bin/search", "h:70", []string{"/cgi-bin/search\t<search>"}, "asked at run time"},
		// §3.4.3, §3.4.4: the Gopher+ string after an empty search.
		{"gopher://h/0/hello.txt%09%09+", "h:70", []string{"/hello.txt\t\t+"}, "default view"},
		{"gopher://h/1%09%09+", "h:70", []string{"\t\t+"}, "default view"},
		// §3.4.6, §3.4.7: attributes of the item, of a directory, named ones.
		{"gopher://h/0/hello.txt%09%09!", "h:70", []string{"/hello.txt\t\t!"}, "attributes of the item"},
		{"gopher://h/1/%09%09$", "h:70", []string{"/\t\t$"}, "every item"},
		{"gopher://h/1%09%09!+ABSTRACT%20+SMELL", "h:70", []string{"\t\t!+ABSTRACT +SMELL"}, "attributes"},
		// §3.4.8: an alternate view.
		{"gopher://h/0/hello.txt%09%09+application/postscript%20Es_ES", "h:70",
			[]string{"/hello.txt\t\t+application/postscript Es_ES"}, "alternate view"},
		// §3.4.9: a filled form is sent as written, as the RFC shows it.
		{"gopher://h/0/form%09%09+%091%0D%0A+-1%0D%0AAnn%0D%0Agreen%0D%0A.%0D%0A", "h:70",
			[]string{"/form\t+\t1", "+-1", "Ann", "green", "."}, "§3.4.9"},
		{"gopher://h/0/form%09in%20Paris%09+%091%0D%0A+-1%0D%0AAnn%0D%0A.%0D%0A", "h:70",
			[]string{"/form\tin Paris\t+\t1", "+-1", "Ann", "."}, "§3.4.9"},
		// §3.4.5: "?" fetches the +ASK block, then sends the form.
		{"gopher://h/0/form%09%09?", "h:70", []string{"/form\t\t!", "/form\t+\t1", "+-1", "<answers>", "."}, "second connection"},
		// A Gopher+ string §3.4 does not name goes out as written.
		{"gopher://h/0/x%09%09*weird", "h:70", []string{"/x\t\t*weird"}, "sent as written"},
	}
	c := NewClient()
	for _, tt := range tests {
		p, err := c.Plan(mustParse(t, tt.url))
		if err != nil {
			t.Errorf("%s: %v", tt.url, err)
			continue
		}
		if p.Connect != tt.connect || !reflect.DeepEqual(p.Lines(), tt.steps) {
			t.Errorf("%s: connect %q steps %q; want %q %q", tt.url, p.Connect, p.Lines(), tt.connect, tt.steps)
		}
		if !strings.Contains(strings.Join(p.Notes, "\n"), tt.note) {
			t.Errorf("%s: notes %q lack %q", tt.url, p.Notes, tt.note)
		}
		if d, ok := p.Data.(*gopherPlan); !ok || d == nil {
			t.Errorf("%s: Data = %T", tt.url, p.Data)
		}
	}
}

// TestGopherPlanGuards: §6 refusals with the offset of the offending part.
func TestGopherPlanGuards(t *testing.T) {
	tests := []struct {
		url    string
		rule   string
		offset int
		reason string
	}{
		// §6's example: a gopher URL aimed at an SMTP server.
		{"gopher://127.0.0.1:25/0HELO%20x", "port", 19, "smtp"},
		{"gopher://127.0.0.1:25/0HELO%20x%0D%0AMAIL%20FROM:%3Ca@b%3E", "port", 19, "smtp"},
		{"gopher://h:119/0x", "port", 11, "nntp"},
		{"gopher://h:99999/0x", "port", 11, "not a TCP port"},
		// §3.4.1: a decoded CR, LF or NUL in the selector or search.
		{"gopher://h/0a%0D%0AQUIT", "line-delimiter", 13, "CR"},
		{"gopher://h/0a%0aQUIT", "line-delimiter", 13, "LF"},
		{"gopher://h/0a%00b", "line-delimiter", 13, "NUL"},
		{"gopher://h/7s%09a%0Db", "line-delimiter", 17, "the search holds %0D"},
		{"gopher://h/%0Dx", "line-delimiter", 11, "gopher type"},
		// A Gopher+ string with CR, LF or TAB outside the §3.4.9 layout.
		{"gopher://h/0x%09%09+a%0D%0AQUIT", "line-delimiter", 21, "Gopher+ string"},
		{"gopher://h/0x%09%09+%091%0D%0A+-1%0D%0Av%0D%0A", "line-delimiter", 20, "TAB"}, // no final "."
		{"gopher://h/0x%09%09+x%09y", "line-delimiter", 21, "TAB"},
	}
	c := NewClient()
	for _, tt := range tests {
		_, err := c.Plan(mustParse(t, tt.url))
		var ge *GuardError
		if !errors.As(err, &ge) || ge.Rule != tt.rule || ge.Offset != tt.offset || !strings.Contains(ge.Error(), tt.reason) {
			t.Errorf("%s: %v (%+v), want a %s refusal at offset %d naming %q", tt.url, err, ge, tt.rule, tt.offset, tt.reason)
		}
	}

	// The port guard lets an allowed port through, with a caution; the
	// delimiter guard still refuses the SMTP commands.
	for _, allow := range []*Client{{AllowPorts: []int{25}}, {AllowAnyPort: true}} {
		c := NewClient()
		c.AllowPorts, c.AllowAnyPort = allow.AllowPorts, allow.AllowAnyPort
		p, err := c.Plan(mustParse(t, "gopher://127.0.0.1:25/0HELO%20x"))
		if err != nil || !reflect.DeepEqual(p.Lines(), []string{"HELO x"}) || len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "§6") {
			t.Errorf("allowed port 25: %+v, %v", p, err)
		}
		_, err = c.Plan(mustParse(t, "gopher://127.0.0.1:25/0HELO%20x%0D%0AMAIL%20FROM:%3Ca@b%3E"))
		var ge *GuardError
		if !errors.As(err, &ge) || ge.Rule != "line-delimiter" {
			t.Errorf("allowed port 25 with CRLF: %v", err)
		}
	}

	// Types that are no Gopher item.
	for _, u := range []string{"gopher://h/8guest", "gopher://h/Tx", "gopher://h/2x", "gopher://h/ix", "gopher://h/3x"} {
		if _, err := c.Plan(mustParse(t, u)); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", u, err)
		}
	}
	if _, err := c.Plan(mustParse(t, "gopher://h:2323/8guest")); err == nil || !strings.Contains(err.Error(), "telnet://guest@h:2323/") {
		t.Errorf("type 8: %v, want a telnet URL hint", err)
	}
}

// wire is what a plan puts on the wire when its placeholders take the
// given run-time values: each step's line and CRLF.
func wire(p *Plan, runtime map[string]string) string {
	var b strings.Builder
	for _, s := range p.Steps {
		l := s.Line()
		for k, v := range runtime {
			l = strings.ReplaceAll(l, k, v)
		}
		b.WriteString(l + "\r\n")
	}
	return b.String()
}

func gopherReply(s string) testserver.GopherReply { return testserver.GopherReply{Reply: []byte(s)} }

func fakeURL(f *testserver.GopherFake, rest string) string { return "gopher://" + f.Addr + rest }

// TestGopherGetFake: each kind of reply from the scripted fake, and the
// fake's record of the request equals the plan's lines.
func TestGopherGetFake(t *testing.T) {
	menu := "iWelcome\t\tnull.host\t1\r\n" +
		"0Hello\t/hello.txt\t127.0.0.1\t70\r\n" +
		"1Odd dir\t/a b%c\t127.0.0.1\t7070\t+\r\n" +
		"9Blob\t/blob\tother.example\t70\t?\r\n" +
		".\r\n"
	tests := []struct {
		name    string
		path    string
		listing Listing
		reply   string
		body    string
		typ     string
		size    int64
	}{
		// Text: local line ends, ".." lines as sent, the final "." line
		// (the close follows it) removed; --raw keeps every byte.
		{"text", "/0/hello.txt", ListingText, "Hello.\r\n..dot\r\n.\r\n", "Hello.\n..dot\n", "text/plain", -1},
		{"text raw", "/0/hello.txt", ListingRaw, "Hello.\r\n..dot\r\n.\r\n", "Hello.\r\n..dot\r\n.\r\n", "text/plain", -1},
		{"text closed", "/0/hello.txt", ListingText, "No terminator.\r\n", "No terminator.\n", "text/plain", -1},
		{"text lone dot", "/0/hello.txt", ListingText, "a\r\n.\r\nb\r\n", "a\n.\nb\n", "text/plain", -1},
		{"binary", "/9/blob", ListingText, "\x00\x01.\r\n\xff", "\x00\x01.\r\n\xff", "application/octet-stream", -1},
		{"menu text", "/1/dir", ListingText, menu,
			"(INFO)  Welcome\n" +
				"(FILE)  Hello  <URL:gopher://127.0.0.1/0/hello.txt>\n" +
				"(DIR) + Odd dir  <URL:gopher://127.0.0.1:7070/1/a%20b%25c>\n" +
				"(BIN) ? Blob  <URL:gopher://other.example/9/blob>\n",
			"text/plain; charset=utf-8", -1},
		{"menu json", "/1/dir", ListingJSON, menu,
			`{"type":"i","display":"Welcome","selector":"","host":"null.host","port":1,"plus":false,"ask":false,"url":null}` + "\n" +
				`{"type":"0","display":"Hello","selector":"/hello.txt","host":"127.0.0.1","port":70,"plus":false,"ask":false,"url":"gopher://127.0.0.1/0/hello.txt"}` + "\n" +
				`{"type":"1","display":"Odd dir","selector":"/a b%c","host":"127.0.0.1","port":7070,"plus":true,"ask":false,"url":"gopher://127.0.0.1:7070/1/a%20b%25c"}` + "\n" +
				`{"type":"9","display":"Blob","selector":"/blob","host":"other.example","port":70,"plus":true,"ask":true,"url":"gopher://other.example/9/blob"}` + "\n",
			"application/jsonl", -1},
		{"menu raw", "/1/dir", ListingRaw, menu, menu, "application/gopher-menu", -1}, // final ".⏎" kept
		{"search", "/7/s%09two%20words", ListingText, "0Hit\t/hit\th\t70\r\n.\r\n", "(FILE)  Hit  <URL:gopher://h/0/hit>\n", "text/plain; charset=utf-8", -1},
		{"+N", "/0/hello.txt%09%09+", ListingText, "+7\r\nHello\r\n", "Hello\n", "text/plain", -1}, // local text: the count changes
		{"+N raw", "/0/hello.txt%09%09+", ListingRaw, "+7\r\nHello\r\n", "Hello\r\n", "text/plain", 7},
		{"+-1", "/0/hello.txt%09%09+", ListingText, "+-1\r\nHi\r\n.\r\n", "Hi\n", "text/plain", -1},
		{"+-2", "/9/blob%09%09+", ListingText, "+-2\r\nraw", "raw", "application/octet-stream", -1},
		{"alternate view", "/0/doc%09%09+application/postscript%20En_US", ListingText, "+4\r\n%!PS", "%!PS", "application/postscript", 4},
		{"+-2 menu", "/1%09%09+", ListingText, "+-2\r\n0A\t/a\th\t70\t+\r\n", "(FILE)+ A  <URL:gopher://h/0/a>\n", "text/plain; charset=utf-8", -1},
		{"form as written", "/0/form%09%09+%091%0D%0A+-1%0D%0AAnn%0D%0A.%0D%0A", ListingText, "+-1\r\nThanks.\r\n.\r\n", "Thanks.\n", "text/plain", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, gopherReply(tt.reply))
			c := NewClient()
			c.Listing = tt.listing
			u := mustParse(t, fakeURL(f, tt.path))
			p, err := c.Plan(u)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			resp, err := c.Get(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || string(body) != tt.body {
				t.Errorf("body %q, %v; want %q", body, err, tt.body)
			}
			if resp.Type != tt.typ || resp.Size != tt.size || resp.URL != p.URL {
				t.Errorf("type %q size %d url %q; want %q %d", resp.Type, resp.Size, resp.URL, tt.typ, tt.size)
			}
			reqs := f.Requests()
			if len(reqs) != 1 || string(reqs[0]) != wire(p, nil) {
				t.Errorf("sent %q, plan says %q", reqs, wire(p, nil))
			}
		})
	}
}

func TestGopherGetRefusals(t *testing.T) {
	t.Run("type 3", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("3Not here\terror.host\t1\r\n.\r\n"))
		_, _, err := planAndGet(t, NewClient(), fakeURL(f, "/1/gone"))
		var se *gopher.ServerError
		var te *textproto.Error
		if !errors.As(err, &se) || !errors.As(err, &te) || te.Msg != "Not here" || !strings.Contains(err.Error(), fakeURL(f, "/1/gone")) {
			t.Errorf("err %v, want the server's refusal with its text and the URL", err)
		}
	})
	t.Run("Gopher+ error", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("--1\r\n1 Admin <a@b>\r\nNo such item.\r\n.\r\n"))
		_, _, err := planAndGet(t, NewClient(), fakeURL(f, "/0/gone%09%09+"))
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 1 || te.Msg != "No such item." {
			t.Errorf("err %v, want code 1 and the text", err)
		}
	})
	t.Run("attributes from a Gopher-0 server", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("just the file\r\n"))
		_, _, err := planAndGet(t, NewClient(), fakeURL(f, "/0/x%09%09!"))
		if !errors.Is(err, gopher.ErrNotGopherPlus) {
			t.Errorf("err %v, want ErrNotGopherPlus", err)
		}
	})
	t.Run("altered plan", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("x"))
		c := NewClient()
		p, err := c.Plan(mustParse(t, fakeURL(f, "/0/x")))
		if err != nil {
			t.Fatal(err)
		}
		p.Steps[0].Arg = "/y"
		if _, err := c.Handler("gopher").Get(context.Background(), c, p); err == nil || !strings.Contains(err.Error(), "altered") {
			t.Errorf("err %v, want the altered plan refused", err)
		}
		if n := len(f.Requests()); n != 0 {
			t.Errorf("%d connections for a refused plan", n)
		}
	})
}

// TestGopherGetFaults: a broken server ends the body with an error that
// names the URL and the cause.
func TestGopherGetFaults(t *testing.T) {
	tests := []struct {
		name  string
		path  string
		reply testserver.GopherReply
		want  error
		text  string
	}{
		{"drop mid item", "/9/blob%09%09+", gopherReply("+100\r\nonly some"), io.ErrUnexpectedEOF, "got 9 of 100"},
		{"missing terminator", "/0/x%09%09+", gopherReply("+-1\r\nsome text\r\n"), io.ErrUnexpectedEOF, "+-1"},
		{"missing menu terminator", "/1%09%09+", gopherReply("+-1\r\n0A\t/a\th\t70\r\n"), io.ErrUnexpectedEOF, "+-1"},
		{"oversized line", "/1/dir", gopherReply("0" + strings.Repeat("x", gopher.DefaultMaxLineLength+10) + "\t/a\th\t70\r\n.\r\n"), gopher.ErrLineTooLong, "line too long"},
		{"too few fields", "/1/dir", gopherReply("0A\t/a\th\t70\r\n0Broken\t/b\r\n.\r\n"), nil, "menu line 2"},
		{"drop mid menu line", "/1/dir", gopherReply("0A\t/a\th\t70\r\n0Trunc\t/tr"), nil, "menu line 2"},
		{"stall", "/9/slow", testserver.GopherReply{Reply: []byte("part"), Hold: true}, context.DeadlineExceeded, "deadline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, tt.reply)
			// Only the stall needs a deadline to end it; every other fault
			// must show itself however slow a loaded machine is.
			timeout := 10 * time.Second
			if tt.want == context.DeadlineExceeded {
				timeout = 300 * time.Millisecond
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			c := NewClient()
			u := mustParse(t, fakeURL(f, tt.path))
			resp, err := c.Get(ctx, u)
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				resp.Body.Close()
			}
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) || !strings.Contains(err.Error(), u.String()) {
				t.Errorf("err %v, want %v naming %q and the URL", err, tt.want, tt.text)
			}
		})
	}
}

// prompter records the questions and gives scripted answers.
type prompter struct {
	mu        sync.Mutex
	answers   []string
	questions []string
	secret    []bool
}

func (p *prompter) prompt(q string, secret bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.questions = append(p.questions, q)
	p.secret = append(p.secret, secret)
	if len(p.answers) == 0 {
		return "", errors.New("no more answers")
	}
	a := p.answers[0]
	p.answers = p.answers[1:]
	return a, nil
}

// TestGopherAsk: §3.4.5 and §3.4.9 end to end against the fake — the
// "!" request, the questions through Prompt (AskP secret), the form sent
// exactly as §3.4.9 shows.
func TestGopherAsk(t *testing.T) {
	attrs := "+-2\r\n" +
		"+INFO: 0Form\t/form\t127.0.0.1\t70\t?\r\n" +
		"+ASK:\r\n" +
		" Note: Please answer\r\n" +
		" Ask: Your name\tnobody\r\n" +
		" AskP: Password\r\n" +
		" Choose: Colour\tred\tgreen\r\n" +
		" Select: Subscribe\t0\r\n" +
		" AskL: Comments\r\n" +
		" Ask: Town\tParis\r\n"
	f := testserver.NewGopherFake(t, gopherReply(attrs), gopherReply("+-1\r\nThanks, Ann.\r\n.\r\n"))
	c := NewClient()
	pr := &prompter{answers: []string{"Ann", "s3cret", "2", "y", "line one", "..two", "", ""}}
	c.Prompt = pr.prompt
	var trace []string
	var mu sync.Mutex
	c.Trace = func(dir byte, line string) {
		mu.Lock()
		defer mu.Unlock()
		trace = append(trace, string(dir)+" "+line)
	}
	p, body, err := planAndGet(t, c, fakeURL(f, "/0/form%09%09?"))
	if err != nil || body != "Thanks, Ann.\n" {
		t.Fatalf("body %q, %v", body, err)
	}
	wantQ := []string{
		"Please answer\nYour name [nobody]: ",
		"Password: ",
		"Colour (1) red (2) green [red]: ",
		"Subscribe (y/n) [n]: ",
		"Comments (lines; an empty line ends): ",
		"Comments (lines; an empty line ends): ",
		"Comments (lines; an empty line ends): ",
		"Town [Paris]: ",
	}
	if !reflect.DeepEqual(pr.questions, wantQ) || !reflect.DeepEqual(pr.secret, []bool{false, true, false, false, false, false, false, false}) {
		t.Errorf("questions %q secret %v\nwant %q", pr.questions, pr.secret, wantQ)
	}
	answers := "Ann\r\ns3cret\r\ngreen\r\n1\r\n2\r\nline one\r\n...two\r\nParis\r\n"
	reqs := f.Requests()
	want := []string{"/form\t\t!\r\n", "/form\t+\t1\r\n+-1\r\n" + answers + ".\r\n"}
	if len(reqs) != 2 || string(reqs[0]) != want[0] || string(reqs[1]) != want[1] {
		t.Errorf("sent %q\nwant %q", reqs, want)
	}
	if got := wire(p, map[string]string{"<answers>": strings.TrimSuffix(answers, "\r\n")}); got != want[0]+want[1] {
		t.Errorf("plan lines %q do not match the wire %q", got, want[0]+want[1])
	}
	if strings.Contains(strings.Join(trace, "\n"), "s3cret") {
		t.Errorf("the trace shows the AskP answer:\n%s", strings.Join(trace, "\n"))
	}

	t.Run("no prompt", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply(attrs))
		_, _, err := planAndGet(t, NewClient(), fakeURL(f, "/0/form%09%09?"))
		if !errors.Is(err, gopher.ErrNoPrompt) || len(f.Requests()) != 1 {
			t.Errorf("err %v after %d requests, want the no-prompt error after the attribute request", err, len(f.Requests()))
		}
	})
	t.Run("answer with CRLF", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply(attrs))
		c := NewClient()
		c.Prompt = (&prompter{answers: []string{"Ann\r\nQUIT", "pw", "", "", "", ""}}).prompt
		_, _, err := planAndGet(t, c, fakeURL(f, "/0/form%09%09?"))
		var re *gopher.RequestError
		if !errors.As(err, &re) || len(f.Requests()) != 1 {
			t.Errorf("err %v after %d requests, want a RequestError and no form sent", err, len(f.Requests()))
		}
	})
	t.Run("bad choice", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply(attrs))
		c := NewClient()
		c.Prompt = (&prompter{answers: []string{"Ann", "pw", "blue"}}).prompt
		_, _, err := planAndGet(t, c, fakeURL(f, "/0/form%09%09?"))
		if err == nil || !strings.Contains(err.Error(), `"blue" is not one of the choices`) {
			t.Errorf("err %v", err)
		}
	})
	t.Run("no form", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("+-2\r\n+INFO: 0x\t/x\th\t70\t+\r\n"))
		c := NewClient()
		c.Prompt = (&prompter{}).prompt
		_, _, err := planAndGet(t, c, fakeURL(f, "/0/x%09%09?"))
		if err == nil || !strings.Contains(err.Error(), "no +ASK block") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("Gopher-0 server", func(t *testing.T) {
		f := testserver.NewGopherFake(t, gopherReply("just the file\r\n"))
		c := NewClient()
		c.Prompt = (&prompter{}).prompt
		_, _, err := planAndGet(t, c, fakeURL(f, "/0/x%09%09?"))
		if !errors.Is(err, gopher.ErrNotGopherPlus) {
			t.Errorf("err %v", err)
		}
	})
}

// TestGopherSearchAsked: a type-7 URL without a search asks for it.
func TestGopherSearchAsked(t *testing.T) {
	f := testserver.NewGopherFake(t, gopherReply("0Hit\t/hit\th\t70\r\n.\r\n"))
	c := NewClient()
	pr := &prompter{answers: []string{"two words"}}
	c.Prompt = pr.prompt
	p, body, err := planAndGet(t, c, fakeURL(f, "/7/find"))
	if err != nil || body != "(FILE)  Hit  <URL:gopher://h/0/hit>\n" {
		t.Fatalf("body %q, %v", body, err)
	}
	if reqs := f.Requests(); len(reqs) != 1 || string(reqs[0]) != "/find\ttwo words\r\n" || wire(p, map[string]string{"<search>": "two words"}) != string(reqs[0]) {
		t.Errorf("sent %q, plan %q", reqs, p.Lines())
	}
	if len(pr.questions) != 1 || !strings.Contains(pr.questions[0], "/7/find") {
		t.Errorf("questions %q", pr.questions)
	}

	f = testserver.NewGopherFake(t, gopherReply("x"))
	_, _, err = planAndGet(t, NewClient(), fakeURL(f, "/7/find"))
	if err == nil || !strings.Contains(err.Error(), "needs a search string") || len(f.Requests()) != 0 {
		t.Errorf("no prompt: %v, %d connections", err, len(f.Requests()))
	}
	f = testserver.NewGopherFake(t, gopherReply("x"))
	c.Prompt = (&prompter{answers: []string{"a\tb"}}).prompt
	_, _, err = planAndGet(t, c, fakeURL(f, "/7/find"))
	var re *gopher.RequestError
	if !errors.As(err, &re) || len(f.Requests()) != 0 {
		t.Errorf("search with TAB: %v, %d connections", err, len(f.Requests()))
	}
}

// TestGopherAttributesListing: "!" and "$" rendered for people (views with
// their URLs, §3.4.8) and as JSON Lines.
func TestGopherAttributesListing(t *testing.T) {
	reply := "+-1\r\n" +
		"+INFO: 0Hello\t/hello.txt\t127.0.0.1\t7070\t+\r\n" +
		"+VIEWS:\r\n text/plain: <1k>\r\n application/postscript Es_ES: <2k>\r\n" +
		"+ABSTRACT:\r\n An abstract\tline.\r\n" +
		"+INFO: 1Dir\t/dir\t127.0.0.1\t7070\t+\r\n" +
		".\r\n"
	f := testserver.NewGopherFake(t, gopherReply(reply))
	_, body, err := planAndGet(t, NewClient(), fakeURL(f, "/1/%09%09$"))
	want := "(FILE)+ Hello  <URL:gopher://127.0.0.1:7070/0/hello.txt>\n" +
		"  +VIEWS:\n" +
		"    text/plain <1k>  <URL:gopher://127.0.0.1:7070/0/hello.txt%09%09+text/plain>\n" +
		"    application/postscript Es_ES <2k>  <URL:gopher://127.0.0.1:7070/0/hello.txt%09%09+application/postscript%20Es_ES>\n" +
		"  +ABSTRACT:\n" +
		"    An abstract\\tline.\n" +
		"\n" +
		"(DIR) + Dir  <URL:gopher://127.0.0.1:7070/1/dir>\n"
	if err != nil || body != want {
		t.Errorf("body, %v:\n%s\nwant:\n%s", err, body, want)
	}
	c := NewClient()
	c.Listing = ListingJSON
	_, body, err = planAndGet(t, c, fakeURL(f, "/1/%09%09$"))
	lines := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if err != nil || len(lines) != 2 {
		t.Fatalf("%d JSON lines, %v:\n%s", len(lines), err, body)
	}
	var j gopher.JSONAttrItem
	if err := json.Unmarshal([]byte(lines[0]), &j); err != nil {
		t.Fatal(err)
	}
	if j.Selector != "/hello.txt" || len(j.Attributes) != 3 || len(j.Views) != 2 || j.Views[1].Size != 2048 ||
		j.Views[1].URL == nil || *j.Views[1].URL != "gopher://127.0.0.1:7070/0/hello.txt%09%09+application/postscript%20Es_ES" {
		t.Errorf("JSON %s", lines[0])
	}
	// Every view URL plans the §3.4.8 request for that view.
	p, err := NewClient().Plan(mustParse(t, *j.Views[1].URL))
	if err != nil || !reflect.DeepEqual(p.Lines(), []string{"/hello.txt\t\t+application/postscript Es_ES"}) {
		t.Errorf("view URL plans %q, %v", p.Lines(), err)
	}
}

// TestGopherItemURLsRoundTrip: each menu item's URL plans the request for
// that very item (§3.4.1: type + selector, escaped so it reads back).
func TestGopherItemURLsRoundTrip(t *testing.T) {
	for _, sel := range []string{"/a b", "/100%", "/x?y=z;w", "/ü", "/~user/#frag", "/a+b", ""} {
		it := gopher.Item{Type: '0', Selector: sel, Host: "127.0.0.1", Port: 7070}
		u, err := rfc1738.Parse(it.URL())
		if err != nil {
			t.Errorf("%q: URL %q: %v", sel, it.URL(), err)
			continue
		}
		p, err := NewClient().Plan(u)
		if err != nil || !reflect.DeepEqual(p.Lines(), []string{sel}) || p.Connect != "127.0.0.1:7070" {
			t.Errorf("%q: URL %q plans %q to %s, %v", sel, it.URL(), p.Lines(), p.Connect, err)
		}
	}
}

// TestGopherGophernicus: menus, text, binary and the type-7 search script
// of a real Gophernicus, through Client.Get.
func TestGopherGophernicus(t *testing.T) {
	srv := testserver.Gophernicus(t)
	base := "gopher://127.0.0.1:" + strconv.Itoa(srv.Port)
	c := NewClient()

	_, body, err := planAndGet(t, c, base+"/")
	if err != nil || !strings.Contains(body, "(FILE)  Doc with space  <URL:"+base+"/0/docs/with%20space.txt>\n") ||
		!strings.Contains(body, "(?)     Search test  <URL:"+base+"/7/cgi-bin/search>\n") {
		t.Errorf("menu, %v:\n%s", err, body)
	}
	_, body, err = planAndGet(t, c, base+"/0/docs/with%20space.txt")
	if err != nil || body != "space name\n" { // gophernicus sends CRLF lines
		t.Errorf("text %q, %v", body, err)
	}
	_, body, err = planAndGet(t, c, base+"/9/docs/blob.bin")
	if err != nil || body != string(testserver.GopherBlob()) {
		t.Errorf("binary: %d bytes, %v; want the %d bytes of blob.bin", len(body), err, len(testserver.GopherBlob()))
	}
	_, body, err = planAndGet(t, c, base+"/7/cgi-bin/search%09hello%20world")
	if err != nil || body != "(INFO)  You searched for: hello world\n(FILE)  Result for hello world  <URL:gopher://127.0.0.1:7070/0/hello.txt>\n" {
		t.Errorf("search, %v:\n%s", err, body)
	}
	// Following a listed URL fetches the item it names.
	c.Listing = ListingJSON
	_, body, err = planAndGet(t, c, base+"/1/docs")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		var it gopher.JSONItem
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if strings.HasPrefix(it.Display, "with space.txt") {
			found = true
			_, got, err := planAndGet(t, c, *it.URL)
			if err != nil || got != "space name\n" {
				t.Errorf("%s: %q, %v", *it.URL, got, err)
			}
		}
	}
	if !found {
		t.Errorf("no 'with space.txt' in\n%s", body)
	}
	// No Gopher+: attributes fail clearly.
	if _, _, err := planAndGet(t, c, base+"/0/hello.txt%09%09!"); !errors.Is(err, gopher.ErrNotGopherPlus) {
		t.Errorf("attributes from gophernicus: %v", err)
	}
}

// TestGopherPygopherd: the Gopher+ requests "+", "!", "$" and a view
// against a real pygopherd, through Client.Get.
func TestGopherPygopherd(t *testing.T) {
	srv := testserver.Pygopherd(t)
	base := "gopher://127.0.0.1:" + strconv.Itoa(srv.Port)
	c := NewClient()
	c.Listing = ListingRaw // the wire's bytes, to compare with the file
	disk, err := os.ReadFile(filepath.Join(srv.Root, "hello.txt"))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, mustParse(t, base+"/0/hello.txt%09%09+"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || !bytes.Equal(body, disk) || resp.Size != int64(len(disk)) {
		t.Errorf("+: %q size %d, %v; want %q", body, resp.Size, err, disk)
	}
	c.Listing = ListingText
	_, got, err := planAndGet(t, c, base+"/9/docs/blob.bin%09%09+")
	if err != nil || got != string(testserver.GopherBlob()) {
		t.Errorf("binary +: %d bytes, %v", len(got), err)
	}
	_, got, err = planAndGet(t, c, base+"/0/hello.txt%09%09+text/plain")
	if err != nil || got != string(disk) {
		t.Errorf("view: %q, %v", got, err)
	}
	_, got, err = planAndGet(t, c, base+"/1%09%09+")
	if err != nil || !strings.Contains(got, "(FILE)+ hello  <URL:"+base+"/0/hello.txt>\n") {
		t.Errorf("+ menu, %v:\n%s", err, got)
	}
	_, got, err = planAndGet(t, c, base+"/0/hello.txt%09%09!")
	if err != nil || !strings.Contains(got, "  +ABSTRACT:\n    An abstract line.\n") ||
		!strings.Contains(got, "    text/plain <0k>  <URL:"+base+"/0/hello.txt%09%09+text/plain>\n") {
		t.Errorf("!, %v:\n%s", err, got)
	}
	_, got, err = planAndGet(t, c, base+"/1/%09%09$")
	if err != nil || !strings.Contains(got, "(FILE)+ form  <URL:"+base+"/0/form.txt>\n") || !strings.Contains(got, "    Choose: Colour\\tred\\tgreen\n") {
		t.Errorf("$, %v:\n%s", err, got)
	}
	_, _, err = planAndGet(t, c, base+"/0/nothere%09%09+")
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 1 {
		t.Errorf("missing item: %v, want Gopher+ error 1", err)
	}
	// pygopherd shows the +ASK block but ignores filled forms: the flow
	// completes and the item comes back.
	c.Prompt = (&prompter{answers: []string{"Ann", "2"}}).prompt
	_, got, err = planAndGet(t, c, base+"/0/form.txt%09%09?")
	if err != nil || got != "form body\n" {
		t.Errorf("form: %q, %v", got, err)
	}
}

// FuzzGopherListing renders arbitrary menu bodies both ways and checks what
// a terminal and a script rely on: the text listing holds no control byte
// but the line ends, every JSON line decodes, and every item URL parses
// and plans the request for that very item — or is refused by a §6 guard.
func FuzzGopherListing(f *testing.F) {
	f.Add("0Hello\t/hello.txt\t127.0.0.1\t70\r\n1Dir\t/a b%c\th\t7070\t+\r\n.\r\n")
	f.Add("iinfo\t\tnull.host\t1\r\n3error\r\n9x\t/b\tother.example\t70\t?\r\n")
	f.Add("0\x1b[2Jclear\t/sel\x00nul\th\t70\r\n0cr\t/a\rb\th\t70\n")
	f.Add("8telnet\tguest\th\t23\r\n\t\t\t\t\r\n%25\t%\th\t1\r\n")
	f.Add("0Broken\t/b\r\n0A\t/a\th\t99999\r\n")
	f.Fuzz(func(t *testing.T, menu string) {
		for _, l := range []Listing{ListingText, ListingJSON} {
			out, err := io.ReadAll(gopher.NewMenuRenderer(gopher.NewMenuReader(strings.NewReader(menu)), l == ListingJSON))
			var me *gopher.MenuError
			var pe *gopher.ProtocolError
			if err != nil && !errors.As(err, &me) && !errors.As(err, &pe) {
				t.Fatalf("listing %d: unexpected error %v", l, err)
			}
			if l == ListingText {
				for _, c := range out {
					if c < 0x20 && c != '\n' || c == 0x7f {
						t.Fatalf("control byte %#x in the listing %q", c, out)
					}
				}
				continue
			}
			for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
				if line == "" {
					continue
				}
				var it gopher.JSONItem
				if err := json.Unmarshal([]byte(line), &it); err != nil {
					t.Fatalf("JSON line %q: %v", line, err)
				}
				if it.URL == nil {
					continue
				}
				u, err := rfc1738.Parse(*it.URL)
				if err != nil {
					t.Fatalf("item URL %q does not parse: %v", *it.URL, err)
				}
				p, err := NewClient().Plan(u)
				var ge *GuardError
				switch {
				case errors.As(err, &ge), errors.Is(err, ErrUnsupported):
				case err != nil:
					t.Fatalf("item URL %q: %v", *it.URL, err)
				case !strings.Contains(it.Selector, "\uFFFD") && p.Lines()[0] != it.Selector && !strings.HasPrefix(p.Lines()[0], it.Selector+"\t"):
					t.Fatalf("item URL %q plans %q, want the selector %q", *it.URL, p.Lines(), it.Selector)
				}
			}
		}
	})
}

// TestGopherLastDotIsData: a file whose last line is "." with no line
// ending after it keeps that "." in every reading the tools make — get's
// local text, mirror's bytes as sent (KeepLineEnds) and browse's (a
// listing setting of JSON): RFC 1436's terminator is the line ".", CRLF,
// and a server that sends files as stored (pygopherd) sends "\n." at the
// end of such a file; curl and lynx keep the ".". gophernicus rewrites
// the line ends of a text file, its last line's included, and so sends
// "\r\n.\r\n": the RFC's terminator on the wire, removed as one.
func TestGopherLastDotIsData(t *testing.T) {
	for _, tt := range []struct {
		name        string
		start       func(testing.TB) *testserver.GopherServer
		wire, bytes string // as sent; as the mirror keeps it
	}{
		{"pygopherd", testserver.Pygopherd, testserver.GopherDotNoEOL, testserver.GopherDotNoEOL},
		{"gophernicus", testserver.Gophernicus, "text\r\n.\r\n", "text\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.start(t)
			u := "gopher://127.0.0.1:" + strconv.Itoa(srv.Port) + "/0/dotnoeol.txt"
			raw := NewClient()
			raw.Listing = ListingRaw
			if _, got, err := planAndGet(t, raw, u); err != nil || got != tt.wire {
				t.Fatalf("sent %q, %v; want %q", got, err, tt.wire)
			}
			local := strings.ReplaceAll(tt.bytes, "\r\n", "\n")
			for _, tc := range []struct {
				what, want string
				set        func(c *Client)
			}{
				{"get", local, func(c *Client) {}},
				{"mirror", tt.bytes, func(c *Client) { c.KeepLineEnds = true }},
				{"browse", local, func(c *Client) { c.Listing = ListingJSON }},
			} {
				c := NewClient()
				tc.set(c)
				if _, got, err := planAndGet(t, c, u); err != nil || got != tc.want {
					t.Errorf("%s: %q, %v; want %q", tc.what, got, err, tc.want)
				}
			}
		})
	}
}
