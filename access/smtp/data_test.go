package smtp

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// dataTests: what a message's bytes become on the wire after DATA (RFC
// 5321 §2.3.8: lines end in CRLF and nothing else; §4.5.2: dot-stuffing).
// A lone CR or LF is a line end of some relays and not of others: sent
// as it is, it lets a message carry a "." line and a second message that
// one relay sees and the next does not (SMTP smuggling).
var dataTests = []struct {
	name, msg, wire string
}{
	{"CRLF lines", "a\r\n.b\r\n", "a\r\n..b\r\n.\r\n"},
	{"LF lines", "a\n.b\n", "a\r\n..b\r\n.\r\n"},
	{"no final line end", "a\r\nb", "a\r\nb\r\n.\r\n"},
	{"lone CR", "a\rb\r", "a\r\nb\r\n.\r\n"},
	{"CR dot CRLF", "hi\r.\r\nMAIL FROM:<evil@x>\r\n", "hi\r\n..\r\nMAIL FROM:<evil@x>\r\n.\r\n"},
	{"LF dot CRLF", "hi\n.\r\nRCPT TO:<x@y>\n", "hi\r\n..\r\nRCPT TO:<x@y>\r\n.\r\n"},
	{"LF dot LF", "hi\n.\nQUIT\n", "hi\r\n..\r\nQUIT\r\n.\r\n"},
	{"CR CR LF", "a\r\r\nb\r\n", "a\r\n\r\nb\r\n.\r\n"},
	{"LF CR", "a\n\rb\r\n", "a\r\n\r\nb\r\n.\r\n"},
	{"8 bit", "caf\xc3\xa9\r\n", "caf\xc3\xa9\r\n.\r\n"},
}

// TestDataLineEnds: every line of a message reaches the relay ending in
// CRLF, dot-stuffed, whatever line ends it had.
func TestDataLineEnds(t *testing.T) {
	ctx := testCtx(t, 20*time.Second)
	f := testserver.StartSMTPFake(t)
	for _, tt := range dataTests {
		c, _ := dial(t, ctx, f.Addr)
		if err := c.Hello(); err != nil {
			t.Fatal(err)
		}
		if err := envelope(t, c, "you@there.example"); err != nil {
			t.Fatal(err)
		}
		if err := c.Data([]byte(tt.msg)); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		c.Quit()
		if got := f.Data(); got != tt.wire {
			t.Errorf("%s: %q reached the wire as %q, want %q", tt.name, tt.msg, got, tt.wire)
		}
	}
}

// TestDataNUL: a NUL is refused with its offset before any of the message
// is written (RFC 5322 §3.5: text excludes NUL); CheckMessage says so
// before a session is opened.
func TestDataNUL(t *testing.T) {
	msg := []byte("Subject: x\r\n\r\nab\x00c\r\n")
	err := CheckMessage(msg)
	var me *MessageError
	if !errors.As(err, &me) || me.Offset != 16 || me.Byte != 0 || !strings.Contains(err.Error(), "offset 16") {
		t.Fatalf("CheckMessage = %v", err)
	}
	if err := CheckMessage([]byte("a\rb\nc\r\n")); err != nil {
		t.Errorf("CheckMessage of lone CR and LF = %v", err)
	}

	ctx := testCtx(t, 10*time.Second)
	f := testserver.StartSMTPFake(t)
	c, _ := dial(t, ctx, f.Addr)
	if err := c.Hello(); err != nil {
		t.Fatal(err)
	}
	if err := envelope(t, c, "you@there.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.Data(msg); !errors.As(err, &me) || me.Offset != 16 {
		t.Errorf("Data = %v", err)
	}
	c.Close()
	time.Sleep(50 * time.Millisecond) // the fake records DATA only when it sees "."
	if got := f.Data(); got != "" {
		t.Errorf("the relay took %q", got)
	}
}
