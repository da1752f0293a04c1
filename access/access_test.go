package access

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
)

func mustParse(t *testing.T, s string) rfc1738.URL {
	t.Helper()
	u, err := rfc1738.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// echoHandler plans one step per path segment and "fetches" the plan's
// lines, so a test sees that Get executes what Plan returned.
type echoHandler struct{}

func (echoHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	path, _ := u.Path()
	p := &Plan{Connect: u.HostPort()}
	for _, seg := range strings.Split(path, "/") {
		p.Steps = append(p.Steps, Step{Verb: "GET", Arg: seg, HasArg: true})
	}
	return p, nil
}

func (echoHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	return &Response{Body: io.NopCloser(strings.NewReader(strings.Join(p.Lines(), "\n"))), Size: -1}, nil
}

func TestRegistry(t *testing.T) {
	c := NewClient()
	u := mustParse(t, "x-echo://u:secret@h:9/a/b")
	if _, err := c.Plan(u); !errors.Is(err, ErrUnsupported) || strings.Contains(err.Error(), "secret") {
		t.Fatalf("Plan without a handler = %v, want ErrUnsupported without the password", err)
	}
	c.RegisterProtocol("X-Echo", echoHandler{})
	p, err := c.Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	if p.URL != "x-echo://u:****@h:9/a/b" || p.Scheme != "x-echo" || p.Connect != "h:9" || p.Parsed != u {
		t.Errorf("plan = %+v", p)
	}
	resp, err := c.Get(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "GET a\nGET b" || resp.Plan == nil || resp.URL != p.URL {
		t.Errorf("Get = %q, %+v", body, resp)
	}
}

func TestStepLine(t *testing.T) {
	tests := []struct {
		s    Step
		want string
	}{
		{Step{Verb: "CWD", Arg: "", HasArg: true}, "CWD "}, // §3.2.2: a null argument
		{Step{Verb: "NLST"}, "NLST"},
		{Step{Verb: "PASS", Arg: "secret", HasArg: true, Placeholder: "<password>"}, "PASS <password>"},
		{Step{Verb: "PASS", Placeholder: "<asked>"}, "PASS <asked>"},
		{Step{Arg: "sel\t+"}, "sel\t+"},
	}
	for _, tt := range tests {
		if got := tt.s.Line(); got != tt.want {
			t.Errorf("%+v.Line() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestCheckPort(t *testing.T) {
	c := NewClient()
	tests := []struct {
		in      string
		warn    bool
		refused bool
	}{
		{"gopher://h/", false, false},
		{"gopher://h:70/", false, false},
		{"gopher://h:7070/", true, false},
		{"gopher://mail.example.com:25/0HELO", false, true}, // §6's own example: gopher aimed at SMTP
		{"ftp://h:21/", false, false},
		{"http://h:21/", false, true},
		{"nntp://h:119/g", false, false},
		{"gopher://h:119/", false, true},
		{"http://h:70000/", false, true},
		{"http://h:0/", false, true},
		// A port is read from its digits without wrapping: 2^32+47078,
		// 2^32+70 (gopher's default once wrapped) and 2^64+25 are no
		// ports at all; leading zeros are allowed (§3.1: 1*digit).
		{"gopher://127.0.0.1:4295014374/0x", false, true},
		{"gopher://h:4294967366/0x", false, true},
		{"gopher://h:18446744073709551641/0x", false, true},
		{"gopher://h:000000000000070/0x", false, false},
		{"gopher://h:0000025/0x", false, true},
		{"gopher://h:65535/", true, false},
		{"gopher://h:65536/", false, true},
	}
	for _, tt := range tests {
		u, err := rfc1738.Parse(tt.in)
		if err != nil {
			if !tt.refused {
				t.Errorf("Parse(%q): %v", tt.in, err)
			}
			continue // a URL the grammar refuses is never fetched at all
		}
		warn, err := c.CheckPort(u)
		if (warn != "") != tt.warn || (err != nil) != tt.refused {
			t.Errorf("CheckPort(%q) = %q, %v", tt.in, warn, err)
		}
		var g *GuardError
		if err != nil && (!errors.As(err, &g) || g.Offset <= 0 || g.Rule != "port") {
			t.Errorf("CheckPort(%q): %v is not a port GuardError with an offset", tt.in, err)
		}
	}
	c.AllowPorts = []int{25}
	if _, err := c.CheckPort(mustParse(t, "gopher://h:25/")); err != nil {
		t.Errorf("an allowed port is refused: %v", err)
	}
	c = NewClient()
	c.AllowAnyPort = true
	if _, err := c.CheckPort(mustParse(t, "gopher://h:110/")); err != nil {
		t.Errorf("AllowAnyPort: %v", err)
	}
}

func TestCheckDataPort(t *testing.T) {
	// §6: a port named by a server (ftp 227/229) passes the same guard
	// as a port in a URL.
	c := NewClient()
	for port, refused := range map[int]bool{25: true, 21: true, 110: true, 0: true, 65536: true, 1 << 32: true, 30000: false, 65535: false} {
		if err := c.CheckDataPort("ftp", port); (err != nil) != refused {
			t.Errorf("CheckDataPort(%d) = %v, want refused %v", port, err, refused)
		}
	}
	c.AllowPorts = []int{25}
	if err := c.CheckDataPort("ftp", 25); err != nil {
		t.Errorf("an allowed port is refused: %v", err)
	}
}

func TestCheckLine(t *testing.T) {
	in := "ftp://u:p@h/pub/a%0D%0ADELE%20x"
	u := mustParse(t, in)
	path, _ := u.Path()
	err := CheckLine(u, path, u.PathOffset(), "path segment", LineDelimiters)
	var g *GuardError
	if !errors.As(err, &g) || g.Offset != strings.Index(in, "%0D") || g.Rule != "line-delimiter" {
		t.Fatalf("CheckLine = %v, want the offset of %%0D", err)
	}
	if strings.Contains(err.Error(), ":p@") || !strings.Contains(err.Error(), "CR") {
		t.Errorf("error %q must redact the password and name the octet", err)
	}
	for _, raw := range []string{"%0a", "%00", "x%0Ay"} {
		if CheckLine(u, raw, 0, "x", LineDelimiters) == nil {
			t.Errorf("CheckLine(%q) passed", raw)
		}
	}
	if err := CheckLine(u, "a%09b%2F%250D", 0, "x", LineDelimiters); err != nil {
		t.Errorf("CheckLine of harmless escapes: %v", err)
	}
	if CheckLine(u, "a%09b", 0, "selector", LineDelimiters+"\t") == nil {
		t.Error("a TAB must be refused where the caller says so")
	}
}

func TestRedact(t *testing.T) {
	tests := map[string]string{
		"ftp://u:secret@h/x":      "ftp://u:****@h/x",
		"ftp://u:@h/x":            "ftp://u:****@h/x",
		"ftp://u@h/x":             "ftp://u@h/x",
		"telnet://u:p%40ss@h:23/": "telnet://u:****@h:23/",
		"http://h/a:b@c":          "http://h/a:b@c",
		"news:a:b@c":              "news:a:b@c",
		"x://h#u:p@q":             "x://h#u:p@q",
		"ftp://u:secret@h":        "ftp://u:****@h",
		// A valid URL may have "@" in its path: only the password goes.
		"ftp://u:pw@h/a@b":     "ftp://u:****@h/a@b",
		"ftp://u@h:2121/a:b@c": "ftp://u@h:2121/a:b@c",
		// Invalid URLs are redacted too (issue: an unencoded "/", "#" or
		// "@" in a password): from the first ":" after "//" to the last "@".
		"ftp://user:se/cret@host/x":  "ftp://user:****@host/x",
		"ftp://user:se#cret@host/x":  "ftp://user:****@host/x",
		"ftp://u:se@cret@h/x":        "ftp://u:****@h/x",
		"ftp://u:se?cr et@h/x":       "ftp://u:****@h/x",
		"gopher://u:p\x00w@h:99999/": "gopher://u:****@h:99999/",
		"ftp://u:pw@":                "ftp://u:****@",
		"ftp://h:21/~x":              "ftp://h:21/~x",
	}
	for in, want := range tests {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}

// planAndGet makes the plan of url and runs Get, returning the plan, the
// body and the first error of Get, of reading the body or of closing it.
func planAndGet(t *testing.T, c *Client, url string) (*Plan, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	u := mustParse(t, url)
	p, err := c.Plan(u)
	if err != nil {
		t.Fatalf("Plan(%s): %v", url, err)
	}
	resp, err := c.Get(ctx, u)
	if err != nil {
		return p, "", err
	}
	b, err := io.ReadAll(resp.Body)
	if cerr := resp.Body.Close(); err == nil {
		err = cerr
	}
	return p, string(b), err
}
