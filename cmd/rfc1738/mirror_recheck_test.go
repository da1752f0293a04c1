package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMirrorRecheckDaemons: gophernicus, a plain gopher server, gives no
// size or time in a menu. A document rewritten with the same length is
// reported not rechecked, and kept; --recheck fetches it again and
// replaces it; a second --recheck finds it verified unchanged. pygopherd
// marks its items Gopher+: their attributes recheck them, and the change
// is seen without --recheck.
func TestMirrorRecheckDaemons(t *testing.T) {
	for _, tt := range []struct {
		name  string
		start func(testing.TB) *testserver.GopherServer
		plain bool
	}{
		{"gophernicus", testserver.Gophernicus, true},
		{"pygopherd", testserver.Pygopherd, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.start(t)
			url := fmt.Sprintf("gopher://%s:%d/1/docs/", srv.Host, srv.Port)
			dir := t.TempDir()
			if _, stderr, status := runCLI(t, "", "mirror", url, dir); status != 0 {
				t.Fatalf("first run: status %d\n%s", status, stderr)
			}
			doc := filepath.Join(srv.Root, "docs", "readme.txt")
			if err := os.WriteFile(doc, []byte("a DOCUMENT\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// A time another than the first run's, to the second
			// (pygopherd's Mod-Date has no finer unit).
			later := time.Now().Add(time.Hour)
			os.Chtimes(doc, later, later)
			local := filepath.Join(dir, "docs", "readme.txt")
			_, stderr, status := runCLI(t, "", "mirror", url, dir)
			said := strings.Contains(stderr, " not rechecked: a plain gopher server gives no size or time")
			b, _ := os.ReadFile(local)
			if !tt.plain {
				if status != 0 || said || !strings.Contains(string(b), "a DOCUMENT") {
					t.Errorf("second run: status %d, readme.txt = %q; want the Gopher+ attributes to see the change\n%s", status, b, stderr)
				}
				return
			}
			if status != 0 || !said || !strings.Contains(string(b), "a document") {
				t.Errorf("second run: status %d, readme.txt = %q; want the old copy kept, said not rechecked\n%s", status, b, stderr)
			}
			_, stderr, status = runCLI(t, "", "mirror", "--recheck", url, dir)
			if b, _ := os.ReadFile(local); status != 0 || !strings.Contains(string(b), "a DOCUMENT") || strings.Contains(stderr, "not rechecked") {
				t.Errorf("--recheck: status %d, readme.txt = %q; want the new text\n%s", status, b, stderr)
			}
			// Again: every document verified unchanged, none replaced.
			out, stderr, status := runCLI(t, "", "mirror", "--recheck", url, dir)
			if status != 0 || strings.Contains(stderr, "not rechecked") || strings.Contains(out, "changed gopher://") {
				t.Errorf("second --recheck: status %d; want every document verified unchanged\n%s%s", status, out, stderr)
			}
		})
	}
}
