package telnet

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// Short names for the byte vectors below.
const (
	IAC  = cmdIAC
	WILL = cmdWILL
	WONT = cmdWONT
	DO   = cmdDO
	DONT = cmdDONT
	SB   = cmdSB
	SE   = cmdSE
)

func cat(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = append(b, byte(v))
		case byte:
			b = append(b, v)
		case string:
			b = append(b, v...)
		case []byte:
			b = append(b, v...)
		default:
			panic(fmt.Sprintf("cat: %T", p))
		}
	}
	return b
}

// telnetdOpening is exactly what inetutils telnetd 2.4 sends first
// (loopback-servers.md §5), then its second and third rounds as observed.
var (
	telnetdOpening = cat(IAC, WILL, optAuth, IAC, WILL, optEncrypt,
		IAC, DO, optTTYPE, IAC, DO, optTSpeed, IAC, DO, optXDispLoc,
		IAC, DO, optNewEnviron, IAC, DO, optOldEnviron)
	telnetdSecond = cat(IAC, WILL, optSGA, IAC, DO, optEcho, IAC, DO, optLinemode,
		IAC, DO, optNAWS, IAC, WILL, optStatus, IAC, DO, optLFlow)
	telnetdThird = cat(IAC, WILL, optEcho, IAC, DO, optTimingMark, IAC, DO, optBinary)
)

var negotiationTests = []struct {
	name     string
	ttype    string
	size     [2]uint16 // sent with setWindowSize before the input when nonzero
	chunks   [][]byte  // received, one process call each
	wantData string
	wantOut  []byte
}{
	{
		// RFC 1143: refuse what we do not support, DONT for WILL and WONT for DO.
		name:   "telnetd opening, no terminal type",
		chunks: [][]byte{telnetdOpening},
		wantOut: cat(IAC, DONT, optAuth, IAC, DONT, optEncrypt,
			IAC, WONT, optTTYPE, IAC, WONT, optTSpeed, IAC, WONT, optXDispLoc,
			IAC, WONT, optNewEnviron, IAC, WONT, optOldEnviron),
	},
	{
		// RFC 1091: with a terminal type we agree to TERMINAL-TYPE.
		name:   "telnetd opening with terminal type",
		ttype:  "xterm",
		chunks: [][]byte{telnetdOpening},
		wantOut: cat(IAC, DONT, optAuth, IAC, DONT, optEncrypt,
			IAC, WILL, optTTYPE, IAC, WONT, optTSpeed, IAC, WONT, optXDispLoc,
			IAC, WONT, optNewEnviron, IAC, WONT, optOldEnviron),
	},
	{
		// RFC 1091: SEND is answered with IS and the name.
		name:    "terminal type SEND",
		ttype:   "xterm",
		chunks:  [][]byte{cat(IAC, DO, optTTYPE, IAC, SB, optTTYPE, ttypeSEND, IAC, SE)},
		wantOut: cat(IAC, WILL, optTTYPE, IAC, SB, optTTYPE, ttypeIS, "xterm", IAC, SE),
	},
	{
		// RFC 1091: no answer to SEND while the option is off.
		name:     "terminal type SEND while refused",
		chunks:   [][]byte{cat(IAC, SB, optTTYPE, ttypeSEND, IAC, SE, "x")},
		wantData: "x",
	},
	{
		// RFC 858 both ways, RFC 857 server echo, RFC 1073 NAWS with the size;
		// LINEMODE, STATUS, LFLOW, our own ECHO refused.
		name:   "telnetd second round",
		size:   [2]uint16{80, 24},
		chunks: [][]byte{cat(IAC, DONT, optNAWS), telnetdSecond},
		wantOut: cat(IAC, WILL, optNAWS, // the offer made by setWindowSize
			IAC, DO, optSGA, IAC, WONT, optEcho, IAC, WONT, optLinemode,
			IAC, WILL, optNAWS, IAC, SB, optNAWS, 0, 80, 0, 24, IAC, SE,
			IAC, DONT, optStatus, IAC, WONT, optLFlow),
	},
	{
		// Our WILL NAWS crossed the server's DO NAWS: RFC 1143 WANTYES + DO
		// means agreed, no second WILL; the size follows.
		name:    "NAWS offer crossing DO NAWS",
		size:    [2]uint16{132, 43},
		chunks:  [][]byte{cat(IAC, DO, optNAWS)},
		wantOut: cat(IAC, WILL, optNAWS, IAC, SB, optNAWS, 0, 132, 0, 43, IAC, SE),
	},
	{
		// RFC 1073: a 255 in the size is doubled.
		name:    "NAWS size with 255",
		size:    [2]uint16{255, 0x1ff},
		chunks:  [][]byte{cat(IAC, DO, optNAWS)},
		wantOut: cat(IAC, WILL, optNAWS, IAC, SB, optNAWS, 0, IAC, IAC, 1, IAC, IAC, IAC, SE),
	},
	{
		// RFC 857, RFC 860, RFC 856: accept the echo, refuse TM and BINARY.
		name:    "telnetd third round",
		chunks:  [][]byte{telnetdThird},
		wantOut: cat(IAC, DO, optEcho, IAC, WONT, optTimingMark, IAC, WONT, optBinary),
	},
	{
		// RFC 1143: a request that does not change the state gets no answer,
		// so a repeating peer cannot make us loop.
		name:    "repeated WILL ECHO answered once",
		chunks:  [][]byte{cat(IAC, WILL, optEcho, IAC, WILL, optEcho, IAC, WILL, optEcho)},
		wantOut: cat(IAC, DO, optEcho),
	},
	{
		// A refused option asked again is refused again: each is a new request.
		name:    "repeated WILL AUTH refused each time",
		chunks:  [][]byte{cat(IAC, WILL, optAuth), cat(IAC, WILL, optAuth)},
		wantOut: cat(IAC, DONT, optAuth, IAC, DONT, optAuth),
	},
	{
		// RFC 1143: WONT for an enabled option is acknowledged with DONT once.
		name:    "WONT ECHO after WILL ECHO",
		chunks:  [][]byte{cat(IAC, WILL, optEcho, IAC, WONT, optEcho, IAC, WONT, optEcho)},
		wantOut: cat(IAC, DO, optEcho, IAC, DONT, optEcho),
	},
	{
		// RFC 854: IAC IAC is a data byte 255.
		name:     "IAC IAC in data",
		chunks:   [][]byte{cat("a", IAC, IAC, "b", IAC, IAC)},
		wantData: "a\xffb\xff",
	},
	{
		// RFC 854: CR NUL is a bare CR; CR LF stays.
		name:     "CR NUL and CR LF",
		chunks:   [][]byte{cat("a\r", 0, "b\r\nc\r"), cat(0, "d", 0)},
		wantData: "a\rb\r\nc\rd\x00",
	},
	{
		// RFC 854 functions without effect on the data are removed.
		name:     "NOP GA DM AYT removed",
		chunks:   [][]byte{cat("a", IAC, cmdNOP, "b", IAC, cmdGA, IAC, cmdDM, IAC, cmdAYT, "c")},
		wantData: "abc",
	},
	{
		// Every command split between reads at every byte.
		name:  "subnegotiation split across reads",
		ttype: "vt100",
		chunks: [][]byte{cat("x", IAC), cat(DO), cat(optTTYPE, IAC), cat(SB), cat(optTTYPE),
			cat(ttypeSEND), cat(IAC), cat(SE, "y", IAC), cat(IAC, "z")},
		wantData: "xy\xffz",
		wantOut:  cat(IAC, WILL, optTTYPE, IAC, SB, optTTYPE, ttypeIS, "vt100", IAC, SE),
	},
	{
		// RFC 855: IAC IAC inside the parameters is one 255, not the end.
		name:     "IAC IAC inside subnegotiation",
		chunks:   [][]byte{cat(IAC, SB, optStatus, 1, IAC, IAC, 2, IAC, SE, "d")},
		wantData: "d",
	},
	{
		// A subnegotiation past maxSub is dropped whole; data after it survives.
		name:     "oversize subnegotiation",
		ttype:    "xterm",
		chunks:   [][]byte{cat(IAC, DO, optTTYPE, IAC, SB, optTTYPE, ttypeSEND, strings.Repeat("A", 3*maxSub), IAC, SE, "after")},
		wantData: "after",
		wantOut:  cat(IAC, WILL, optTTYPE),
	},
	{
		// IAC other than IAC or SE inside SB: the SB is abandoned and the
		// command read as such (as the BSD client does).
		name:     "subnegotiation cut by a command",
		ttype:    "xterm",
		chunks:   [][]byte{cat(IAC, DO, optTTYPE, IAC, SB, optTTYPE, ttypeSEND, IAC, WILL, optEcho, "z")},
		wantData: "z",
		wantOut:  cat(IAC, WILL, optTTYPE, IAC, DO, optEcho),
	},
}

func TestNegotiation(t *testing.T) {
	for _, tt := range negotiationTests {
		t.Run(tt.name, func(t *testing.T) {
			var trace []string
			n := negotiator{ttype: tt.ttype, trace: func(dir byte, line string) {
				trace = append(trace, string(dir)+" "+line)
			}}
			if tt.size != [2]uint16{} {
				n.setWindowSize(tt.size[0], tt.size[1])
			}
			var data []byte
			for _, c := range tt.chunks {
				buf := bytes.Clone(c)
				data = append(data, buf[:n.process(buf)]...)
			}
			if string(data) != tt.wantData {
				t.Errorf("data = %q, want %q", data, tt.wantData)
			}
			if !bytes.Equal(n.out, tt.wantOut) {
				t.Errorf("sent\n% x\nwant\n% x\ntrace:\n%s", n.out, tt.wantOut, strings.Join(trace, "\n"))
			}
			if len(n.sb) > maxSub {
				t.Errorf("subnegotiation buffer grew to %d bytes", len(n.sb))
			}
		})
	}
}

// TestNegotiationTrace checks the Trace lines for the telnetd opening.
func TestNegotiationTrace(t *testing.T) {
	var trace []string
	n := negotiator{ttype: "xterm", trace: func(dir byte, line string) {
		trace = append(trace, string(dir)+" "+line)
	}}
	buf := cat(IAC, WILL, optAuth, IAC, DO, optTTYPE, IAC, SB, optTTYPE, ttypeSEND, IAC, SE,
		IAC, SB, optNewEnviron, 1, IAC, SE, IAC, DO, 200)
	n.process(buf)
	want := []string{
		"< WILL AUTHENTICATION", "> DONT AUTHENTICATION",
		"< DO TTYPE", "> WILL TTYPE",
		"< SB TTYPE SEND", "> SB TTYPE IS xterm",
		"< SB NEW-ENVIRON, 2 bytes (ignored)",
		"< DO OPT-200", "> WONT OPT-200",
	}
	if strings.Join(trace, "\n") != strings.Join(want, "\n") {
		t.Errorf("trace:\n%s\nwant:\n%s", strings.Join(trace, "\n"), strings.Join(want, "\n"))
	}
}

// TestQMethod walks the RFC 1143 §7 tables for one side ("him": WILL/WONT
// received, DO/DONT sent) from every state, queue bit and event.
func TestQMethod(t *testing.T) {
	type st struct {
		s qstate
		q bool
	}
	tests := []struct {
		from   st
		event  string // "WILL", "WONT", "ask-enable", "ask-disable"
		accept bool
		to     st
		sent   string
	}{
		// Upon receipt of WILL.
		{st{qNo, false}, "WILL", true, st{qYes, false}, "DO"},
		{st{qNo, false}, "WILL", false, st{qNo, false}, "DONT"},
		{st{qYes, false}, "WILL", true, st{qYes, false}, ""},
		{st{qWantNo, false}, "WILL", true, st{qNo, false}, ""}, // error: DONT answered by WILL
		{st{qWantNo, true}, "WILL", true, st{qYes, false}, ""},
		{st{qWantYes, false}, "WILL", true, st{qYes, false}, ""},
		{st{qWantYes, true}, "WILL", true, st{qWantNo, false}, "DONT"},
		// Upon receipt of WONT.
		{st{qNo, false}, "WONT", true, st{qNo, false}, ""},
		{st{qYes, false}, "WONT", true, st{qNo, false}, "DONT"},
		{st{qWantNo, false}, "WONT", true, st{qNo, false}, ""},
		{st{qWantNo, true}, "WONT", true, st{qWantYes, false}, "DO"},
		{st{qWantYes, false}, "WONT", true, st{qNo, false}, ""},
		{st{qWantYes, true}, "WONT", true, st{qNo, false}, ""},
		// If we decide to ask him to enable.
		{st{qNo, false}, "ask-enable", true, st{qWantYes, false}, "DO"},
		{st{qYes, false}, "ask-enable", true, st{qYes, false}, ""},
		{st{qWantNo, false}, "ask-enable", true, st{qWantNo, true}, ""},
		{st{qWantNo, true}, "ask-enable", true, st{qWantNo, true}, ""},
		{st{qWantYes, false}, "ask-enable", true, st{qWantYes, false}, ""},
		{st{qWantYes, true}, "ask-enable", true, st{qWantYes, false}, ""},
		// If we decide to ask him to disable.
		{st{qNo, false}, "ask-disable", true, st{qNo, false}, ""},
		{st{qYes, false}, "ask-disable", true, st{qWantNo, false}, "DONT"},
		{st{qWantNo, false}, "ask-disable", true, st{qWantNo, false}, ""},
		{st{qWantNo, true}, "ask-disable", true, st{qWantNo, false}, ""},
		{st{qWantYes, false}, "ask-disable", true, st{qWantYes, true}, ""},
		{st{qWantYes, true}, "ask-disable", true, st{qWantYes, true}, ""},
	}
	for _, tt := range tests {
		var n negotiator
		s, q := tt.from.s, tt.from.q
		switch tt.event {
		case "WILL":
			n.recvEnable(&s, &q, tt.accept, DO, DONT, optEcho)
		case "WONT":
			n.recvDisable(&s, &q, DO, DONT, optEcho)
		case "ask-enable":
			n.ask(&s, &q, true, DO, DONT, optEcho)
		case "ask-disable":
			n.ask(&s, &q, false, DO, DONT, optEcho)
		}
		var sent string
		if len(n.out) == 3 {
			sent = cmdName(n.out[1])
		} else if len(n.out) != 0 {
			sent = fmt.Sprintf("% x", n.out)
		}
		if (st{s, q}) != tt.to || sent != tt.sent {
			t.Errorf("%v + %s (accept %v): got %v sent %q, want %v sent %q",
				tt.from, tt.event, tt.accept, st{s, q}, sent, tt.to, tt.sent)
		}
	}
}

// TestNAWSOfferedOnce: after the server refuses our WILL NAWS, a resize
// does not offer it again (that would be a loop in slow motion).
func TestNAWSOfferedOnce(t *testing.T) {
	var n negotiator
	n.setWindowSize(80, 24)
	n.process(cat(IAC, DONT, optNAWS))
	n.setWindowSize(100, 40)
	if want := cat(IAC, WILL, optNAWS); !bytes.Equal(n.out, want) {
		t.Fatalf("sent % x, want % x", n.out, want)
	}
	// The server may still ask later; then the current size follows.
	n.out = nil
	n.process(cat(IAC, DO, optNAWS))
	if want := cat(IAC, WILL, optNAWS, IAC, SB, optNAWS, 0, 100, 0, 40, IAC, SE); !bytes.Equal(n.out, want) {
		t.Fatalf("sent % x, want % x", n.out, want)
	}
	// A resize while NAWS is on sends only the new size.
	n.out = nil
	n.setWindowSize(120, 50)
	if want := cat(IAC, SB, optNAWS, 0, 120, 0, 50, IAC, SE); !bytes.Equal(n.out, want) {
		t.Fatalf("sent % x, want % x", n.out, want)
	}
}

// TestAppendData: RFC 854 output rules.
func TestAppendData(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"\xff", "\xff\xff"},       // IAC doubled
		{"a\r\nb", "a\r\nb"},       // CR LF unchanged
		{"a\rb", "a\r\x00b"},       // bare CR padded with NUL
		{"enter\r", "enter\r\x00"}, // CR at the end: sent now, padded
		{"\r\r\n", "\r\x00\r\n"},   // only the CR before LF is a newline
		{"x\ny", "x\ny"},           // bare LF is a valid NVT code
		{"\x00\xfe\xff\xff", "\x00\xfe\xff\xff\xff\xff"},
	}
	for _, tt := range tests {
		if got := appendData(nil, []byte(tt.in)); string(got) != tt.want {
			t.Errorf("appendData(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNoAllocsProcess(t *testing.T) {
	var n negotiator
	in := []byte("plain text from the server\r\n with \xff\xff and CR\r\x00 NUL")
	buf := make([]byte, len(in))
	allocs := testing.AllocsPerRun(100, func() {
		copy(buf, in)
		n.process(buf)
	})
	if allocs != 0 {
		t.Errorf("process of data allocates %v times", allocs)
	}
}
