package access

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
)

// TestExpandGateway: {url} takes the URL without its fragment, encoded so
// that the gateway URL is valid RFC 1738 and decodes back to the URL.
func TestExpandGateway(t *testing.T) {
	tests := []struct{ tmpl, url, want string }{
		{"http://gw.example/fetch?url={url}", "prospero://host.dom//pros/name;a=b#frag",
			"http://gw.example/fetch?url=prospero%3A%2F%2Fhost.dom%2F%2Fpros%2Fname%3Ba%3Db"},
		{"http://gw.example/{url}/x", "x-foo:a+b%20c", "http://gw.example/x-foo%3Aa%2Bb%2520c/x"},
	}
	for _, tt := range tests {
		got := ExpandGateway(tt.tmpl, mustParse(t, tt.url))
		if got != tt.want {
			t.Errorf("ExpandGateway(%q, %q) = %q, want %q", tt.tmpl, tt.url, got, tt.want)
		}
		if _, err := rfc1738.Parse(got); err != nil {
			t.Errorf("%q is not a valid URL: %v", got, err)
		}
	}
}

func TestParseGateways(t *testing.T) {
	in := "# gateways (§4)\n\nprospero  http://gw.example/fetch?url={url}\nX-Foo\tftp://gw.example/pub/{url}\nprospero http://gw2.example/?u={url}\n"
	got, err := ParseGateways(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["prospero"] != "http://gw2.example/?u={url}" || got["x-foo"] != "ftp://gw.example/pub/{url}" {
		t.Errorf("ParseGateways = %q", got)
	}
	for in, want := range map[string]string{
		"prospero\n":                            "line 1: want \"scheme template\"",
		"# c\nprospero http://gw.example/x\n":   "line 2: gateway for prospero: the template \"http://gw.example/x\" has no {url}",
		"prospero gopher://gw.example/1{url}\n": "a gopher URL; a gateway is reached by http or ftp",
		"9p http://gw.example/?{url}\n":         "not a scheme name",
		"prospero http://gw example/{url}\n":    "does not make a URL",
	} {
		if _, err := ParseGateways(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseGateways(%q) = %v, want %q", in, err, want)
		}
	}
	for name, want := range map[string]string{"RFC1738_GATEWAY_PROSPERO": "prospero", "RFC1738_GATEWAY_X_FOO": "x-foo", "RFC1738_GATEWAY_": "", "HOME": ""} {
		if got, ok := GatewayEnvScheme(name); got != want || ok != (want != "") {
			t.Errorf("GatewayEnvScheme(%q) = %q, %v", name, got, ok)
		}
	}
}

// TestProsperoWithoutGateway: a clear refusal that says why, with the
// URL's parts, wrapping ErrUnsupported.
func TestProsperoWithoutGateway(t *testing.T) {
	c := NewClient()
	_, err := c.Plan(mustParse(t, "prospero://host.dom//pros/name;a=b"))
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Plan = %v, want ErrUnsupported", err)
	}
	for _, want := range []string{"no Prospero server or client is known to exist", "gateway locator (§4)",
		`host "host.dom", port 1525, hsoname "/pros/name", field "a"="b"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if _, err := c.Get(context.Background(), mustParse(t, "prospero://host.dom/x")); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Get = %v", err)
	}
	// Another scheme without a handler and without a gateway.
	if _, err := c.Plan(mustParse(t, "x-foo:bar")); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no gateway locator") {
		t.Errorf("x-foo = %v", err)
	}
}

// TestGatewayHTTP: prospero and a scheme without a handler fetched through
// an httptest gateway; the request the gateway gets is the plan's.
func TestGatewayHTTP(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.RequestURI)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "gateway fetched "+r.URL.Query().Get("url"))
	}))
	defer srv.Close()

	c := NewClient()
	c.Gateways = map[string]string{
		"prospero": srv.URL + "/fetch?url={url}",
		"x-foo":    srv.URL + "/x/{url}",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tt := range []struct{ url, uri, body string }{
		{"prospero://h/x;v=1#f", "/fetch?url=prospero%3A%2F%2Fh%2Fx%3Bv%3D1", "gateway fetched prospero://h/x;v=1"},
		{"x-foo:a%20b", "/x/x-foo%3Aa%2520b", ""},
	} {
		u := mustParse(t, tt.url)
		p, err := c.Plan(u)
		if err != nil {
			t.Fatal(err)
		}
		if p.Scheme != u.Scheme() || p.Connect != strings.TrimPrefix(srv.URL, "http://") ||
			p.Lines()[0] != "GET "+tt.uri+" HTTP/1.1" || !strings.Contains(p.Notes[0], "gateway locator (§4)") {
			t.Errorf("%s: plan %+v, lines %q", tt.url, p, p.Lines())
		}
		resp, err := c.Get(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		mu.Lock()
		last := got[len(got)-1]
		mu.Unlock()
		if last != "GET "+tt.uri {
			t.Errorf("%s: the gateway got %q, the plan says %q", tt.url, last, p.Lines()[0])
		}
		if tt.body != "" && string(b) != tt.body {
			t.Errorf("%s: body %q", tt.url, b)
		}
	}

	// A native handler wins over a gateway.
	c.Gateways["wais"] = srv.URL + "/w?{url}"
	if p, err := c.Plan(mustParse(t, "wais://h/db?x")); err != nil || p.Connect != "h:210" {
		t.Errorf("wais with a gateway configured: %v %+v", err, p)
	}
	// A password would reach the gateway: refused (§6).
	var g *GuardError
	if _, err := c.Plan(mustParse(t, "x-foo://u:pw@h/")); !errors.As(err, &g) || strings.Contains(err.Error(), "pw") {
		t.Errorf("password: %v", err)
	}
	// A template that does not make an http or ftp URL.
	c.Gateways["x-foo"] = "gopher://h/1{url}"
	if _, err := c.Plan(mustParse(t, "x-foo:bar")); err == nil || !strings.Contains(err.Error(), "http or ftp") {
		t.Errorf("gopher gateway: %v", err)
	}
}

// TestHandlerResolvesGateways: the registry answers for a scheme with a
// gateway locator (§4) as for any other: its own handler first, else the
// gateway handler, else none.
func TestHandlerResolvesGateways(t *testing.T) {
	c := NewClient()
	if h := c.Handler("x-foo"); h != nil {
		t.Errorf("x-foo without a gateway: %T", h)
	}
	c.Gateways = map[string]string{"x-foo": "http://gw.example/fetch?url={url}", "ftp": "http://gw.example/{url}"}
	if h, ok := c.Handler("X-Foo").(gatewayHandler); !ok {
		t.Errorf("x-foo with a gateway: %T", h)
	}
	if _, ok := c.Handler("ftp").(FTP); !ok {
		t.Errorf("ftp with a gateway: %T, want its own handler", c.Handler("ftp"))
	}
}
