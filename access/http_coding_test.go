package access

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPBodyAsSent: without HTTP.Compressed nothing is asked and a gzip
// body stays gzip (RFC 9110 §8.4); with it, gzip is asked for and the
// body decoded, its size unknown.
func TestHTTPBodyAsSent(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(strings.Repeat("x", 5000)))
	zw.Close()
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.Header.Get("Accept-Encoding")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(z.Bytes())
	}))
	defer srv.Close()
	c := NewClient()
	for _, compressed := range []bool{false, true} {
		setHTTP(c, func(h *HTTP) { h.Compressed = compressed })
		resp, err := c.Get(ftpTestCtx(t), mustParse(t, srv.URL+"/f.tar.gz"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case err != nil:
			t.Errorf("compressed %v: %v", compressed, err)
		case !compressed && (asked != "" || !bytes.Equal(b, z.Bytes()) || resp.Size != int64(z.Len())):
			t.Errorf("as sent: asked %q, %d bytes, size %d", asked, len(b), resp.Size)
		case compressed && (asked != "gzip" || len(b) != 5000 || resp.Size != -1):
			t.Errorf("--compressed: asked %q, %d bytes, size %d", asked, len(b), resp.Size)
		}
	}
}

// TestHTTPRangeBounded: a 206 whose body runs past its Content-Range is
// read to the range's end and no further (RFC 9110 §14.4); one that
// ends before it is cut short.
func TestHTTPRangeBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/short" {
			w.Header().Set("Content-Range", "bytes 10-29/30")
			w.WriteHeader(http.StatusPartialContent)
			w.Write([]byte("0123456789"))
			return
		}
		w.Header().Set("Content-Range", "bytes 10-19/20")
		w.WriteHeader(http.StatusPartialContent)
		w.Write([]byte(strings.Repeat("y", 1000)))
	}))
	defer srv.Close()
	c := NewClient()
	resp, err := c.Do(ftpTestCtx(t), Request{URL: mustParse(t, srv.URL+"/long"), Offset: 10})
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(b) != "yyyyyyyyyy" || resp.Offset != 10 || resp.Size != 10 {
		t.Errorf("a long 206: %q %v, offset %d size %d", b, err, resp.Offset, resp.Size)
	}
	resp, err = c.Do(ftpTestCtx(t), Request{URL: mustParse(t, srv.URL+"/short"), Offset: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a short 206: %v, want unexpected EOF", err)
	}
}

func TestNoProxyMatch(t *testing.T) {
	for _, tc := range []struct {
		list, host string
		want       bool
	}{
		{"*", "a.example", true},
		{"example.org", "www.example.org", true},
		{".example.org", "example.org", true},
		{"example.org", "badexample.org", false},
		{"a.example, 127.0.0.1:8080", "127.0.0.1", true},
		{"[::1]", "::1", true},
		{"", "a.example", false},
	} {
		if got := noProxyMatch(tc.list, tc.host); got != tc.want {
			t.Errorf("noProxyMatch(%q, %q) = %v", tc.list, tc.host, got)
		}
	}
}
