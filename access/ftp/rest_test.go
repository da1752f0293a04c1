package ftp_test

import (
	"errors"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestRetrFrom resumes a binary retrieval with REST (RFC 3659 §5): the
// body is the rest of the file, its size is what is left, and a server
// that refuses REST leaves the connection usable.
func TestRetrFrom(t *testing.T) {
	f := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree})
	c, tr := dialFake(t, f, ftp.Config{})
	ctx := testCtx(t, 10*time.Second)
	whole := fakeTree["/etc/motd"]
	if _, _, err := c.RetrFrom(ctx, "/etc/motd", 3); err == nil {
		t.Fatal("RetrFrom before TYPE I succeeded; RFC 3659 §5.3 defines the offset for TYPE I only")
	}
	if _, err := c.Type(ctx, "I"); err != nil {
		t.Fatal(err)
	}
	body, size, err := c.RetrFrom(ctx, "/etc/motd", 3)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(body)
	if err != nil || string(data) != whole[3:] || size != int64(len(whole)-3) {
		t.Errorf("RetrFrom(3) = %q (size %d), %v; want %q (size %d)", data, size, err, whole[3:], len(whole)-3)
	}
	body.Close()
	if !strings.Contains(tr.String(), "> REST 3\n< 350 Restart position accepted (3).\n> EPSV") || !strings.Contains(tr.String(), "> RETR /etc/motd") {
		t.Errorf("conversation:\n%s", tr)
	}

	refusing := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: fakeTree,
		Handle: func(s *testserver.FTPSession, line string) bool {
			if len(line) > 4 && line[:4] == "REST" {
				s.Reply("502 REST not implemented.")
				return true
			}
			return false
		}})
	c2, _ := dialFake(t, refusing, ftp.Config{})
	c2.Type(ctx, "I")
	_, _, err = c2.RetrFrom(ctx, "/etc/motd", 3)
	var te *textproto.Error
	if !errors.As(err, &te) || te.Code != 502 {
		t.Fatalf("RetrFrom on a server without REST: %v, want its 502", err)
	}
	if body, _, err := c2.Retr(ctx, "/etc/motd"); err != nil {
		t.Fatalf("Retr after a refused REST: %v", err)
	} else {
		io.Copy(io.Discard, body)
		body.Close()
	}
}

// TestVSFTPDRetrFrom resumes against vsftpd, which announces the whole
// size in its 150 reply.
func TestVSFTPDRetrFrom(t *testing.T) {
	addr, root := testserver.VSFTPD(t)
	want, err := os.ReadFile(filepath.Join(root, "pub", "binary.bin"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, 15*time.Second)
	tr := &tracer{}
	c, err := ftp.Dial(ctx, addr, ftp.Config{Trace: tr.trace})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Login(ctx, ftp.Credentials{Password: "tester@example.com"}); err != nil {
		t.Fatal(err)
	}
	c.Cwd(ctx, "pub")
	c.Type(ctx, "I")
	off := int64(len(want) / 3)
	body, size, err := c.RetrFrom(ctx, "binary.bin", off)
	if err != nil {
		t.Fatalf("%v\n%s", err, tr)
	}
	got, err := io.ReadAll(body)
	if err != nil || string(got) != string(want[off:]) || size != int64(len(want))-off {
		t.Errorf("RetrFrom(%d): %d bytes (size %d), %v; want %d\n%s", off, len(got), size, err, len(want)-int(off), tr)
	}
	body.Close()
}
