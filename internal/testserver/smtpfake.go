package testserver

import (
	"bufio"
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
// "nobody" with "550 5.1.1 no such user".
type SMTPFake struct {
	Addr string // host:port to dial

	mu    sync.Mutex
	cmds  []string
	data  string
	conns int
}

// StartSMTPFake starts an SMTPFake on 127.0.0.1; the test's cleanup stops it.
func StartSMTPFake(t testing.TB) *SMTPFake {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &SMTPFake{Addr: ln.Addr().String()}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			f.mu.Lock()
			f.conns++
			f.mu.Unlock()
			go f.serve(c)
		}
	}()
	return f
}

// Commands returns the command lines received so far, without CRLF.
func (f *SMTPFake) Commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
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
	return f.conns
}

func (f *SMTPFake) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReaderSize(c, 4096)
	say := func(s string) { c.Write([]byte(s + "\r\n")) }
	say("220 fake.example ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil || len(line) > 4096 {
			return
		}
		line = strings.TrimSuffix(line, "\r\n")
		f.mu.Lock()
		f.cmds = append(f.cmds, line)
		f.mu.Unlock()
		verb, _, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			say("250-fake.example\r\n250 HELP")
		case "MAIL":
			say("250 2.1.0 ok")
		case "RCPT":
			if strings.HasPrefix(line, "RCPT TO:<nobody") {
				say("550 5.1.1 no such user")
				continue
			}
			say("250 2.1.5 ok")
		case "DATA":
			say("354 go ahead")
			var data strings.Builder
			for data.Len() < 1<<20 {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				data.WriteString(l)
				if l == ".\r\n" {
					break
				}
			}
			f.mu.Lock()
			f.data = data.String()
			f.mu.Unlock()
			say("250 2.0.0 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("500 5.5.1 unknown command")
		}
	}
}
