package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/access/telnet"
)

// TestTelnetPlan: where to connect, the §3.8 advice as a note (the
// password only when asked), and the option policy as steps.
func TestTelnetPlan(t *testing.T) {
	c := NewClient()
	p, err := c.Plan(mustParse(t, "telnet://guest:s3cret@h.example:2323/"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"WILL NAWS", "SB NAWS <columns> <rows>", "DO ECHO", "DO SGA", "WILL SGA",
		"WILL TTYPE", "SB TTYPE IS <$TERM>",
		"DONT <any other option the server offers>", "WONT <any other option the server asks for>"}
	if got := p.Lines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("lines\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	notes := strings.Join(p.Notes, "\n")
	if p.Connect != "h.example:2323" || p.URL != "telnet://guest:****@h.example:2323/" ||
		!strings.Contains(notes, `telnet h.example:2323: log in as user "guest" (the URL suggests a password)`) ||
		strings.Contains(notes, "s3cret") {
		t.Errorf("plan %+v", p)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "default 23") {
		t.Errorf("warnings %q", p.Warnings)
	}

	c.ShowPassword = true
	c.RegisterProtocol("telnet", Telnet{TerminalType: "vt100"})
	p, err = c.Plan(mustParse(t, "telnet://guest:s3cret@h.example/"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), `log in as user "guest" with password "s3cret"`) ||
		!strings.Contains(strings.Join(p.Lines(), "\n"), "SB TTYPE IS vt100") || p.Connect != "h.example:23" {
		t.Errorf("with ShowPassword and vt100: %+v", p)
	}

	// §6: the port of another line protocol is refused.
	var g *GuardError
	if _, err := NewClient().Plan(mustParse(t, "telnet://h:25/")); !errors.As(err, &g) {
		t.Errorf("port 25: %v", err)
	}
}

// TestTelnetNoTerminal: without a terminal, Get fails before it dials,
// with the advice first and telnet.ErrNotTerminal wrapped.
func TestTelnetNoTerminal(t *testing.T) {
	c := NewClient()
	// Port 9 (discard) on loopback: nothing may be dialled at all.
	_, err := c.Get(context.Background(), mustParse(t, "telnet://guest:pw@127.0.0.1:9/"))
	if !errors.Is(err, telnet.ErrNotTerminal) {
		t.Fatalf("Get = %v, want ErrNotTerminal", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, `telnet 127.0.0.1:9: log in as user "guest" (the URL suggests a password); `) ||
		strings.Contains(msg, "pw@") || !strings.Contains(msg, "needs a terminal") {
		t.Errorf("error = %q", msg)
	}
}
