package mirror

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMirrorGopherLimits: a gopher menu gives no size, so --max-size and
// --max-total count a document's bytes as they arrive. An 8 MiB document
// under --max-size 1000, and a hole of 8 MiB under --max-total 1000, are
// stopped at the limit: nothing under their names, no manifest line, the
// error wraps ErrLimit; once the total is reached the other documents
// are skipped. (The gopher mirror used to ignore both limits.)
func TestMirrorGopherLimits(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<19)
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		switch string(req) {
		case "/menu\r\n":
			return testserver.GopherReply{Reply: gopherMenu(addr, "9 /small", "9 /big", "9 /after")}
		case "/big\r\n":
			return testserver.GopherReply{Reply: big}
		}
		return testserver.GopherReply{Reply: []byte("small item")}
	})
	url := "gopher://" + fake.Addr + "/1/menu"
	for _, tt := range []struct {
		name    string
		opt     Options
		want    []string // files saved, besides the menu
		msg     string
		skipped int
	}{
		{"max-size", Options{MaxSize: 1000}, []string{"after", "small"}, "more than --max-size 1000 bytes arrived", 0},
		{"max-total", Options{MaxTotal: 1000}, []string{"small"}, "--max-total 1000 bytes reached", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var log bytes.Buffer
			var errs []error
			tt.opt.Log, tt.opt.Parallel = &log, 1
			tt.opt.Failure = func(err error) { errs = append(errs, err) }
			st, err := Mirror(context.Background(), url, dir, tt.opt)
			if err != nil || st.Failed != 1 || st.Skipped != tt.skipped || st.Bytes > 1000 {
				t.Fatalf("Mirror = %+v, %v; want big failed, %d skipped\n%s", st, err, tt.skipped, log.String())
			}
			if len(errs) != 1 || !errors.Is(errs[0], ErrLimit) || !strings.Contains(log.String(), tt.msg) {
				t.Errorf("errors %v, want one wrapping ErrLimit; log lacks %q?\n%s", errs, tt.msg, log.String())
			}
			ents, _ := os.ReadDir(dir)
			var names []string
			for _, e := range ents {
				if e.Name() != "menu" && e.Name() != ManifestName { // the menu is menu/%gophermap
					names = append(names, e.Name())
				}
			}
			if strings.Join(names, " ") != strings.Join(tt.want, " ") {
				t.Errorf("the folder holds %q, want %q", names, tt.want)
			}
			recs := readManifest(t, dir)
			if _, ok := recs["big"]; ok || len(recs) != len(tt.want)+1 {
				t.Errorf("manifest %v", recs)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "small")); string(b) != "small item" {
				t.Errorf("small = %q, %v", b, err)
			}
		})
	}
}

// TestMirrorGopherMenuTooLarge: a menu of well-formed lines without end
// is refused at gopher.DefaultMaxMenuBytes with an error naming it, and
// nothing of it is saved.
func TestMirrorGopherMenuTooLarge(t *testing.T) {
	h := testserver.NewHostile(t, testserver.HostileConfig{Fault: testserver.FaultEndless,
		Line: "0document %d " + strings.Repeat("x", 500) + "\t/doc/%d\t127.0.0.1\t1"})
	dir := t.TempDir()
	var log bytes.Buffer
	var errs []error
	url := "gopher://" + h.Addr + "/1/big"
	st, err := Mirror(context.Background(), url, dir, Options{Log: &log, Failure: func(err error) { errs = append(errs, err) }})
	if err != nil || st.Failed != 1 || st.Fetched != 0 || len(errs) != 1 || !errors.Is(errs[0], gopher.ErrTooLarge) {
		t.Fatalf("Mirror = %+v, %v, %v; want the menu failed with gopher.ErrTooLarge\n%s", st, err, errs, log.String())
	}
	if want := "fetch " + url + ": "; !strings.Contains(log.String(), want) || !strings.Contains(log.String(), "more than 16777216 bytes") {
		t.Errorf("log lacks %q and the bound:\n%s", want, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "big")); err == nil {
		t.Errorf("something of the menu was saved")
	}
}

// TestMirrorGopherHoleTotal: an endless gopher hole, each menu linking
// to two new menus and a document. --max-total counts the menus as it
// counts documents: the run ends, and what it wrote stays within the
// limit (it saved 7.6 MB of a 100,000-byte limit and kept walking).
func TestMirrorGopherHoleTotal(t *testing.T) {
	doc := strings.Repeat("d", 1000)
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		sel := strings.TrimSpace(string(req))
		if strings.HasPrefix(sel, "/m") {
			return testserver.GopherReply{Reply: gopherMenu(addr, "1 "+sel+"/a", "1 "+sel+"/b", "0 "+sel+"/doc", "i "+strings.Repeat("x", 200))}
		}
		return testserver.GopherReply{Reply: []byte(doc)}
	})
	for _, parallel := range []int{1, 2} {
		t.Run(strconv.Itoa(parallel), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			dir := t.TempDir()
			var log bytes.Buffer
			const limit = 100_000
			st, err := Mirror(ctx, "gopher://"+fake.Addr+"/1/m", dir, Options{Log: &log, Parallel: parallel, MaxTotal: limit})
			if err != nil {
				t.Fatalf("Mirror = %+v, %v; want the walk ended by --max-total", st, err)
			}
			var written int64
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() && d.Name() != ManifestName {
					fi, _ := d.Info()
					written += fi.Size()
				}
				return nil
			})
			if written > limit || st.Bytes > limit {
				t.Errorf("%d bytes written (%d counted), more than --max-total %d", written, st.Bytes, limit)
			}
			if !strings.Contains(log.String(), "--max-total") {
				t.Errorf("log does not say why the walk ended:\n%.2000s", log.String())
			}
		})
	}
}

// TestMirrorFTPEndlessTotal: an ftp server whose every directory lists
// two new ones. --max-total counts the listings too, so the walk ends.
func TestMirrorFTPEndlessTotal(t *testing.T) {
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{
		Handle: func(s *testserver.FTPSession, line string) bool {
			verb, arg, _ := strings.Cut(line, " ")
			switch verb {
			case "CWD":
				s.SetDir(s.Dir() + "/" + arg)
				s.Reply("250 Directory successfully changed.")
			case "LIST":
				s.Send("150 Here comes the directory listing.",
					"drwxr-xr-x    2 0        0            4096 Jan 01  2024 a\r\n"+
						"drwxr-xr-x    2 0        0            4096 Jan 01  2024 b\r\n")
			default:
				return false
			}
			return true
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var log bytes.Buffer
	st, err := Mirror(ctx, "ftp://"+fake.Addr+"/top/", t.TempDir(), Options{Log: &log, Parallel: 2, MaxTotal: 200})
	if err != nil || st.Dirs > 200/4+1 {
		t.Fatalf("Mirror = %+v, %v; want the walk ended by --max-total\n%.2000s", st, err, log.String())
	}
}
