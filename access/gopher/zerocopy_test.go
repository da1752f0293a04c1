package gopher_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/access/gopher"
	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/internal/zerocopy"
)

// TestZeroCopy copies bodies that run to the close (a binary item, and a
// Gopher+ "+-2" reply whose first bytes sit in the status reader's
// buffer) into an *os.File from the first byte on, so the connection is
// spliced into the file; a stall and a cancel interrupt that copy with
// the context's error, and a writer's own error comes back as it is.
func TestZeroCopy(t *testing.T) {
	zerocopy.FromStart(t, 4096)
	blob := bytes.Repeat(testserver.GopherBlob(), 64)
	copyToFile := func(t *testing.T, body io.Reader) ([]byte, error) {
		t.Helper()
		f, err := os.Create(filepath.Join(t.TempDir(), "out"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		_, err = io.Copy(f, body)
		got, _ := os.ReadFile(f.Name())
		return got, err
	}
	for _, tt := range []struct {
		name  string
		reply []byte
		req   gopher.Request
	}{
		{"binary", blob, gopher.Request{Type: '9', Selector: "/b"}},
		{"+-2", append([]byte("+-2\r\n"), blob...), gopher.Request{Type: '9', Selector: "/b", Plus: "+", HasPlus: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: tt.reply})
			resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, err := copyToFile(t, resp.Body)
			if err != nil || !bytes.Equal(got, blob) {
				t.Errorf("%d bytes, %v; want the %d bytes sent", len(got), err, len(blob))
			}
		})
	}
	t.Run("stall", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: blob[:10000], Hold: true})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		resp, err := (&gopher.Client{}).Fetch(ctx, f.Addr, gopher.Request{Type: '9', Selector: "/slow"})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		got, err := copyToFile(t, resp.Body)
		if !errors.Is(err, context.DeadlineExceeded) || !bytes.Equal(got, blob[:10000]) {
			t.Errorf("%d bytes, %v; want the 10000 sent, then DeadlineExceeded", len(got), err)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: blob[:10000], Hold: true})
		ctx, cancel := context.WithCancel(context.Background())
		resp, err := (&gopher.Client{}).Fetch(ctx, f.Addr, gopher.Request{Type: '9', Selector: "/slow"})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		time.AfterFunc(100*time.Millisecond, cancel)
		if _, err := copyToFile(t, resp.Body); !errors.Is(err, context.Canceled) {
			t.Errorf("copy: %v, want context.Canceled", err)
		}
	})
	t.Run("writer fails", func(t *testing.T) {
		f := testserver.NewGopherFake(t, testserver.GopherReply{Reply: blob})
		resp, err := (&gopher.Client{}).Fetch(ctxT(t), f.Addr, gopher.Request{Type: '9', Selector: "/b"})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		n, err := io.Copy(&testserver.FailAfter{N: 5000}, resp.Body)
		if n != 5000 || err != testserver.ErrDiskFull {
			t.Errorf("copy: %d bytes, %v; want 5000, %v itself", n, err, testserver.ErrDiskFull)
		}
	})
}
