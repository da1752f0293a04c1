package linkcheck

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestRunHTTPSDowngradeWarning: a link whose https page redirects to http
// is checked (followed, as get follows it) and the downgrade is that
// URL's warning in the report, once however often it was met (HEAD, then
// the GET of a retry), not a line of the Client's Warn that names no link.
// Another link of the same run, which stays on https, has none.
func TestRunHTTPSDowngradeWarning(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("clear"))
	}))
	defer plain.Close()
	ca := testserver.NewCA(t)
	srv := testserver.HTTPS(t, ca, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/down" {
			http.Redirect(w, r, plain.URL+"/x", http.StatusFound)
			return
		}
		w.Write([]byte("kept"))
	}))
	k := loopbackChecker(t)
	k.Client.TLS.Roots = ca.Pool()
	var mu sync.Mutex
	var global []string
	k.Client.Warn = func(msg string) {
		mu.Lock()
		global = append(global, msg)
		mu.Unlock()
	}
	r := &Run{Checker: k}
	r.Add(srv.URL+"/down", Place{})
	r.Add(srv.URL+"/stay", Place{})
	if err := r.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	rs := r.Results()
	if len(rs) != 2 || rs[0].Status != OK || rs[1].Status != OK {
		t.Fatalf("results %+v", rs)
	}
	want := "redirect from https to http: " + plain.URL + "/x is fetched without TLS"
	if len(rs[0].Warnings) != 1 || !strings.HasPrefix(rs[0].Warnings[0], want) {
		t.Errorf("the downgraded link's warnings %q, want one starting %q", rs[0].Warnings, want)
	}
	if len(rs[1].Warnings) != 0 {
		t.Errorf("the link that stays on https has warnings %q", rs[1].Warnings)
	}
	if len(global) != 0 {
		t.Errorf("Client.Warn told %q; the warning belongs to its link", global)
	}
}
