package linkcheck_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// vsftpd: known-good and known-broken ftp URLs of every §3.2.2 form, on
// at most PerHost logins.
func TestVSFTPD(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	// A file the anonymous user may not read (root's, mode 600).
	if err := os.WriteFile(filepath.Join(root, "pub", "secret.txt"), []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	k := newChecker(t)
	base := "ftp://" + addr
	checkAll(t, k, []verdict{
		{base + "/hello.txt", linkcheck.OK, "file, 20 bytes"},
		{base + "/pub/nested/inner.txt", linkcheck.OK, "file, 12 bytes"},
		{base + "/pub/nested/deeper/deep.txt;type=a", linkcheck.OK, "file"},
		{base + "/pub/a%20b%3Bc.txt", linkcheck.OK, "file"},      // §3.2.2: decoded, ';' inside the name
		{base + "/%2Fetc/motd", linkcheck.OK, "file"},            // §3.2.2: CWD /etc (the chroot's)
		{base + "/pub/", linkcheck.OK, "directory"},              // empty name
		{base + "/pub/nested", linkcheck.OK, "directory"},        // no typecode, a directory
		{base + "/pub/nested;type=d", linkcheck.OK, "directory"}, // ;type=d
		{base + "/pub/missing.txt", linkcheck.Broken, "SIZE missing.txt: 550"},
		{base + "/pub/secret.txt", linkcheck.Broken, "RETR secret.txt: 550"}, // mode 600: SIZE answers, RETR refuses
		{base + "/nowhere/hello.txt", linkcheck.Broken, "CWD nowhere: 550"},
		{base + "//hello.txt", linkcheck.Broken, "CWD : 550"}, // §3.2.2: a null CWD, which vsftpd refuses
		{"ftp://" + testserver.VSFTPDUser + ":" + testserver.VSFTPDPassword + "@" + addr + "/files/local.txt", linkcheck.OK, "file, 16 bytes"},
		{"ftp://" + testserver.VSFTPDUser + ":wrong@" + addr + "/files/local.txt", linkcheck.Broken, "530"},
		{"ftp://" + testserver.VSFTPDUser + "@" + addr + "/files/local.txt", linkcheck.Skipped, "asks for a password"},
	})
	log := testserver.VSFTPDLog(root)
	if n := strings.Count(log, `"USER anonymous"`); n < 1 || n > 2 {
		t.Errorf("%d anonymous logins for 11 URLs; want 1 or 2 (PerHost)", n)
	}
}

// Many URLs of one host through a Run: one or two logins in all.
func TestVSFTPDRun(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	run := &linkcheck.Run{Checker: newChecker(t), Jobs: 8, PerHost: 2}
	for i := range 100 {
		run.Add(fmt.Sprintf("ftp://%s/pub/nested/inner.txt#%d", addr, i%2), linkcheck.Place{File: "list", Line: i + 1, Column: 1})
		run.Add(fmt.Sprintf("ftp://%s/pub/gone%d.txt", addr, i), linkcheck.Place{File: "list", Line: i + 1, Column: 40})
	}
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	rs := run.Results()
	if got := linkcheck.Count(rs); got != (linkcheck.Totals{2, 100, 0, 0}) {
		t.Errorf("totals %v, want 2 ok and 100 broken", got)
	}
	if len(rs[0].Places) != 50 {
		t.Errorf("%s has %d places, want 50", rs[0].URL, len(rs[0].Places))
	}
	if n := strings.Count(testserver.VSFTPDLog(root), `"USER anonymous"`); n < 1 || n > 2 {
		t.Errorf("%d logins for 102 URLs, want at most --per-host 2", n)
	}
}

func TestGophernicus(t *testing.T) {
	g := testserver.Gophernicus(t)
	k := newChecker(t)
	base := fmt.Sprintf("gopher://%s:%d", g.Host, g.Port)
	checkAll(t, k, []verdict{
		{base + "/", linkcheck.OK, "menu"},
		{base + "/0/hello.txt", linkcheck.OK, "text"},
		{base + "/1/docs", linkcheck.OK, "menu"},
		{base + "/9/docs/blob.bin", linkcheck.OK, "item type 9"},
		{base + "/7/cgi-bin/search", linkcheck.OK, "without a query"},
		{base + "/7/cgi-bin/search%09water", linkcheck.OK, "menu"},
		{base + "/0/missing.txt", linkcheck.Broken, "error reply: Error: File or directory not found!"},
		{base + "/1/nodir", linkcheck.Broken, "not a menu: Error: File or directory not found!"},
	})
}

func TestINN(t *testing.T) {
	s := testserver.INN(t)
	id := testserver.FreshMessageID("linkcheck")
	s.Post(t, testserver.INNArticle{MessageID: id, Subject: "linkcheck", Body: "here\n"})
	k := newChecker(t)
	k.Client.RegisterProtocol("news", access.News{Server: s.Addr})
	bare := strings.Trim(id, "<>")
	base := "nntp://" + s.Addr + "/" + s.Group
	checkAll(t, k, []verdict{
		{"news:" + bare, linkcheck.OK, "article exists"},
		{"news:gone." + bare, linkcheck.Broken, "430"},
		{"news:" + s.Group, linkcheck.OK, "group"},
		{"news:no.such.group", linkcheck.Broken, "411"},
		{"news:*", linkcheck.OK, "answers"},
		{base, linkcheck.OK, "group"},
		{base + "/1", linkcheck.OK, "article 1 exists"},
		{base + "/999999", linkcheck.Broken, "423"},
		{"nntp://" + s.Addr + "/no.such.group/1", linkcheck.Broken, "411"},
	})
	k.Client.RegisterProtocol("news", access.News{})
	checkAll(t, k, []verdict{{"news:" + s.Group, linkcheck.Skipped, "no news server"}})
}

func TestYazZtest(t *testing.T) {
	d := testserver.YazZtest(t)
	k := newChecker(t)
	checkAll(t, k, []verdict{
		{"wais://" + d.Addr + "/Default?computer", linkcheck.OK, "hits"},
		{"wais://" + d.Addr + "/Default", linkcheck.OK, "answers a search"},
	})
}

func TestTelnetd(t *testing.T) {
	d := testserver.Telnetd(t, "echo hello\n")
	k := newChecker(t)
	checkAll(t, k, []verdict{
		{"telnet://" + d.Addr + "/", linkcheck.OK, "connection accepted"},
		{"telnet://someone@" + d.Addr + "/", linkcheck.OK, "no login tried"},
	})
}

// A stalled gopher server is broken after the timeout, not a hang.
func TestGopherStall(t *testing.T) {
	f := testserver.NewGopherFake(t, testserver.GopherReply{Hold: true})
	k := newChecker(t)
	k.Timeout = 200 * time.Millisecond
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, detail := k.Check(ctx, "gopher://"+f.Addr+"/0/x")
	if st != linkcheck.Broken || !strings.Contains(detail, "timeout") {
		t.Errorf("stalled gopher: %s %q", st, detail)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
}

// RFC 1436: a type-3 error item, or an empty menu, is broken; an empty
// document is an empty file, sent whole: ok.
func TestGopherFaults(t *testing.T) {
	k := newChecker(t)
	for _, tt := range []struct {
		reply, sel string
		want       linkcheck.Status
		detail     string
	}{
		{"3Not here\t\terror.host\t1\r\n.\r\n", "/1/menu", linkcheck.Broken, "Not here"},
		{"3Not here\t\terror.host\t1\r\n.\r\n", "/0/doc.txt", linkcheck.Broken, "Not here"},
		{"", "/1/menu", linkcheck.Broken, "empty reply"},
		{"", "/0/doc.txt", linkcheck.OK, "empty text type 0"},
		{"", "/9/blob.bin", linkcheck.OK, "empty item type 9"},
	} {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: []byte(tt.reply)})
		st, detail := k.Check(testCtx(t), "gopher://"+f.Addr+tt.sel)
		if st != tt.want || !strings.Contains(detail, tt.detail) {
			t.Errorf("%q for %s: %s %q, want %s with %q", tt.reply, tt.sel, st, detail, tt.want, tt.detail)
		}
	}
}

// An empty file on gophernicus and pygopherd is ok.
func TestGopherEmptyDocument(t *testing.T) {
	k := newChecker(t)
	for name, start := range map[string]func(testing.TB) *testserver.GopherServer{
		"gophernicus": testserver.Gophernicus, "pygopherd": testserver.Pygopherd,
	} {
		g := start(t)
		st, detail := k.Check(testCtx(t), fmt.Sprintf("gopher://%s:%d/0/empty.txt", g.Host, g.Port))
		if st != linkcheck.OK {
			t.Errorf("%s: empty.txt %s %q, want ok", name, st, detail)
		}
	}
}

// --recursive on ftp: the items of a directory's listing are checked.
func TestVSFTPDRecursive(t *testing.T) {
	addr, _ := testserver.VSFTPD(t)
	run := &linkcheck.Run{Checker: newChecker(t), Depth: 1}
	run.Add("ftp://"+addr+"/pub/nested/", linkcheck.Place{})
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range run.Results() {
		got = append(got, strings.TrimPrefix(r.URL, "ftp://"+addr)+" "+r.Status.String())
	}
	want := "/pub/nested/ ok, /pub/nested/deeper ok, /pub/nested/inner.txt ok"
	if strings.Join(got, ", ") != want {
		t.Errorf("checked %q, want %q", strings.Join(got, ", "), want)
	}
}

// --recursive on gopher: the items of a menu are checked (an item on
// another host would be checked too, and not followed).
func TestGophernicusRecursive(t *testing.T) {
	g := testserver.Gophernicus(t)
	base := fmt.Sprintf("gopher://%s:%d", g.Host, g.Port)
	run := &linkcheck.Run{Checker: newChecker(t), Depth: 1}
	run.Add(base+"/1/docs", linkcheck.Place{})
	if err := run.Check(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	rs := run.Results()
	if len(rs) < 3 {
		t.Fatalf("%d URLs checked: %+v", len(rs), rs)
	}
	for _, r := range rs {
		if !strings.HasPrefix(r.URL, base+"/") || r.Status != linkcheck.OK {
			t.Errorf("%s: %s %s", r.URL, r.Status, r.Detail)
		}
	}
}
