package access

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/nntp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestNewsPlan checks the conversation each news: and nntp: URL form
// implies (RFC 1738 §3.6, §3.7), without a network.
func TestNewsPlan(t *testing.T) {
	tests := []struct {
		url, server, user string
		connect           string
		lines             []string
		warn              bool     // a §6 port caution is expected
		notes             []string // each must be a substring of some note
	}{
		// §3.6: a group is listed: GROUP for its numbers, OVER for all.
		{url: "news:local.test", server: "news.example", connect: "news.example:119",
			lines: []string{"GROUP local.test", "OVER <range>", "QUIT"},
			notes: []string{"news.example:119", "MODE READER", "<range>"}},
		// §3.6: the id is written without brackets; the wire has them.
		{url: "news:first.1@inn-ci.internal", server: "127.0.0.1:1190", connect: "127.0.0.1:1190",
			lines: []string{"ARTICLE <first.1@inn-ci.internal>", "QUIT"}},
		// An escaped octet of the id is decoded before it is sent.
		{url: "news:a%25b@x.org", server: "[::1]:119", connect: "[::1]:119",
			lines: []string{"ARTICLE <a%b@x.org>", "QUIT"}},
		// §3.6: news:* is "all available news groups".
		{url: "news:*", server: "::1", connect: "[::1]:119", lines: []string{"LIST ACTIVE", "QUIT"}},
		// §3.7: the URL names its own server; 119 by default.
		{url: "nntp://news.example/comp.lang.c/42", server: "ignored.example", connect: "news.example:119",
			lines: []string{"GROUP comp.lang.c", "ARTICLE 42", "QUIT"}},
		{url: "nntp://127.0.0.1:1190/local.test", connect: "127.0.0.1:1190", warn: true,
			lines: []string{"GROUP local.test", "OVER <range>", "QUIT"}},
		{url: "nntp://h:119/g/007", connect: "h:119", lines: []string{"GROUP g", "ARTICLE 7", "QUIT"},
			notes: []string{"007 is sent as 7"}},
		// RFC 4643: credentials come from the configuration, the
		// password only as a placeholder.
		{url: "news:local.test", server: "h", user: "alice", connect: "h:119",
			lines: []string{"GROUP local.test", "OVER <range>", "QUIT"},
			notes: []string{"AUTHINFO USER alice", "AUTHINFO PASS <password>"}},
	}
	for _, tt := range tests {
		c := NewClient()
		setNews(c, func(n *News) { n.Server, n.User, n.Password = tt.server, tt.user, "s3cret" })
		p, err := c.Plan(mustParse(t, tt.url))
		if err != nil {
			t.Errorf("Plan(%s): %v", tt.url, err)
			continue
		}
		if p.Connect != tt.connect || !slices.Equal(p.Lines(), tt.lines) {
			t.Errorf("Plan(%s) = connect %q, lines %q; want %q, %q", tt.url, p.Connect, p.Lines(), tt.connect, tt.lines)
		}
		if (len(p.Warnings) > 0) != tt.warn {
			t.Errorf("Plan(%s) warnings %q, want a warning: %v", tt.url, p.Warnings, tt.warn)
		}
		all := strings.Join(p.Notes, "\n")
		for _, n := range tt.notes {
			if !strings.Contains(all, n) {
				t.Errorf("Plan(%s) notes %q lack %q", tt.url, p.Notes, n)
			}
		}
		if strings.Contains(all+strings.Join(p.Lines(), "\n"), "s3cret") {
			t.Errorf("Plan(%s) shows the password: %q %q", tt.url, p.Notes, p.Lines())
		}
	}
}

// TestNewsPlanRefused checks the errors of Plan: §6 guards with the
// offset of the bad octet, a missing news server, a bad article number.
func TestNewsPlanRefused(t *testing.T) {
	tests := []struct {
		url, server string
		offset      int    // of a *GuardError, or -1 for another error
		want        string // substring of the error
	}{
		// §6: CR LF in the id would end the ARTICLE line and start another.
		{"news:a%0D%0AQUIT@x.org", "h", 6, "%0D"},
		{"news:ab%00@x.org", "h", 7, "NUL"},
		// A space would split the ARTICLE argument (RFC 3977 §3.1).
		{"news:a%20b@x.org", "h", 6, "%20"},
		// §6: port 25 is SMTP's.
		{"nntp://h:25/local.test", "", 9, "smtp"},
		{"nntp://h:70000/local.test", "", 9, "not a TCP port"},
		// §3.6: news: needs the reader's own server; say how to give one.
		{"news:local.test", "", -1, "--nntp-server"},
		{"news:*", "  ", -1, "NNTPSERVER"},
		{"news:local.test", "host:nope", -1, "not a TCP port"},
		{"news:local.test", "a b:119", -1, "not host[:port]"},
		// RFC 3977 §6: article numbers start at 1 and fit in 31 bits.
		{"nntp://h/local.test/0", "", -1, "offset 20"},
		{"nntp://h/g/99999999999999999999", "", -1, "article number"},
	}
	for _, tt := range tests {
		c := NewClient()
		setNews(c, func(n *News) { n.Server = tt.server })
		_, err := c.Plan(mustParse(t, tt.url))
		if err == nil {
			t.Errorf("Plan(%s) succeeded", tt.url)
			continue
		}
		var ge *GuardError
		isGuard := errors.As(err, &ge)
		if tt.offset >= 0 && (!isGuard || ge.Offset != tt.offset) {
			t.Errorf("Plan(%s) = %v; want a GuardError at offset %d", tt.url, err, tt.offset)
		}
		if tt.offset < 0 && isGuard {
			t.Errorf("Plan(%s) = %v; want no GuardError", tt.url, err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Plan(%s) = %v; want it to say %q", tt.url, err, tt.want)
		}
		if tt.server == "" && tt.url[:5] == "news:" && !errors.Is(err, ErrNoNewsServer) {
			t.Errorf("Plan(%s) = %v; want ErrNoNewsServer", tt.url, err)
		}
	}
}

// newsWireArticle is an article as the fake sends it: CRLF (added by the
// fake), a body line that starts with a dot, dot-stuffed (RFC 3977 §3.1.1).
const newsWireArticle = "Path: fake!not-for-mail\nFrom: Tester <tester@example.com>\nNewsgroups: local.test\n" +
	"Subject: Dots\nMessage-ID: <dot.1@example.com>\n\nfirst\n..starts with a dot\n...two\nlast\n.\n"

const newsPlainArticle = "Path: fake!not-for-mail\nFrom: Tester <tester@example.com>\nNewsgroups: local.test\n" +
	"Subject: Dots\nMessage-ID: <dot.1@example.com>\n\nfirst\n.starts with a dot\n..two\nlast\n"

const newsFakeOver = "224 Overview information follows\n" +
	"1\tHello\tTester <tester@example.com>\tSat, 21 Nov 2026 05:00:00 +0000\t<hello.1@example.com>\t\t321\t2\n" +
	"2\tRe: Hello\tOther <o@example.com>\tSat, 21 Nov 2026 05:01:00 +0000\t<re.2@example.com>\t<hello.1@example.com>\t400\t3\n.\n"

type newsStep = testserver.NNTPStep

// newsFake starts a scripted server and a client whose news: URLs go to it.
func newsFake(t *testing.T, steps ...newsStep) (*Client, *testserver.NNTPFake) {
	t.Helper()
	f := testserver.NNTPFakeServer(t, "200 fake ready", steps...)
	c := NewClient()
	setNews(c, func(n *News) { n.Server = f.Addr })
	return c, f
}

// newsPlanned returns the plan's lines with the run-time range filled in.
func newsPlanned(p *Plan, rng string) []string {
	lines := p.Lines()
	for i, l := range lines {
		lines[i] = strings.Replace(l, newsRangePlaceholder, rng, 1)
	}
	return lines
}

// TestNewsFakeSequences checks, for each URL form, that Get sends exactly
// the plan's lines (QUIT included) and renders what came back.
func TestNewsFakeSequences(t *testing.T) {
	const hello = "1  Hello\n" +
		"    From:        Tester <tester@example.com>\n" +
		"    Date:        Sat, 21 Nov 2026 05:00:00 +0000\n" +
		"    Message-ID:  <hello.1@example.com>\n" +
		"    URL:         news:hello.1@example.com\n"
	tests := []struct {
		name, url string // url: %s is the fake's host:port
		listing   Listing
		steps     []newsStep
		rng       string
		typ       string
		want      string // the body, or with a "~" prefix a substring of it
	}{
		{name: "news:id", url: "news:dot.1@example.com",
			steps: []newsStep{{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\n" + newsWireArticle}},
			typ:   "message/rfc822", want: newsPlainArticle},
		{name: "nntp article", url: "nntp://%s/local.test/2", listing: ListingJSON, // an article is not a listing
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
				{Expect: "ARTICLE 2", Reply: "220 2 <dot.1@example.com>\n" + newsWireArticle}},
			typ: "message/rfc822", want: newsPlainArticle},
		{name: "news:group text", url: "news:local.test",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "OVER 1-2", Reply: newsFakeOver}},
			rng:   "1-2", typ: "text/plain; charset=utf-8",
			want: "local.test  about 2 articles, numbers 1-2, at nntp://%s/local.test\n\n" + hello +
				"    URL:         nntp://%s/local.test/1\n\n" +
				"2  Re: Hello\n" +
				"    From:        Other <o@example.com>\n" +
				"    Date:        Sat, 21 Nov 2026 05:01:00 +0000\n" +
				"    Message-ID:  <re.2@example.com>\n" +
				"    URL:         news:re.2@example.com\n" +
				"    URL:         nntp://%s/local.test/2\n"},
		{name: "news:group json", url: "news:local.test", listing: ListingJSON,
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "OVER 1-2", Reply: newsFakeOver}},
			rng:   "1-2", typ: "application/jsonl",
			want: `{"number":1,"subject":"Hello","from":"Tester <tester@example.com>","date":"Sat, 21 Nov 2026 05:00:00 +0000","message_id":"<hello.1@example.com>","bytes":321,"lines":2,"news_url":"news:hello.1@example.com","nntp_url":"nntp://%s/local.test/1"}` + "\n" +
				`{"number":2,"subject":"Re: Hello","from":"Other <o@example.com>","date":"Sat, 21 Nov 2026 05:01:00 +0000","message_id":"<re.2@example.com>","references":"<hello.1@example.com>","bytes":400,"lines":3,"news_url":"news:re.2@example.com","nntp_url":"nntp://%s/local.test/2"}` + "\n"},
		{name: "nntp group raw", url: "nntp://%s/local.test", listing: ListingRaw,
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "OVER 1-2", Reply: newsFakeOver}},
			rng:   "1-2", typ: "text/plain",
			want: strings.TrimSuffix(strings.TrimPrefix(newsFakeOver, "224 Overview information follows\n"), ".\n")},
		// An empty group (RFC 3977 §6.1.1.2: high < low): no OVER.
		{name: "empty group", url: "news:local.empty",
			steps: []newsStep{{Expect: "GROUP local.empty", Reply: "211 0 5 4 local.empty\n"}},
			typ:   "text/plain; charset=utf-8",
			want:  "local.empty  about 0 articles, numbers 5-4, at nntp://%s/local.empty\n"},
		{name: "news:* text", url: "news:*",
			steps: []newsStep{{Expect: "LIST ACTIVE", Reply: "215 list follows\nlocal.test 0000000002 0000000001 y\ncontrol.cancel 0000000000 0000000001 n\n.\n"}},
			typ:   "text/plain; charset=utf-8",
			want: "GROUP           ARTICLES  LOW  HIGH  STATUS  NEWS URL             NNTP URL\n" +
				"local.test      2         1    2     y       news:local.test      nntp://%s/local.test\n" +
				"control.cancel  0         1    0     n       news:control.cancel  nntp://%s/control.cancel\n"},
		{name: "news:* json", url: "news:*", listing: ListingJSON,
			steps: []newsStep{{Expect: "LIST ACTIVE", Reply: "215 list follows\nlocal.test 0000000002 0000000001 y\n.\n"}},
			typ:   "application/jsonl",
			want:  `{"group":"local.test","articles":2,"low":1,"high":2,"status":"y","news_url":"news:local.test","nntp_url":"nntp://%s/local.test"}` + "\n"},
		// RFC 977 servers answer LIST ACTIVE 501; raw keeps the server's
		// own lines (zero padding included), not the status lines.
		{name: "news:* raw", url: "news:*", listing: ListingRaw,
			steps: []newsStep{{Expect: "LIST ACTIVE", Reply: "501 what?\n"},
				{Expect: "LIST", Reply: "215 list follows\nlocal.test 0000000002 0000000001 y\n.\n"}},
			typ: "text/plain", want: "local.test 0000000002 0000000001 y\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, f := newsFake(t, tt.steps...)
			c.Listing = tt.listing
			c.AllowAnyPort = true
			url := tt.url
			if strings.Contains(url, "%s") {
				url = fmt.Sprintf(url, f.Addr)
			}
			u := mustParse(t, url)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			resp, err := c.Get(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if err := resp.Body.Close(); err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tt.want, "%s", f.Addr)
			if string(body) != want {
				t.Errorf("body:\n%s\nwant:\n%s", body, want)
			}
			if resp.Type != tt.typ {
				t.Errorf("Type = %q, want %q", resp.Type, tt.typ)
			}
			lines := newsPlanned(resp.Plan, tt.rng)
			if tt.name == "news:* raw" {
				lines = slices.Insert(lines, 1, "LIST") // the client's RFC 977 fallback
			}
			if tt.name == "empty group" {
				lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, "OVER") })
			}
			if got := f.Commands(); !slices.Equal(got, lines) {
				t.Errorf("sent %q, plan %q", got, lines)
			}
		})
	}
}

// TestNewsModeReaderAndAuth: MODE READER and AUTHINFO are sent only when
// the server asks (RFC 3977 §5.3, RFC 4643 §2.3), as the plan's notes
// say; the password never reaches the trace.
func TestNewsModeReaderAndAuth(t *testing.T) {
	c, f := newsFake(t,
		newsStep{Expect: "GROUP local.test", Reply: "401 MODE-READER\n"},
		newsStep{Expect: "MODE READER", Reply: "200 reader ready\n"},
		newsStep{Expect: "GROUP local.test", Reply: "480 authentication required\n"},
		newsStep{Expect: "AUTHINFO USER alice", Reply: "381 password please\n"},
		newsStep{Expect: "AUTHINFO PASS s3cret", Reply: "281 welcome\n"},
		newsStep{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"},
		newsStep{Expect: "OVER 1-2", Reply: newsFakeOver},
	)
	setNews(c, func(n *News) { n.User, n.Password = "alice", "s3cret" })
	var mu sync.Mutex
	var trace []string
	c.Trace = func(dir byte, line string) {
		mu.Lock()
		trace = append(trace, string(dir)+" "+line)
		mu.Unlock()
	}
	p, body, err := planAndGet(t, c, "news:local.test")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "<re.2@example.com>") {
		t.Errorf("body:\n%s", body)
	}
	want := []string{"GROUP local.test", "MODE READER", "GROUP local.test", "AUTHINFO USER alice", "AUTHINFO PASS s3cret",
		"GROUP local.test", "OVER 1-2", "QUIT"}
	if got := f.Commands(); !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, "MODE READER") || !strings.Contains(notes, "AUTHINFO PASS <password>") {
		t.Errorf("notes %q", p.Notes)
	}
	all := strings.Join(trace, "\n")
	if strings.Contains(all, "s3cret") || !strings.Contains(all, "> AUTHINFO PASS ****") {
		t.Errorf("trace:\n%s", all)
	}
}

// TestNewsFaults: every refusal and broken peer ends in an error that
// names the URL and what went wrong and keeps the cause.
func TestNewsFaults(t *testing.T) {
	tests := []struct {
		name     string
		url      string
		greeting string
		steps    []newsStep
		user     string
		timeout  time.Duration
		want     []string // substrings of the error
		is       error    // errors.Is target, if any
		code     int      // nntp.ReplyCode, if any
		protocol bool     // a *nntp.ProtocolError
	}{
		{name: "411", url: "news:local.nope",
			steps: []newsStep{{Expect: "GROUP local.nope", Reply: "411 No such group local.nope\n"}},
			want:  []string{"news:local.nope", "no such newsgroup", "No such group"}, code: 411},
		{name: "423", url: "nntp://%s/local.test/99",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "ARTICLE 99", Reply: "423 No such article number 99\n"}},
			want:  []string{"no article with that number in local.test", "423"}, code: 423},
		{name: "430", url: "news:gone.1@example.com",
			steps: []newsStep{{Expect: "ARTICLE <gone.1@example.com>", Reply: "430 No such article\n"}},
			want:  []string{"no article with that message-id", "No such article"}, code: 430},
		{name: "480 without credentials", url: "news:*",
			steps: []newsStep{{Expect: "LIST ACTIVE", Reply: "480 Authentication required\n"}},
			want:  []string{"demands authentication", "--nntp-user", "Authentication required"}, code: 480},
		{name: "481", url: "news:*", user: "alice",
			steps: []newsStep{{Expect: "LIST ACTIVE", Reply: "480 Authentication required\n"},
				{Expect: "AUTHINFO USER alice", Reply: "381 more\n"},
				{Expect: "AUTHINFO PASS s3cret", Reply: "481 Authentication failed\n"}},
			want: []string{"rejected the AUTHINFO credentials of alice", "AUTHINFO PASS ****", "481"}, code: 481},
		{name: "502 greeting", url: "news:*", greeting: "502 You have no permission to talk. Goodbye.",
			want: []string{"refuses this client", "You have no permission"}, code: 502},
		{name: "502 command", url: "news:local.test",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "502 Permission denied\n"}},
			want:  []string{"refuses this client", "Permission denied"}, code: 502},
		{name: "garbage status", url: "news:local.test",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "hello there, friend\n"}},
			want:  []string{"news:local.test", "protocol error", "hello there"}, protocol: true},
		{name: "garbage overview", url: "news:local.test",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "OVER 1-2", Reply: "224 ok\nnot an overview line\n.\n"}},
			want:  []string{"news:local.test", "OVER 1-2", "not an overview line"}, protocol: true},
		{name: "drop mid-article", url: "news:dot.1@example.com",
			steps: []newsStep{{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\nFrom: a@example.com\n\nhalf a bo", Close: true}},
			want:  []string{"news:dot.1@example.com", "reading the article", "unexpected EOF"}, is: io.ErrUnexpectedEOF},
		{name: "drop mid-listing", url: "news:local.test",
			steps: []newsStep{{Expect: "GROUP local.test", Reply: "211 2 1 2 local.test\n"}, {Expect: "OVER 1-2", Reply: "224 ok\n1\tS\tF\tD\t<m@x>\t\t1\t1\n", Close: true}},
			want:  []string{"news:local.test", "OVER 1-2", "unexpected EOF"}, is: io.ErrUnexpectedEOF},
		{name: "stall", url: "news:dot.1@example.com", timeout: 300 * time.Millisecond,
			steps: []newsStep{{Expect: "ARTICLE <dot.1@example.com>", Reply: "220 0 <dot.1@example.com>\nFrom: a@example.com\n", Stall: true}},
			want:  []string{"news:dot.1@example.com", "deadline exceeded"}, is: context.DeadlineExceeded},
		{name: "stall before the status", url: "news:*", timeout: 300 * time.Millisecond,
			steps: []newsStep{{Expect: "LIST ACTIVE", Stall: true}},
			want:  []string{"news:*", "LIST ACTIVE", "deadline exceeded"}, is: context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			greeting := tt.greeting
			if greeting == "" {
				greeting = "200 fake ready"
			}
			f := testserver.NNTPFakeServer(t, greeting, tt.steps...)
			c := NewClient()
			setNews(c, func(n *News) { n.Server = f.Addr })
			c.AllowAnyPort = true
			if tt.user != "" {
				setNews(c, func(n *News) { n.User, n.Password = tt.user, "s3cret" })
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			url := strings.ReplaceAll(tt.url, "%s", f.Addr)
			start := time.Now()
			var err error
			resp, err := c.Get(ctx, mustParse(t, url))
			if err == nil {
				_, err = io.ReadAll(resp.Body)
				if cerr := resp.Body.Close(); err == nil {
					err = cerr
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error shows the password: %v", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
			if nntp.ReplyCode(err) != tt.code {
				t.Errorf("error %v has code %d, want %d", err, nntp.ReplyCode(err), tt.code)
			}
			var pe *nntp.ProtocolError
			if errors.As(err, &pe) != tt.protocol {
				t.Errorf("error %v: ProtocolError %v, want %v", err, errors.As(err, &pe), tt.protocol)
			}
			if d := time.Since(start); d > timeout+3*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestNewsEarlyClose: closing a listing before its end drains it and
// still ends with QUIT, as newsPlanned.
func TestNewsEarlyClose(t *testing.T) {
	var over strings.Builder
	over.WriteString("224 ok\n")
	for i := 1; i <= 500; i++ {
		fmt.Fprintf(&over, "%d\tSubject %d\tF <f@x>\tD\t<m%d@x>\t\t10\t1\n", i, i, i)
	}
	over.WriteString(".\n")
	c, f := newsFake(t,
		newsStep{Expect: "GROUP big", Reply: "211 500 1 500 big\n"},
		newsStep{Expect: "OVER 1-500", Reply: over.String()},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, mustParse(t, "news:big"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := f.Commands(), newsPlanned(resp.Plan, "1-500"); !slices.Equal(got, want) {
		t.Errorf("sent %q, plan %q", got, want)
	}
}

// TestNewsINN fetches every URL form from a real INN on loopback, with
// articles posted by the test (one with body lines that start with a dot),
// and checks that the conversation is the plan. Article numbers come from
// GROUP: INN's history persists between runs.
func TestNewsINN(t *testing.T) {
	s := testserver.INN(t)
	idPlain := testserver.FreshMessageID("plain")
	idDot := testserver.FreshMessageID("dot")
	const dotBody = "line one\n.starts with a dot\n..two dots\n.\nlast line\n"
	s.Post(t, testserver.INNArticle{MessageID: idPlain, Subject: "Handler test article", Body: "Hello from the news handler test.\n"})
	s.Post(t, testserver.INNArticle{MessageID: idDot, Subject: "Handler dot test", Body: dotBody})
	bare := strings.Trim(idDot, "<>")

	var mu sync.Mutex
	var sent, transcript []string
	c := NewClient()
	setNews(c, func(n *News) { n.Server = s.Addr })
	c.Trace = func(dir byte, line string) {
		mu.Lock()
		defer mu.Unlock()
		if dir == '>' {
			sent = append(sent, line)
		}
		if len(line) > 100 {
			line = line[:100] + "…"
		}
		transcript = append(transcript, string(dir)+" "+line)
	}
	get := func(t *testing.T, rawURL string, l Listing) (*Plan, string, error) {
		t.Helper()
		mu.Lock()
		sent, transcript = nil, nil
		mu.Unlock()
		c.Listing = l
		p, body, err := planAndGet(t, c, rawURL)
		mu.Lock()
		t.Logf("rfc1738 get -v %s\n%s", rawURL, strings.Join(testserver.Elide(transcript, 12, 4), "\n"))
		mu.Unlock()
		return p, body, err
	}
	checkSent := func(t *testing.T, p *Plan, rng string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if want := newsPlanned(p, rng); !slices.Equal(sent, want) {
			t.Errorf("sent %q, plan %q", sent, want)
		}
	}
	checkDot := func(t *testing.T, body string) {
		t.Helper()
		head, b, ok := strings.Cut(body, "\n\n")
		if !ok || b != dotBody {
			t.Errorf("body = %q, want %q", b, dotBody)
		}
		if !strings.Contains(head, "\nMessage-ID: "+idDot+"\n") || !strings.Contains(head, "Subject: Handler dot test\n") {
			t.Errorf("headers:\n%s", head)
		}
	}

	// news:local.test lists the group; find the posted articles' numbers.
	var group nntp.GroupInfo
	numbers := map[string]int64{}
	t.Run("news:group", func(t *testing.T) {
		p, body, err := get(t, "news:"+s.Group, ListingJSON)
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.Lines(body) {
			var item nntp.ArticleItem
			if err := json.Unmarshal([]byte(line), &item); err != nil {
				t.Fatalf("%v: %q", err, line)
			}
			numbers[item.MessageID] = item.Number
			if item.MessageID == idDot {
				want := nntp.NNTPURL(s.Host, s.Port, s.Group, item.Number)
				if item.Subject != "Handler dot test" || item.NewsURL != "news:"+bare || item.NNTPURL != want {
					t.Errorf("item %+v", item)
				}
			}
		}
		if numbers[idPlain] == 0 || numbers[idDot] != numbers[idPlain]+1 {
			t.Fatalf("listing lacks the posted articles: %v", numbers)
		}
		// The reply to GROUP is the line after it; an overview line of
		// article 211 also starts "< 211", so look nowhere else.
		mu.Lock()
		i := slices.IndexFunc(transcript, func(l string) bool { return strings.HasPrefix(l, "> GROUP ") })
		if i < 0 || i+1 >= len(transcript) {
			mu.Unlock()
			t.Fatalf("no reply to GROUP in the transcript")
		}
		reply := transcript[i+1]
		mu.Unlock()
		f := strings.Fields(reply)
		if len(f) != 6 || f[0] != "<" || f[1] != "211" || f[5] != s.Group {
			t.Fatalf("reply to GROUP: %q", reply)
		}
		group.Count, _ = strconv.ParseInt(f[2], 10, 64)
		group.Low, _ = strconv.ParseInt(f[3], 10, 64)
		group.High, _ = strconv.ParseInt(f[4], 10, 64)
		checkSent(t, p, fmt.Sprintf("%d-%d", group.Low, group.High))
	})
	if numbers[idDot] == 0 {
		t.FailNow()
	}
	t.Run("news:group text", func(t *testing.T) {
		_, body, err := get(t, "news:"+s.Group, ListingText)
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("%d  Handler dot test\n    From:        Tester <tester@example.com>\n", numbers[idDot])
		if !strings.Contains(body, want) || !strings.Contains(body, "    URL:         news:"+bare+"\n") ||
			!strings.Contains(body, "    URL:         "+nntp.NNTPURL(s.Host, s.Port, s.Group, numbers[idDot])+"\n") {
			t.Errorf("listing lacks %q:\n%s", want, body)
		}
	})
	t.Run("news:id", func(t *testing.T) {
		p, body, err := get(t, "news:"+bare, ListingText)
		if err != nil {
			t.Fatal(err)
		}
		checkDot(t, body)
		checkSent(t, p, "")
	})
	t.Run("nntp article", func(t *testing.T) {
		c.AllowPorts = []int{s.Port}
		p, body, err := get(t, fmt.Sprintf("nntp://127.0.0.1:%d/%s/%d", s.Port, s.Group, numbers[idDot]), ListingText)
		if err != nil {
			t.Fatal(err)
		}
		checkDot(t, body)
		checkSent(t, p, "")
	})
	t.Run("news:*", func(t *testing.T) {
		p, body, err := get(t, "news:*", ListingJSON)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for line := range strings.Lines(body) {
			var g nntp.GroupItem
			if err := json.Unmarshal([]byte(line), &g); err != nil {
				t.Fatalf("%v: %q", err, line)
			}
			if g.Group == s.Group {
				found = true
				if g.High < numbers[idDot] || g.Articles < 2 || g.Status != "y" || g.NewsURL != "news:"+s.Group {
					t.Errorf("group %+v", g)
				}
			}
		}
		if !found {
			t.Errorf("%s not listed:\n%s", s.Group, body)
		}
		checkSent(t, p, "")
	})
	t.Run("missing group", func(t *testing.T) {
		_, _, err := get(t, "news:local.no-such-group", ListingText)
		if nntp.ReplyCode(err) != 411 || !strings.Contains(err.Error(), "no such newsgroup on "+s.Addr) {
			t.Errorf("err = %v, want 411", err)
		}
	})
	t.Run("missing article", func(t *testing.T) {
		_, _, err := get(t, fmt.Sprintf("nntp://%s/%s/%d", s.Addr, s.Group, numbers[idDot]+1000), ListingText)
		if nntp.ReplyCode(err) != 423 || !strings.Contains(err.Error(), "no article with that number in "+s.Group) {
			t.Errorf("err = %v, want 423", err)
		}
		missing := strings.Trim(testserver.FreshMessageID("missing"), "<>")
		_, _, err = get(t, "news:"+missing, ListingText)
		if nntp.ReplyCode(err) != 430 {
			t.Errorf("err = %v, want 430", err)
		}
	})
}
