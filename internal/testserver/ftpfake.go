package testserver

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// FTPFake is a scripted FTP server (RFC 959) on 127.0.0.1 for tests. It
// records every command line it receives, exactly as sent (so "CWD "
// with its trailing space can be told from "CWD"), answers like a small
// vsftpd over an in-memory file tree, and serves data over EPSV or PASV.
// A Handle function can take over any command to inject faults.
type FTPFake struct {
	// Addr is the control address, "127.0.0.1:port".
	Addr string

	*listener
	opts FTPFakeOptions

	mu       sync.Mutex
	cmds     []string
	sessions [][]string // the same lines, a slice per control connection
}

// FTPFakeOptions script an FTPFake. The zero value is a server with an
// empty tree that accepts any login.
type FTPFakeOptions struct {
	// Greeting is the list of lines sent on connect, each followed by
	// CRLF; nil means "220 fake FTP server ready".
	Greeting []string

	// Files maps absolute slash-separated paths ("/etc/motd") to their
	// contents. The folders on the way exist implicitly; "/" always does.
	Files map[string]string

	// PASVHost is the IPv4 address written into 227 replies; empty means
	// 127.0.0.1. The data listener is on 127.0.0.1 whatever it says.
	PASVHost string

	// IP is the loopback address the fake listens on, control and data
	// (and writes into 227 replies when PASVHost is empty); empty means
	// 127.0.0.1.
	IP string

	// NoEPSV makes EPSV answer "502 EPSV not implemented.".
	NoEPSV bool

	// DataPort, when not zero, is the port written into 229 and 227
	// replies instead of the data listener's: a hostile server aiming
	// the client at another protocol's port (RFC 1738 §6).
	DataPort int

	// Handle, if set, sees every command line first; returning true means
	// it answered (through the session) and the default is skipped. It
	// runs on the session's goroutine, so it may block (see
	// FTPSession.Done).
	Handle func(s *FTPSession, line string) bool

	// TLS, when set, makes the fake speak RFC 4217 with this server
	// configuration: FEAT lists AUTH TLS, PBSZ and PROT; "AUTH TLS" is
	// answered 234 and the control connection becomes TLS; after "PROT P"
	// every data connection is TLS, its handshake after the 150 reply,
	// as vsftpd does it.
	TLS *tls.Config

	// RequireResume refuses a protected data connection that does not
	// resume the control connection's TLS session, as vsftpd's
	// require_ssl_reuse (its default) does: "522 SSL connection failed:
	// session reuse required".
	RequireResume bool
}

// FTPSession is one control connection to an FTPFake, handed to
// FTPFakeOptions.Handle.
type FTPSession struct {
	fake *FTPFake
	conn net.Conn
	dir  string
	pasv net.Listener
	rest int64 // the offset of the last REST, for the next RETR
	id   int   // index of this session in FTPFake.sessions
	r    *bufio.Reader
	prot bool // PROT P: data connections are TLS
}

// NewFTPFake starts a fake FTP server; the test's cleanup stops it,
// closing every connection.
func NewFTPFake(t testing.TB, opts FTPFakeOptions) *FTPFake {
	t.Helper()
	l := listenOn(t, "ftp fake", opts.IP)
	f := &FTPFake{Addr: l.addr(), listener: l, opts: opts}
	l.serve(func(c net.Conn) {
		f.mu.Lock()
		s := &FTPSession{fake: f, conn: c, dir: "/", id: len(f.sessions)}
		f.sessions = append(f.sessions, nil)
		f.mu.Unlock()
		defer s.closePasv()
		s.run()
	})
	t.Cleanup(f.Close)
	return f
}

// ip is the address the fake listens on.
func (f *FTPFake) ip() string {
	if f.opts.IP != "" {
		return f.opts.IP
	}
	return "127.0.0.1"
}

// Commands returns the command lines received so far, over all
// sessions, in order, without their CRLF.
func (f *FTPFake) Commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

// SessionCommands returns the command lines received so far, one slice
// per control connection in the order the connections came: what each
// connection said in order, where Commands interleaves them.
func (f *FTPFake) SessionCommands() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]string, len(f.sessions))
	for i, c := range f.sessions {
		out[i] = append([]string(nil), c...)
	}
	return out
}

func (s *FTPSession) run() {
	greeting := s.fake.opts.Greeting
	if greeting == nil {
		greeting = []string{"220 fake FTP server ready"}
	}
	s.Reply(greeting...)
	s.r = bufio.NewReaderSize(s.conn, 8192)
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		s.fake.mu.Lock()
		s.fake.cmds = append(s.fake.cmds, line)
		s.fake.sessions[s.id] = append(s.fake.sessions[s.id], line)
		s.fake.mu.Unlock()
		if h := s.fake.opts.Handle; h != nil && h(s, line) {
			continue
		}
		if !s.standard(line) {
			return
		}
	}
}

// Reply sends each line followed by CRLF.
func (s *FTPSession) Reply(lines ...string) {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString("\r\n")
	}
	s.Raw(b.String())
}

// Raw sends bytes as they are.
func (s *FTPSession) Raw(text string) {
	s.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	s.conn.Write([]byte(text))
}

// Drop closes the control connection at once.
func (s *FTPSession) Drop() { s.conn.Close() }

// Done is closed when the fake is shut down; a Handle that simulates a
// stalled server blocks on it.
func (s *FTPSession) Done() <-chan struct{} { return s.fake.done }

// Dir returns the session's working directory.
func (s *FTPSession) Dir() string { return s.dir }

// SetDir changes the session's working directory, e.g. to a home
// folder at login.
func (s *FTPSession) SetDir(dir string) { s.dir = path.Clean("/" + dir) }

// AcceptData accepts the client's connection to the listener opened by
// the last EPSV or PASV, waiting at most five seconds.
func (s *FTPSession) AcceptData() (net.Conn, error) {
	if s.pasv == nil {
		return nil, fmt.Errorf("no EPSV or PASV before the transfer")
	}
	defer s.closePasv()
	s.pasv.(*net.TCPListener).SetDeadline(time.Now().Add(5 * time.Second))
	c, err := s.pasv.Accept()
	if err != nil {
		return nil, err
	}
	if !s.fake.track(c, true) {
		return nil, net.ErrClosed
	}
	return &trackedConn{Conn: c, f: s.fake}, nil
}

type trackedConn struct {
	net.Conn
	f *FTPFake
}

func (c *trackedConn) Close() error {
	c.f.track(c.Conn, false)
	return c.Conn.Close()
}

func (s *FTPSession) closePasv() {
	if s.pasv != nil {
		s.pasv.Close()
		s.pasv = nil
	}
}

func (s *FTPSession) listen() (int, bool) {
	s.closePasv()
	ln, err := net.Listen("tcp", net.JoinHostPort(s.fake.ip(), "0"))
	if err != nil {
		s.Reply("425 Cannot open passive listener.")
		return 0, false
	}
	s.pasv = ln
	return ln.Addr().(*net.TCPAddr).Port, true
}

// dataPort is the port a 229 or 227 reply names: the listener's, or
// FTPFakeOptions.DataPort.
func (s *FTPSession) dataPort(listener int) int {
	if p := s.fake.opts.DataPort; p != 0 {
		return p
	}
	return listener
}

// resolve turns an argument into an absolute clean path.
func (s *FTPSession) resolve(arg string) string {
	if strings.HasPrefix(arg, "/") {
		return path.Clean(arg)
	}
	return path.Join(s.dir, arg)
}

func (s *FTPSession) isDir(p string) bool {
	if p == "/" {
		return true
	}
	for name := range s.fake.opts.Files {
		if strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// children lists the names directly inside folder p, sorted.
func (s *FTPSession) children(p string) []string {
	prefix := strings.TrimSuffix(p, "/") + "/"
	seen := map[string]bool{}
	for name := range s.fake.opts.Files {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			first, _, _ := strings.Cut(rest, "/")
			seen[first] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Send answers a transfer command: 150, the data over the passive
// connection, then 226. It is the default for RETR, NLST and LIST, and a
// Handle may call it with its own data.
func (s *FTPSession) Send(preliminary string, data string) {
	if s.pasv == nil {
		s.Reply("425 Use PORT or PASV first.")
		return
	}
	dc, err := s.AcceptData()
	if err != nil {
		s.Reply("425 Failed to establish connection.")
		return
	}
	s.Reply(preliminary)
	if s.prot {
		tc := tls.Server(dc, s.fake.opts.TLS)
		tc.SetDeadline(time.Now().Add(5 * time.Second))
		if err := tc.Handshake(); err != nil {
			dc.Close()
			s.Reply("522 SSL connection failed.")
			return
		}
		if s.fake.opts.RequireResume && !tc.ConnectionState().DidResume {
			dc.Close()
			s.Reply("522 SSL connection failed: session reuse required")
			return
		}
		dc = tc
	}
	dc.SetWriteDeadline(time.Now().Add(10 * time.Second))
	_, err = dc.Write([]byte(data))
	dc.Close()
	if err != nil {
		s.Reply("426 Failure writing network stream.")
		return
	}
	s.Reply("226 Transfer complete.")
}

// standard answers like a minimal vsftpd; false ends the session: one
// switch, a case per command.
func (s *FTPSession) standard(line string) bool {
	verb, arg, _ := strings.Cut(line, " ")
	switch strings.ToUpper(verb) {
	case "USER":
		s.Reply("331 Please specify the password.")
	case "PASS":
		s.Reply("230 Login successful.")
	case "CWD":
		if p := s.resolve(arg); arg != "" && s.isDir(p) {
			s.dir = p
			s.Reply("250 Directory successfully changed.")
		} else {
			s.Reply("550 Failed to change directory.")
		}
	case "PWD":
		s.Reply(fmt.Sprintf("257 %q is the current directory", s.dir))
	case "TYPE":
		switch strings.ToUpper(arg) {
		case "A", "A N":
			s.Reply("200 Switching to ASCII mode.")
		case "I", "L 8":
			s.Reply("200 Switching to Binary mode.")
		default:
			s.Reply("500 Unrecognised TYPE command.")
		}
	case "EPSV":
		if s.fake.opts.NoEPSV {
			s.Reply("502 EPSV not implemented.")
		} else if port, ok := s.listen(); ok {
			s.Reply(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", s.dataPort(port)))
		}
	case "PASV":
		if port, ok := s.listen(); ok {
			port = s.dataPort(port)
			host := s.fake.opts.PASVHost
			if host == "" {
				host = s.fake.ip()
			}
			h := strings.ReplaceAll(host, ".", ",")
			s.Reply(fmt.Sprintf("227 Entering Passive Mode (%s,%d,%d).", h, port>>8, port&255))
		}
	case "REST":
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || n < 0 {
			s.Reply("501 Bad REST parameter.")
			break
		}
		s.rest = n
		s.Reply(fmt.Sprintf("350 Restart position accepted (%d).", n))
	case "RETR":
		data, ok := s.fake.opts.Files[s.resolve(arg)]
		rest := s.rest
		s.rest = 0
		if !ok || arg == "" {
			s.closePasv()
			s.Reply("550 Failed to open file.")
			break
		}
		// As vsftpd: the 150 reply announces the whole file's size, and
		// the data starts at the REST offset.
		s.Send("150 Opening BINARY mode data connection for "+arg+" ("+strconv.Itoa(len(data))+" bytes).", data[min(int(rest), len(data)):])
	case "NLST", "LIST":
		s.list(verb, arg)
	case "FEAT":
		if s.fake.opts.TLS == nil {
			s.Reply("502 Command not implemented.")
			break
		}
		s.Reply("211-Features:", " AUTH TLS", " PBSZ", " PROT", " UTF8", "211 End")
	case "AUTH":
		return s.authTLS(arg)
	case "PBSZ":
		if _, ok := s.conn.(*tls.Conn); !ok {
			s.Reply("503 PBSZ needs a secure connection.")
			break
		}
		s.Reply("200 PBSZ set to 0.")
	case "PROT":
		if _, ok := s.conn.(*tls.Conn); !ok {
			s.Reply("503 PROT needs a secure connection.")
			break
		}
		s.prot = strings.EqualFold(arg, "P")
		s.Reply("200 PROT now " + map[bool]string{true: "Private.", false: "Clear."}[s.prot])
	case "QUIT":
		s.Reply("221 Goodbye.")
		return false
	default:
		s.Reply("502 Command not implemented.")
	}
	return true
}

// list answers NLST and LIST with the names under arg (as vsftpd: NLST a
// name a line, LIST a long line each).
func (s *FTPSession) list(verb, arg string) {
	p := s.resolve(arg)
	var names []string
	if _, isFile := s.fake.opts.Files[p]; isFile {
		names = []string{arg}
	} else if s.isDir(p) {
		for _, n := range s.children(p) {
			if arg != "" {
				n = arg + "/" + n
			}
			names = append(names, n)
		}
	}
	var b strings.Builder
	for _, n := range names {
		if strings.EqualFold(verb, "LIST") {
			// As vsftpd: a folder's line starts with 'd', a file's
			// gives its size; the name is the last field.
			child := s.resolve(n)
			if _, isFile := s.fake.opts.Files[child]; isFile {
				fmt.Fprintf(&b, "-rw-r--r--    1 0        0        %8d Jan 01 00:00 ", len(s.fake.opts.Files[child]))
			} else {
				b.WriteString("drwxr-xr-x    2 0        0            4096 Jan 01 00:00 ")
			}
		}
		b.WriteString(n)
		b.WriteString("\r\n")
	}
	s.Send("150 Here comes the directory listing.", b.String())
}

// authTLS answers AUTH TLS (RFC 4217 §4) and upgrades the control
// connection; false ends the session.
func (s *FTPSession) authTLS(arg string) bool {
	if s.fake.opts.TLS == nil || !strings.EqualFold(arg, "TLS") {
		s.Reply("504 Unknown AUTH type.")
		return true
	}
	s.Reply("234 Proceed with negotiation.")
	tc := tls.Server(s.conn, s.fake.opts.TLS)
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	if err := tc.Handshake(); err != nil {
		return false
	}
	tc.SetDeadline(time.Time{})
	s.conn, s.r = tc, bufio.NewReaderSize(tc, 8192)
	return true
}
