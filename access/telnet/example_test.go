package telnet_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"time"

	"github.com/rfc1738/rfc1738/access/telnet"
)

// A server that asks for the terminal type, offers to echo, greets and
// closes; the client answers the negotiation while it reads.
func ExampleDial() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte("\xff\xfd\x18\xff\xfb\x01")) // IAC DO TTYPE, IAC WILL ECHO
		answer := make([]byte, 6)
		io.ReadFull(c, answer)
		c.Write([]byte("\xff\xfa\x18\x01\xff\xf0")) // IAC SB TTYPE SEND IAC SE
		io.ReadFull(c, make([]byte, 11))
		c.Write([]byte("Welcome\r\n"))
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := telnet.Dial(ctx, l.Addr().String(), telnet.Config{
		TerminalType: "vt100",
		Trace:        func(dir byte, line string) { fmt.Printf("%c %s\n", dir, line) },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	data, err := io.ReadAll(conn)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", data)
	// Output:
	// < DO TTYPE
	// > WILL TTYPE
	// < WILL ECHO
	// > DO ECHO
	// < SB TTYPE SEND
	// > SB TTYPE IS vt100
	// "Welcome\r\n"
}

// How a command-line client runs telnet://user@host/ (RFC 1738 §3.8): the
// user name is advice for the person, who types it at the login prompt.
func ExampleSession() {
	ctx := context.Background()
	fmt.Fprintln(os.Stderr, "Log in as: user")
	conn, err := telnet.Dial(ctx, "host.example:23", telnet.Config{TerminalType: os.Getenv("TERM")})
	if err != nil {
		log.Fatal(err)
	}
	if err := telnet.Session(ctx, conn, os.Stdin, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
