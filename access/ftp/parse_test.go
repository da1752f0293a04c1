package ftp

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"net/textproto"
	"strings"
	"testing"
)

var epsvTests = []struct {
	msg  string
	port int
}{
	{"Entering Extended Passive Mode (|||6446|)", 6446}, // RFC 2428 §3, verbatim
	{"Entering Extended Passive Mode (|||30012|).", 30012},
	{"EPSV ok (!!!21!)", 21}, // any printable delimiter
	{"(|||65535|)", 65535},
	{"(|||65536|)", 0},
	{"(|||0|)", 0},
	{"(|||6446)", 0},
	{"(||6446|)", 0},
	{"(|1|127.0.0.1|6446|)", 0}, // a network address is not allowed in the reply
	{"no parenthesis", 0},
	{"(", 0},
	{"(|||", 0},
	{"(|||x|)", 0},
}

func TestParseEPSV(t *testing.T) {
	for _, tt := range epsvTests {
		if got := parseEPSV(tt.msg); got != tt.port {
			t.Errorf("parseEPSV(%q) = %d, want %d", tt.msg, got, tt.port)
		}
	}
}

func TestParsePASV(t *testing.T) {
	tests := []struct {
		msg  string
		ip   string
		port int
	}{
		{"Entering Passive Mode (127,0,0,1,117,137).", "127.0.0.1", 30089}, // vsftpd
		{"Entering Passive Mode 10,0,0,7,4,1", "10.0.0.7", 1025},           // RFC 1123 §4.1.2.6: no parentheses
		{"=127,0,0,1,0,21", "127.0.0.1", 21},
		{"(256,0,0,1,1,1)", "", 0},
		{"(1,2,3,4,5)", "", 0},
		{"(1,2,3,4,0,0)", "", 0},
		{"(1,2,3,4,5,)", "", 0},
		{"(1,2,3,4,1000,1)", "", 0},
		{"no numbers", "", 0},
	}
	for _, tt := range tests {
		ip, port := parsePASV(tt.msg)
		if port != tt.port || (tt.port != 0 && !ip.Equal(net.ParseIP(tt.ip))) {
			t.Errorf("parsePASV(%q) = %v, %d; want %s, %d", tt.msg, ip, port, tt.ip, tt.port)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		msg  string
		size int64
	}{
		{"Opening BINARY mode data connection for pub/binary.bin (100000 bytes).", 100000}, // vsftpd
		{"Opening ASCII mode data connection for motd (27 bytes)", 27},
		{"Opening BINARY mode data connection for (weird) (0 bytes).", 0},
		{"Opening BINARY mode data connection for x (12 bytes) (34 bytes).", 34},
		{"Here comes the directory listing.", -1},
		{"Opening data connection ( bytes).", -1},
		{"(-5 bytes)", -1},
		{"(99999999999999999999 bytes)", -1},
	}
	for _, tt := range tests {
		if got := parseSize(tt.msg); got != tt.size {
			t.Errorf("parseSize(%q) = %d, want %d", tt.msg, got, tt.size)
		}
	}
}

func TestParseCode(t *testing.T) {
	tests := []struct {
		line string
		code int
		sep  byte
		ok   bool
	}{
		{"220 ready", 220, ' ', true},
		{"220-first", 220, '-', true},
		{"220", 220, ' ', true},
		{"599 x", 599, ' ', true},
		{"100 x", 100, ' ', true},
		{"099 x", 0, 0, false}, // RFC 959 §4.2.1: the first digit is 1-5
		{"600 x", 0, 0, false},
		{"22 x", 0, 0, false},
		{"2200 x", 0, 0, false},
		{"22a x", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		code, sep, ok := parseCode(tt.line)
		if code != tt.code || sep != tt.sep || ok != tt.ok {
			t.Errorf("parseCode(%q) = %d, %q, %v; want %d, %q, %v", tt.line, code, sep, ok, tt.code, tt.sep, tt.ok)
		}
	}
}

func TestCommandErrorText(t *testing.T) {
	err := error(&CommandError{Cmd: "RETR motd", Reply: &textproto.Error{Code: 550, Msg: "Failed\x1b[31m to\nopen"}})
	if got, want := err.Error(), `ftp: RETR motd: 550 Failed\x1b[31m to\nopen`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	// Every control a peer can send is escaped: ESC, OSC, BEL, CSI (the
	// 7-bit form, the C1 character U+009B and a lone byte 0x9B), NUL.
	hostile := &CommandError{Cmd: "RETR x", Reply: &textproto.Error{Code: 550, Msg: "\x1b]0;title\a \x1b[2J \u009b31m \x9b \x00"}}
	if got, want := hostile.Error(), `ftp: RETR x: 550 \x1b]0;title\a \x1b[2J \u009b31m \x9b \x00`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 550 {
		t.Errorf("errors.As *textproto.Error failed")
	}
}

func TestRedact(t *testing.T) {
	if got := redact("PASS", "hunter2", true); got != "PASS ****" {
		t.Errorf("redact PASS = %q", got)
	}
	if got := redact("CWD", "", true); got != "CWD " {
		t.Errorf("redact CWD \"\" = %q", got)
	}
	if got := redact("NLST", "", false); got != "NLST" {
		t.Errorf("redact NLST = %q", got)
	}
	if err := checkArg("PASS", "a\nb"); err == nil || err.(*ArgumentError).Arg != "" {
		t.Errorf("checkArg PASS kept the password: %v", err)
	}
}

func TestWithDefaultPort(t *testing.T) {
	tests := map[string]string{
		"host.dom":      "host.dom:21", // RFC 1738 §3.2: the port defaults to 21
		"host.dom:2121": "host.dom:2121",
		"[::1]":         "[::1]:21",
		"[::1]:2121":    "[::1]:2121",
		"127.0.0.1":     "127.0.0.1:21",
	}
	for in, want := range tests {
		if got := withDefaultPort(in); got != want {
			t.Errorf("withDefaultPort(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzReadReply feeds arbitrary server bytes to the reply reader: it
// must never panic, must stay within its bounds, and must fail only with
// a *ProtocolError (the input is finite, so EOF ends it).
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{
		"220 (vsFTPd 3.0.3)\r\n",
		"220-Welcome\r\n220-more\r\ntext\r\n220 ready\r\n",
		"120 wait\r\n220 ok\n",
		"250-x\r\n251 not the end\r\n250 end\r\n",
		"garbage\r\n",
		"220-never ends\r\n",
		"229 Entering Extended Passive Mode (|||6446|)\r\n",
		"227 Entering Passive Mode (127,0,0,1,117,137).\r\n",
		"150 Opening BINARY mode data connection for motd (27 bytes).\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &Conn{cfg: Config{MaxLineLength: 64, MaxReplyLines: 8}}
		c.r = bufio.NewReaderSize(bytes.NewReader(data), c.cfg.MaxLineLength+2)
		for i := 0; i < 20; i++ {
			rep, err := c.readReply("TEST")
			if err != nil {
				var pe *ProtocolError
				if !errors.As(err, &pe) {
					t.Fatalf("error %v is not a *ProtocolError", err)
				}
				return
			}
			if rep.Code < 100 || rep.Code > 599 {
				t.Fatalf("code %d out of range", rep.Code)
			}
			if lines := strings.Count(rep.Msg, "\n") + 1; lines > c.cfg.MaxReplyLines {
				t.Fatalf("%d lines > %d", lines, c.cfg.MaxReplyLines)
			}
			if p := parseEPSV(rep.Msg); p < 0 || p > 65535 {
				t.Fatalf("EPSV port %d", p)
			}
			if ip, p := parsePASV(rep.Msg); p != 0 && (ip.To4() == nil || p > 65535) {
				t.Fatalf("PASV %v %d", ip, p)
			}
			if n := parseSize(rep.Msg); n < -1 {
				t.Fatalf("size %d", n)
			}
		}
	})
}
