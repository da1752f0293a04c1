package access

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/textproto"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

const ftpTestEmail = "tester@example.org"

// ftpTestFiles is the fake's tree for the §3.2.2 examples.
var ftpTestFiles = map[string]string{
	"/etc/motd":            "message of the day\n",
	"/pub/a b;c.txt":       "weird; name\n",
	"/pub/nested/deep.txt": "deep\n",
	"/readme":              "top\n",
}

// ftpTestClient returns a client with a fixed e-mail address and a Prompt
// that answers "sekret" and counts its calls.
func ftpTestClient() (*Client, *int) {
	c := NewClient()
	c.Email = ftpTestEmail
	asked := new(int)
	c.Prompt = func(q string, secret bool) (string, error) {
		*asked++
		if !secret {
			return "", errors.New("a password must be asked as a secret")
		}
		return "sekret", nil
	}
	return c, asked
}

// ftpWire returns what the server must have received for plan lines: the
// placeholders replaced by the values the test's client sends, and the
// commands a plan notes but does not list (EPSV, PASV, FEAT, SIZE) left
// out of got.
func ftpWire(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		l = strings.Replace(l, "PASS "+ftpPlaceholderEmail, "PASS "+ftpTestEmail, 1)
		l = strings.Replace(l, "PASS "+ftpPlaceholderAsked, "PASS sekret", 1)
		l = strings.Replace(l, "PASS "+ftpPlaceholderPassword, "PASS p@ss", 1) // the tests' URL password p%40ss
		out[i] = l
	}
	return out
}

func ftpControl(cmds []string) []string {
	return slices.DeleteFunc(cmds, func(s string) bool {
		return s == "EPSV" || s == "PASV" || s == "FEAT" || strings.HasPrefix(s, "SIZE ")
	})
}

func ftpTestCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestFTPPlanAndGet runs the §3.2.2 examples and each typecode against the
// scripted fake: the commands it receives are the plan's lines.
func TestFTPPlanAndGet(t *testing.T) {
	tests := []struct {
		name  string
		path  string // after ftp://[login@]127.0.0.1:port
		login string
		steps []string // the plan's lines
		body  string
		size  int64
		ask   bool // the password is asked for
	}{
		// §3.2.2: "ftp://myname@host.dom/%2Fetc/motd" → CWD /etc, RETR motd.
		{"%2Fetc", "/%2Fetc/motd", "myname@", []string{"USER myname", "PASS <asked>", "CWD /etc", "TYPE I", "RETR motd", "QUIT"}, "message of the day\n", 19, true},
		// §3.2.2: "ftp://myname@host.dom/etc/motd" → CWD etc, RETR motd.
		{"relative", "/etc/motd", "myname@", []string{"USER myname", "PASS <asked>", "CWD etc", "TYPE I", "RETR motd", "QUIT"}, "message of the day\n", 19, true},
		// §3.2.1: anonymous, the e-mail address as the password.
		{"anonymous", "/readme", "", []string{"USER anonymous", "PASS <e-mail address>", "TYPE I", "RETR readme", "QUIT"}, "top\n", 4, false},
		// §3.2.1: the anonymous user named without a password is the same
		// login; "ftp" is its common alias. Nothing is asked.
		{"anonymous named", "/readme", "anonymous@", []string{"USER anonymous", "PASS <e-mail address>", "TYPE I", "RETR readme", "QUIT"}, "top\n", 4, false},
		{"ftp named", "/readme", "ftp@", []string{"USER ftp", "PASS <e-mail address>", "TYPE I", "RETR readme", "QUIT"}, "top\n", 4, false},
		// §3.2.1: user and password from the URL.
		{"password", "/readme", "me:p%40ss@", []string{"USER me", "PASS <password>", "TYPE I", "RETR readme", "QUIT"}, "top\n", 4, false},
		// §3.2.2 ;type=a and ;type=i.
		{"type=a", "/pub/nested/deep.txt;type=a", "", []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "CWD nested", "TYPE A", "RETR deep.txt", "QUIT"}, "deep\n", -1, false},
		{"type=I", "/pub/nested/deep.txt;type=I", "", []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "CWD nested", "TYPE I", "RETR deep.txt", "QUIT"}, "deep\n", 5, false},
		// A decoded name with a space and a semicolon.
		{"odd name", "/pub/a%20b%3Bc.txt", "", []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "TYPE I", "RETR a b;c.txt", "QUIT"}, "weird; name\n", 12, false},
		// §3.2.2 ;type=d → NLST name; an empty name → bare NLST.
		{"type=d", "/pub;type=d", "", []string{"USER anonymous", "PASS <e-mail address>", "NLST pub", "QUIT"}, "", -1, false},
		{"type=d empty", "/pub/;type=d", "", []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "NLST", "QUIT"}, "", -1, false},
		// §3.2.3 guess: an empty name is a directory.
		{"guess dir", "/pub/nested/", "", []string{"USER anonymous", "PASS <e-mail address>", "CWD pub", "CWD nested", "NLST", "QUIT"}, "", -1, false},
		{"no path", "", "", []string{"USER anonymous", "PASS <e-mail address>", "NLST", "QUIT"}, "", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
			c, asked := ftpTestClient()
			c.Listing = ListingRaw
			u := mustParse(t, "ftp://"+tt.login+fake.Addr+tt.path)
			p, err := c.Plan(u)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Lines(), tt.steps) {
				t.Errorf("plan:\n%q\nwant\n%q", p.Lines(), tt.steps)
			}
			if p.Connect != fake.Addr {
				t.Errorf("connect %q", p.Connect)
			}
			resp, err := c.Get(ftpTestCtx(t), u)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if err := resp.Body.Close(); err != nil {
				t.Fatal(err)
			}
			if tt.body != "" && string(body) != tt.body {
				t.Errorf("body %q, want %q", body, tt.body)
			}
			if resp.Size != tt.size {
				t.Errorf("size %d, want %d", resp.Size, tt.size)
			}
			if got := ftpControl(fake.Commands()); !slices.Equal(got, ftpWire(p.Lines())) {
				t.Errorf("the server received\n%q\nthe plan says\n%q", got, ftpWire(p.Lines()))
			}
			if (*asked == 1) != tt.ask || *asked > 1 {
				t.Errorf("Prompt called %d times", *asked)
			}
		})
	}
}

// TestFTPNullCWD is §3.2.2's ftp://myname@host.dom//etc/motd: "CWD " with
// a null argument, then CWD etc. vsftpd refuses the null CWD (550, as the
// fake does by default); pure-ftpd goes to the login folder (the Handle).
func TestFTPNullCWD(t *testing.T) {
	want := []string{"USER myname", "PASS <asked>", "CWD ", "CWD etc", "TYPE I", "RETR motd", "QUIT"}
	t.Run("accepted", func(t *testing.T) {
		fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles,
			Handle: func(s *testserver.FTPSession, line string) bool {
				if line == "CWD " {
					s.SetDir("/")
					s.Reply("250 Directory successfully changed.")
					return true
				}
				return false
			}})
		c, _ := ftpTestClient()
		u := mustParse(t, "ftp://myname@"+fake.Addr+"//etc/motd")
		p, err := c.Plan(u)
		if err != nil || !slices.Equal(p.Lines(), want) {
			t.Fatalf("plan %q, %v", p.Lines(), err)
		}
		resp, err := c.Get(ftpTestCtx(t), u)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "message of the day\n" {
			t.Errorf("body %q", body)
		}
		if got := ftpControl(fake.Commands()); !slices.Equal(got, ftpWire(want)) {
			t.Errorf("the server received %q", got)
		}
	})
	t.Run("refused", func(t *testing.T) {
		fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
		c, _ := ftpTestClient()
		u := mustParse(t, "ftp://myname@"+fake.Addr+"//etc/motd")
		_, err := c.Get(ftpTestCtx(t), u)
		var te *textproto.Error
		if !errors.As(err, &te) || te.Code != 550 || !strings.Contains(err.Error(), "CWD ") {
			t.Fatalf("Get = %v, want the server's 550 to CWD", err)
		}
		// The plan is followed up to the refusal, then QUIT.
		if got := ftpControl(fake.Commands()); !slices.Equal(got, []string{"USER myname", "PASS sekret", "CWD ", "QUIT"}) {
			t.Errorf("the server received %q", got)
		}
	})
}

func TestFTPListing(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	get := func(l Listing, url string) string {
		t.Helper()
		c, _ := ftpTestClient()
		c.Listing = l
		resp, err := c.Get(ftpTestCtx(t), mustParse(t, url))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[Listing]string{ListingText: "text/plain; charset=utf-8", ListingJSON: "application/jsonl", ListingRaw: "text/plain"}[l]; resp.Type != want || resp.Size != -1 {
			t.Errorf("type %q size %d", resp.Type, resp.Size)
		}
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	base := "ftp://me:pw@" + fake.Addr
	// The names are relative to the folder the CWDs reached; "NLST pub"
	// answers "pub/…", which becomes a CWD in the item's URL.
	if got, want := get(ListingRaw, base+"/pub;type=d"), "pub/a b;c.txt\r\npub/nested\r\n"; got != want {
		t.Errorf("raw = %q, want %q", got, want)
	}
	want := "pub/a b;c.txt  ftp://me@" + fake.Addr + "/pub/a%20b%3Bc.txt\n" +
		"pub/nested  ftp://me@" + fake.Addr + "/pub/nested\n"
	if got := get(ListingText, base+"/pub;type=d"); got != want {
		t.Errorf("text =\n%s\nwant (no password, §6)\n%s", got, want)
	}
	got := get(ListingJSON, base+"/%2Fpub/")
	var items []listingItem
	for _, l := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		var it listingItem
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		items = append(items, it)
	}
	wantItems := []listingItem{
		{Name: "a b;c.txt", URL: "ftp://me@" + fake.Addr + "/%2Fpub/a%20b%3Bc.txt"},
		{Name: "nested", URL: "ftp://me@" + fake.Addr + "/%2Fpub/nested"},
	}
	if !slices.Equal(items, wantItems) {
		t.Errorf("json = %+v", items)
	}
}

// TestFTPListingBareNames: "NLST pub" answered with bare names (as
// pyftpdlib does) and with "." and ".." (as pure-ftpd does): the entries
// are inside pub, and the dot entries are left out.
func TestFTPListingBareNames(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if line != "NLST pub" {
				return false
			}
			s.Send("150 Here comes the directory listing.", ".\r\n..\r\nhello.txt\r\nwhy?.txt\r\n")
			return true
		}})
	c, _ := ftpTestClient()
	resp, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://"+fake.Addr+"/pub;type=d"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	want := "hello.txt  ftp://" + fake.Addr + "/pub/hello.txt\n" +
		"why?.txt  ftp://" + fake.Addr + "/pub/why%3F.txt\n"
	if string(b) != want {
		t.Errorf("listing\n%s\nwant\n%s", b, want)
	}
}

// TestFTPItemURL: an entry's URL is the directory's URL and the name's
// last segment, whichever form NLST used (RFC 959 §4.1.3); "." and ".."
// are not entries; "?" is encoded for clients that read it as a query.
func TestFTPItemURL(t *testing.T) {
	tests := []struct{ base, name, want string }{
		{"ftp://h/", "a b", "ftp://h/a%20b"},
		{"ftp://h/pub/", "hello.txt", "ftp://h/pub/hello.txt"},     // pyftpdlib: bare names
		{"ftp://h/pub/", "pub/hello.txt", "ftp://h/pub/hello.txt"}, // proftpd, pure-ftpd: the argument in front
		{"ftp://h/pub/", "x/y;z", "ftp://h/pub/y%3Bz"},
		{"ftp://h/%2Fetc/", "/etc/motd", "ftp://h/%2Fetc/motd"},
		{"ftp://h/pub/", "sub/", "ftp://h/pub/sub"},
		{"ftp://h/", "100%", "ftp://h/100%25"},
		{"ftp://h/", "why?.txt", "ftp://h/why%3F.txt"},
		{"ftp://h/", ".", ""},
		{"ftp://h/", "..", ""},
		{"ftp://h/", "pub/..", ""},
		{"ftp://h/", "", ""},
	}
	for _, tt := range tests {
		got, ok := ftp.ItemURL(tt.base, tt.name)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ftp.ItemURL(%q, %q) = %q, %v, want %q", tt.base, tt.name, got, ok, tt.want)
		}
		if tt.want == "" {
			continue
		}
		if _, err := rfc1738.Parse(tt.want); err != nil {
			t.Errorf("%s does not parse: %v", tt.want, err)
		}
	}
}

// TestFTPGuards sends the CR/LF/NUL vectors of §6: each is refused by
// Plan, and by Get before anything is sent (the fake sees no command).
func TestFTPGuards(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	tests := []struct{ path, part string }{
		{"/pub/a%0D%0ADELE%20x/motd", "cwd segment 2"},
		{"/pub%0a/motd", "cwd segment 1"},
		{"/pub/motd%00", "name"},
		{"/x%0D%0ARETR%20y;type=d", "name"},
	}
	logins := []struct{ login, part string }{
		{"u%0D%0APASS%20x@", "user"},
		{"u:p%0D%0AQUIT@", "password"},
		{"u:%00@", "password"},
	}
	check := func(in, part string) {
		t.Helper()
		c, asked := ftpTestClient()
		u := mustParse(t, in)
		_, err := c.Plan(u)
		var g *GuardError
		if !errors.As(err, &g) || g.Rule != "line-delimiter" || !strings.Contains(g.Reason, part) {
			t.Errorf("Plan(%q) = %v, want a line-delimiter GuardError on the %s", in, err, part)
		} else if in[g.Offset] != '%' {
			t.Errorf("Plan(%q): offset %d is not an escape", in, g.Offset)
		}
		if _, err := c.Get(ftpTestCtx(t), u); !errors.As(err, &g) {
			t.Errorf("Get(%q) = %v", in, err)
		}
		if strings.Contains(err.Error(), ":p%0D") || *asked != 0 {
			t.Errorf("error %q shows the password", err)
		}
	}
	for _, tt := range tests {
		check("ftp://"+fake.Addr+tt.path, tt.part)
	}
	for _, tt := range logins {
		check("ftp://"+tt.login+fake.Addr+"/motd", tt.part)
	}
	// The e-mail address of an anonymous login is guarded too.
	c, _ := ftpTestClient()
	c.Email = "me@x\r\nDELE y"
	if _, err := c.Plan(mustParse(t, "ftp://"+fake.Addr+"/motd")); err == nil {
		t.Error("an e-mail address with CRLF was accepted")
	}
	if got := fake.Commands(); len(got) != 0 {
		t.Errorf("the server received %q", got)
	}
}

func TestFTPPasswordNeeded(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	c, _ := ftpTestClient()
	c.Prompt = nil
	_, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://myname@"+fake.Addr+"/readme"))
	if !errors.Is(err, ftp.ErrPasswordRequired) || !strings.Contains(err.Error(), "ftp://user:password@host/") {
		t.Fatalf("Get = %v, want ErrPasswordRequired with advice", err)
	}
	if got := fake.Commands(); !slices.Equal(got, []string{"USER myname", "QUIT"}) {
		t.Errorf("the server received %q", got)
	}
	// A server that logs the user in without a password never prompts.
	fake = testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "USER ") {
				s.Reply("230 Welcome.")
				return true
			}
			return false
		}})
	c, asked := ftpTestClient()
	resp, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://myname@"+fake.Addr+"/readme"))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if *asked != 0 || slices.Contains(fake.Commands(), "PASS sekret") {
		t.Errorf("asked %d times; server received %q", *asked, fake.Commands())
	}
}

func TestFTPRefusals(t *testing.T) {
	tests := []struct {
		name   string
		path   string
		handle func(s *testserver.FTPSession, line string) bool
		code   int
		sent   string // the refused command
	}{
		{"550", "/nothing", nil, 550, "RETR nothing"},
		{"530", "/readme", func(s *testserver.FTPSession, line string) bool {
			if strings.HasPrefix(line, "PASS ") {
				s.Reply("530 Login incorrect.")
				return true
			}
			return false
		}, 530, "PASS ****"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles, Handle: tt.handle})
			c, _ := ftpTestClient()
			var trace []string
			c.Trace = func(dir byte, line string) { trace = append(trace, string(dir)+" "+line) }
			_, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://u:secret@"+fake.Addr+tt.path))
			var te *textproto.Error
			if !errors.As(err, &te) || te.Code != tt.code || !strings.Contains(err.Error(), tt.sent) {
				t.Fatalf("Get = %v, want %d to %s", err, tt.code, tt.sent)
			}
			if strings.Contains(err.Error(), "secret") || strings.Contains(strings.Join(trace, "\n"), "secret") {
				t.Errorf("the password leaked: %v\n%s", err, strings.Join(trace, "\n"))
			}
			if cmds := fake.Commands(); cmds[len(cmds)-1] != "QUIT" {
				t.Errorf("no QUIT after the refusal: %q", cmds)
			}
		})
	}
}

// TestFTPGetExecutesThePlan shows that Get sends the plan's steps, not a
// second reading of the URL: a plan edited by hand is what goes out.
func TestFTPGetExecutesThePlan(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	c, _ := ftpTestClient()
	u := mustParse(t, "ftp://"+fake.Addr+"/etc/motd")
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	p.Steps = slices.Insert(p.Steps, 2, Step{Verb: "CWD", Arg: "/", HasArg: true})
	resp, err := FTP{}.Get(ftpTestCtx(t), c, p)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := ftpControl(fake.Commands()); !slices.Equal(got, ftpWire(p.Lines())) || got[2] != "CWD /" {
		t.Errorf("the server received %q, the plan says %q", got, p.Lines())
	}
	p.Steps = []Step{{Verb: "DELE", Arg: "x", HasArg: true}}
	if _, err := (FTP{}).Get(ftpTestCtx(t), c, p); err == nil || !strings.Contains(err.Error(), "DELE") {
		t.Errorf("a plan with DELE: %v", err)
	}
}

// TestFTPNotes: the guess of §3.2.3 is in the plan, and in the trace.
func TestFTPNotes(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles})
	c, _ := ftpTestClient()
	var notes []string
	c.Trace = func(dir byte, line string) {
		if dir == '!' {
			notes = append(notes, line)
		}
	}
	u := mustParse(t, "ftp://"+fake.Addr+"/readme")
	p, _ := c.Plan(u)
	if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "TYPE I") && strings.Contains(n, "§3.2.3") }) {
		t.Errorf("notes %q lack the guess", p.Notes)
	}
	resp, err := c.Get(ftpTestCtx(t), u)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !slices.Equal(notes, p.Notes) {
		t.Errorf("trace notes %q, want %q", notes, p.Notes)
	}
	p, _ = c.Plan(mustParse(t, "ftp://"+fake.Addr+"/readme;type=a"))
	if slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "§3.2.3") }) {
		t.Errorf("a typecode was given, yet the notes guess: %q", p.Notes)
	}
	if _, err := c.Plan(mustParse(t, "ftp://@"+fake.Addr+"/readme")); err == nil {
		t.Error("an empty user name was planned")
	}
}
