package access

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// hostileProtocol is one protocol of the hostile-server matrix: how to
// reach a testserver.Hostile with it, and the script of its prelude.
type hostileProtocol struct {
	name  string
	url   func(addr string) string
	setup func(c *Client, addr string)
	cfg   testserver.HostileConfig // Fault is set per cell
	// streams is true when an endless stream is a well-formed body that
	// the client hands on as it arrives (a listing rendered as it comes):
	// the test reads hostileRead bytes of it and stops.
	streams bool
	// empty is true when a dropped connection is a well-formed empty
	// reply (RFC 1436: a gopher server closes the connection at the end).
	empty bool
	// noEscapes leaves FaultEscapes out: the replies are binary.
	noEscapes bool
}

// hostileRead is how much of a streamed endless body the matrix reads: it
// must arrive before the server's stream ends (testserver.HostileStreamLimit).
const hostileRead = 256 << 10

var hostileProtocols = []hostileProtocol{
	{
		// RFC 959: the fault answers EPSV, after a well-formed login.
		name: "ftp",
		url:  func(addr string) string { return "ftp://u:secret@" + addr + "/f;type=i" },
		cfg: testserver.HostileConfig{
			Greeting: []string{"220 hostile ftp"},
			Replies:  [][]string{{"331 password"}, {"230 ok"}, {"200 binary"}},
			Head:     []string{"229-a multi-line reply that never ends"},
			Line:     " line %d",
			Escapes:  []string{"550 " + testserver.EscapeBytes},
		},
	},
	{
		// RFC 1436: the fault answers a menu request.
		name: "gopher",
		url:  func(addr string) string { return "gopher://" + addr + "/1menu" },
		cfg: testserver.HostileConfig{
			Line:    "0item %d\t/item%d\t127.0.0.1\t70",
			Escapes: []string{"i" + testserver.EscapeBytes + "\t\terror.host\t1", "0" + testserver.EscapeBytes + "\t/x\t127.0.0.1\t70", "."},
		},
		streams: true,
		empty:   true,
	},
	{
		// RFC 3977: the fault answers LIST ACTIVE (news:*).
		name:  "news",
		url:   func(string) string { return "news:*" },
		setup: func(c *Client, addr string) { setNews(c, func(n *News) { n.Server = addr }) },
		cfg: testserver.HostileConfig{
			Greeting: []string{"200 hostile news"},
			Head:     []string{"215 the list follows, and never ends"},
			Line:     "group.g%d 0000000010 0000000001 y",
			Escapes:  []string{"502 " + testserver.EscapeBytes},
		},
		streams: true,
	},
	{
		// RFC 1945: the fault answers the GET.
		name: "http",
		url:  func(addr string) string { return "http://" + addr + "/x" },
		cfg: testserver.HostileConfig{
			RequestEnd: "\r\n\r\n",
			Head:       []string{"HTTP/1.1 200 OK"},
			Line:       "X-Filler-%d: and more headers",
			// net/http refuses a status line with NUL: the rest of the
			// escapes reach the error.
			Escapes: []string{"HTTP/1.1 500 \x1b[2J\x1b]0;owned\a\u009b31m\x9b", "Content-Length: 0", ""},
		},
	},
	{
		// Z39.50 (wais, §3.9): the fault answers the Init PDU.
		name: "wais",
		url:  func(addr string) string { return "wais://" + addr + "/db?x" },
		cfg: testserver.HostileConfig{
			Binary: true,
			Line:   "\x30\x84\x7f\xff\xff\xff",
		},
		noEscapes: true,
	},
}

// TestHostileServers runs every fault of testserver.Faults against every
// protocol: whatever the server does, Get ends within its deadline with an
// error that names the URL (password redacted), the trace and the error
// carry no raw control byte, and nothing grows without bound.
func TestHostileServers(t *testing.T) {
	for _, proto := range hostileProtocols {
		for _, fault := range testserver.Faults {
			if fault == testserver.FaultEscapes && proto.noEscapes {
				continue
			}
			t.Run(proto.name+"/"+string(fault), func(t *testing.T) {
				cfg := proto.cfg
				cfg.Fault = fault
				h := testserver.NewHostile(t, cfg)
				runHostile(t, proto, h, fault)
			})
		}
	}
}

func runHostile(t *testing.T, proto hostileProtocol, h *testserver.Hostile, fault testserver.Fault) {
	c := NewClient()
	var mu sync.Mutex
	var trace strings.Builder
	c.Trace = func(dir byte, line string) {
		mu.Lock()
		defer mu.Unlock()
		if trace.Len() < 1<<20 {
			trace.WriteString(string(dir) + " " + line + "\n")
		}
	}
	if proto.setup != nil {
		proto.setup(c, h.Addr)
	}
	limit := 5 * time.Second
	if fault == testserver.FaultStall {
		limit = 500 * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	raw := proto.url(h.Addr)
	u, err := rfc1738.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var got int64
	var body strings.Builder
	resp, err := c.Get(ctx, u)
	if err == nil {
		got, err = io.Copy(&body, io.LimitReader(resp.Body, hostileRead))
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
	}
	took := time.Since(start)
	if took > limit+2*time.Second {
		t.Errorf("took %v, beyond the %v deadline", took, limit)
	}
	mu.Lock()
	tr := trace.String()
	mu.Unlock()
	for _, line := range strings.Split(tr, "\n") {
		if safetext.Line(line) != line {
			t.Errorf("a trace line carries raw control bytes: %q", line)
			break
		}
	}
	if fault == testserver.FaultEndless && proto.streams {
		// A listing streams as it arrives: its first 256 KiB came long
		// before the server's endless stream could end or trip a bound.
		if got < hostileRead {
			t.Errorf("read %d bytes of the endless listing, want %d before any error (%v)", got, hostileRead, err)
		}
		return
	}
	if err == nil && fault == testserver.FaultEscapes {
		// A well-formed reply that carries escapes: the listing shows
		// them escaped.
		out := body.String()
		for _, line := range strings.Split(out, "\n") {
			if safetext.Line(line) != line {
				t.Errorf("a listing line carries raw control bytes: %q", line)
			}
		}
		if !strings.Contains(out, `\x1b`) {
			t.Errorf("the escapes were dropped, not shown escaped:\n%s", out)
		}
		return
	}
	if err == nil && fault == testserver.FaultDrop && proto.empty && got == 0 {
		return
	}
	if err == nil {
		t.Fatalf("no error; read %d bytes", got)
	}
	msg := err.Error()
	if safetext.Escape(msg) != msg {
		t.Errorf("the error carries raw control bytes: %q", msg)
	}
	if want := Redact(raw); !strings.Contains(msg, want) {
		t.Errorf("the error does not name the URL %s: %v", want, err)
	}
	if strings.Contains(msg, "secret") || strings.Contains(tr, "secret") {
		t.Errorf("the password leaked:\n%v\n%s", err, tr)
	}
	if fault == testserver.FaultStall && !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a stalled server: %v, want the deadline", err)
	}
	if fault == testserver.FaultEscapes && !strings.Contains(msg+tr, `\x1b`) {
		t.Errorf("the escapes were dropped, not shown escaped:\n%v\n%s", err, tr)
	}
	t.Logf("%v (%d bytes, %v)", err, got, took.Round(time.Millisecond))
}

// TestHostileFTPDataPort: a 229 or 227 naming a port of another protocol
// (25, SMTP) is refused by the §6 guard before anything connects there.
func TestHostileFTPDataPort(t *testing.T) {
	for _, noEPSV := range []bool{false, true} {
		f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles, NoEPSV: noEPSV, DataPort: 25})
		c, _ := ftpTestClient()
		_, _, err := planAndGet(t, c, "ftp://"+f.Addr+"/etc/motd")
		if err == nil || !strings.Contains(err.Error(), "refused (§6)") || !strings.Contains(err.Error(), "port 25 belongs to smtp") {
			t.Errorf("NoEPSV=%v: err = %v, want the data port refused (§6)", noEPSV, err)
		}
		for _, cmd := range f.Commands() {
			if strings.HasPrefix(cmd, "RETR") {
				t.Errorf("NoEPSV=%v: RETR was sent after a refused data port", noEPSV)
			}
		}
		c.AllowPorts = []int{25}
		if _, _, err := planAndGet(t, c, "ftp://"+f.Addr+"/etc/motd"); err == nil || strings.Contains(err.Error(), "refused (§6)") {
			t.Errorf("NoEPSV=%v: --allow-port 25: %v, want a connection error, not a refusal", noEPSV, err)
		}
	}
}

// TestHostileWrappingPort: a port beyond 65535 that a 32- or 64-bit sum
// would wrap onto a listening port is refused before any connection.
func TestHostileWrappingPort(t *testing.T) {
	h := testserver.NewHostile(t, testserver.HostileConfig{Fault: testserver.FaultEscapes, Escapes: []string{"3connected\t\terror.host\t1"}})
	_, port, _ := strings.Cut(h.Addr, ":")
	n, _ := strconv.ParseUint(port, 10, 64)
	for _, wrapped := range []uint64{n + 1<<32, n + 1<<16} {
		u, err := rfc1738.Parse("gopher://127.0.0.1:" + strconv.FormatUint(wrapped, 10) + "/1")
		if err != nil {
			continue // the grammar refusing it is as good
		}
		c := NewClient()
		if _, err := c.Plan(u); err == nil || !strings.Contains(err.Error(), "is not a TCP port") {
			t.Errorf("Plan(%s) = %v, want a refusal", u, err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if _, err := c.Get(ctx, u); err == nil {
			t.Errorf("Get(%s) succeeded", u)
		}
		cancel()
	}
	if reqs := h.Requests(); len(reqs) != 0 {
		t.Errorf("the server on port %s was reached: %q", port, reqs)
	}
}

// TestHTTPBodyErrors: an http body that fails says which URL and how far
// it got: "15 of 1000 bytes" for a short body, the URL for a broken chunk.
func TestHTTPBodyErrors(t *testing.T) {
	tests := []struct {
		name  string
		reply []string
		want  string
	}{
		{"short", []string{"HTTP/1.1 200 OK", "Content-Length: 1000", "", "thirteen byte"}, "the body was cut short: 15 of 1000 bytes"},
		{"bad chunk", []string{"HTTP/1.1 200 OK", "Transfer-Encoding: chunked", "", "zz"}, "receiving the body, after 0 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := testserver.NewHostile(t, testserver.HostileConfig{RequestEnd: "\r\n\r\n", Fault: testserver.FaultEscapes, Escapes: tt.reply})
			url := "http://" + h.Addr + "/x"
			_, _, err := planAndGet(t, NewClient(), url)
			if err == nil || !strings.HasPrefix(err.Error(), url+": "+tt.want) {
				t.Errorf("err = %v, want %s: %s…", err, url, tt.want)
			}
		})
	}
}

// TestFTPListingEscapes: a name in an NLST listing holding ESC, OSC, BEL,
// CSI or the C1 CSI 0x9B (as U+009B and as a byte) is listed escaped.
func TestFTPListingEscapes(t *testing.T) {
	const evil = "n\x1b[2J\x1b]0;x\a\u009b31m\x9b"
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/d/" + evil: "x"}})
	c, _ := ftpTestClient()
	_, body, err := planAndGet(t, c, "ftp://"+f.Addr+"/d/;type=d")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(body, "\n") {
		if safetext.Escape(line) != line {
			t.Errorf("raw control bytes in %q", line)
		}
	}
	if !strings.Contains(body, `n\x1b[2J\x1b]0;x\a\u009b31m\x9b`) {
		t.Errorf("the name is not listed escaped:\n%s", body)
	}
}
