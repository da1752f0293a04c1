package rfc1738

import (
	"reflect"
	"runtime"
	"testing"
)

func mustParse(t testing.TB, s string) URL {
	t.Helper()
	u, err := Parse(s)
	if err != nil {
		t.Fatalf("Parse(%q): %v", s, err)
	}
	return u
}

func TestFTPView(t *testing.T) {
	tests := []struct {
		in   string
		want FTP
	}{
		// §3.2.2, verbatim: "CWD /etc" then "RETR motd".
		{"ftp://myname@host.dom/%2Fetc/motd", FTP{User: "myname", HasUser: true, Cwd: []string{"/etc"}, Name: "motd"}},
		// §3.2.2: "CWD etc" then "RETR motd".
		{"ftp://myname@host.dom/etc/motd", FTP{User: "myname", HasUser: true, Cwd: []string{"etc"}, Name: "motd"}},
		// §3.2.2: "CWD " with a null argument, then "CWD etc", then "RETR motd".
		{"ftp://myname@host.dom//etc/motd", FTP{User: "myname", HasUser: true, Cwd: []string{"", "etc"}, Name: "motd"}},
		{"ftp://h/pub/a%20b%3Bc.txt;type=a", FTP{Cwd: []string{"pub"}, Name: "a b;c.txt", Type: 'a'}},
		{"ftp://h/pub/;type=D", FTP{Cwd: []string{"pub"}, Name: "", Type: 'D'}},
		{"ftp://h/", FTP{Name: ""}},
		{"ftp://h", FTP{}},
		{"ftp://@h/x", FTP{HasUser: true, Name: "x"}},
		{"ftp://u:p%40ss@h/x", FTP{User: "u", HasUser: true, Password: "p@ss", HasPassword: true, Name: "x"}},
	}
	for _, tt := range tests {
		got, ok := mustParse(t, tt.in).FTP()
		if !ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("FTP(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
	if _, ok := mustParse(t, "http://h/").FTP(); ok {
		t.Error("an http URL has no ftp view")
	}
}

func TestFTPLogin(t *testing.T) {
	// §3.2.1: anonymous with the e-mail address as password; with a user
	// but no password, ask.
	tests := []struct {
		in         string
		user, pass string
		ask        bool
	}{
		{"ftp://h/", "anonymous", "me@x.org", false},
		{"ftp://myname@h/", "myname", "", true},
		{"ftp://myname:pw@h/", "myname", "pw", false},
		{"ftp://@h/", "", "", true},
		{"ftp://anonymous@h/", "anonymous", "me@x.org", false},
		{"ftp://ftp@h/", "ftp", "me@x.org", false},
		{"ftp://FTP@h/", "FTP", "me@x.org", false},
		{"ftp://anonymous:secret@h/", "anonymous", "secret", false},
		{"ftp://ftpuser@h/", "ftpuser", "", true},
	}
	for _, tt := range tests {
		f, _ := mustParse(t, tt.in).FTP()
		user, pass, ask := f.Login("me@x.org")
		if user != tt.user || pass != tt.pass || ask != tt.ask {
			t.Errorf("Login(%q) = %q %q %v, want %q %q %v", tt.in, user, pass, ask, tt.user, tt.pass, tt.ask)
		}
	}
}

func TestHTTPView(t *testing.T) {
	tests := []struct {
		in   string
		want HTTP
		uri  string
	}{
		{"http://x.org", HTTP{}, "/"},
		{"http://x.org/", HTTP{HasPath: true}, "/"},
		{"http://x.org/a%2Fb/c?d=e", HTTP{Path: "a%2Fb/c", HasPath: true, Search: "d=e", HasSearch: true}, "/a%2Fb/c?d=e"},
		{"http://x.org/?", HTTP{HasPath: true, HasSearch: true}, "/?"},
	}
	for _, tt := range tests {
		got, _ := mustParse(t, tt.in).HTTP()
		if got != tt.want || got.RequestURI() != tt.uri {
			t.Errorf("HTTP(%q) = %+v %q, want %+v %q", tt.in, got, got.RequestURI(), tt.want, tt.uri)
		}
	}
}

func TestGopherView(t *testing.T) {
	tests := []struct {
		in   string
		want Gopher
	}{
		// §3.4.1: empty gopher-path is type "1" with an empty selector.
		{"gopher://h", Gopher{Type: '1'}},
		{"gopher://h/", Gopher{Type: '1'}},
		// §3.4.1: the type character occurs twice when the selector copies it.
		{"gopher://h/11/pub", Gopher{Type: '1', Selector: "1/pub", RawSelector: "1/pub"}},
		// §3.4.2: search.
		{"gopher://h/7/cgi%09hello%20world", Gopher{Type: '7', Selector: "/cgi", RawSelector: "/cgi", Search: "hello world", RawSearch: "hello%20world", HasSearch: true}},
		// §3.4.3: the search must be present (maybe empty) before a Gopher+ string.
		{"gopher://h/0x%09%09+", Gopher{Type: '0', Selector: "x", RawSelector: "x", HasSearch: true, Plus: "+", RawPlus: "+", HasPlus: true, PlusKind: PlusDefaultView}},
		{"gopher://h/%30x", Gopher{Type: '0', Selector: "x", RawSelector: "x"}},
	}
	for _, tt := range tests {
		got, _ := mustParse(t, tt.in).Gopher()
		if got != tt.want {
			t.Errorf("Gopher(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestGopherPlusStrings: the Gopher+ strings of §3.4.4–§3.4.9, verbatim.
func TestGopherPlusStrings(t *testing.T) {
	tests := []struct {
		plus string // as written in the URL
		kind PlusKind
		dec  string
	}{
		{"+", PlusDefaultView, "+"},                                                             // §3.4.4
		{"?", PlusAsk, "?"},                                                                     // §3.4.4
		{"!", PlusItemAttributes, "!"},                                                          // §3.4.6
		{"$", PlusDirectoryAttributes, "$"},                                                     // §3.4.6
		{"!+ABSTRACT", PlusItemAttributes, "!+ABSTRACT"},                                        // §3.4.7
		{"!+ABSTRACT%20+SMELL", PlusItemAttributes, "!+ABSTRACT +SMELL"},                        // §3.4.7
		{"$+ABSTRACT", PlusDirectoryAttributes, "$+ABSTRACT"},                                   // §3.4.7
		{"+application/postscript%20Es_ES", PlusAlternateView, "+application/postscript Es_ES"}, // §3.4.8
		// §3.4.9, with two ask item values.
		{"+%091%0D%0A+-1%0D%0Ayes%0D%0Ano%0D%0A.%0D%0A", PlusForm, "+\t1\r\n+-1\r\nyes\r\nno\r\n.\r\n"},
	}
	for _, tt := range tests {
		in := "gopher://h/0sel%09%09" + tt.plus
		g, _ := mustParse(t, in).Gopher()
		if !g.HasPlus || g.PlusKind != tt.kind || g.Plus != tt.dec || g.RawPlus != tt.plus || g.Selector != "sel" {
			t.Errorf("Gopher(%q) = %+v, want kind %v plus %q", in, g, tt.kind, tt.dec)
		}
	}
}

func TestMailtoView(t *testing.T) {
	tests := []struct {
		in       string
		addr     string
		addrSpec bool
	}{
		{"mailto:joe@x.org", "joe@x.org", true},
		{"mailto:a%25b@x.org", "a%b@x.org", true}, // §3.5: "%" is common in addresses and must be encoded
		{"mailto:joe", "joe", false},
		{"mailto:a@%5B1.2.3.4%5D", "a@[1.2.3.4]", true},
	}
	for _, tt := range tests {
		m, _ := mustParse(t, tt.in).Mailto()
		if m.Address != tt.addr || m.AddrSpec != tt.addrSpec {
			t.Errorf("Mailto(%q) = %+v", tt.in, m)
		}
	}
}

func TestNewsAndNNTPViews(t *testing.T) {
	n, _ := mustParse(t, "news:*").News() // §3.6, verbatim
	if !n.All() || n.MessageID != "" {
		t.Errorf("news:* = %+v", n)
	}
	n, _ = mustParse(t, "news:comp.infosystems.www.misc").News() // §3.6
	if n.Group != "comp.infosystems.www.misc" || n.MessageID != "" {
		t.Errorf("news group = %+v", n)
	}
	n, _ = mustParse(t, "news:123%24x@host.dom").News()
	if n.MessageID != "123$x@host.dom" || n.Group != "" {
		t.Errorf("news message-id = %+v", n)
	}
	nn, _ := mustParse(t, "nntp://h/comp.lang.c/42").NNTP()
	if nn != (NNTP{Group: "comp.lang.c", Article: "42", HasArticle: true}) {
		t.Errorf("nntp = %+v", nn)
	}
	nn, _ = mustParse(t, "nntp://h/comp.lang.c").NNTP()
	if nn != (NNTP{Group: "comp.lang.c"}) {
		t.Errorf("nntp = %+v", nn)
	}
}

func TestTelnetView(t *testing.T) {
	v, _ := mustParse(t, "telnet://guest:s%3Acret@h:2323/").Telnet()
	if v.User != "guest" || v.Password != "s:cret" {
		t.Fatalf("telnet = %+v", v)
	}
	if got := v.Advice(false); got != `log in as user "guest" (the URL suggests a password)` {
		t.Errorf("Advice(false) = %q", got)
	}
	if got := v.Advice(true); got != `log in as user "guest" with password "s:cret"` {
		t.Errorf("Advice(true) = %q", got)
	}
}

func TestWAISView(t *testing.T) {
	tests := []struct {
		in   string
		want WAIS
	}{
		{"wais://h/db", WAIS{Database: "db"}},
		{"wais://h/db?a+b", WAIS{Database: "db", Search: "a+b", HasSearch: true}},
		{"wais://h/my%20db/TEXT/0%2012%2Fx", WAIS{Database: "my db", Type: "TEXT", Path: "0 12/x", IsDocument: true}},
	}
	for _, tt := range tests {
		got, _ := mustParse(t, tt.in).WAIS()
		if got != tt.want {
			t.Errorf("WAIS(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestFileView(t *testing.T) {
	// §3.10, verbatim: the VMS file DISK$USER:[MY.NOTES]NOTE123456.TXT.
	f, _ := mustParse(t, "file://vms.host.edu/disk$user/my/notes/note12345.txt").File()
	if f.Host != "vms.host.edu" || f.Path != "disk$user/my/notes/note12345.txt" || f.IsLocal() {
		t.Errorf("VMS file = %+v", f)
	}
	if _, err := f.LocalPath(); err == nil {
		t.Error("a file on another host has no local path")
	}
	if runtime.GOOS == "windows" {
		return
	}
	for in, want := range map[string]string{
		"file:///etc/motd":                        "/etc/motd",
		"file://localhost/tmp/a%20b":              "/tmp/a b",
		"file://LOCALHOST/tmp/%E6%9D%B1%E4%BA%AC": "/tmp/東京",
	} {
		f, _ := mustParse(t, in).File()
		got, err := f.LocalPath()
		if err != nil || got != want {
			t.Errorf("LocalPath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"file:///a%2Fb", "file:///a%00"} {
		f, _ := mustParse(t, in).File()
		if p, err := f.LocalPath(); err == nil {
			t.Errorf("LocalPath(%q) = %q, want an error", in, p)
		}
	}
}

func TestProsperoView(t *testing.T) {
	// §3.11, verbatim: prospero://host.dom//pros/name has hsoname "/pros/name".
	p, _ := mustParse(t, "prospero://host.dom//pros/name").Prospero()
	if p.Hsoname != "/pros/name" || p.Fields != nil {
		t.Errorf("prospero = %+v", p)
	}
	p, _ = mustParse(t, "prospero://h/a%3Bb;OBJECT-VERSION=3;x=%3D").Prospero()
	want := Prospero{Hsoname: "a;b", Fields: []Field{{"OBJECT-VERSION", "3"}, {"x", "="}}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("prospero = %+v, want %+v", p, want)
	}
}
