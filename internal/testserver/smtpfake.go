package testserver

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// SMTPFake is a loopback SMTP relay (RFC 5321) for tests. It records every
// command line and the raw bytes of the last DATA (up to and including
// the "." line, dot-stuffing kept), answers EHLO, MAIL, RCPT, DATA and
// QUIT with success, and refuses RCPT to any address that starts with
// "nobody" with "550 5.1.1 no such user". SMTPFakeConfig adds STARTTLS
// and AUTH PLAIN.
type SMTPFake struct {
	Addr string // host:port to dial

	// CertPEM is the PEM of the self-signed certificate the fake presents
	// after STARTTLS (for "localhost" and 127.0.0.1), for the client to
	// trust; empty without SMTPFakeConfig.STARTTLS.
	CertPEM []byte

	cfg  SMTPFakeConfig
	tls  *tls.Config
	mu   sync.Mutex
	cmds []string
	sec  []string // the commands received under TLS
	data string
	conn int
}

// SMTPFakeConfig chooses what an SMTPFake offers beyond plain SMTP. The
// zero value is the plain relay of StartSMTPFake.
type SMTPFakeConfig struct {
	// STARTTLS advertises STARTTLS (RFC 3207) and upgrades with a
	// certificate made at start. After the upgrade the fake forgets the
	// EHLO (RFC 3207 §4.2): MAIL before a new EHLO is refused with 503.
	STARTTLS bool

	// Inject, with STARTTLS, is written right after "220" to STARTTLS, in
	// the same write: plain text a man in the middle would slip in before
	// the handshake (RFC 3207 §6).
	Inject string

	// Hijack, with STARTTLS, takes the connection over right after the
	// TLS handshake, instead of the SMTP conversation: a relay that
	// misbehaves under TLS (floods, stalls). r holds what was read.
	Hijack func(c net.Conn, r *bufio.Reader)

	// NoEHLO refuses EHLO with 502, as a relay older than ESMTP would;
	// HELO is answered 250 (RFC 5321 §3.2).
	NoEHLO bool

	// User and Password, when User is set, advertise AUTH PLAIN (RFC 4954,
	// RFC 4616), answer 235 to those credentials and 535 to others, and
	// refuse MAIL with 530 until the client has authenticated.
	User, Password string
}

// StartSMTPFake starts a plain SMTPFake on 127.0.0.1; the test's cleanup
// stops it.
func StartSMTPFake(t testing.TB) *SMTPFake {
	t.Helper()
	return StartSMTPFakeConfig(t, SMTPFakeConfig{})
}

// StartSMTPFakeConfig starts an SMTPFake with cfg on 127.0.0.1; the
// test's cleanup stops it.
func StartSMTPFakeConfig(t testing.TB, cfg SMTPFakeConfig) *SMTPFake {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &SMTPFake{Addr: ln.Addr().String(), cfg: cfg}
	if cfg.STARTTLS {
		cert, certPEM, err := selfSigned("localhost", net.IPv4(127, 0, 0, 1))
		if err != nil {
			ln.Close()
			t.Fatal(err)
		}
		f.CertPEM = certPEM
		f.tls = &tls.Config{Certificates: []tls.Certificate{cert}}
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conn++
			f.mu.Unlock()
			go f.serve(c)
		}
	}()
	return f
}

// selfSigned makes an ECDSA P-256 certificate for name and ip, valid for a
// day, signed by its own key, and returns it with its PEM.
func selfSigned(name string, ip net.IP) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: name, Organization: []string{"rfc1738 test relay"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{name},
		IPAddresses:           []net.IP{ip},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, certPEM, nil
}

// Commands returns the command lines received so far, without CRLF.
func (f *SMTPFake) Commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

// TLSCommands returns the command lines received under TLS, after
// STARTTLS, without CRLF; they are in Commands too.
func (f *SMTPFake) TLSCommands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.sec...)
}

// Data returns the raw bytes of the last message received.
func (f *SMTPFake) Data() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.data
}

// Conns returns how many connections were accepted.
func (f *SMTPFake) Conns() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conn
}

// serve speaks SMTP on one connection: one switch, a case per command,
// which reads best whole.
// smtpSession is one connection to the fake: what it has been told so
// far (EHLO, STARTTLS, AUTH).
type smtpSession struct {
	f                    *SMTPFake
	c                    net.Conn
	r                    *bufio.Reader
	ehlo, secure, authed bool
}

func (s *smtpSession) say(line string) { s.c.Write([]byte(line + "\r\n")) }

func (f *SMTPFake) serve(c net.Conn) {
	s := &smtpSession{f: f, c: c, r: bufio.NewReaderSize(c, 4096)}
	defer func() { s.c.Close() }()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	s.say("220 fake.example ESMTP")
	for {
		line, err := s.r.ReadString('\n')
		if err != nil || len(line) > 4096 {
			return
		}
		line = strings.TrimSuffix(line, "\r\n")
		f.mu.Lock()
		f.cmds = append(f.cmds, line)
		if s.secure {
			f.sec = append(f.sec, line)
		}
		f.mu.Unlock()
		if !s.command(line) {
			return
		}
	}
}

// command answers one command line; false ends the session.
func (s *smtpSession) command(line string) bool {
	cfg := &s.f.cfg
	verb, arg, _ := strings.Cut(line, " ")
	switch strings.ToUpper(verb) {
	case "HELO":
		s.ehlo = true
		s.say("250 fake.example")
	case "EHLO":
		s.hello()
	case "STARTTLS":
		return s.startTLS()
	case "AUTH":
		return s.auth(arg)
	case "MAIL":
		switch {
		case !s.ehlo && (s.secure || cfg.STARTTLS):
			s.say("503 5.5.1 EHLO first")
		case cfg.User != "" && !s.authed:
			s.say("530 5.7.0 authentication required")
		default:
			s.say("250 2.1.0 ok")
		}
	case "RCPT":
		if strings.HasPrefix(line, "RCPT TO:<nobody") {
			s.say("550 5.1.1 no such user")
		} else {
			s.say("250 2.1.5 ok")
		}
	case "DATA":
		return s.data()
	case "QUIT":
		s.say("221 bye")
		return false
	default:
		s.say("500 5.5.1 unknown command")
	}
	return true
}

// hello answers EHLO with the extensions the fake is configured with.
func (s *smtpSession) hello() {
	cfg := &s.f.cfg
	if cfg.NoEHLO {
		s.say("502 5.5.1 EHLO not implemented")
		return
	}
	s.ehlo = true
	ext := []string{"fake.example"}
	if cfg.STARTTLS && !s.secure {
		ext = append(ext, "STARTTLS")
	}
	if cfg.User != "" {
		ext = append(ext, "AUTH LOGIN PLAIN")
	}
	ext = append(ext, "HELP")
	for i, e := range ext {
		sep := "-"
		if i == len(ext)-1 {
			sep = " "
		}
		s.say("250" + sep + e)
	}
}

// startTLS upgrades the session (RFC 3207); false ends it.
func (s *smtpSession) startTLS() bool {
	cfg := &s.f.cfg
	if !cfg.STARTTLS {
		s.say("500 5.5.1 unknown command")
		return true
	}
	if s.secure {
		s.say("503 5.5.1 TLS already active")
		return true
	}
	s.c.Write([]byte("220 2.0.0 ready to start TLS\r\n" + cfg.Inject))
	// RFC 3207 §4.2: the server discards what it knew, the EHLO and any
	// authentication, and reads only TLS now.
	tc := tls.Server(s.c, s.f.tls)
	if err := tc.Handshake(); err != nil {
		return false
	}
	s.c, s.r = tc, bufio.NewReaderSize(tc, 4096)
	if cfg.Hijack != nil {
		cfg.Hijack(s.c, s.r)
		return false
	}
	s.secure, s.ehlo, s.authed = true, false, false
	return true
}

// auth answers AUTH PLAIN (RFC 4954, RFC 4616); false ends the session.
func (s *smtpSession) auth(arg string) bool {
	cfg := &s.f.cfg
	if cfg.User == "" || s.authed {
		s.say("503 5.5.1 AUTH not available")
		return true
	}
	mech, ir, _ := strings.Cut(arg, " ")
	if !strings.EqualFold(mech, "PLAIN") {
		s.say("504 5.5.4 unrecognized authentication type")
		return true
	}
	if ir == "" { // RFC 4954 §4: no initial response, ask for it
		s.say("334 ")
		l, err := s.r.ReadString('\n')
		if err != nil {
			return false
		}
		ir = strings.TrimSuffix(l, "\r\n")
	}
	// RFC 4616 §2: [authzid] NUL authcid NUL passwd.
	b, err := base64.StdEncoding.DecodeString(ir)
	parts := strings.Split(string(b), "\x00")
	if err != nil || len(parts) != 3 || (parts[0] != "" && parts[0] != parts[1]) ||
		parts[1] != cfg.User || parts[2] != cfg.Password {
		s.say("535 5.7.8 authentication credentials invalid")
		return true
	}
	s.authed = true
	s.say("235 2.7.0 authentication successful")
	return true
}

// data reads a message up to its "." line (RFC 5321 §4.1.1.4), at most
// 1 MiB; false ends the session.
func (s *smtpSession) data() bool {
	s.say("354 go ahead")
	var data strings.Builder
	for data.Len() < 1<<20 {
		l, err := s.r.ReadString('\n')
		if err != nil {
			return false
		}
		data.WriteString(l)
		if l == ".\r\n" {
			break
		}
	}
	s.f.mu.Lock()
	s.f.data = data.String()
	s.f.mu.Unlock()
	s.say("250 2.0.0 queued")
	return true
}

// SMTPFloodEHLO is a Hijack that answers EHLO with 250- continuation lines
// of 1,000 bytes that never end, until the client goes away: a relay that
// floods, for the tests of the bounded read.
func SMTPFloodEHLO(c net.Conn, r *bufio.Reader) {
	r.ReadString('\n') // EHLO
	line := []byte("250-" + strings.Repeat("x", 1000) + "\r\n")
	for {
		if _, err := c.Write(line); err != nil {
			return
		}
	}
}
