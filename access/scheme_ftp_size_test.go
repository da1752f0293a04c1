package access

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// sizeFake is an ftp fake like pyftpdlib: FEAT lists SIZE (unless noFeat),
// SIZE answers size, and the 150 reply of RETR has no byte count; the
// data sent is data.
func sizeFake(t *testing.T, noFeat bool, size, data string) *testserver.FTPFake {
	return testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: ftpTestFiles,
		Handle: func(s *testserver.FTPSession, line string) bool {
			switch {
			case line == "FEAT" && !noFeat:
				s.Reply("211-Features supported:", " EPSV", " MDTM", " SIZE", "211 End FEAT.")
			case strings.HasPrefix(line, "SIZE "):
				s.Reply("213 " + size)
			case strings.HasPrefix(line, "RETR "):
				s.Send("150 File status okay. About to open data connection.", data)
			default:
				return false
			}
			return true
		}})
}

// TestFTPSize: before a TYPE I RETR the handler asks SIZE when FEAT lists
// it (RFC 3659 §4), gives the size to the Response for progress, and
// checks the length received against it.
func TestFTPSize(t *testing.T) {
	get := func(fake *testserver.FTPFake, path string) (*Response, string, error) {
		t.Helper()
		c, _ := ftpTestClient()
		resp, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://"+fake.Addr+path))
		if err != nil {
			return nil, "", err
		}
		b, err := io.ReadAll(resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
		return resp, string(b), err
	}
	t.Run("complete", func(t *testing.T) {
		fake := sizeFake(t, false, "4", "top\n")
		resp, body, err := get(fake, "/readme")
		if err != nil || body != "top\n" || resp.Size != 4 {
			t.Fatalf("%q size %v, %v", body, resp, err)
		}
		want := []string{"USER anonymous", "PASS " + ftpTestEmail, "TYPE I", "FEAT", "SIZE readme", "EPSV", "RETR readme", "QUIT"}
		if got := fake.Commands(); !slices.Equal(got, want) {
			t.Errorf("sent %q, want %q", got, want)
		}
	})
	t.Run("short", func(t *testing.T) {
		// The server says 226 after 4 of the 100 bytes SIZE announced.
		fake := sizeFake(t, false, "100", "top\n")
		_, body, err := get(fake, "/readme")
		if !errors.Is(err, ftp.ErrShortTransfer) || !strings.Contains(err.Error(), "4 bytes received, though SIZE said 100") {
			t.Errorf("%q, %v; want ErrShortTransfer", body, err)
		}
	})
	t.Run("short, copied with WriteTo", func(t *testing.T) {
		fake := sizeFake(t, false, "100", "top\n")
		c, _ := ftpTestClient()
		resp, err := c.Get(ftpTestCtx(t), mustParse(t, "ftp://"+fake.Addr+"/readme"))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var sb strings.Builder
		if _, err := io.Copy(&sb, resp.Body); !errors.Is(err, ftp.ErrShortTransfer) {
			t.Errorf("io.Copy: %v; want ErrShortTransfer", err)
		}
	})
	t.Run("no FEAT", func(t *testing.T) {
		fake := sizeFake(t, true, "4", "top\n")
		resp, body, err := get(fake, "/readme")
		if err != nil || body != "top\n" || resp.Size != -1 || slices.Contains(fake.Commands(), "SIZE readme") {
			t.Errorf("%q size %d, %v; sent %q", body, resp.Size, err, fake.Commands())
		}
	})
	t.Run("TYPE A asks nothing", func(t *testing.T) {
		fake := sizeFake(t, false, "4", "top\r\n")
		resp, body, err := get(fake, "/readme;type=a")
		if err != nil || body != "top\n" || resp.Size != -1 || slices.Contains(fake.Commands(), "FEAT") {
			t.Errorf("%q size %d, %v; sent %q", body, resp.Size, err, fake.Commands())
		}
	})
}

// TestFTPLength: under TYPE I the bytes received plus the offset must be
// the size SIZE announced. More is an error (ErrLongTransfer), and not
// one byte beyond the size reaches the caller; an offset past the size
// (the file shrank) is ErrNoResume before any RETR, so the caller fetches
// the file whole.
func TestFTPLength(t *testing.T) {
	do := func(fake *testserver.FTPFake, offset int64) (string, error) {
		t.Helper()
		c, _ := ftpTestClient()
		resp, err := c.Do(ftpTestCtx(t), Request{URL: mustParse(t, "ftp://"+fake.Addr+"/readme"), Offset: offset})
		if err != nil {
			return "", err
		}
		b, err := io.ReadAll(resp.Body)
		if cerr := resp.Body.Close(); err == nil {
			err = cerr
		}
		return string(b), err
	}
	// A plain transfer longer than SIZE.
	body, err := do(sizeFake(t, false, "4", "top\nand more"), 0)
	if !errors.Is(err, ErrLongTransfer) || body != "top\n" {
		t.Errorf("long: %q, %v; want the 4 bytes SIZE announced and ErrLongTransfer", body, err)
	}
	// REST 2 accepted, then the whole file sent: 4 bytes where 2 were due.
	body, err = do(sizeFake(t, false, "4", "top\n"), 2)
	if !errors.Is(err, ErrLongTransfer) || !strings.Contains(err.Error(), "after REST 2") || len(body) > 2 {
		t.Errorf("resume ignored: %q, %v; want at most 2 bytes and ErrLongTransfer", body, err)
	}
	// The file shrank below the offset: nothing is retrieved.
	fake := sizeFake(t, false, "4", "top\n")
	if _, err := do(fake, 10); !errors.Is(err, ErrNoResume) || !errors.Is(err, ftp.ErrOffsetBeyondEnd) {
		t.Errorf("offset past the end: %v; want ErrNoResume", err)
	}
	if slices.Contains(fake.Commands(), "RETR readme") {
		t.Errorf("RETR sent for an offset past the end: %q", fake.Commands())
	}
}
