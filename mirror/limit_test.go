package mirror

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// askReader serves n bytes and records how many each Read asked for.
type askReader struct {
	n    int
	asks []int
}

func (a *askReader) Read(p []byte) (int, error) {
	a.asks = append(a.asks, len(p))
	if a.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), a.n)
	a.n -= k
	return k, nil
}

// TestLimitedReads: a transfer is passed through untouched when no limit
// applies; under --max-size (the item's size) or --max-total (the run's
// bytes) a read asks for at most one byte past what is left, so an exact
// fit ends without error and the first byte too many stops the transfer
// with ErrLimit, one byte past the limit at most.
func TestLimitedReads(t *testing.T) {
	src := &askReader{n: 10}
	if r := (&run{}).limited(src, 0); r != io.Reader(src) {
		t.Errorf("no limit: the body is wrapped")
	}
	for _, c := range []struct {
		name         string
		size, total  int64
		arrived      int64
		body         int
		read         int
		err          bool
		firstAsk     int
		arrivedAfter int64
	}{
		{name: "size exact", size: 10, body: 10, read: 10, firstAsk: 11},
		{name: "size short", size: 10, body: 4, read: 4, firstAsk: 11},
		{name: "size over", size: 10, body: 50, read: 11, err: true, firstAsk: 11},
		{name: "total exact", total: 10, body: 10, read: 10, firstAsk: 11, arrivedAfter: 10},
		{name: "total over", total: 10, body: 50, read: 11, err: true, firstAsk: 11, arrivedAfter: 11},
		{name: "total partly used", total: 10, arrived: 6, body: 50, read: 5, err: true, firstAsk: 5, arrivedAfter: 11},
		{name: "total used up", total: 10, arrived: 10, body: 50, read: 1, err: true, firstAsk: 1, arrivedAfter: 11},
		{name: "total past", total: 10, arrived: 12, body: 50, read: 1, err: true, firstAsk: 1, arrivedAfter: 13},
		{name: "size under total", size: 4, total: 10, body: 50, read: 5, err: true, firstAsk: 5},
		{name: "total under size", size: 10, total: 3, body: 50, read: 4, err: true, firstAsk: 4, arrivedAfter: 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &run{opt: Options{MaxSize: c.size, MaxTotal: c.total}}
			r.arrived.Store(c.arrived)
			src := &askReader{n: c.body}
			got, err := io.ReadAll(io.LimitReader(r.limited(src, c.size), 1<<20))
			if len(got) != c.read || (err != nil) != c.err || c.err && !errors.Is(err, ErrLimit) {
				t.Errorf("read %d bytes, %v; want %d, error %v", len(got), err, c.read, c.err)
			}
			if len(src.asks) == 0 || src.asks[0] != c.firstAsk {
				t.Errorf("reads asked for %v, want %d first", src.asks, c.firstAsk)
			}
			if r.arrived.Load() != c.arrivedAfter {
				t.Errorf("%d bytes counted arrived, want %d", r.arrived.Load(), c.arrivedAfter)
			}
			if c.err && c.size > 0 && c.size < c.total+c.arrived && !strings.Contains(err.Error(), "--max-size") ||
				c.err && c.size == 0 && !strings.Contains(err.Error(), "--max-total") {
				t.Errorf("error %q names the wrong limit", err)
			}
		})
	}
}
