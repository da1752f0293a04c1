package ftp_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// sizeFake answers SIZE and MDTM (RFC 3659) over fakeTree, which the
// scripted server does not know by itself.
func sizeFake(t *testing.T) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree, Handle: func(s *testserver.FTPSession, line string) bool {
		verb, arg, _ := strings.Cut(line, " ")
		if verb != "SIZE" && verb != "MDTM" {
			return false
		}
		p := arg
		if !strings.HasPrefix(p, "/") {
			p = strings.TrimSuffix(s.Dir(), "/") + "/" + arg
		}
		data, ok := fakeTree[p]
		switch {
		case !ok:
			s.Reply("550 Could not get file size.")
		case verb == "SIZE":
			s.Reply("213 " + itoa(len(data)))
		default:
			s.Reply("213 19940101120000")
		}
		return true
	}})
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		if n /= 10; n == 0 {
			return string(b)
		}
	}
}

func TestSizeMdtmPwd(t *testing.T) {
	f := sizeFake(t)
	c, tr := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 5*time.Second)
	if dir, _, err := c.Pwd(ctx); err != nil || dir != "/" {
		t.Fatalf("Pwd = %q, %v", dir, err)
	}
	if _, err := c.Cwd(ctx, "pub"); err != nil {
		t.Fatal(err)
	}
	if n, _, err := c.Size(ctx, "hello.txt"); err != nil || n != 7 {
		t.Errorf("Size(hello.txt) = %d, %v; want 7", n, err)
	}
	if m, _, err := c.Mdtm(ctx, "hello.txt"); err != nil || !m.Equal(time.Date(1994, 1, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("Mdtm(hello.txt) = %v, %v", m, err)
	}
	_, _, err := c.Size(ctx, "missing")
	if code := replyCode(err); code != 550 {
		t.Errorf("Size(missing) = %v, want a 550", err)
	}
	// A refusal leaves the connection in step.
	if n, _, err := c.Size(ctx, "a b;c.txt"); err != nil || n != 12 {
		t.Errorf("Size after a 550 = %d, %v\n%s", n, err, tr)
	}
}

// RFC 959 Appendix II: a quote inside the 257 name is doubled.
func TestPwdQuoted(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Handle: func(s *testserver.FTPSession, line string) bool {
		if line == "PWD" {
			s.Reply(`257 "/usr/dm/""x"" y" is current directory.`)
			return true
		}
		return false
	}})
	c, _ := dialFake(t, f, ftp.Config{})
	if dir, _, err := c.Pwd(testCtx(t, 5*time.Second)); err != nil || dir != `/usr/dm/"x" y` {
		t.Errorf("Pwd = %q, %v", dir, err)
	}
}

func TestPoolReuse(t *testing.T) {
	f := sizeFake(t)
	var p ftp.Pool
	defer p.Close()
	ctx := testCtx(t, 10*time.Second)
	a, err := p.Get(ctx, f.Addr, ftp.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Reused || a.Home != "/" {
		t.Errorf("first Get: Reused %v Home %q", a.Reused, a.Home)
	}
	if _, err := a.Cwd(ctx, "pub"); err != nil {
		t.Fatal(err)
	}
	p.Put(ctx, a)
	b, err := p.Get(ctx, f.Addr, ftp.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Reused || b.Conn != a.Conn {
		t.Errorf("second Get did not reuse the idle connection")
	}
	// Back in the login directory: a relative name resolves from "/".
	if n, _, err := b.Size(ctx, "pub/hello.txt"); err != nil || n != 7 {
		t.Errorf("Size after reuse = %d, %v", n, err)
	}
	// Another user is another login.
	other, err := p.Get(ctx, f.Addr, ftp.Credentials{User: "me", Password: "x", HasPassword: true})
	if err != nil {
		t.Fatal(err)
	}
	if other.Reused {
		t.Error("a different user got the anonymous connection")
	}
	p.Put(ctx, b)
	p.Put(ctx, other)
	want := []string{"USER anonymous", "PASS anonymous@", "PWD", "CWD pub", "CWD /", "SIZE pub/hello.txt", "USER me", "PASS x", "PWD"}
	if got := f.Commands(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A closed connection does not go back to the pool.
func TestPoolBroken(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{})
	var p ftp.Pool
	defer p.Close()
	ctx := testCtx(t, 10*time.Second)
	a, err := p.Get(ctx, f.Addr, ftp.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Cwd(ctx, "nowhere"); err == nil {
		t.Fatal("CWD nowhere succeeded")
	}
	if !a.Usable() {
		t.Fatal("a 550 made the connection unusable")
	}
	a.Conn.Close()
	p.Put(ctx, a)
	b, err := p.Get(ctx, f.Addr, ftp.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	if b.Reused {
		t.Error("a closed connection went back to the pool")
	}
}

// replyCode is the server's code in err, or 0.
func replyCode(err error) int {
	var ce *ftp.CommandError
	if errors.As(err, &ce) {
		return ce.Reply.Code
	}
	return 0
}
