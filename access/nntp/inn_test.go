package nntp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestINN runs the client against a real INN 2.7 (innd + nnrpd) on
// 127.0.0.1, started by testserver.INN. It posts two articles with fresh
// Message-IDs, one with body lines that start with a dot, and reads them
// back in every form an RFC 1738 news: or nntp: URL takes. Run with -v to
// see the exchanges.
func TestINN(t *testing.T) {
	s := testserver.INN(t)
	idPlain := testserver.FreshMessageID("plain")
	idDot := testserver.FreshMessageID("dot")
	const dotBody = "line one\n.starts with a dot\n..two dots\n.\nlast line\n"
	s.Post(t, testserver.INNArticle{MessageID: idPlain, Subject: "First test article", Body: "Hello, this is article one.\n"})
	s.Post(t, testserver.INNArticle{MessageID: idDot, Subject: "Dot-stuffing test", Body: dotBody})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rec := &recorder{}
	c, err := Dial(ctx, s.Addr, Config{Dialer: rec})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		c.Close()
		t.Logf("exchange with INN at %s (raw bytes, CRLF shown as line ends):\n%s", s.Addr, rec.transcript())
	}()
	code, text := c.Greeting()
	t.Logf("greeting: %d %s", code, text)

	var g GroupInfo
	t.Run("GROUP", func(t *testing.T) {
		rec.mark("GROUP")
		g, err = c.Group(ctx, s.Group)
		if err != nil {
			t.Fatal(err)
		}
		if g.Name != s.Group || g.Count < 2 || g.High < g.Low || g.High < 2 {
			t.Fatalf("Group = %+v", g)
		}
	})
	if t.Failed() {
		return
	}

	// The two posts are the newest articles (the INN lock keeps other
	// tests out), so they are in the last few numbers.
	numbers := map[string]int64{}
	var lines []OverviewLine
	t.Run("OVER", func(t *testing.T) {
		rec.mark("OVER")
		low := max(g.Low, g.High-1)
		for ov, err := range c.Over(ctx, Range{Low: low, High: g.High}) {
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, ov)
			numbers[ov.MessageID] = ov.Number
			if ov.Group != s.Group || ov.From != "Tester <tester@example.com>" || ov.Bytes == 0 || ov.Date == "" {
				t.Errorf("overview line %+v", ov)
			}
		}
		if numbers[idPlain] == 0 || numbers[idDot] != numbers[idPlain]+1 {
			t.Fatalf("overview of %d-%d = %+v; want %s then %s", low, g.High, lines, idPlain, idDot)
		}
		for _, ov := range lines {
			if ov.MessageID == idDot && (ov.Subject != "Dot-stuffing test" || ov.Lines != 5) {
				t.Errorf("overview of the dot article: %+v", ov)
			}
		}
		var buf bytes.Buffer
		WriteGroupListing(&buf, lines, s.Host, s.Port)
		t.Logf("listing:\n%s", buf.String())
	})
	if t.Failed() {
		return
	}

	// checkDot checks the article text: INN adds headers (Path, Date,
	// Xref, …), but the body must come back exactly, dot-unstuffed.
	checkDot := func(t *testing.T, a *Article) {
		t.Helper()
		b, err := io.ReadAll(a)
		if err != nil {
			t.Fatal(err)
		}
		head, body, ok := strings.Cut(string(b), "\n\n")
		if !ok || body != dotBody {
			t.Errorf("body = %q, want %q", body, dotBody)
		}
		if !strings.Contains(head, "\nMessage-ID: "+idDot+"\n") {
			t.Errorf("headers lack Message-ID %s:\n%s", idDot, head)
		}
		if !strings.Contains(head, "\nXref: ") || !strings.Contains(head, fmt.Sprintf("%s:%d", s.Group, numbers[idDot])) {
			t.Errorf("headers lack Xref %s:%d:\n%s", s.Group, numbers[idDot], head)
		}
	}
	t.Run("ARTICLE n", func(t *testing.T) {
		rec.mark("ARTICLE n")
		a, err := c.Article(ctx, numbers[idDot])
		if err != nil {
			t.Fatal(err)
		}
		if a.Number != numbers[idDot] || a.MessageID != idDot {
			t.Errorf("220 line: %d %s", a.Number, a.MessageID)
		}
		checkDot(t, a)
	})
	t.Run("ARTICLE <id>", func(t *testing.T) {
		rec.mark("ARTICLE <id>")
		bare := strings.TrimSuffix(strings.TrimPrefix(idDot, "<"), ">") // as in news:id
		a, err := c.ArticleByID(ctx, bare)
		if err != nil {
			t.Fatal(err)
		}
		if a.MessageID != idDot {
			t.Errorf("220 line: %d %s", a.Number, a.MessageID)
		}
		checkDot(t, a)
	})
	t.Run("LIST ACTIVE", func(t *testing.T) {
		rec.mark("LIST ACTIVE")
		groups, err := c.ListActive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, ag := range groups {
			if ag.Name == s.Group {
				found = true
				if ag.High < numbers[idDot] || ag.Status != "y" {
					t.Errorf("active line %+v", ag)
				}
			}
		}
		if !found {
			t.Errorf("%s not in %+v", s.Group, groups)
		}
	})
	t.Run("411", func(t *testing.T) {
		rec.mark("411")
		_, err := c.Group(ctx, "local.no-such-group")
		if !IsNoSuchGroup(err) {
			t.Errorf("err = %v, want 411", err)
		}
	})
	t.Run("423", func(t *testing.T) {
		rec.mark("423")
		if _, err := c.Group(ctx, s.Group); err != nil {
			t.Fatal(err)
		}
		_, err := c.Article(ctx, g.High+1000)
		if ReplyCode(err) != 423 {
			t.Errorf("err = %v, want 423", err)
		}
	})
	t.Run("430", func(t *testing.T) {
		rec.mark("430")
		missing := strings.Trim(testserver.FreshMessageID("missing"), "<>")
		_, err := c.ArticleByID(ctx, missing)
		if ReplyCode(err) != 430 {
			t.Errorf("err = %v, want 430", err)
		}
	})
}

// recorder is a Dialer that keeps the raw bytes of the conversation.
type recorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
	dir byte
}

func (r *recorder) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &recConn{Conn: c, r: r}, nil
}

func (r *recorder) mark(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(&r.buf, "\n--- %s\n", name)
	r.dir = 0
}

func (r *recorder) add(dir byte, p []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, line := range strings.SplitAfter(string(p), "\n") {
		if line == "" {
			continue
		}
		if r.dir == 0 || r.buf.Len() == 0 || bytes.HasSuffix(r.buf.Bytes(), []byte("\n")) {
			r.buf.WriteByte(dir)
			r.buf.WriteByte(' ')
		}
		r.buf.WriteString(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"))
		if strings.HasSuffix(line, "\n") {
			r.buf.WriteByte('\n')
		}
		r.dir = dir
	}
}

func (r *recorder) transcript() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

type recConn struct {
	net.Conn
	r *recorder
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.r.add('<', p[:n])
	return n, err
}

func (c *recConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.r.add('>', p[:n])
	return n, err
}
