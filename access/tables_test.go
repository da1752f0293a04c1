package access

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
)

// blockedPorts is §6's port table as the README states it, written out
// here apart from the code so that a port dropped from BlockedPorts, or
// one added, fails a test.
var blockedPorts = []int{21, 22, 23, 25, 110, 119, 143, 465, 512, 513, 514, 587, 993, 995, 2049, 3306, 5432, 6379, 6667, 11211}

// TestBlockedPortsTable checks the §6 table as a table: every listed port
// is refused for a scheme whose default it is not, allowed where it is the
// scheme's own default, and let through by AllowPorts; no other port is in
// the table.
func TestBlockedPortsTable(t *testing.T) {
	var inCode []int
	for p := range DefaultBlockedPorts() {
		inCode = append(inCode, p)
	}
	slices.Sort(inCode)
	if !slices.Equal(inCode, blockedPorts) {
		t.Errorf("BlockedPorts holds %v, want %v", inCode, blockedPorts)
	}
	for _, port := range blockedPorts {
		// §6's own example is a gopher URL aimed at another protocol.
		u := mustParse(t, fmt.Sprintf("gopher://h:%d/0x", port))
		if _, err := NewClient().CheckPort(u); err == nil {
			t.Errorf("gopher to port %d (%s) is not refused", port, guardedPorts[port])
		} else if !strings.Contains(err.Error(), guardedPorts[port]) {
			t.Errorf("refusal of port %d does not name %s: %v", port, guardedPorts[port], err)
		}
		c := NewClient()
		c.AllowPorts = []int{port}
		if _, err := c.CheckPort(u); err != nil {
			t.Errorf("AllowPorts %d: %v", port, err)
		}
		c = NewClient()
		c.AllowPorts = []int{port + 1}
		if _, err := c.CheckPort(u); err == nil {
			t.Errorf("AllowPorts %d let port %d through", port+1, port)
		}
	}
	// A listed port that is the scheme's own default is no cross-protocol
	// attack (ftp on 21, telnet on 23, nntp on 119).
	for _, in := range []string{"ftp://h:21/x", "telnet://h:23/", "nntp://h:119/g"} {
		if warn, err := NewClient().CheckPort(mustParse(t, in)); err != nil || warn != "" {
			t.Errorf("CheckPort(%q) = %q, %v; want silence at the scheme's default", in, warn, err)
		}
	}
	// Ports next to listed ones are only cautioned.
	for _, port := range []int{24, 26, 111, 2048, 6380, 11212} {
		warn, err := NewClient().CheckPort(mustParse(t, fmt.Sprintf("gopher://h:%d/", port)))
		if err != nil || warn == "" {
			t.Errorf("gopher to port %d: %q, %v; want a caution and no refusal", port, warn, err)
		}
	}
}

// TestExpandGatewayEncodesEveryDelimiter: the URL put into a gateway
// template is one query value, so every octet other than §2.2's safe
// alphanumerics and "-_." is percent-encoded — above all '&', '=', '#',
// '+' and '%', which would add a parameter, end the query or change a
// value. Each octet is tried alone against an independent statement of
// that rule.
func TestExpandGatewayEncodesEveryDelimiter(t *testing.T) {
	const tmpl = "http://gw.example/fetch?u={url}&v=1"
	for c := 0; c < 256; c++ {
		if c == '#' {
			continue // a fragment is not sent to the gateway; tested below
		}
		in := "prospero://h/a" + string(rune(c))
		if c >= 0x80 {
			in = "prospero://h/a" + string([]byte{byte(c)})
		}
		u, err := rfc1738.Parse(in)
		if err != nil {
			continue // not a URL: nothing to expand
		}
		got := ExpandGateway(tmpl, u)
		value := strings.TrimSuffix(strings.TrimPrefix(got, "http://gw.example/fetch?u="), "&v=1")
		want := "prospero%3A%2F%2Fh%2Fa" + encodedOctet(byte(c))
		if value != want {
			t.Errorf("octet %#02x: ExpandGateway gave %q, want the value %q", c, got, want)
		}
	}
	u := mustParse(t, "prospero://h/a%26b=c;x=1#frag")
	if got, want := ExpandGateway(tmpl, u), "http://gw.example/fetch?u=prospero%3A%2F%2Fh%2Fa%2526b%3Dc%3Bx%3D1&v=1"; got != want {
		t.Errorf("ExpandGateway = %q, want %q (no fragment, every delimiter encoded)", got, want)
	}
}

// encodedOctet is the expected form of one octet in a gateway's query
// value: alphanumerics and "-_." as they are, everything else %XX.
func encodedOctet(c byte) string {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.", c) >= 0 {
		return string(c)
	}
	return fmt.Sprintf("%%%02X", c)
}

// TestFTPTypecodesBothCases: §5 allows ftptype "A" | "I" | "D" | "a" |
// "i" | "d", and §3.2.2 gives each its command; the upper-case codes are
// not second-class.
func TestFTPTypecodesBothCases(t *testing.T) {
	c := NewClient()
	for _, tc := range []struct {
		typ  string
		want []string
	}{
		{"a", []string{"TYPE A", "RETR f"}},
		{"A", []string{"TYPE A", "RETR f"}},
		{"i", []string{"TYPE I", "RETR f"}},
		{"I", []string{"TYPE I", "RETR f"}},
		{"d", []string{"NLST f"}},
		{"D", []string{"NLST f"}},
	} {
		p, err := c.Plan(mustParse(t, "ftp://h/dir/f;type="+tc.typ))
		if err != nil {
			t.Fatalf(";type=%s: %v", tc.typ, err)
		}
		lines := p.Lines()
		i := slices.Index(lines, "CWD dir")
		if i < 0 || !slices.Equal(lines[i+1:len(lines)-1], tc.want) || lines[len(lines)-1] != "QUIT" {
			t.Errorf(";type=%s: plan %q, want CWD dir then %q then QUIT", tc.typ, lines, tc.want)
		}
	}
}

// TestMailtoSenderRefusals: every octet that would break "MAIL FROM:<…>"
// or end its line — CR, LF, NUL and the path's own brackets — is refused in
// the sender, at its byte offset, before a plan exists (RFC 5321 §4.1.2,
// §6).
func TestMailtoSenderRefusals(t *testing.T) {
	u := mustParse(t, "mailto:you@example.org")
	for _, c := range []string{"\r", "\n", "\x00", "<", ">"} {
		from := "me" + c + "x@example.org"
		cl := NewClient()
		cl.Email = from
		_, err := cl.Plan(u)
		if err == nil || !strings.Contains(err.Error(), "at byte 2") {
			t.Errorf("sender %q: %v, want a refusal at byte 2", from, err)
		}
	}
	cl := NewClient()
	cl.Email = "me.x+tag@example.org"
	if _, err := cl.Plan(u); err != nil {
		t.Errorf("a plain sender is refused: %v", err)
	}
}

// TestGuardErrorText: an offset of 0 is an offset (the scheme starts
// there), and a refusal without a hint ends with its reason.
func TestGuardErrorText(t *testing.T) {
	e := &GuardError{URL: "x:y", Offset: 0, Rule: "port", Reason: "r"}
	if got := e.Error(); got != "x:y: refused (§6): offset 0: r" {
		t.Errorf("Error() = %q", got)
	}
	e.Offset = -1
	if got := e.Error(); got != "x:y: refused (§6): r" {
		t.Errorf("Error() without an offset = %q", got)
	}
	e.Hint = "allow port 25 explicitly to go on"
	if got := e.Error(); got != "x:y: refused (§6): r; allow port 25 explicitly to go on" {
		t.Errorf("Error() with a hint = %q", got)
	}
}

// TestCheckDataPortBounds: a data port named by a server is a TCP port
// from 1 to 65535, both ends included.
func TestCheckDataPortBounds(t *testing.T) {
	c := NewClient()
	for port, ok := range map[int]bool{0: false, 1: true, 2: true, 65534: true, 65535: true, 65536: false, -1: false} {
		if err := c.CheckDataPort("ftp", port); (err == nil) != ok {
			t.Errorf("CheckDataPort(%d) = %v", port, err)
		}
	}
}

// TestRedactInvalidEdges: the redaction of a string that does not parse
// finds a "//" at the very start and a ':' right after it.
func TestRedactInvalidEdges(t *testing.T) {
	for in, want := range map[string]string{
		"//u:p@h/x y":        "//u:****@h/x y",
		"x://:p@h/ y":        "x://:****@h/ y",
		"x://u:@h/ y":        "x://u:****@h/ y",
		"no slashes: at@all": "no slashes: at@all",
	} {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestBlockedPortsPerClient: each client has its own table, a copy of the
// default: one client's change (a port added or removed) moves no other
// client's guard, nor the default; a Client not made by NewClient guards
// the default ports; Clone copies the table, not a share of it.
func TestBlockedPortsPerClient(t *testing.T) {
	smtp := mustParse(t, "gopher://h:25/0x")
	free := mustParse(t, "gopher://h:7777/0x")
	a, b := NewClient(), NewClient()
	delete(a.BlockedPorts, 25)
	a.BlockedPorts[7777] = "a test service"
	if _, err := a.CheckPort(smtp); err != nil {
		t.Errorf("a client that unblocked 25 refuses it: %v", err)
	}
	if _, err := a.CheckPort(free); err == nil || !strings.Contains(err.Error(), "a test service") {
		t.Errorf("a client that blocked 7777 lets it through: %v", err)
	}
	if _, err := b.CheckPort(smtp); err == nil {
		t.Error("another client's change unblocked port 25 for all")
	}
	if _, err := b.CheckPort(free); err != nil {
		t.Errorf("another client's change blocked 7777 for all: %v", err)
	}
	if _, ok := DefaultBlockedPorts()[25]; !ok {
		t.Error("a client's change reached the default table")
	}
	var zero Client
	if _, err := zero.CheckPort(smtp); err == nil {
		t.Error("a zero Client lets port 25 through")
	}
	if err := zero.CheckDataPort("ftp", 25); err == nil {
		t.Error("a zero Client's data port guard lets port 25 through")
	}
	d := a.Clone()
	d.BlockedPorts[25] = "smtp"
	if _, err := a.CheckPort(smtp); err != nil {
		t.Errorf("a clone's change reached the client it was cloned from: %v", err)
	}
	if _, err := d.CheckPort(free); err == nil {
		t.Error("a clone lost the table it was cloned with")
	}
}
