package browse

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

var update = flag.Bool("update", false, "rewrite the golden frames in testdata/")

// driver runs a Model without a terminal: it calls Update, runs the
// commands it returns on goroutines (as tea.Program does) and feeds
// their messages back, until the test's condition holds.
type driver struct {
	t     *testing.T
	m     *Model
	msgs  chan tea.Msg
	saved map[int]bool // downloads whose end the model was told
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
	d := &driver{t: t, m: New(start, opts), msgs: make(chan tea.Msg, 64), saved: map[int]bool{}}
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
			case savedMsg:
				d.saved[msg.op] = true
				d.update(msg)
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

// specialKeys are the key names keys understands; anything else is typed.
var specialKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "esc": tea.KeyEsc, "left": tea.KeyLeft, "down": tea.KeyDown,
	"up": tea.KeyUp, "end": tea.KeyEnd, "pgdown": tea.KeyPgDown,
}

// keys sends key presses: names of special keys, or text typed.
func (d *driver) keys(keys ...string) {
	for _, k := range keys {
		if t, ok := specialKeys[k]; ok {
			d.update(tea.KeyMsg{Type: t})
			continue
		}
		for _, r := range k {
			d.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
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
				br := bufio.NewReader(c)
				line, err := br.ReadString('\n')
				if err != nil {
					return
				}
				line = strings.TrimRight(line, "\r\n")
				if strings.HasSuffix(line, "\t1") { // §3.4.9: a data block follows
					for {
						l, err := br.ReadString('\n')
						if err != nil || l == ".\r\n" {
							break
						}
					}
				}
				h.mu.Lock()
				h.reqs = append(h.reqs, line)
				h.mu.Unlock()
				reply, ok := pages[line]
				if !ok {
					sel, _, _ := strings.Cut(line, "\t")
					reply, ok = pages[sel]
				}
				switch {
				case strings.HasPrefix(reply, "HOLD:"):
					// A server that stalls after the start of its reply.
					io.WriteString(c, reply[len("HOLD:"):])
					<-h.hold
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

// openHole starts the test hole and a browser on its path, loaded.
func openHole(t *testing.T, path string, opts Options) (*hole, *driver) {
	t.Helper()
	h := newHole(t, testHole)
	d := newDriver(t, "gopher://"+h.addr+path, opts)
	d.idle()
	return h, d
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
	"/slow":            "HOLD:the start of a slow item\r\n",
	"/search\tneedle":  menu("0Found it\t/hello.txt\tHOST\tPORT"),
	"/form\t\t!": "+-2\r\n+INFO: 1Form\t/form\tHOST\tPORT\t?\r\n+ASK:\r\n" +
		" Ask: Your name\tnobody\r\n AskP: Password\r\n",
	"/form\t+\t1": "+-1\r\n0Thanks\t/hello.txt\tHOST\tPORT\r\n.\r\n",
}

func TestMenuGolden(t *testing.T) {
	h, d := openHole(t, "/", Options{})
	s := d.screen()
	if strings.ContainsRune(s, 0x1b) || strings.ContainsRune(s, 0x07) {
		t.Fatalf("a control byte from the server reached the screen:\n%q", s)
	}
	golden(t, "menu", s, h.addr)
}

// TestPortGuardGolden: a menu item aimed at port 25 is refused with the
// §6 message, before anything is sent there.
func TestPortGuardGolden(t *testing.T) {
	h, d := openHole(t, "/", Options{})
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
	// listed as a folder. Link 1 is the folder above, as in lynx.
	d.keys("5", "enter")
	d.idle()
	if got := d.m.cur.page.URL; got != "ftp://"+f.Addr+"/pub/tools/" {
		t.Fatalf("page %q, want the tools folder (message %q)", got, d.m.msg)
	}
	// Read through the handler's List like any folder: size and type too.
	if !regexp.MustCompile(`x\.tar +3 bytes`).MatchString(d.screen()) {
		t.Errorf("the folder's listing lacks x.tar and its size:\n%s", d.screen())
	}
	d.keys("1", "enter") // up to the folder above
	d.idle()
	if got := d.m.cur.page.URL; got != "ftp://"+f.Addr+"/pub/" {
		t.Fatalf("up from tools: %q (message %q)", got, d.m.msg)
	}
	d.keys("1", "enter")
	d.idle()
	if got := d.m.cur.page.URL; got != "ftp://"+f.Addr+"/" || strings.Contains(d.screen(), parentLabel) {
		t.Errorf("up from pub: %q; the top has no folder above:\n%s", got, d.screen())
	}
}

// TestFolderFacts: a local folder's listing shows each entry's size, date
// and type, as lynx shows an ftp listing, and the folder above.
func TestFolderFacts(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), make([]byte, 2048), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	when := time.Date(2024, 3, 2, 10, 30, 0, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "notes.txt"), when, when)
	d := newDriver(t, "file://"+dir+"/", Options{})
	d.idle()
	s := d.screen()
	for _, want := range []string{
		"1 " + parentLabel,
		"notes.txt                         2.0 KiB  2024-03-02 10:30  text/plain",
		"Directory",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the listing lacks %q:\n%s", want, s)
		}
	}
	if up := d.m.cur.page.Links[0].URL; up != "file://"+filepath.Dir(dir)+"/" {
		t.Errorf("the folder above is %q", up)
	}
}

func TestParentURL(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"ftp://h/pub/tools/", "ftp://h/pub/"},
		{"ftp://h/pub/", "ftp://h/"},
		{"ftp://h/%2Fetc/x;type=d", "ftp://h/%2Fetc/"}, // §3.2.2
		{"ftp://h/", ""},
		{"ftp://h", ""},
		{"file:///usr/share/", "file:///usr/"},
		{"file:///", ""},
	} {
		got, _ := parentURL(mustURL(t, tc.url))
		if got != tc.want {
			t.Errorf("parentURL(%s) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

// TestSearchPrompt: a type-7 item asks for its search in the screen
// (§3.4.2) and sends it.
func TestSearchPrompt(t *testing.T) {
	h, d := openHole(t, "/", Options{})
	d.keys("3", "enter")
	d.until("the search question", func(m *Model) bool { return m.mode == inputPrompt })
	if !strings.Contains(d.screen(), "Search gopher://"+h.addr+"/7/search") {
		t.Fatalf("the question is not on the screen:\n%s", d.screen())
	}
	d.keys("needle", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "Found it") {
		t.Fatalf("no search results:\n%s (%s)", d.screen(), d.m.msg)
	}
	if reqs := h.requests(); reqs[len(reqs)-1] != "/search\tneedle" {
		t.Errorf("requests %q, want the search last", reqs)
	}
}

// TestFormPrompt: a Gopher+ item with a form (§3.4.5) asks its questions
// in the screen, the password without echo, and sends the form (§3.4.9).
func TestFormPrompt(t *testing.T) {
	_, d := openHole(t, "/", Options{})
	d.keys("6", "enter")
	d.until("the first question", func(m *Model) bool { return m.mode == inputPrompt })
	if !strings.Contains(d.screen(), "Your name [nobody]") {
		t.Fatalf("screen:\n%s", d.screen())
	}
	d.keys("Ann", "enter")
	d.until("the password question", func(m *Model) bool { return m.mode == inputPrompt && m.prompt != nil && m.prompt.secret })
	d.keys("s3cret")
	if strings.Contains(d.screen(), "s3cret") {
		t.Fatalf("the password is echoed:\n%s", d.screen())
	}
	d.keys("enter")
	d.idle()
	if !strings.Contains(d.screen(), "Thanks") {
		t.Fatalf("no reply to the form:\n%s (%s)", d.screen(), d.m.msg)
	}
}

// TestCancel: Esc gives up on a server that never answers; the page
// stays, and Esc on a question cancels the fetch.
func TestCancel(t *testing.T) {
	h, d := openHole(t, "/1/docs", Options{})
	d.keys("2", "enter")
	d.until("the slow load", func(m *Model) bool { return m.loading != nil })
	if !strings.Contains(d.screen(), "loading") {
		t.Errorf("no loading line:\n%s", d.screen())
	}
	d.keys("esc")
	if d.m.loading != nil || !strings.Contains(d.m.msg, "cancelled") || !strings.Contains(d.screen(), "Read me") {
		t.Fatalf("after Esc: loading %v, message %q\n%s", d.m.loading, d.m.msg, d.screen())
	}

	d.keys("g", "gopher://"+h.addr+"/7/search", "enter")
	d.until("the search question", func(m *Model) bool { return m.mode == inputPrompt })
	d.keys("esc")
	d.idle()
	if !d.m.msgErr || !strings.Contains(d.m.msg, "cancelled") {
		t.Errorf("message %q after Esc on the question", d.m.msg)
	}
}

// TestTimeout: a fetch gives up after Options.Timeout.
func TestTimeout(t *testing.T) {
	_, d := openHole(t, "/0/slow", Options{Timeout: 200 * time.Millisecond})
	if !d.m.msgErr || !strings.Contains(d.m.msg, "gave up after 200ms") {
		t.Errorf("message %q, want the timeout", d.m.msg)
	}
}

// TestNavigate: follow, back, forward, find and find next, numbered
// links in a document, u.
func TestNavigate(t *testing.T) {
	h := newHole(t, testHole)
	root := "gopher://" + h.addr + "/"
	d := newDriver(t, root, Options{})
	d.idle()
	d.keys("down", "enter") // Hello
	d.idle()
	if got := d.m.cur.page.URL; got != root+"0/hello.txt" {
		t.Fatalf("page %q", got)
	}
	// The document's URL is a link, numbered.
	if !strings.Contains(d.screen(), "for more. [1]") {
		t.Fatalf("the document's URL is not numbered:\n%s", d.screen())
	}
	d.keys("u")
	if d.m.msg != "URL: "+root+"1/docs" {
		t.Errorf("u shows %q", d.m.msg)
	}
	d.keys("1", "enter")
	d.idle()
	d.keys("enter") // Read me
	d.idle()
	d.keys("/", "NEEDLE", "enter")
	if d.m.foundAt != 1 {
		t.Errorf("find: line %d, want 1\n%s", d.m.foundAt, d.screen())
	}
	d.keys("n")
	if d.m.foundAt != 1 || !strings.Contains(d.m.msg, "from the top") {
		t.Errorf("find next: line %d, message %q", d.m.foundAt, d.m.msg)
	}
	d.keys("left", "left")
	if got := d.m.cur.page.URL; got != root+"0/hello.txt" {
		t.Fatalf("back twice: page %q", got)
	}
	d.keys("f")
	if got := d.m.cur.page.URL; got != root+"1/docs" {
		t.Fatalf("forward: page %q", got)
	}
	d.keys("left", "left", "left")
	if got := d.m.cur.page.URL; got != root || d.m.cur.sel != 1 {
		t.Fatalf("back to the menu: page %q, link %d (want the Hello link kept)", got, d.m.cur.sel)
	}
	d.keys("9", "enter")
	if !d.m.msgErr || !strings.Contains(d.m.msg, "no link #9") {
		t.Errorf("message %q", d.m.msg)
	}
}

// TestDownload: d saves with the atomic write; a binary item is saved
// when followed; a name taken is not replaced.
func TestDownload(t *testing.T) {
	h := newHole(t, testHole)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("mine"), 0o644)
	d := newDriver(t, "gopher://"+h.addr+"/", Options{DownloadDir: dir})
	d.idle()
	d.keys("2", "enter")
	d.idle()
	d.keys("d")
	d.until("the download", func(m *Model) bool { return m.saving == nil })
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt.1")); string(b) != "Hello from the hole.\nSee gopher://"+h.addr+"/1/docs for more.\n" { // type 0: local text
		t.Errorf("saved %q (message %q)", b, d.m.msg)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(b) != "mine" {
		t.Errorf("the file in the way was replaced: %q", b)
	}
	d.keys("g", "gopher://"+h.addr+"/1/docs", "enter")
	d.idle()
	d.keys("3", "enter") // the binary item
	d.until("the download", func(m *Model) bool { return m.saving == nil })
	if b, _ := os.ReadFile(filepath.Join(dir, "blob.bin")); string(b) != "\x00\x01binary\xff" {
		t.Errorf("blob.bin = %q (message %q)", b, d.m.msg)
	}
	// A transfer cut short leaves nothing behind.
	d.keys("up", "d")
	d.until("the download's first bytes", func(m *Model) bool { return strings.Contains(m.progress, "bytes") })
	o := d.m.saving
	d.keys("esc")
	d.until("the cancelled download's end", func(*Model) bool { return d.saved[o.id] })
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".part") || e.Name() == "slow" {
			t.Errorf("a cancelled download left %s", e.Name())
		}
	}
}

// TestBookmarks: a adds the page, B lists the bookmarks as links, H the
// history; both are files in the config folder.
func TestBookmarks(t *testing.T) {
	h := newHole(t, testHole)
	cfg := t.TempDir()
	root := "gopher://" + h.addr + "/"
	d := newDriver(t, root, Options{ConfigDir: cfg})
	d.idle()
	d.keys("a")
	if !strings.Contains(d.m.msg, "bookmark added") {
		t.Fatalf("message %q", d.m.msg)
	}
	d.keys("enter")
	d.idle()
	d.keys("B")
	if !strings.Contains(d.screen(), root) || d.m.cur.page.Title != "Bookmarks" {
		t.Fatalf("bookmarks:\n%s", d.screen())
	}
	d.keys("enter")
	d.idle()
	if d.m.cur.page.URL != root {
		t.Errorf("following the bookmark opened %q", d.m.cur.page.URL)
	}
	b, _ := os.ReadFile(filepath.Join(cfg, bookmarksFile))
	if string(b) != root+"\t\n" {
		t.Errorf("bookmarks file %q", b)
	}
	d.keys("H")
	if got := len(d.m.cur.page.Links); got != 3 || d.m.cur.page.Links[1].URL != root+"1/docs" {
		t.Errorf("history has %d links: %+v", got, d.m.cur.page.Links)
	}
}

// TestResize: the page rewraps to any size and the selection stays on
// the screen.
func TestResize(t *testing.T) {
	_, d := openHole(t, "/", Options{})
	d.keys("end")
	for i, size := range [][2]int{{20, 5}, {200, 60}, {1, 1}, {33, 7}, {80, 12}, {100, 30}} {
		if i == 4 {
			d.keys("?") // the keys take room from the page
		}
		d.update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s := d.screen()
		if n := strings.Count(s, "\n") + 1; n != d.m.height {
			t.Errorf("%dx%d: %d lines drawn, want %d", size[0], size[1], n, d.m.height)
		}
		if !strings.Contains(s, "›") {
			t.Errorf("%dx%d: the selection is off the screen:\n%s", size[0], size[1], s)
		}
	}
}

// TestHTTPAndFile: an http page's numbered links are followed with the
// number keys, a link to port 25 is refused (§6); a local folder
// lists its entries, a folder marked with "/".
func TestHTTPAndFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Home</title><p>Go <a href="/next">next</a> or <a href="http://127.0.0.1:25/">mail</a>.`)
		case "/next":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "the next page\n")
		}
	}))
	defer srv.Close()
	d := newDriver(t, srv.URL+"/", Options{})
	d.idle()
	if d.m.cur.page.Title != "Home" || !strings.Contains(d.screen(), "Go [1]next or [2]mail.") {
		t.Fatalf("page:\n%s", d.screen())
	}
	d.keys("2", "enter")
	d.idle()
	if !strings.Contains(d.m.msg, "refused (§6)") {
		t.Errorf("a link to port 25: message %q", d.m.msg)
	}
	d.keys("1", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "the next page") {
		t.Fatalf("after following [1]:\n%s", d.screen())
	}

	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "inner.txt"), []byte("inside\n"), 0o644)
	d.keys("g", "file://"+dir+"/", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "2 sub/") {
		t.Fatalf("folder:\n%s", d.screen())
	}
	d.keys("2", "enter") // 1 is the folder above
	d.idle()
	d.keys("2", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "inside") {
		t.Errorf("file:\n%s", d.screen())
	}
}

// TestHTTPSRelative: an https page (RFC 2818) from a server whose
// certificate a CA made now signed; its relative links, one below a
// <base href>, resolve as browsers read them (RFC 3986 §5.2) and are
// followed with the number keys. Without the CA the page is refused,
// naming the certificate.
func TestHTTPSRelative(t *testing.T) {
	ca := testserver.NewCA(t)
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/docs/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Docs</title><p><a href="next.html#part">next</a> <a href="../up.txt">up</a>`)
		case "/docs/next.html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<head><base href="/other/"></head><p><a href="far.txt">far</a>`)
		case "/up.txt", "/other/far.txt":
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "text at "+r.URL.Path+"\n")
		default:
			http.NotFound(w, r)
		}
	}))
	withCA := func() (*access.Client, error) {
		c := access.NewClient()
		c.TLS.Roots = ca.Pool()
		return c, nil
	}
	d := newDriver(t, srv.URL+"/docs/", Options{NewClient: withCA})
	d.idle()
	if d.m.cur.page.Title != "Docs" || !strings.Contains(d.screen(), "[1]next [2]up") {
		t.Fatalf("page (message %q):\n%s", d.m.msg, d.screen())
	}
	if got := d.m.cur.page.Links[0].URL; got != srv.URL+"/docs/next.html" {
		t.Errorf("link 1 is %q", got)
	}
	d.keys("2", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "text at /up.txt") {
		t.Fatalf("after following [2]:\n%s", d.screen())
	}
	d.keys("g", srv.URL+"/docs/next.html", "enter")
	d.idle()
	d.keys("1", "enter")
	d.idle()
	if !strings.Contains(d.screen(), "text at /other/far.txt") {
		t.Fatalf("after following [1] below <base href>:\n%s", d.screen())
	}

	d = newDriver(t, srv.URL+"/docs/", Options{})
	d.idle()
	if !d.m.msgErr || !strings.Contains(d.m.msg, "certificate") {
		t.Errorf("without the CA: message %q", d.m.msg)
	}
}

// TestReload: r fetches the page again in place; the back history does
// not grow.
func TestReload(t *testing.T) {
	h, d := openHole(t, "/1/docs", Options{})
	d.keys("r")
	if !strings.Contains(d.screen(), "loading gopher://"+h.addr+"/1/docs") {
		t.Errorf("status while reloading:\n%s", d.screen())
	}
	d.idle()
	if len(d.m.back) != 0 || len(h.requests()) != 2 || d.m.cur.page.URL != "gopher://"+h.addr+"/1/docs" {
		t.Errorf("after r: %d pages back, %d requests, page %q", len(d.m.back), len(h.requests()), d.m.cur.page.URL)
	}
}

// TestAttributes: i shows a Gopher+ item's attribute blocks (§3.4.6);
// on a plain item it says there are none.
func TestAttributes(t *testing.T) {
	h, d := openHole(t, "/", Options{})
	d.keys("i")
	if !strings.Contains(d.m.msg, "not a Gopher+ item") {
		t.Errorf("i on a plain item: %q", d.m.msg)
	}
	d.keys("down", "down", "down", "down", "down", "i")
	d.idle()
	if s := d.screen(); !strings.Contains(s, "+ASK:") || !strings.Contains(s, "Ask: Your name") {
		t.Fatalf("attributes:\n%s (%s)", s, d.m.msg)
	}
	if reqs := h.requests(); reqs[len(reqs)-1] != "/form\t\t!" {
		t.Errorf("requests %q", reqs)
	}
}

// TestFTPPassword: a login without a password (§3.2.1) is asked in the
// screen without echo, and the listing follows.
func TestFTPPassword(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/README": "hi\r\n"}})
	d := newDriver(t, "ftp://ann@"+f.Addr+"/pub/", Options{})
	d.until("the password question", func(m *Model) bool { return m.mode == inputPrompt })
	if !d.m.prompt.secret || !strings.Contains(d.screen(), "Password for ann@127.0.0.1") {
		t.Fatalf("secret %v:\n%s", d.m.prompt.secret, d.screen())
	}
	d.keys("pa55word")
	if strings.Contains(d.screen(), "pa55word") {
		t.Fatalf("the password is echoed:\n%s", d.screen())
	}
	d.keys("enter")
	d.idle()
	if !strings.Contains(d.screen(), "README") {
		t.Fatalf("no listing:\n%s (%s)", d.screen(), d.m.msg)
	}
	if cmds := strings.Join(f.Commands(), "|"); !strings.Contains(cmds, "PASS pa55word") {
		t.Errorf("commands %s", cmds)
	}
}

// TestHistoryBound: pages beyond keepPages keep their URL and place
// only, and are fetched again on the way back.
func TestHistoryBound(t *testing.T) {
	defer func(n int) { keepPages = n }(keepPages)
	keepPages = 1
	h, d := openHole(t, "/", Options{})
	d.keys("down", "enter") // Hello
	d.idle()
	d.keys("enter") // its link to /docs
	d.idle()
	if !d.m.back[0].stale || d.m.back[1].stale {
		t.Fatalf("back history: stale %v %v, want the oldest only", d.m.back[0].stale, d.m.back[1].stale)
	}
	n := len(h.requests())
	d.keys("left")
	if len(h.requests()) != n {
		t.Errorf("the page kept whole was fetched again")
	}
	d.keys("left")
	d.idle()
	if len(h.requests()) != n+1 || !strings.Contains(d.screen(), "Hello") || d.m.cur.sel != 1 {
		t.Errorf("after going back to the trimmed menu: %d requests (want %d), link %d\n%s", len(h.requests()), n+1, d.m.cur.sel, d.screen())
	}
}

// TestDigitBurst: digits that arrive in one read, as a terminal delivers
// "12" typed fast or pasted, are one link number, as in lynx: "12" then
// Enter follows link 12, not the selected link.
func TestDigitBurst(t *testing.T) {
	dir := t.TempDir()
	for i := 1; i <= 15; i++ {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d", i)), []byte(fmt.Sprintf("file %d\n", i)), 0o644)
	}
	d := newDriver(t, "file://"+dir+"/", Options{})
	d.idle()
	d.update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("12")}) // one read
	d.keys("enter")
	d.idle()
	want := d.m.back[len(d.m.back)-1].page.Links[11].URL
	if d.m.cur.page.URL != want {
		t.Fatalf("the burst 12 opened %q, want link 12, %q (message %q)", d.m.cur.page.URL, want, d.m.msg)
	}
}

func mustURL(t *testing.T, s string) rfc1738.URL {
	t.Helper()
	u, err := rfc1738.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestHistoryTitles: the history keeps each page's title (a menu item's
// display string, as lynx titles gopher pages) and a search's query in
// its URL and title, so that following the history entry, or a reload,
// runs the search again without asking.
func TestHistoryTitles(t *testing.T) {
	h := newHole(t, testHole)
	cfg := t.TempDir()
	root := "gopher://" + h.addr + "/"
	d := newDriver(t, root, Options{ConfigDir: cfg})
	d.idle()
	d.keys("1", "enter") // Docs
	d.idle()
	if d.m.cur.page.Title != "Docs" {
		t.Errorf("title %q, want the item's display string", d.m.cur.page.Title)
	}
	d.keys("left", "3", "enter")
	d.until("the search question", func(m *Model) bool { return m.mode == inputPrompt })
	d.keys("needle", "enter")
	d.idle()
	search := root + "7/search%09needle"
	if p := d.m.cur.page; p.URL != search || p.Title != "Search the hole (search: needle)" {
		t.Errorf("search page %q %q", p.URL, p.Title)
	}
	b, _ := os.ReadFile(filepath.Join(cfg, historyFile))
	want := root + "\t\n" + root + "1/docs\tDocs\n" + search + "\tSearch the hole (search: needle)\n"
	if string(b) != want {
		t.Errorf("history file\n%q\nwant\n%q", b, want)
	}
	n := len(h.requests())
	d.keys("r") // the query is in the URL: nothing to ask
	d.idle()
	if reqs := h.requests(); len(reqs) != n+1 || reqs[n] != "/search\tneedle" || d.m.cur.page.Title != "Search the hole (search: needle)" {
		t.Errorf("reload: requests %q, title %q", reqs[n:], d.m.cur.page.Title)
	}
	d.keys("H")
	if !strings.Contains(d.screen(), "Search the hole (search: needle)  "+search) {
		t.Errorf("history page:\n%s", d.screen())
	}
}
