package mirror_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/mirror"
)

// A gopher hole of one menu and one document (RFC 1436), copied twice:
// each run reads the menu again (a plain menu gives no size or time to
// compare); the second finds the document whole in the manifest and
// leaves it (Options.Recheck fetches it again to compare).
func ExampleMirror() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer ln.Close()
	addr := ln.Addr().(*net.TCPAddr)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			sel, _ := bufio.NewReader(c).ReadString('\n')
			switch strings.TrimRight(sel, "\r\n") {
			case "":
				fmt.Fprintf(c, "iWelcome\t\terror.host\t1\r\n0Read me\t/readme.txt\t127.0.0.1\t%d\r\n.\r\n", addr.Port)
			case "/readme.txt":
				fmt.Fprint(c, "Hello from the hole.\r\n.\r\n")
			}
			c.Close()
		}
	}()

	dir, _ := os.MkdirTemp("", "mirror-example")
	defer os.RemoveAll(dir)
	c := access.NewClient()
	c.AllowAnyPort = true // the example's server listens on a free port
	for range 2 {
		st, err := mirror.Mirror(context.Background(), fmt.Sprintf("gopher://127.0.0.1:%d/1", addr.Port), dir, mirror.Options{Access: c})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("fetched %d, unchanged %d, not rechecked %d\n", st.Fetched, st.Unchanged, st.NotRechecked)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "readme.txt"))
	fmt.Printf("readme.txt: %q\n", b)
	// Output:
	// fetched 2, unchanged 0, not rechecked 0
	// fetched 1, unchanged 0, not rechecked 1
	// readme.txt: "Hello from the hole.\r\n"
}
