package access_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// Client.Plan is the dry run: the protocol lines a URL makes the client
// send, computed without touching the network (§3.2.2: one CWD per
// segment, "%2F" kept inside its segment).
func ExampleClient_Plan() {
	u, err := rfc1738.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	if err != nil {
		log.Fatal(err)
	}
	p, err := access.NewClient().Plan(u)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("connect", p.Connect)
	for _, line := range p.Lines() {
		fmt.Println(line)
	}
	// Output:
	// connect host.dom:21
	// USER myname
	// PASS <asked>
	// CWD /etc
	// TYPE A
	// RETR motd
	// QUIT
}

// Client.Get fetches what the URL names; here a file: URL (§3.10), so
// the example runs without a network. The body must be closed: for a
// network protocol, Close reads the server's end of transfer.
func ExampleClient_Get() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "hello world.txt")
	if err := os.WriteFile(path, []byte("Hello, RFC 1738.\n"), 0o644); err != nil {
		log.Fatal(err)
	}

	f, err := rfc1738.FileURLFromPath(path) // encodes the space (§2.2)
	if err != nil {
		log.Fatal(err)
	}
	u, err := f.URL()
	if err != nil {
		log.Fatal(err)
	}
	resp, err := access.NewClient().Get(context.Background(), u)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d bytes: %s", resp.Size, body)
	// Output:
	// 17 bytes: Hello, RFC 1738.
}
