package nntp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestParseOverview: RFC 3977 §8.3.2 field order; empty :bytes/:lines
// allowed, extra fields ignored, a short or non-numeric line refused.
func TestParseOverview(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		want OverviewLine
	}{
		{"1\ts\tf\td\t<m@h>\tr\t10\t2", true, OverviewLine{Number: 1, Subject: "s", From: "f", Date: "d", MessageID: "<m@h>", References: "r", Bytes: 10, Lines: 2}},
		{"1\ts\tf\td\t<m@h>\tr\t10\t2\tXref: h g:1\textra", true, OverviewLine{Number: 1, Subject: "s", From: "f", Date: "d", MessageID: "<m@h>", References: "r", Bytes: 10, Lines: 2}},
		{"0000000007\t\t\t\t\t\t\t", true, OverviewLine{Number: 7}},
		{"1\ts\tf\td\t<m@h>\tr\t10", false, OverviewLine{}},
		{"x\ts\tf\td\t<m@h>\tr\t10\t2", false, OverviewLine{}},
		{"1\ts\tf\td\t<m@h>\tr\tten\t2", false, OverviewLine{}},
		{"-1\ts\tf\td\t<m@h>\tr\t1\t2", false, OverviewLine{}},
		{"99999999999999999999\ts\tf\td\t<m@h>\tr\t1\t2", false, OverviewLine{}},
		{"", false, OverviewLine{}},
	} {
		got, ok := parseOverview(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseOverview(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestParseOverviewNoAllocs: the fields are slices of the line.
func TestParseOverviewNoAllocs(t *testing.T) {
	line := "12\tSubject\tFrom <f@h>\tSat, 21 Nov 2026 04:00:00 +0000\t<m@h>\t<r@h>\t1234\t56\tXref: h g:12"
	if n := testing.AllocsPerRun(100, func() { parseOverview(line) }); n != 0 {
		t.Errorf("parseOverview allocates %v times", n)
	}
}

// FuzzParseOverview: never panics; what it accepts has eight fields and
// a number that prints back to the first field (leading zeros aside).
func FuzzParseOverview(f *testing.F) {
	f.Add("1\ts\tf\td\t<m@h>\tr\t10\t2")
	f.Add("0000000007\t\t\t\t\t\t\t\tXref: x")
	f.Add("1\t\t")
	f.Fuzz(func(t *testing.T, line string) {
		ov, ok := parseOverview(line)
		if !ok {
			return
		}
		if strings.Count(line, "\t") < 7 {
			t.Fatalf("accepted %q with fewer than eight fields", line)
		}
		first, _, _ := strings.Cut(line, "\t")
		if got := strings.TrimLeft(first, "0"); got != strings.TrimLeft(fmt.Sprint(ov.Number), "0") {
			t.Fatalf("number %d from %q", ov.Number, first)
		}
	})
}

func ExampleNewsURL() {
	fmt.Println(NewsURL("<first.1@inn-ci.internal>"))
	fmt.Println(NewsURL("<a b%c@host.example>"))
	// Output:
	// news:first.1@inn-ci.internal
	// news:a%20b%25c@host.example
}

func ExampleNNTPURL() {
	fmt.Println(NNTPURL("news.example.com", 119, "comp.infosystems.www.misc", 42))
	fmt.Println(NNTPURL("127.0.0.1", 1190, "local.test", 2))
	// Output:
	// nntp://news.example.com/comp.infosystems.www.misc/42
	// nntp://127.0.0.1:1190/local.test/2
}

// scriptConn is a net.Conn whose peer sends the bytes of r and takes
// whatever is written: a server reduced to its replies.
type scriptConn struct{ r io.Reader }

func (s scriptConn) Read(p []byte) (int, error)       { return s.r.Read(p) }
func (s scriptConn) Write(p []byte) (int, error)      { return len(p), nil }
func (s scriptConn) Close() error                     { return nil }
func (s scriptConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (s scriptConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (s scriptConn) SetDeadline(time.Time) error      { return nil }
func (s scriptConn) SetReadDeadline(time.Time) error  { return nil }
func (s scriptConn) SetWriteDeadline(time.Time) error { return nil }

// FuzzResponses feeds arbitrary server bytes to a whole conversation —
// greeting, LIST ACTIVE, GROUP, OVER 1-3, ARTICLE 1 — and checks that the
// client never panics, stays within its bounds (line length, list size,
// the range OVER asked for) and ends every call with a result or an error.
func FuzzResponses(f *testing.F) {
	for _, s := range []string{
		"200 ok\r\n215 list\r\ng 2 1 y\r\n.\r\n211 2 1 2 g\r\n224 ov\r\n1\ts\tf\td\t<m@h>\t\t1\t1\r\n.\r\n220 1 <m@h>\r\nSubject: x\r\n\r\nbody\r\n..dot\r\n.\r\n",
		"201 no posting\r\n501 syntax\r\n215 list\r\n.\r\n411 no such group\r\n",
		"200 ok\r\n215 list\r\ng 2 1 y\r\n",
		"200 ok\r\n215 list\r\n.\r\n211 9 1 9 g\r\n224 ov\r\n4\ts\tf\td\t<m@h>\t\t1\t1\r\n.\r\n",
		"400 busy\r\n",
		"200 ok\r\n480 auth\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const maxLine, maxList = 128, 16
		c := newConn(scriptConn{bytes.NewReader(data)}, Config{MaxLineLength: maxLine, MaxListLines: maxList})
		ctx := context.Background()
		if err := c.greet(ctx, "fuzz"); err != nil {
			return
		}
		n := 0
		for g, err := range c.Active(ctx) {
			if err != nil {
				break
			}
			if n++; n > maxList {
				t.Fatalf("%d groups, bound %d", n, maxList)
			}
			if len(g.Name) > maxLine {
				t.Fatalf("group name of %d bytes, line bound %d", len(g.Name), maxLine)
			}
		}
		if _, err := c.Group(ctx, "g"); err != nil {
			return
		}
		n = 0
		for ov, err := range c.Over(ctx, Range{Low: 1, High: 3}) {
			if err != nil {
				break
			}
			if n++; n > 3 || ov.Number < 1 || ov.Number > 3 {
				t.Fatalf("OVER 1-3 yielded line %d, article %d", n, ov.Number)
			}
		}
		if a, err := c.Article(ctx, 1); err == nil {
			io.Copy(io.Discard, a)
			a.Close()
		}
	})
}
