package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestMirrorGopherPlusExchange scripts the Gopher+ exchange: items whose
// menu line ends in "+" get an attribute request, "selector TAB TAB !"
// (RFC 1738 §3.4.6 "!"; the empty search field §3.4.3 asks for before a
// Gopher+ string, as get sends it), answered "+-1" (dot-terminated) or
// "+-2" (to the close) with +INFO, +ADMIN and +VIEWS blocks; the blocks
// are saved beside the item under GopherPlusSuffix and recorded in the
// manifest; the URL's own menu gets one too, as its items are marked
// Gopher+. A Gopher-0 item gets no such request.
func TestMirrorGopherPlusExchange(t *testing.T) {
	fake := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		host, port, _ := strings.Cut(addr, ":")
		line := func(typ, name, sel, plus string) string {
			return fmt.Sprintf("%s%s\t%s\t%s\t%s%s\r\n", typ, name, sel, host, port, plus)
		}
		switch string(req) {
		case "/menu\r\n":
			return testserver.GopherReply{Reply: []byte(line("0", "Hello", "/hello.txt", "\t+") + line("1", "Sub", "/sub", "\t+") + line("9", "Bin", "/bin", "") + ".\r\n")}
		case "/sub\r\n":
			return testserver.GopherReply{Reply: []byte(".\r\n")}
		case "/hello.txt\t\t!\r\n":
			return testserver.GopherReply{Reply: []byte("+-1\r\n+INFO: " + line("0", "Hello", "/hello.txt", "\t+") +
				"+ADMIN:\r\n Admin: Nobody <nobody@example.invalid>\r\n Mod-Date: Tue Nov 24 03:55:21 2026 <20261124035521>\r\n" +
				"+VIEWS:\r\n text/plain: <1k>\r\n.\r\n")}
		case "/menu\t\t!\r\n":
			return testserver.GopherReply{Reply: []byte("+-1\r\n+INFO: " + line("1", "Menu", "/menu", "\t+") + ".\r\n")}
		case "/sub\t\t!\r\n":
			return testserver.GopherReply{Reply: []byte("+-2\r\n+INFO: " + line("1", "Sub", "/sub", "\t+") + "+VIEWS:\r\n application/gopher+-menu:\r\n")}
		case "/hello.txt\r\n":
			return testserver.GopherReply{Reply: []byte("hello\r\n.\r\n")}
		}
		return testserver.GopherReply{Reply: []byte("binary")}
	})
	host, port, _ := strings.Cut(fake.Addr, ":")
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), "gopher://"+fake.Addr+"/1/menu", dir, Options{Log: &log})
	if err != nil || st.Failed != 0 {
		t.Fatalf("Mirror = %+v, %v\n%s", st, err, log.String())
	}
	var reqs []string
	for _, r := range fake.Requests() {
		reqs = append(reqs, string(r))
	}
	for _, want := range []string{"/hello.txt\t\t!\r\n", "/sub\t\t!\r\n", "/menu\t\t!\r\n"} {
		if !slices.Contains(reqs, want) {
			t.Errorf("no request %q among %q", want, reqs)
		}
	}
	if slices.Contains(reqs, "/bin\t\t!\r\n") {
		t.Errorf("attributes asked of an item not marked Gopher+: %q", reqs)
	}
	want := map[string]string{
		"hello.txt" + GopherPlusSuffix: "+INFO: 0Hello\t/hello.txt\t" + host + "\t" + port + "\t+\r\n" +
			"+ADMIN:\r\n Admin: Nobody <nobody@example.invalid>\r\n Mod-Date: Tue Nov 24 03:55:21 2026 <20261124035521>\r\n" +
			"+VIEWS:\r\n text/plain: <1k>\r\n",
		"sub/" + GopherMenuName + GopherPlusSuffix: "+INFO: 1Sub\t/sub\t" + host + "\t" + port + "\t+\r\n+VIEWS:\r\n application/gopher+-menu:\r\n",
		// The URL's own menu: its items say the server is a Gopher+ one.
		"menu/" + GopherMenuName + GopherPlusSuffix: "+INFO: 1Menu\t/menu\t" + host + "\t" + port + "\t+\r\n",
	}
	recs := readManifest(t, dir)
	for rel, body := range want {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if string(b) != body {
			t.Errorf("%s = %q, %v; want %q", rel, b, err, body)
		}
		sum := sha256.Sum256(b)
		if r := recs[rel]; r.Kind != KindGopherPlus || r.SHA256 != hex.EncodeToString(sum[:]) || !strings.HasSuffix(r.URL, "%09%09!") {
			t.Errorf("record of %s: %+v", rel, r)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bin"+GopherPlusSuffix)); !os.IsNotExist(err) {
		t.Errorf("attributes of a Gopher-0 item: %v", err)
	}
	if r := recs["hello.txt"]; r.Kind != "" || r.URL != "gopher://"+fake.Addr+"/0/hello.txt" {
		t.Errorf("record of the item itself: %+v", r)
	}
}

// TestMirrorPygopherd mirrors the Gopher+ reference server: every item
// is marked Gopher+, and each one's attributes (the abstract from
// hello.txt.abstract, the +ASK form of form.txt) lie beside it.
func TestMirrorPygopherd(t *testing.T) {
	g := testserver.Pygopherd(t)
	dir := t.TempDir()
	var log bytes.Buffer
	st, err := Mirror(context.Background(), fmt.Sprintf("gopher://%s:%d/1/", g.Host, g.Port), dir, Options{Log: &log})
	if err != nil || st.Failed != 0 {
		t.Fatalf("Mirror = %+v, %v\n%s", st, err, log.String())
	}
	for rel, want := range map[string][]string{
		"hello.txt":                                 {"Hello from gopher.\r\nSecond line.\r\n"},
		"hello.txt" + GopherPlusSuffix:              {"+INFO: 0", "\t/hello.txt\t", "+ADMIN:\r\n Admin: ", "+VIEWS:\r\n", "+ABSTRACT:\r\n An abstract line.\r\n"},
		"form.txt" + GopherPlusSuffix:               {"+ASK:\r\n Ask: Your name\tnobody\r\n Choose: Colour\tred\tgreen\r\n"},
		"docs/" + GopherMenuName + GopherPlusSuffix: {"+INFO: 1", "\t/docs\t"},
		"docs/blob.bin":                             {string(testserver.GopherBlob())},
		GopherMenuName + GopherPlusSuffix:           {"+INFO: 1\t/\t"},
	} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				t.Errorf("%s (%v) lacks %q:\n%q", rel, err, w, b)
			}
		}
	}
	n := 0
	for p, r := range readManifest(t, dir) {
		if r.Kind == KindGopherPlus {
			n++
			if !strings.HasSuffix(p, GopherPlusSuffix) {
				t.Errorf("attribute record %+v", r)
			}
		}
	}
	if n < 4 {
		t.Errorf("%d attribute files recorded\n%s", n, log.String())
	}
	if t.Failed() {
		t.Log(log.String())
	}

	// A second run asks the attributes of each document it has; only
	// hello.txt, whose Mod-Date changed, comes again.
	hello := filepath.Join(g.Root, "hello.txt")
	os.WriteFile(hello, []byte("Changed.\r\n"), 0o644)
	when := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(hello, when, when)
	log.Reset()
	st, err = Mirror(context.Background(), fmt.Sprintf("gopher://%s:%d/1/", g.Host, g.Port), dir, Options{Log: &log, Verbose: true})
	if err != nil || st.Failed != 0 || st.Planned != 1 {
		t.Fatalf("second run %+v, %v; want hello.txt alone planned\n%s", st, err, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt")); string(b) != "Changed.\r\n" {
		t.Errorf("hello.txt = %q after its change\n%s", b, log.String())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hello.txt"+GopherPlusSuffix)); !bytes.Contains(b, []byte("<202001")) {
		t.Errorf("attributes of hello.txt not renewed:\n%s", b)
	}
	if strings.Contains(log.String(), "/docs/blob.bin ->") || strings.Contains(log.String(), "/form.txt ->") {
		t.Errorf("an unchanged document fetched again:\n%s", log.String())
	}
}
