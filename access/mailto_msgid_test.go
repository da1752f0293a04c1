package access

import (
	"strings"
	"testing"
	"time"
)

// TestComposeMessageID: a Message-ID is written once (RFC 5322 §3.6.4
// allows one), and a caller's own one is kept instead.
func TestComposeMessageID(t *testing.T) {
	d := &mailtoPlan{from: "me@here.example", to: "you@there.example"}
	now := time.Date(1994, 12, 20, 10, 0, 0, 0, time.UTC)
	b, err := composeMessage(d, Message{Date: now})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "Message-ID: <"); n != 1 || !strings.Contains(string(b), "@here.example>\r\n") {
		t.Errorf("%d Message-ID fields on here.example in\n%q", n, b)
	}
	b, err = composeMessage(d, Message{Date: now, Header: []HeaderField{{"Message-Id", "<mine@x.org>"}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(b), "Message-I") != 1 || !strings.Contains(string(b), "Message-Id: <mine@x.org>\r\n") {
		t.Errorf("the caller's Message-Id is not the only one:\n%q", b)
	}
	if a, b := messageID("a@b.org", now), messageID("a@b.org", now); a == b {
		t.Errorf("two Message-IDs at the same instant are equal: %s", a)
	}
}
