package ftp_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
)

// Example retrieves <URL:ftp://myname@host.dom/%2Fetc/motd> the way
// RFC 1738 §3.2.2 spells it out: log in as myname (asking for the
// password if the server wants one), "CWD /etc", then "TYPE I" and
// "RETR motd".
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := ftp.Dial(ctx, "host.dom", ftp.Config{ // port 21
		Trace: func(dir byte, line string) { fmt.Fprintf(os.Stderr, "%c %s\n", dir, line) },
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	cred := ftp.Credentials{User: "myname", AskPassword: func() (string, error) {
		return "typed by the user", nil
	}}
	if _, err := c.Login(ctx, cred); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := c.Cwd(ctx, "/etc"); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := c.Type(ctx, "I"); err != nil {
		fmt.Println(err)
		return
	}
	body, _, err := c.Retr(ctx, "motd")
	if err != nil {
		fmt.Println(err) // e.g. ftp: RETR motd: 550 Failed to open file.
		return
	}
	_, err = io.Copy(os.Stdout, body)
	if cerr := body.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	c.Quit(ctx)
}
