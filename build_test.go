package rfc1738

import (
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

type builder interface {
	Append([]byte) ([]byte, error)
	URL() (URL, error)
}

// buildTests: the RFC's own examples rebuilt from their parts, byte for
// byte, then the minimal encoding of each component.
var buildTests = []struct {
	b    builder
	want string
}{
	// §3.2.2, verbatim.
	{FTPURL{Host: "host.dom", User: "myname", Cwd: []string{"/etc"}, Name: "motd"}, "ftp://myname@host.dom/%2Fetc/motd"},
	{FTPURL{Host: "host.dom", User: "myname", Cwd: []string{"etc"}, Name: "motd"}, "ftp://myname@host.dom/etc/motd"},
	{FTPURL{Host: "host.dom", User: "myname", Cwd: []string{"", "etc"}, Name: "motd"}, "ftp://myname@host.dom//etc/motd"},
	// The example: cwd ["/etc"], name motd, type a.
	{FTPURL{Host: "host", Cwd: []string{"/etc"}, Name: "motd", Type: 'a'}, "ftp://host/%2Fetc/motd;type=a"},
	// §3.1: an empty user, an empty password.
	{FTPURL{Host: "host.com", HasUser: true}, "ftp://@host.com/"},
	{FTPURL{Host: "host.com", User: "foo", HasPassword: true}, "ftp://foo:@host.com/"},
	{FTPURL{Host: "h", User: "a:b@c/d", Password: "p;w?"}, "ftp://a%3Ab%40c%2Fd:p;w?@h/"},
	{FTPURL{Host: "h", Port: 2121, Cwd: []string{"pub"}, Name: "a b;c.txt", Type: 'i'}, "ftp://h:2121/pub/a%20b%3Bc.txt;type=i"},
	{FTPURL{Host: "h", Cwd: []string{"pub"}, Type: 'd'}, "ftp://h/pub/;type=d"},
	// §3.3.
	{HTTPURL{Host: "x.org"}, "http://x.org/"},
	{HTTPURL{Host: "x.org", Port: 8080, Segments: []string{"~joe", "a b;c?d/e"}, Search: "q=1&r=a b"}, "http://x.org:8080/%7Ejoe/a%20b%3Bc%3Fd%2Fe?q=1&r=a%20b"},
	{HTTPURL{Host: "x.org", HasSearch: true}, "http://x.org/?"},
	// §3.4.9, verbatim form: +%091%0D%0A+-1%0D%0A<value>%0D%0A.%0D%0A.
	{GopherURL{Host: "h", Type: '0', Selector: "sel", HasSearch: true, Plus: "+\t1\r\n+-1\r\nyes\r\n.\r\n"}, "gopher://h/0sel%09%09+%091%0D%0A+-1%0D%0Ayes%0D%0A.%0D%0A"},
	// §3.4.1, §3.4.2, §3.4.7, §3.4.8.
	{GopherURL{Host: "h"}, "gopher://h/"},
	{GopherURL{Host: "h", Type: '1'}, "gopher://h/1"},
	{GopherURL{Host: "h", Type: '1', Selector: "1/pub"}, "gopher://h/11/pub"},
	{GopherURL{Host: "h", Selector: "/pub"}, "gopher://h/1/pub"},
	{GopherURL{Host: "h", Type: '7', Selector: "/cgi", Search: "hello world"}, "gopher://h/7/cgi%09hello%20world"},
	{GopherURL{Host: "h", Type: '1', Plus: "!+ABSTRACT +SMELL"}, "gopher://h/1%09%09!+ABSTRACT%20+SMELL"},
	{GopherURL{Host: "h", Type: '0', Selector: "x", Plus: "+application/postscript Es_ES"}, "gopher://h/0x%09%09+application/postscript%20Es_ES"},
	{GopherURL{Host: "h", Type: '%', Selector: "a%b#c"}, "gopher://h/%25a%25b%23c"},
	// §3.5.
	{MailtoURL{Address: "a%b@x.org"}, "mailto:a%25b@x.org"},
	{MailtoURL{Address: "\"joe q\"@x.org"}, "mailto:%22joe%20q%22@x.org"},
	// §3.6.
	{NewsURL{Group: "*"}, "news:*"},
	{NewsURL{Group: "comp.infosystems.www.misc"}, "news:comp.infosystems.www.misc"},
	{NewsURL{MessageID: "<123$x@host.dom>"}, "news:123$x@host.dom"},
	{NewsURL{MessageID: "a@b c%@host.dom"}, "news:a%40b%20c%25@host.dom"},
	// §3.7.
	{NNTPURL{Host: "h", Group: "comp.lang.c", Article: "42"}, "nntp://h/comp.lang.c/42"},
	{NNTPURL{Host: "h", Port: 1119, Group: "comp.lang.c"}, "nntp://h:1119/comp.lang.c"},
	// §3.8.
	{TelnetURL{Host: "h", User: "guest", Password: "s:cret", Port: 2323}, "telnet://guest:s%3Acret@h:2323/"},
	{TelnetURL{Host: "h"}, "telnet://h/"},
	// §3.9.
	{WAISURL{Host: "h", Database: "db"}, "wais://h/db"},
	{WAISURL{Host: "h", Database: "db", Search: "a b;c"}, "wais://h/db?a%20b%3Bc"},
	{WAISURL{Host: "h", Database: "my db", Type: "TEXT", Path: "0 12/x"}, "wais://h/my%20db/TEXT/0%2012%2Fx"},
	{WAISURL{Host: "h", Database: "db", IsDocument: true}, "wais://h/db//"},
	// §3.10, verbatim: the VMS file.
	{FileURL{Host: "vms.host.edu", Segments: []string{"disk$user", "my", "notes", "note12345.txt"}}, "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
	{FileURL{Segments: []string{"tmp", "東京 notes", "a;b"}}, "file:///tmp/%E6%9D%B1%E4%BA%AC%20notes/a%3Bb"},
	{FileURL{Host: "localhost"}, "file://localhost/"},
	// §3.11, verbatim.
	{ProsperoURL{Host: "host.dom", Hsoname: "/pros/name"}, "prospero://host.dom//pros/name"},
	{ProsperoURL{Host: "h", Hsoname: "a;b", Fields: []Field{{"OBJECT-VERSION", "3"}, {"x", "=;"}}}, "prospero://h/a%3Bb;OBJECT-VERSION=3;x=%3D%3B"},
}

func TestBuild(t *testing.T) {
	for _, tt := range buildTests {
		b, err := tt.b.Append([]byte("prefix "))
		if err != nil || string(b) != "prefix "+tt.want {
			t.Errorf("%#v.Append = %q, %v; want %q", tt.b, b, err, tt.want)
			continue
		}
		u, err := tt.b.URL()
		if err != nil || u.String() != tt.want {
			t.Errorf("%#v.URL() = %q, %v", tt.b, u, err)
			continue
		}
		checkViews(t, tt.b, u)
	}
}

// checkViews checks that the view of u gives back the parts b was built from.
func checkViews(t *testing.T, b builder, u URL) {
	t.Helper()
	host := func(h string, port int) {
		t.Helper()
		if u.Host() != h {
			t.Errorf("%q: host %q, built from %q", u, u.Host(), h)
		}
		if p, ok := u.Port(); ok != (port != 0) || ok && u.PortNumber() != port {
			t.Errorf("%q: port %q, built from %d", u, p, port)
		}
	}
	login := func(user, pw string, hasUser, hasPw bool) {
		t.Helper()
		hasPw = hasPw || pw != ""
		hasUser = hasUser || user != "" || hasPw
		gu, gok := u.User()
		gp, gpok := u.Password()
		if gu != user || gok != hasUser || gp != pw || gpok != hasPw {
			t.Errorf("%q: user %q %v password %q %v, built from %q %v %q %v", u, gu, gok, gp, gpok, user, hasUser, pw, hasPw)
		}
	}
	switch b := b.(type) {
	case FTPURL:
		host(b.Host, b.Port)
		login(b.User, b.Password, b.HasUser, b.HasPassword)
		f, _ := u.FTP()
		if !slices.Equal(f.Cwd, b.Cwd) || f.Name != b.Name || f.Type != b.Type {
			t.Errorf("%q: view %+v, built from %+v", u, f, b)
		}
	case HTTPURL:
		host(b.Host, b.Port)
		h, _ := u.HTTP()
		segs := []string{}
		for _, s := range strings.Split(h.Path, "/") {
			segs = append(segs, unescape(s))
		}
		want := b.Segments
		if len(want) == 0 {
			want = []string{""}
		}
		if !slices.Equal(segs, want) || h.HasSearch != (b.HasSearch || b.Search != "") || unescape(h.Search) != b.Search {
			t.Errorf("%q: view %+v, built from %+v", u, h, b)
		}
	case GopherURL:
		host(b.Host, b.Port)
		g, _ := u.Gopher()
		typ := b.Type
		if typ == 0 {
			typ = '1'
		}
		hasPlus := b.HasPlus || b.Plus != ""
		if g.Type != typ || g.Selector != b.Selector || g.Search != b.Search || g.HasSearch != (b.HasSearch || b.Search != "" || hasPlus) ||
			g.Plus != b.Plus || g.HasPlus != hasPlus {
			t.Errorf("%q: view %+v, built from %+v", u, g, b)
		}
	case MailtoURL:
		if m, _ := u.Mailto(); m.Address != b.Address {
			t.Errorf("%q: view %+v, built from %+v", u, m, b)
		}
	case NewsURL:
		n, _ := u.News()
		id := b.MessageID
		if len(id) >= 2 && id[0] == '<' && id[len(id)-1] == '>' {
			id = id[1 : len(id)-1]
		}
		if n.Group != b.Group || n.MessageID != id {
			t.Errorf("%q: view %+v, built from %+v", u, n, b)
		}
	case NNTPURL:
		host(b.Host, b.Port)
		n, _ := u.NNTP()
		if n.Group != b.Group || n.Article != b.Article || n.HasArticle != (b.Article != "") {
			t.Errorf("%q: view %+v, built from %+v", u, n, b)
		}
	case TelnetURL:
		host(b.Host, b.Port)
		login(b.User, b.Password, b.HasUser, b.HasPassword)
	case WAISURL:
		host(b.Host, b.Port)
		w, _ := u.WAIS()
		doc := b.IsDocument || b.Type != "" || b.Path != ""
		if w.Database != b.Database || unescape(w.Search) != b.Search || w.HasSearch != (b.HasSearch || b.Search != "") ||
			w.IsDocument != doc || w.Type != b.Type || w.Path != b.Path {
			t.Errorf("%q: view %+v, built from %+v", u, w, b)
		}
	case FileURL:
		f, _ := u.File()
		want := b.Segments
		if len(want) == 0 {
			want = []string{""}
		}
		if f.Host != b.Host || !slices.Equal(f.Segments(), want) {
			t.Errorf("%q: view %+v, built from %+v", u, f, b)
		}
	case ProsperoURL:
		host(b.Host, b.Port)
		p, _ := u.Prospero()
		if p.Hsoname != b.Hsoname || len(p.Fields) != len(b.Fields) || len(b.Fields) > 0 && !reflect.DeepEqual(p.Fields, b.Fields) {
			t.Errorf("%q: view %+v, built from %+v", u, p, b)
		}
	default:
		t.Fatalf("unknown builder %T", b)
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		b     builder
		field string
		off   int
		rule  string
	}{
		// Hosts are validated by the grammar, never escaped.
		{HTTPURL{Host: "a_b.org"}, "Host", 1, "domainlabel"},
		{FTPURL{Host: ""}, "Host", 0, "host"},
		{TelnetURL{Host: "1.2.3"}, "Host", 0, "hostnumber"},
		{FileURL{Host: "x.org."}, "Host", 6, "toplabel"},
		{HTTPURL{Host: "h", Port: 65536}, "Port", 0, "port"},
		{FTPURL{Host: "h", Type: 'x'}, "Type", 0, "ftptype"},
		// §3.4.1: a TAB cannot be in a selector or a search.
		{GopherURL{Host: "h", Selector: "a\tb"}, "Selector", 1, "selector"},
		{GopherURL{Host: "h", Search: "a\r\n"}, "Search", 1, "search"},
		{GopherURL{Host: "h", Type: '\t'}, "Type", 0, "gtype"},
		{MailtoURL{}, "Address", 0, "encoded822addr"},
		{NewsURL{Group: "1abc"}, "Group", 0, "group"},
		{NewsURL{Group: "a b"}, "Group", 1, "group"},
		{NewsURL{}, "Group", 0, "grouppart"},
		{NewsURL{MessageID: "nohost"}, "MessageID", 0, "article"},
		{NewsURL{MessageID: "a@b_c"}, "MessageID", 3, "toplabel"},
		{NNTPURL{Host: "h", Group: "a.b", Article: "4x"}, "Article", 1, "digits"},
		{WAISURL{Host: "h", Database: "d", Search: "q", Path: "p"}, "Search", 0, "waisurl"},
	}
	for _, tt := range tests {
		_, err := tt.b.URL()
		var be *BuildError
		if !errors.As(err, &be) || be.Field != tt.field || be.Offset != tt.off || be.Rule != tt.rule {
			t.Errorf("%#v.URL() error = %v (%+v), want field %s offset %d rule %s", tt.b, err, be, tt.field, tt.off, tt.rule)
		}
	}
	_, err := GopherURL{Host: "h", Selector: "a\tb"}.URL()
	if want := `rfc1738: build gopher URL: Selector "a\tb": offset 1: selector: a selector cannot hold a TAB: %09 would end it (§3.4.1)`; err == nil || err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestFileURLFromPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	for in, want := range map[string]string{
		"/":                    "file:///",
		"/etc/motd":            "file:///etc/motd",
		"/tmp/a b/東京.txt":      "file:///tmp/a%20b/%E6%9D%B1%E4%BA%AC.txt",
		"/tmp/x/../y;z#1%":     "file:///tmp/y%3Bz%231%25",
		"/home/user/?~dir/a:b": "file:///home/user/?%7Edir/a:b",
	} {
		f, err := FileURLFromPath(in)
		if err != nil {
			t.Errorf("FileURLFromPath(%q): %v", in, err)
			continue
		}
		u, err := f.URL()
		if err != nil || u.String() != want {
			t.Errorf("FileURLFromPath(%q) = %q, %v; want %q", in, u, err, want)
			continue
		}
		// The way back: File.LocalPath gives the cleaned path.
		fv, _ := u.File()
		if p, err := fv.LocalPath(); err != nil || p != filepath.Clean(in) {
			t.Errorf("LocalPath(%q) = %q, %v; want %q", u, p, err, filepath.Clean(in))
		}
	}
	if _, err := FileURLFromPath("rel/path"); err == nil {
		t.Error("a relative path must be refused")
	}
}

// FuzzBuild: any parts a builder accepts make a valid URL whose views give
// the parts back (build∘parse), checked on Append's output, which is not
// parsed inside the builder.
func FuzzBuild(f *testing.F) {
	f.Add("host.dom", 0, "myname", "", "/etc", "motd", "a b", "+\t1\r\n", byte('a'))
	f.Add("h", 2121, "", "p@ss", "", "", "", "", byte('7'))
	f.Add("localhost", 70, "a:b", "c", "東京", "x;y", "q=1&r", "!+ABSTRACT", byte(0))
	f.Fuzz(func(t *testing.T, host string, port int, user, pw, seg, name, search, plus string, typ byte) {
		var ftpType byte
		if strings.IndexByte("aid", typ) >= 0 {
			ftpType = typ
		}
		builders := []builder{
			FTPURL{Host: host, Port: port, User: user, Password: pw, Cwd: []string{seg, seg}, Name: name, Type: ftpType},
			HTTPURL{Host: host, Port: port, Segments: []string{seg, name}, Search: search},
			GopherURL{Host: host, Port: port, Type: typ, Selector: seg + name, Search: search, Plus: plus},
			MailtoURL{Address: user + "@" + host},
			NewsURL{MessageID: name + "@" + host},
			NNTPURL{Host: host, Port: port, Group: name, Article: search},
			TelnetURL{Host: host, Port: port, User: user, Password: pw},
			WAISURL{Host: host, Port: port, Database: seg, Search: search},
			WAISURL{Host: host, Port: port, Database: seg, Type: name, Path: plus},
			FileURL{Host: host, Segments: []string{seg, name}},
			ProsperoURL{Host: host, Port: port, Hsoname: seg, Fields: []Field{{name, search}, {user, pw}}},
		}
		for _, b := range builders {
			out, err := b.Append(nil)
			if err != nil {
				var be *BuildError
				if !errors.As(err, &be) {
					t.Fatalf("%#v: error %v is not a *BuildError", b, err)
				}
				continue
			}
			u, err := Parse(string(out))
			if err != nil {
				t.Fatalf("%#v built %q, which does not parse: %v", b, out, err)
			}
			checkViews(t, b, u)
		}
	})
}
