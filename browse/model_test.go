package browse

import (
	"bufio"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

var update = flag.Bool("update", false, "rewrite the golden frames in testdata/")

// driver runs a Model without a terminal: it calls Update, runs the
// commands it returns on goroutines (as tea.Program does) and feeds
// their messages back, until the test's condition holds.
type driver struct {
	t    *testing.T
	m    *Model
	msgs chan tea.Msg
}

func newDriver(t *testing.T, start string, opts Options) *driver {
	t.Helper()
	if opts.NewClient == nil {
		opts.NewClient = func() (*access.Client, error) { return access.NewClient(), nil }
	}
	opts.NoColor = true
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	d := &driver{t: t, m: New(start, opts), msgs: make(chan tea.Msg, 64)}
	d.update(tea.WindowSizeMsg{Width: 80, Height: 16})
	d.run(d.m.Init())
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	go func() { d.msgs <- cmd() }()
}

func (d *driver) update(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.run(cmd)
}

// until feeds messages to the model until cond holds.
func (d *driver) until(what string, cond func(m *Model) bool) {
	d.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond(d.m) {
		select {
		case msg := <-d.msgs:
			switch msg := msg.(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range msg {
					d.run(c)
				}
			default:
				d.update(msg)
			}
		case <-deadline:
			d.t.Fatalf("waiting for %s: the screen is\n%s", what, d.m.View())
		}
	}
}

func (d *driver) idle() {
	d.t.Helper()
	d.until("the page to load", func(m *Model) bool { return m.loading == nil && m.prompt == nil })
}

// keys sends key presses: names of special keys, or text typed.
func (d *driver) keys(keys ...string) {
	for _, k := range keys {
		switch k {
		case "enter":
			d.update(tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			d.update(tea.KeyMsg{Type: tea.KeyEsc})
		case "left":
			d.update(tea.KeyMsg{Type: tea.KeyLeft})
		case "down":
			d.update(tea.KeyMsg{Type: tea.KeyDown})
		case "up":
			d.update(tea.KeyMsg{Type: tea.KeyUp})
		case "end":
			d.update(tea.KeyMsg{Type: tea.KeyEnd})
		case "pgdown":
			d.update(tea.KeyMsg{Type: tea.KeyPgDown})
		default:
			for _, r := range k {
				d.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
}

func (d *driver) screen() string { return d.m.View() }

// golden compares the screen with testdata/name.golden, with the
// loopback addresses in addrs replaced by "127.0.0.1:PORT".
func golden(t *testing.T, name, frame string, addrs ...string) {
	t.Helper()
	for _, a := range addrs {
		frame = strings.ReplaceAll(frame, a, "127.0.0.1:PORT")
	}
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(frame), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(want) != frame {
		t.Errorf("the screen differs from %s (go test -update rewrites it)\ngot:\n%s\nwant:\n%s", path, frame, want)
	}
}

// gopherMenu builds a menu whose items point back at addr.
func gopherMenu(addr string, lines ...string) []byte {
	host, port, _ := strings.Cut(addr, ":")
	var b strings.Builder
	for _, l := range lines {
		l = strings.ReplaceAll(l, "HOST", host)
		l = strings.ReplaceAll(l, "PORT", port)
		b.WriteString(l + "\r\n")
	}
	b.WriteString(".\r\n")
	return []byte(b.String())
}

// menuLines are the lines of the test menu: an info line, a folder, a
// text file, a search, a telnet item, an item on port 25 (§6), a
// Gopher+ item with a form, and a display string that tries to drive
// the terminal.
var menuLines = []string{
	"iWelcome to the test hole\t\terror.host\t1",
	"1Docs\t/docs\tHOST\tPORT",
	"0Hello\t/hello.txt\tHOST\tPORT",
	"7Search the hole\t/search\tHOST\tPORT",
	"8Talk\tguest\tHOST\t2323",
	"0Mail me\t/x\tHOST\t25",
	"1Form\t/form\tHOST\tPORT\t?",
	"0\x1b[2J\x1b]0;pwned\x07Bold\t/b\tHOST\tPORT",
}

// hole is a gopher server on 127.0.0.1 for the model's tests: each
// selector has its reply, whose "HOST" and "PORT" are its own address; a
// missing selector gets a type-3 error line. It records each request
// line. (testserver.GopherFake scripts replies per connection; these
// tests follow links, so replies go by selector.)
type hole struct {
	addr string
	mu   sync.Mutex
	reqs []string
	hold chan struct{}
}

func newHole(t *testing.T, pages map[string]string) *hole {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &hole{addr: ln.Addr().String(), hold: make(chan struct{})}
	t.Cleanup(func() { close(h.hold); ln.Close() })
	host, port, _ := strings.Cut(h.addr, ":")
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				line, err := bufio.NewReader(c).ReadString('\n')
				if err != nil {
					return
				}
				line = strings.TrimRight(line, "\r\n")
				h.mu.Lock()
				h.reqs = append(h.reqs, line)
				h.mu.Unlock()
				sel, _, _ := strings.Cut(line, "\t")
				reply, ok := pages[sel]
				if !ok {
					reply, ok = pages[line]
				}
				switch {
				case reply == "HOLD":
					<-h.hold // a server that never answers
					return
				case !ok:
					reply = "3no such selector\t\terror.host\t1\r\n.\r\n"
				}
				reply = strings.ReplaceAll(reply, "HOST", host)
				reply = strings.ReplaceAll(reply, "PORT", port)
				io.WriteString(c, reply)
			}()
		}
	}()
	return h
}

func (h *hole) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reqs...)
}

func menu(lines ...string) string { return strings.Join(lines, "\r\n") + "\r\n.\r\n" }

// testHole is a small gopher hole: a menu with an info line, a folder, a
// text file, a search, a telnet item, an item on port 25 (§6), a Gopher+
// item with a form, and a display string that tries to drive the
// terminal.
var testHole = map[string]string{
	"": menu(
		"iWelcome to the test hole\t\terror.host\t1",
		"1Docs\t/docs\tHOST\tPORT",
		"0Hello\t/hello.txt\tHOST\tPORT",
		"7Search the hole\t/search\tHOST\tPORT",
		"8Talk\tguest\tHOST\t2323",
		"0Mail me\t/x\tHOST\t25",
		"1Form\t/form\tHOST\tPORT\t?",
		"0\x1b[2J\x1b]0;pwned\x07Bold\t/b\tHOST\tPORT",
	),
	"/docs": menu(
		"0Read me\t/docs/readme.txt\tHOST\tPORT",
		"0Slow\t/slow\tHOST\tPORT",
		"9Blob\t/docs/blob.bin\tHOST\tPORT",
	),
	"/hello.txt":       "Hello from the hole.\r\nSee gopher://HOST:PORT/1/docs for more.\r\n.\r\n",
	"/docs/readme.txt": "line one\r\nthe needle is here\r\nline three\r\n.\r\n",
	"/docs/blob.bin":   "\x00\x01binary\xff",
	"/slow":            "HOLD",
	"/search\tneedle":  menu("0Found it\t/hello.txt\tHOST\tPORT"),
}

func TestMenuGolden(t *testing.T) {
	h := newHole(t, testHole)
	d := newDriver(t, "gopher://"+h.addr+"/", Options{})
	d.idle()
	s := d.screen()
	if strings.ContainsRune(s, 0x1b) || strings.ContainsRune(s, 0x07) {
		t.Fatalf("a control byte from the server reached the screen:\n%q", s)
	}
	golden(t, "menu", s, h.addr)
}

// TestPortGuardGolden: a menu item aimed at port 25 is refused with the
// §6 message, before anything is sent there.
func TestPortGuardGolden(t *testing.T) {
	h := newHole(t, testHole)
	d := newDriver(t, "gopher://"+h.addr+"/", Options{})
	d.idle()
	d.keys("5", "enter")
	d.idle()
	if !d.m.msgErr || !strings.Contains(d.m.msg, "refused (§6)") || !strings.Contains(d.m.msg, "port 25 belongs to smtp") {
		t.Fatalf("message = %q, want the §6 port refusal", d.m.msg)
	}
	golden(t, "error", d.screen(), h.addr)
}

func TestFTPListingGolden(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{
		"/pub/README":          "Welcome to the archive.\r\n",
		"/pub/tools/x.tar":     "tar",
		"/pub/name with space": "spaced",
		"/pub/\x1b[31mred":     "red",
	}})
	d := newDriver(t, "ftp://"+f.Addr+"/pub/", Options{})
	d.idle()
	if d.m.msg != "" {
		t.Fatalf("message %q", d.m.msg)
	}
	golden(t, "ftp", d.screen(), f.Addr)
	// A name NLST gave is a file or a folder: "tools" fails RETR and is
	// listed as a folder.
	d.keys("4", "enter")
	d.idle()
	if got := d.m.cur.page.URL; got != "ftp://"+f.Addr+"/pub/tools/" {
		t.Fatalf("page %q, want the tools folder (message %q)", got, d.m.msg)
	}
	if !strings.Contains(d.screen(), "x.tar") {
		t.Errorf("the folder's listing lacks x.tar:\n%s", d.screen())
	}
}
