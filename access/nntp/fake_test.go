package nntp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

type S = testserver.NNTPStep

const greet = "200 fake NNTP ready (posting ok)"

// dialFake starts a scripted fake and connects to it.
func dialFake(t *testing.T, cfg Config, steps ...S) (*Conn, *testserver.NNTPFake) {
	t.Helper()
	f := testserver.NNTPFakeServer(t, greet, steps...)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, f.Addr, cfg)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, f
}

func ctx5(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func readAll(t *testing.T, a *Article) string {
	t.Helper()
	b, err := io.ReadAll(a)
	if err != nil {
		t.Fatalf("reading article: %v", err)
	}
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return string(b)
}

// wantCommands checks the exact command sequence the fake received.
func wantCommands(t *testing.T, f *testserver.NNTPFake, want ...string) {
	t.Helper()
	if got := f.Commands(); !slices.Equal(got, want) {
		t.Errorf("commands sent:\n got %q\nwant %q", got, want)
	}
}

// The article of the fixtures: its third body line starts with a dot, so
// on the wire it is dot-stuffed (RFC 3977 §3.1.1).
const wireArticle = "From: a@example.com\n" +
	"Newsgroups: local.test\n" +
	"Subject: hello\n" +
	"Message-ID: <x.1@example.com>\n" +
	"\n" +
	"line one\n" +
	"..starts with a dot\n" +
	"...two dots\n" +
	"last\n" +
	".\n"

const plainArticle = "From: a@example.com\n" +
	"Newsgroups: local.test\n" +
	"Subject: hello\n" +
	"Message-ID: <x.1@example.com>\n" +
	"\n" +
	"line one\n" +
	".starts with a dot\n" +
	"..two dots\n" +
	"last\n"

// TestNNTPURLForm: nntp://host/local.test/3 (RFC 1738 §3.7) is GROUP then
// ARTICLE n.
func TestNNTPURLForm(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.test", Reply: "211 3 1 3 local.test\n"},
		S{Expect: "ARTICLE 3", Reply: "220 3 <x.1@example.com>\n" + wireArticle},
	)
	ctx := ctx5(t)
	g, err := c.Group(ctx, "local.test")
	if err != nil {
		t.Fatal(err)
	}
	if want := (GroupInfo{Name: "local.test", Count: 3, Low: 1, High: 3}); g != want {
		t.Errorf("Group = %+v, want %+v", g, want)
	}
	a, err := c.Article(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if a.Number != 3 || a.MessageID != "<x.1@example.com>" {
		t.Errorf("Article = %d %s", a.Number, a.MessageID)
	}
	if got := readAll(t, a); got != plainArticle {
		t.Errorf("article text (dot-unstuffed):\n%q\nwant\n%q", got, plainArticle)
	}
	c.Close()
	wantCommands(t, f, "GROUP local.test", "ARTICLE 3", "QUIT")
}

// TestNewsMessageIDForm: news:x.1@example.com (RFC 1738 §3.6, no brackets)
// is ARTICLE <x.1@example.com>.
func TestNewsMessageIDForm(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "ARTICLE <x.1@example.com>", Reply: "220 0 <x.1@example.com>\n" + wireArticle},
	)
	a, err := c.ArticleByID(ctx5(t), "x.1@example.com")
	if err != nil {
		t.Fatal(err)
	}
	if a.Number != 0 {
		t.Errorf("Number = %d, want 0 (asked by id)", a.Number)
	}
	if got := readAll(t, a); got != plainArticle {
		t.Errorf("article text:\n%q", got)
	}
	wantCommands(t, f, "ARTICLE <x.1@example.com>")
}

// TestNewsStarForm: news:* (RFC 1738 §3.6) is LIST ACTIVE.
func TestNewsStarForm(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "LIST ACTIVE", Reply: "215 list follows\n" +
			"local.test 0000000002 0000000001 y\n" +
			"control.cancel 0000000000 0000000001 n\n" +
			"comp.mod 10 5 m\n.\n"},
	)
	got, err := c.ListActive(ctx5(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []ActiveGroup{
		{Name: "local.test", High: 2, Low: 1, Status: "y"},
		{Name: "control.cancel", High: 0, Low: 1, Status: "n"},
		{Name: "comp.mod", High: 10, Low: 5, Status: "m"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("ListActive = %+v", got)
	}
	wantCommands(t, f, "LIST ACTIVE")
}

// TestListFallback: an RFC 977 server knows only LIST (§3.6.1) and answers
// LIST ACTIVE with 501; the client retries with LIST and keeps to it.
func TestListFallback(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "LIST ACTIVE", Reply: "501 syntax error\n"},
		S{Expect: "LIST", Reply: "215 list follows\nlocal.test 2 1 y\n.\n"},
		S{Expect: "LIST", Reply: "215 list follows\nlocal.test 3 1 y\n.\n"},
	)
	for _, high := range []int64{2, 3} {
		got, err := c.ListActive(ctx5(t))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].High != high {
			t.Errorf("ListActive = %+v", got)
		}
	}
	wantCommands(t, f, "LIST ACTIVE", "LIST", "LIST")
}

const overLines = "224 overview follows\n" +
	"1\tFirst\tA <a@example.com>\tSat, 21 Nov 2026 04:00:00 +0000\t<first.1@example.com>\t\t412\t3\tXref: h local.test:1\n" +
	"2\tRe: First\tB <b@example.com>\tSat, 21 Nov 2026 04:01:00 +0000\t<second.2@example.com>\t<first.1@example.com>\t\t\n" +
	".\n"

var wantOver = []OverviewLine{
	{Group: "local.test", Number: 1, Subject: "First", From: "A <a@example.com>", Date: "Sat, 21 Nov 2026 04:00:00 +0000", MessageID: "<first.1@example.com>", Bytes: 412, Lines: 3},
	{Group: "local.test", Number: 2, Subject: "Re: First", From: "B <b@example.com>", Date: "Sat, 21 Nov 2026 04:01:00 +0000", MessageID: "<second.2@example.com>", References: "<first.1@example.com>"},
}

func collectOver(t *testing.T, c *Conn, r Range) []OverviewLine {
	t.Helper()
	var got []OverviewLine
	for ov, err := range c.Over(ctx5(t), r) {
		if err != nil {
			t.Fatalf("Over: %v", err)
		}
		got = append(got, ov)
	}
	return got
}

// TestNewsGroupForm: news:local.test (RFC 1738 §3.6) is GROUP, then OVER
// over the group's range (RFC 3977 §8.3).
func TestNewsGroupForm(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
		S{Expect: "OVER 1-2", Reply: overLines},
	)
	g, err := c.Group(ctx5(t), "local.test")
	if err != nil {
		t.Fatal(err)
	}
	if got := collectOver(t, c, Range{g.Low, g.High}); !slices.Equal(got, wantOver) {
		t.Errorf("Over:\n got %+v\nwant %+v", got, wantOver)
	}
	wantCommands(t, f, "GROUP local.test", "OVER 1-2")
}

// TestXOverFallback: a server without OVER answers 500; the client falls
// back to XOVER (RFC 2980 §2.8) and remembers it.
func TestXOverFallback(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
		S{Expect: "OVER 1-", Reply: "500 What?\n"},
		S{Expect: "XOVER 1-", Reply: overLines},
		S{Expect: "XOVER 2", Reply: "224 ok\n.\n"},
		S{Expect: "XOVER 5-9", Reply: "423 No articles in that range\n"},
	)
	if _, err := c.Group(ctx5(t), "local.test"); err != nil {
		t.Fatal(err)
	}
	if got := collectOver(t, c, Range{Low: 1}); !slices.Equal(got, wantOver) {
		t.Errorf("Over = %+v", got)
	}
	if got := collectOver(t, c, Range{2, 2}); len(got) != 0 {
		t.Errorf("Over 2 = %+v", got)
	}
	if got := collectOver(t, c, Range{5, 9}); len(got) != 0 { // 423: empty range
		t.Errorf("Over 5-9 = %+v", got)
	}
	wantCommands(t, f, "GROUP local.test", "OVER 1-", "XOVER 1-", "XOVER 2", "XOVER 5-9")
}

// TestOverBreakDrains: leaving the loop early drains the listing, so the
// next command is in step.
func TestOverBreakDrains(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "OVER 1-2", Reply: overLines},
		S{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
	)
	for ov, err := range c.Over(ctx5(t), Range{1, 2}) {
		if err != nil || ov.Number != 1 {
			t.Fatalf("first line: %+v %v", ov, err)
		}
		break
	}
	if _, err := c.Group(ctx5(t), "local.test"); err != nil {
		t.Fatalf("GROUP after an early break: %v", err)
	}
	wantCommands(t, f, "OVER 1-2", "GROUP local.test")
}

// TestOverBreakThenDrop: when the drain after an early break fails (the
// peer drops mid-listing), the iterator does not yield again — a yield
// after the loop stopped would panic — and the next command reports the
// broken connection.
func TestOverBreakThenDrop(t *testing.T) {
	c, _ := dialFake(t, Config{},
		S{Expect: "OVER 1-2", Reply: "224 overview follows\n" + strings.SplitAfter(overLines, "\n")[1], Close: true},
	)
	for ov, err := range c.Over(ctx5(t), Range{1, 2}) {
		if err != nil || ov.Number != 1 {
			t.Fatalf("first line: %+v %v", ov, err)
		}
		break
	}
	if _, err := c.Group(ctx5(t), "local.test"); err == nil {
		t.Fatal("GROUP on a dropped connection succeeded")
	}
}

// TestUnreadBodyDrained: a body left open is drained by the next command
// (the house style's answer to "must close before the next command").
func TestUnreadBodyDrained(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "ARTICLE <x.1@example.com>", Reply: "220 0 <x.1@example.com>\n" + wireArticle},
		S{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
	)
	a, err := c.ArticleByID(ctx5(t), "x.1@example.com")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if _, err := io.ReadFull(a, buf); err != nil || string(buf) != "From:" {
		t.Fatalf("first bytes %q %v", buf, err)
	}
	if _, err := c.Group(ctx5(t), "local.test"); err != nil {
		t.Fatalf("GROUP with a body open: %v", err)
	}
	if n, err := a.Read(buf); n != 0 || err != io.EOF {
		t.Errorf("Read after drain = %d, %v; want 0, EOF", n, err)
	}
	wantCommands(t, f, "ARTICLE <x.1@example.com>", "GROUP local.test")
}

// TestRefusals: RFC 3977 §6.1.1 411, §6.2.1 423 and 430, RFC 4643 480
// without credentials, 502: each a *textproto.Error wrapped with the
// command, the connection still usable afterwards.
func TestRefusals(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.nope", Reply: "411 No such group local.nope\n"},
		S{Expect: "ARTICLE 99", Reply: "423 No article with that number\n"},
		S{Expect: "ARTICLE <gone@example.com>", Reply: "430 No such article\n"},
		S{Expect: "GROUP local.secret", Reply: "480 Authentication required\n"},
		S{Expect: "LIST ACTIVE", Reply: "502 Permission denied\n"},
		S{Expect: "GROUP local.test", Reply: "211 0 1 0 local.test\n"},
	)
	ctx := ctx5(t)
	_, err := c.Group(ctx, "local.nope")
	checkRefusal(t, err, 411, "GROUP local.nope", IsNoSuchGroup)
	_, err = c.Article(ctx, 99)
	checkRefusal(t, err, 423, "ARTICLE 99", IsNoSuchArticle)
	_, err = c.ArticleByID(ctx, "gone@example.com")
	checkRefusal(t, err, 430, "ARTICLE <gone@example.com>", IsNoSuchArticle)
	_, err = c.Group(ctx, "local.secret")
	checkRefusal(t, err, 480, "GROUP local.secret", IsAuthRequired)
	_, err = c.ListActive(ctx)
	checkRefusal(t, err, 502, "LIST ACTIVE", IsUnavailable)
	if g, err := c.Group(ctx, "local.test"); err != nil || g.Count != 0 {
		t.Errorf("GROUP after refusals = %+v, %v", g, err)
	}
	wantCommands(t, f, "GROUP local.nope", "ARTICLE 99", "ARTICLE <gone@example.com>",
		"GROUP local.secret", "LIST ACTIVE", "GROUP local.test")
}

func checkRefusal(t *testing.T, err error, code int, cmd string, is func(error) bool) {
	t.Helper()
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != code {
		t.Errorf("%s: err = %v, want a *textproto.Error %d", cmd, err, code)
		return
	}
	if !is(err) || ReplyCode(err) != code {
		t.Errorf("%s: helper does not recognise %v", cmd, err)
	}
	if !strings.Contains(err.Error(), cmd) {
		t.Errorf("%s: error %q does not name the command", cmd, err)
	}
}

// TestAuthInfo: a 480 makes the client send AUTHINFO USER/PASS (RFC 4643
// §2.3) and retry the command once; the password never reaches Trace.
func TestAuthInfo(t *testing.T) {
	var trace []string
	cfg := Config{Username: "reader", Password: "s3cret",
		Trace: func(dir byte, line string) { trace = append(trace, string(dir)+" "+line) }}
	c, f := dialFake(t, cfg,
		S{Expect: "GROUP local.secret", Reply: "480 Authentication required\n"},
		S{Expect: "AUTHINFO USER reader", Reply: "381 Password required\n"},
		S{Expect: "AUTHINFO PASS s3cret", Reply: "281 Authentication accepted\n"},
		S{Expect: "GROUP local.secret", Reply: "211 1 1 1 local.secret\n"},
	)
	if _, err := c.Group(ctx5(t), "local.secret"); err != nil {
		t.Fatal(err)
	}
	wantCommands(t, f, "GROUP local.secret", "AUTHINFO USER reader", "AUTHINFO PASS s3cret", "GROUP local.secret")
	for _, l := range trace {
		if strings.Contains(l, "s3cret") {
			t.Errorf("trace shows the password: %q", l)
		}
	}
	if !slices.Contains(trace, "> AUTHINFO PASS ****") {
		t.Errorf("trace = %q", trace)
	}
}

// TestAuthInfoRejected: a 481 to the password is returned, the original
// command is not retried, and the password is not in the error.
func TestAuthInfoRejected(t *testing.T) {
	c, f := dialFake(t, Config{Username: "reader", Password: "wrong"},
		S{Expect: "ARTICLE 1", Reply: "480 Authentication required\n"},
		S{Expect: "AUTHINFO USER reader", Reply: "381 Password required\n"},
		S{Expect: "AUTHINFO PASS wrong", Reply: "481 Authentication failed\n"},
	)
	_, err := c.Article(ctx5(t), 1)
	if ReplyCode(err) != 481 || strings.Contains(err.Error(), "wrong") {
		t.Errorf("err = %v", err)
	}
	wantCommands(t, f, "ARTICLE 1", "AUTHINFO USER reader", "AUTHINFO PASS wrong")
}

// TestAuthRequiredTwice: the retry happens once; a second 480 is returned.
func TestAuthRequiredTwice(t *testing.T) {
	c, f := dialFake(t, Config{Username: "u", Password: "p"},
		S{Expect: "GROUP g", Reply: "480 Authentication required\n"},
		S{Expect: "AUTHINFO USER u", Reply: "281 ok\n"},
		S{Expect: "GROUP g", Reply: "480 Authentication required\n"},
	)
	_, err := c.Group(ctx5(t), "g")
	if !IsAuthRequired(err) {
		t.Errorf("err = %v, want 480", err)
	}
	wantCommands(t, f, "GROUP g", "AUTHINFO USER u", "GROUP g")
}

// TestModeReader: INN's transit mode answers "401 MODE-READER" (RFC 3977
// §3.2.1, §5.3); the client switches and retries once.
func TestModeReader(t *testing.T) {
	c, f := dialFake(t, Config{},
		S{Expect: "GROUP local.test", Reply: "401 MODE-READER\n"},
		S{Expect: "MODE READER", Reply: "200 Posting allowed\n"},
		S{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
		S{Expect: "ARTICLE 7", Reply: "401 MODE-READER\n"}, // already switched: no loop
	)
	if _, err := c.Group(ctx5(t), "local.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Article(ctx5(t), 7); ReplyCode(err) != 401 {
		t.Errorf("second 401: err = %v", err)
	}
	wantCommands(t, f, "GROUP local.test", "MODE READER", "GROUP local.test", "ARTICLE 7")
}

// TestModeReaderPolicies: Always sends MODE READER after the greeting; a
// 500 naming MODE READER (pre-3977 servers) triggers it under Auto;
// CAPABILITIES with MODE-READER but no READER triggers it too.
func TestModeReaderPolicies(t *testing.T) {
	t.Run("always", func(t *testing.T) {
		c, f := dialFake(t, Config{ModeReader: ModeReaderAlways},
			S{Expect: "MODE READER", Reply: "201 No posting\n"},
			S{Expect: "GROUP a", Reply: "211 0 1 0 a\n"},
		)
		if _, err := c.Group(ctx5(t), "a"); err != nil {
			t.Fatal(err)
		}
		wantCommands(t, f, "MODE READER", "GROUP a")
	})
	t.Run("500", func(t *testing.T) {
		c, f := dialFake(t, Config{},
			S{Expect: "LIST ACTIVE", Reply: "500 You must send MODE READER first\n"},
			S{Expect: "MODE READER", Reply: "200 ok\n"},
			S{Expect: "LIST ACTIVE", Reply: "215 list\na 1 1 y\n.\n"},
		)
		if _, err := c.ListActive(ctx5(t)); err != nil {
			t.Fatal(err)
		}
		wantCommands(t, f, "LIST ACTIVE", "MODE READER", "LIST ACTIVE")
	})
	t.Run("capabilities", func(t *testing.T) {
		c, f := dialFake(t, Config{},
			S{Expect: "CAPABILITIES", Reply: "101 Capability list:\nVERSION 2\nMODE-READER\nIHAVE\n.\n"},
			S{Expect: "MODE READER", Reply: "200 ok\n"},
		)
		caps, err := c.Capabilities(ctx5(t))
		if err != nil || !slices.Contains(caps, "MODE-READER") {
			t.Fatalf("caps %q %v", caps, err)
		}
		wantCommands(t, f, "CAPABILITIES", "MODE READER")
	})
	t.Run("never", func(t *testing.T) {
		c, f := dialFake(t, Config{ModeReader: ModeReaderNever},
			S{Expect: "GROUP a", Reply: "401 MODE-READER\n"},
		)
		if _, err := c.Group(ctx5(t), "a"); ReplyCode(err) != 401 {
			t.Fatalf("err = %v", err)
		}
		wantCommands(t, f, "GROUP a")
	})
}

// TestGreetings: RFC 3977 §5.1.1: 200 and 201 are service, 400 and 502
// refusals, anything else a broken peer.
func TestGreetings(t *testing.T) {
	for _, tc := range []struct {
		greeting string
		code     int // 0: success; -1: ProtocolError
	}{
		{"200 ready posting ok", 0},
		{"201 ready no posting", 0},
		{"400 Service temporarily unavailable", 400},
		{"502 Service permanently unavailable", 502},
		{"220 not a greeting", -1},
		{"SSH-2.0-OpenSSH_9.2", -1},
	} {
		f := testserver.NNTPFakeServer(t, tc.greeting)
		c, err := Dial(ctx5(t), f.Addr, Config{})
		switch tc.code {
		case 0:
			if err != nil {
				t.Errorf("%q: %v", tc.greeting, err)
				continue
			}
			if code, _ := c.Greeting(); code != 200 && code != 201 {
				t.Errorf("%q: Greeting code %d", tc.greeting, code)
			}
			c.Close()
		case -1:
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Errorf("%q: err = %v, want ProtocolError", tc.greeting, err)
			}
		default:
			if ReplyCode(err) != tc.code {
				t.Errorf("%q: err = %v, want %d", tc.greeting, err, tc.code)
			}
		}
	}
}

// TestGarbage: replies that break the protocol are ProtocolErrors, and the
// connection is then unusable rather than out of step.
func TestGarbage(t *testing.T) {
	for _, tc := range []struct {
		name string
		step S
		call func(*Conn, context.Context) error
	}{
		{"status", S{Expect: "GROUP a", Reply: "hello there\n"}, groupCall("a")},
		{"short 211", S{Expect: "GROUP a", Reply: "211 3 1\n"}, groupCall("a")},
		{"211 letters", S{Expect: "GROUP a", Reply: "211 x 1 3 a\n"}, groupCall("a")},
		{"wrong code", S{Expect: "GROUP a", Reply: "220 1 <a@b>\n"}, groupCall("a")},
		{"220 no id", S{Expect: "ARTICLE 1", Reply: "220 1 nobrackets\nbody\n.\n"}, func(c *Conn, ctx context.Context) error {
			_, err := c.Article(ctx, 1)
			return err
		}},
		{"overview fields", S{Expect: "OVER 1-2", Reply: "224 ok\n1\tonly\tthree\n.\n"}, overCall},
		{"overview number", S{Expect: "OVER 1-2", Reply: "224 ok\nx\ta\tb\tc\t<d@e>\t\t1\t1\n.\n"}, overCall},
		{"active", S{Expect: "LIST ACTIVE", Reply: "215 ok\nlocal.test two 1 y\n.\n"}, func(c *Conn, ctx context.Context) error {
			_, err := c.ListActive(ctx)
			return err
		}},
		{"long line", S{Expect: "GROUP a", Reply: "211 " + strings.Repeat("9", 300) + "\n"}, groupCall("a")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := dialFake(t, Config{MaxLineLength: 200}, tc.step)
			err := tc.call(c, ctx5(t))
			var pe *ProtocolError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want ProtocolError", err)
			}
			if _, err := c.Group(ctx5(t), "b"); err == nil || !errors.As(err, &pe) {
				t.Errorf("connection still used after a protocol error: %v", err)
			}
		})
	}
}

func groupCall(name string) func(*Conn, context.Context) error {
	return func(c *Conn, ctx context.Context) error {
		_, err := c.Group(ctx, name)
		return err
	}
}

func overCall(c *Conn, ctx context.Context) error {
	for _, err := range c.Over(ctx, Range{1, 2}) {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestDropMidArticle: the server hangs up inside an article; Read reports
// io.ErrUnexpectedEOF, never a clean end.
func TestDropMidArticle(t *testing.T) {
	c, _ := dialFake(t, Config{},
		S{Expect: "ARTICLE 1", Reply: "220 1 <x.1@example.com>\nFrom: a@example.com\n\nhalf a bo", Close: true},
	)
	a, err := c.Article(ctx5(t), 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(a)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("ReadAll = %q, %v; want io.ErrUnexpectedEOF", b, err)
	}
	if _, err := c.Group(ctx5(t), "a"); err == nil {
		t.Error("connection usable after a drop")
	}
}

// TestStallPastDeadline: a server that stops answering mid-article or
// before the status line is cut off at the ctx deadline.
func TestStallPastDeadline(t *testing.T) {
	for _, tc := range []struct {
		name string
		step S
	}{
		{"status", S{Expect: "ARTICLE 1", Stall: true}},
		{"body", S{Expect: "ARTICLE 1", Reply: "220 1 <x@y>\nFrom: a@b\n", Stall: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := dialFake(t, Config{}, tc.step)
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			a, err := c.Article(ctx, 1)
			if err == nil {
				_, err = io.ReadAll(a)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want context.DeadlineExceeded", err)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v after a 200ms deadline", d)
			}
		})
	}
}

// TestCancel: cancelling ctx unblocks a read at once.
func TestCancel(t *testing.T) {
	c, _ := dialFake(t, Config{}, S{Expect: "LIST ACTIVE", Reply: "215 ok\na 1 1 y\n", Stall: true})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := c.ListActive(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestRefusedBeforeSending: RFC 1738 §6 — CR, LF, NUL, space, brackets in
// a group name or message-id never reach the wire.
func TestRefusedBeforeSending(t *testing.T) {
	c, f := dialFake(t, Config{})
	ctx := ctx5(t)
	for _, g := range []string{"", "local.test\r\nQUIT", "a\nb", "a\x00b", "a b", "a\tb", "comp.*", "a,b"} {
		var ae *ArgumentError
		if _, err := c.Group(ctx, g); !errors.As(err, &ae) {
			t.Errorf("Group(%q) = %v, want ArgumentError", g, err)
		}
	}
	for _, id := range []string{"", "<x@y>", "x@y>", "x>y@z", "x@y\r\nQUIT", "x\n@y", "x\x00@y", "x y@z", "é@y", strings.Repeat("a", 249)} {
		var ae *ArgumentError
		if _, err := c.ArticleByID(ctx, id); !errors.As(err, &ae) {
			t.Errorf("ArticleByID(%q) = %v, want ArgumentError", id, err)
		}
	}
	if _, err := c.Article(ctx, 0); err == nil {
		t.Error("Article(0) accepted")
	}
	for _, cfg := range []Config{{Username: "u\r\nQUIT", Password: "p"}, {Username: "u", Password: "p\nQUIT"}} {
		var ae *ArgumentError
		if _, err := Dial(ctx, f.Addr, cfg); !errors.As(err, &ae) {
			t.Errorf("Dial(%+v) = %v, want ArgumentError", cfg, err)
		}
	}
	wantCommands(t, f) // nothing at all
}

// TestRange: the three forms of RFC 3977 §8.3.1's range.
func TestRange(t *testing.T) {
	for _, tc := range []struct {
		r    Range
		want string
	}{
		{Range{5, 5}, "5"},
		{Range{5, 0}, "5-"},
		{Range{1, 10000}, "1-10000"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// TestDialDefaultPort: an address without a port gets 119 (RFC 1738 §3.7).
func TestDialDefaultPort(t *testing.T) {
	var got string
	d := dialerFunc(func(ctx context.Context, network, addr string) (net.Conn, error) {
		got = addr
		return nil, errors.New("no network in this test")
	})
	Dial(ctx5(t), "news.example.com", Config{Dialer: d})
	if got != "news.example.com:119" {
		t.Errorf("dialled %q", got)
	}
}

type dialerFunc func(ctx context.Context, network, addr string) (net.Conn, error)

func (f dialerFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
}

// TestTrace: the hook sees the greeting, each command and each status and
// listing line, in order, without CRLF.
func TestTrace(t *testing.T) {
	var got []string
	cfg := Config{Trace: func(dir byte, line string) { got = append(got, string(dir)+" "+line) }}
	c, _ := dialFake(t, cfg,
		S{Expect: "GROUP local.test", Reply: "211 1 1 1 local.test\n"},
		S{Expect: "LIST ACTIVE", Reply: "215 list follows\nlocal.test 1 1 y\n.\n"},
	)
	if _, err := c.Group(ctx5(t), "local.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListActive(ctx5(t)); err != nil {
		t.Fatal(err)
	}
	want := []string{"< " + greet, "> GROUP local.test", "< 211 1 1 1 local.test",
		"> LIST ACTIVE", "< 215 list follows", "< local.test 1 1 y"}
	if !slices.Equal(got, want) {
		t.Errorf("trace:\n got %q\nwant %q", got, want)
	}
}

// TestActiveStreams: news:* is streamed; a group is yielded as soon as its
// line arrives, before the list ends (here it never does: the server
// stalls), so memory does not grow with the list.
func TestActiveStreams(t *testing.T) {
	c, _ := dialFake(t, Config{},
		S{Expect: "LIST ACTIVE", Reply: "215 list follows\nlocal.test 2 1 y\n", Stall: true},
	)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	groups := 0
	for g, err := range c.Active(ctx) {
		if err != nil {
			if groups == 0 {
				t.Fatalf("Active: %v before the first group: it waited for the end of the list", err)
			}
			break
		}
		groups++
		if g.Name != "local.test" || g.High != 2 {
			t.Errorf("first group %+v", g)
		}
		cancel() // the list is still open: stop here
	}
}

// TestOverStopsAtTheRange: OVER 1-3 answered with more lines, or with a
// line outside 1-3, ends with a clear error at the first line too many
// instead of reading the rest (RFC 3977 §8.3.2: one line per article in
// the range).
func TestOverStopsAtTheRange(t *testing.T) {
	line := func(n int) string { return strconv.Itoa(n) + "\ts\tf\td\t<" + strconv.Itoa(n) + "@h>\t\t1\t1\n" }
	tests := []struct {
		name, reply, want string
		lines             int
	}{
		{"beyond", "224 ok\n" + line(1) + line(2) + line(3) + line(4) + line(5) + ".\n", "article 4 is outside the range 1-3 asked for", 3},
		{"below", "224 ok\n" + line(0) + ".\n", "article 0 is outside the range 1-3 asked for", 0},
		{"repeated", "224 ok\n" + line(1) + line(1) + line(1) + line(1) + ".\n", "more than the 3 lines the range 1-3 can hold", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := dialFake(t, Config{}, S{Expect: "OVER 1-3", Reply: tt.reply})
			n := 0
			var err error
			for _, e := range c.Over(ctx5(t), Range{Low: 1, High: 3}) {
				if e != nil {
					err = e
					break
				}
				n++
			}
			var pe *ProtocolError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) || n != tt.lines {
				t.Errorf("after %d lines: %v; want %d lines then %q", n, err, tt.lines, tt.want)
			}
		})
	}
}

// TestCutLineIsNotMalformed: a deadline in the middle of a listing line is
// a timeout, not a malformed line (bufio.Scanner hands the part that came
// over as a last line).
func TestCutLineIsNotMalformed(t *testing.T) {
	c, _ := dialFake(t, Config{},
		S{Expect: "LIST ACTIVE", Reply: "215 list follows\r\ngroup.cut 00", Raw: true, Stall: true},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.ListActive(ctx)
	var pe *ProtocolError
	if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &pe) {
		t.Errorf("err = %v, want the deadline, not a protocol error", err)
	}
}
