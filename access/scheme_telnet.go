package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/telnet"
)

func init() { defaultHandlers["telnet"] = Telnet{} }

// Telnet is the handler of telnet URLs (RFC 1738 §3.8), which name an
// interactive service, not a data object. Get first shows the advice of
// the URL's user and password (§3.8: "the client … merely advise[s] the
// user of them"; the password only with Client.ShowPassword), then, when
// Client.Stdin and Client.Stdout are a terminal, runs a session on it
// (telnet.Session: raw mode, always restored). Without a terminal Get
// fails with an error that starts with the advice and wraps
// telnet.ErrNotTerminal. Nothing of the URL is ever sent to the server.
//
// The plan's steps are the option policy, in the trace's words: what the
// client answers to the server's offers (accept ECHO, SUPPRESS-GO-AHEAD,
// NAWS and TERMINAL-TYPE; refuse the rest). The advice is a note.
type Telnet struct {
	// TerminalType is the name sent when the server asks for TERMINAL-TYPE
	// (RFC 1091); "" means $TERM at run time. "-" refuses the option.
	TerminalType string
}

// telnetPlan is the execution detail of a telnet plan (Plan.Data).
type telnetPlan struct {
	advice string
	ttype  string // "" means $TERM, read by Get
}

// telnetAdvice returns the advice line for a telnet URL: "telnet
// host:port: log in as user …".
func telnetAdvice(c *Client, u rfc1738.URL) string {
	t, _ := u.Telnet()
	return "telnet " + u.HostPort() + ": " + t.Advice(c.ShowPassword)
}

// Plan makes the plan of a telnet URL: where to connect, the advice, and
// the option policy. It touches no network.
func (h Telnet) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	if _, ok := u.Telnet(); !ok {
		return nil, fmt.Errorf("%s: not a telnet URL", Redact(u.String()))
	}
	if u.Host() == "" {
		return nil, fmt.Errorf("%s: a telnet URL needs a host (§3.8)", Redact(u.String()))
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	d := &telnetPlan{advice: telnetAdvice(c, u), ttype: h.TerminalType}
	p.Data = d
	ttype := "<$TERM>"
	if h.TerminalType != "" {
		ttype = h.TerminalType
	}
	p.Notes = append(p.Notes,
		"advice (§3.8, shown, never sent): "+d.advice,
		"an interactive session on the terminal (raw mode, restored at the end); without a terminal, an error")
	// RFC 1143, in telnet.Config.Trace's words: NAWS is offered at once;
	// the rest are answers, sent only when the server offers or asks.
	p.Steps = []Step{
		{Verb: "WILL", Arg: "NAWS", HasArg: true}, // RFC 1073
		{Verb: "SB", Arg: "NAWS", Placeholder: "NAWS <columns> <rows>"},
		{Verb: "DO", Arg: "ECHO", HasArg: true},  // to WILL ECHO (RFC 857): the server echoes
		{Verb: "DO", Arg: "SGA", HasArg: true},   // to WILL SGA (RFC 858)
		{Verb: "WILL", Arg: "SGA", HasArg: true}, // to DO SGA
	}
	p.Notes = append(p.Notes, "WILL NAWS is offered at once; every other line answers the server's WILL or DO of that option (RFC 1143)")
	if h.TerminalType != "-" {
		p.Steps = append(p.Steps,
			Step{Verb: "WILL", Arg: "TTYPE", HasArg: true}, // to DO TTYPE (RFC 1091)
			Step{Verb: "SB", Arg: "TTYPE IS " + h.TerminalType, Placeholder: "TTYPE IS " + ttype})
	}
	if h.TerminalType == "" {
		p.Notes = append(p.Notes, "<$TERM> is the terminal type at run time; without one TTYPE is refused (WONT TTYPE)")
	}
	p.Steps = append(p.Steps,
		Step{Verb: "DONT", Placeholder: "<any other option the server offers>"},
		Step{Verb: "WONT", Placeholder: "<any other option the server asks for>"})
	return p, nil
}

// Get shows the advice and runs the interactive session of a telnet plan.
// The body of the response is empty: the session went to the terminal.
func (h Telnet) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	d, ok := p.Data.(*telnetPlan)
	if !ok {
		return nil, fmt.Errorf("%s: not a plan of the telnet handler", p.URL)
	}
	if c.Stdin == nil || c.Stdout == nil {
		return nil, fmt.Errorf("%s; %s: an interactive session needs a terminal on stdin and stdout: %w", d.advice, p.URL, telnet.ErrNotTerminal)
	}
	fmt.Fprintf(c.Stdout, "%s\n", d.advice)
	cfg := telnet.Config{Trace: c.tracer(), TerminalType: d.ttype}
	switch d.ttype {
	case "":
		cfg.TerminalType = terminalType(os.Getenv("TERM"))
	case "-":
		cfg.TerminalType = ""
	}
	conn, err := telnet.Dial(ctx, p.Connect, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if err := telnet.Session(ctx, conn, c.Stdin, c.Stdout); err != nil {
		if errors.Is(err, telnet.ErrNotTerminal) {
			return nil, fmt.Errorf("%s; %s: %w", d.advice, p.URL, err)
		}
		return nil, fmt.Errorf("%s: session: %w", p.URL, err)
	}
	return &Response{Body: io.NopCloser(strings.NewReader("")), Size: 0, Type: ""}, nil
}

// terminalType returns $TERM when telnet.Config accepts it (printable
// ASCII without spaces, at most 40 bytes), else "" (the option refused).
func terminalType(s string) string {
	if len(s) > 40 {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if s[i] <= ' ' || s[i] >= 0x7f {
			return ""
		}
	}
	return s
}

// Stat implements Stater: §3.8 names an interactive service, and the
// lightest proof of it is that the TCP connection is accepted. No login
// is tried.
func (h Telnet) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", p.Connect)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	conn.Close()
	return &Info{Kind: KindSession, Size: -1, Detail: "connection accepted (no login tried, §3.8)"}, nil
}
