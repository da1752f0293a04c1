package main

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetParallelConnections: get --parallel 4 of 40 URLs of one https
// host (HTTP/1.1) opens at most 4 connections, each one reused for the
// next URL; every file is complete and no .part is left; with --no-fsync
// as well. Before, net/http kept 2 connections idle and dialled anew
// beyond them: a TCP and TLS handshake for most URLs.
func TestGetParallelConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	ca := testserver.NewCA(t)
	var conns atomic.Int64
	body := func(path string) string { return strings.Repeat(path+"\n", 300) }
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Millisecond) // transfers overlap
		fmt.Fprint(w, body(r.URL.Path))
	}))
	cert, _, _ := ca.Issue(t, time.Time{}, "127.0.0.1")
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	caFile := ca.WriteFile(t, t.TempDir())

	var list strings.Builder
	for i := range 40 {
		fmt.Fprintf(&list, "%s/f%02d.txt\n", srv.URL, i)
	}
	for _, extra := range [][]string{nil, {"--no-fsync"}} {
		conns.Store(0)
		dir := t.TempDir()
		args := append([]string{"get", "-q", "--cacert", caFile, "--parallel", "4", "--output-dir", dir, "-i", "-"}, extra...)
		_, errOut, status := runBinary(t, list.String(), args...)
		if status != 0 {
			t.Fatalf("%v: status %d, stderr %q", extra, status, errOut)
		}
		if n := conns.Load(); n > 4 {
			t.Errorf("%v: the server accepted %d connections for 40 URLs, want at most 4", extra, n)
		}
		names := dirNames(t, dir)
		if len(names) != 40 {
			t.Errorf("%v: %d files, want 40: %q", extra, len(names), names)
		}
		for _, name := range names {
			if strings.HasSuffix(name, ".part") {
				t.Errorf("%v: %s left behind", extra, name)
				continue
			}
			if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != body("/"+name) {
				t.Errorf("%v: %s holds %d bytes, want %d", extra, name, len(got), len(body("/"+name)))
			}
		}
	}

	// --help says what is synced, and how not to.
	out, _, _ := runBinary(t, "", "get", "--help")
	if !strings.Contains(out, "-no-fsync") || !strings.Contains(out, "synced before its .part is renamed") || !strings.Contains(out, "one syncfs per file system") {
		t.Errorf("get --help does not tell how files are synced, and --no-fsync:\n%s", out)
	}
}
