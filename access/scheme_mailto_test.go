package access

import (
	"context"
	"errors"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMailtoPlanAndGet: the SMTP envelope as the plan; get refuses.
func TestMailtoPlanAndGet(t *testing.T) {
	c := NewClient()
	c.Email = "me@here.example"
	c.RegisterProtocol("mailto", Mailto{Relay: "127.0.0.1:2525"})
	u := mustParse(t, "mailto:info@xyz.com") // §3.5's own example form
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	want := "MAIL FROM:<me@here.example>\nRCPT TO:<info@xyz.com>\nDATA"
	if got := strings.Join(p.Lines(), "\n"); got != want || p.Connect != "127.0.0.1:2525" {
		t.Errorf("plan %q to %q, want %q", got, p.Connect, want)
	}
	_, err = c.Get(context.Background(), u)
	if !errors.Is(err, ErrNotDataObject) || !strings.Contains(err.Error(), "names the Internet mailbox info@xyz.com") ||
		!strings.Contains(err.Error(), "rfc1738 mail") {
		t.Errorf("Get = %v", err)
	}

	for url, want := range map[string]string{
		"mailto:a%0D%0ARCPT%20TO:x@y.example": "offset 8",  // §6: CR/LF in the address
		"mailto:a%00b@x.example":              "NUL",       // §6
		"mailto:Joe%20Bloggs":                 "addr-spec", // §3.5
	} {
		if _, err := c.Plan(mustParse(t, url)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", url, err, want)
		}
	}
	c.Email = "me@here.example>\r\nRCPT TO:<x@y"
	if _, err := c.Plan(u); err == nil || !strings.Contains(err.Error(), "sender") {
		t.Errorf("bad sender: %v", err)
	}
}

// TestMailtoSend: the exact conversation with a loopback relay, the DATA
// dot-stuffed (RFC 5321 §4.5.2), a refusal with its code, and CR/LF in a
// header value refused before anything is dialled.
func TestMailtoSend(t *testing.T) {
	f := testserver.StartSMTPFake(t)
	c := NewClient()
	c.Email = "me@here.example"
	var trace []string
	c.Trace = func(dir byte, line string) { trace = append(trace, string(dir)+" "+line) }
	h := Mailto{Relay: f.Addr}
	c.RegisterProtocol("mailto", h)
	p, err := c.Plan(mustParse(t, "mailto:you@there.example"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	date := time.Date(1994, 12, 20, 10, 0, 0, 0, time.UTC) // RFC 1738's month
	err = h.Send(ctx, c, p, Message{
		Subject: "RFC 1738",
		Header:  []HeaderField{{"X-Test", "yes"}},
		Body:    strings.NewReader("line one\n.hidden dot\n..two\nlast\n"),
		Date:    date,
	})
	if err != nil {
		t.Fatal(err)
	}
	cmds, data := f.Commands(), f.Data()
	wantCmds := append(append([]string{"EHLO localhost"}, p.Lines()...), "QUIT")
	if strings.Join(cmds, "\n") != strings.Join(wantCmds, "\n") {
		t.Errorf("commands\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(wantCmds, "\n"))
	}
	wantData := "From: me@here.example\r\nTo: you@there.example\r\nSubject: RFC 1738\r\n" +
		"Date: Tue, 20 Dec 1994 10:00:00 +0000\r\nX-Test: yes\r\n\r\n" +
		"line one\r\n..hidden dot\r\n...two\r\nlast\r\n.\r\n"
	if data != wantData {
		t.Errorf("DATA\n%q\nwant\n%q", data, wantData)
	}
	tr := strings.Join(trace, "\n")
	if !strings.Contains(tr, "> RCPT TO:<you@there.example>\n< 250 2.1.5 ok") || strings.Contains(tr, "hidden") {
		t.Errorf("trace:\n%s", tr)
	}

	// The relay's refusal keeps its code and text.
	p, _ = c.Plan(mustParse(t, "mailto:nobody@there.example"))
	err = h.Send(ctx, c, p, Message{Body: strings.NewReader("x\n")})
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 || !strings.Contains(err.Error(), "no such user") {
		t.Errorf("refused RCPT: %v", err)
	}

	// CR/LF in a header value or a bad field name: nothing is dialled.
	before := f.Conns()
	p, _ = c.Plan(mustParse(t, "mailto:you@there.example"))
	for _, m := range []Message{
		{Subject: "hi\r\nBcc: victim@example.com"},
		{Header: []HeaderField{{"X-A", "v\nBcc: victim@example.com"}}},
		{Header: []HeaderField{{"Bad Name", "v"}}},
	} {
		if err := h.Send(ctx, c, p, m); err == nil {
			t.Errorf("%+v was sent", m)
		}
	}
	after := f.Conns()
	if after != before {
		t.Errorf("%d connections for refused messages", after-before)
	}
}
