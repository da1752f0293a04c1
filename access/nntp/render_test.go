package nntp

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestNewsURL: RFC 1738 §3.6 (no brackets) and the §5 article production.
func TestNewsURL(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"<first.1@inn-ci.internal>", "news:first.1@inn-ci.internal"},         // §3.6: brackets dropped
		{"first.1@inn-ci.internal", "news:first.1@inn-ci.internal"},           // already bare
		{"<$-_.+!*'(),;/?:&=@h.example>", "news:$-_.+!*'(),;/?:&=@h.example"}, // uchar and ";/?:&=" stay
		{"<a b%c@host>", "news:a%20b%25c@host"},                               // space and "%" escaped
		{"<x@y@z.example>", "news:x%40y@z.example"},                           // only the last "@" separates
		{"<~{}#\"@h>", "news:%7E%7B%7D%23%22@h"},                              // national, punctuation
		{"<part@host_name:119>", "news:part@host%5Fname%3A119"},               // host keeps alnum "-" "."
		{"<no-at-sign>", "news:no-at-sign"},                                   // not an article: escaped anyway
		{"<caf\xc3\xa9@h>", "news:caf%C3%A9@h"},                               // 8-bit
	} {
		if got := NewsURL(tc.id); got != tc.want {
			t.Errorf("NewsURL(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestNNTPURL: RFC 1738 §3.7, the port omitted when it is 119.
func TestNNTPURL(t *testing.T) {
	for _, tc := range []struct {
		host  string
		port  int
		group string
		n     int64
		want  string
	}{
		{"news.example.com", 119, "comp.infosystems.www.misc", 42, "nntp://news.example.com/comp.infosystems.www.misc/42"},
		{"news.example.com", 0, "local.test", 1, "nntp://news.example.com/local.test/1"},
		{"127.0.0.1", 1190, "local.test", 2, "nntp://127.0.0.1:1190/local.test/2"},
		{"127.0.0.1", 1190, "local.test", 0, "nntp://127.0.0.1:1190/local.test"},
		{"::1", 1190, "alt.ü", 3, "nntp://[::1]:1190/alt.%C3%BC/3"},
	} {
		if got := NNTPURL(tc.host, tc.port, tc.group, tc.n); got != tc.want {
			t.Errorf("NNTPURL(%q, %d, %q, %d) = %q, want %q", tc.host, tc.port, tc.group, tc.n, got, tc.want)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestWriteGroupListing(t *testing.T) {
	lines := append([]OverviewLine(nil), wantOver...)
	lines = append(lines, OverviewLine{
		Group: "local.test", Number: 3,
		Subject:   "Evil \x1b[2Jsubject\r\n", // control characters must not reach the terminal
		From:      "C <c@example.com>",
		Date:      "Sun, 22 Nov 2026 10:00:00 +0000",
		MessageID: "<a b%c@x@host.example>",
	})
	var buf bytes.Buffer
	if err := WriteGroupListing(&buf, lines, "news.example.com", 119); err != nil {
		t.Fatal(err)
	}
	golden(t, "listing.golden", buf.Bytes())
	buf.Reset()
	if err := WriteGroupListing(&buf, lines[:1], "127.0.0.1", 1190); err != nil {
		t.Fatal(err)
	}
	golden(t, "listing-port.golden", buf.Bytes())
}

func TestWriteActiveListing(t *testing.T) {
	groups := []ActiveGroup{
		{Name: "control.cancel", High: 0, Low: 1, Status: "n"},
		{Name: "local.test", High: 2, Low: 1, Status: "y"},
		{Name: "comp.infosystems.www.misc", High: 10500, Low: 10001, Status: "m"},
		{Name: "alt.renamed", High: 7, Low: 3, Status: "=alt.new"},
	}
	var buf bytes.Buffer
	if err := WriteActiveListing(&buf, groups, "127.0.0.1", 1190); err != nil {
		t.Fatal(err)
	}
	golden(t, "active.golden", buf.Bytes())
}

// TestListingsEscape: a group name or a subject holding ESC, OSC, BEL,
// CSI, NUL or the C1 CSI 0x9B (as U+009B and as a byte) reaches a listing
// escaped.
func TestListingsEscape(t *testing.T) {
	const evil = "g\x1b[2J\x1b]0;x\a\x00\u009b31m\x9b"
	var buf bytes.Buffer
	WriteActiveListing(&buf, []ActiveGroup{{Name: evil, High: 2, Low: 1, Status: "y" + evil}}, "h", 119)
	WriteGroupListing(&buf, []OverviewLine{{Number: 1, Subject: evil, From: evil, Date: evil, MessageID: "<" + evil + ">"}}, "h", 119)
	for _, line := range strings.Split(buf.String(), "\n") {
		if safetext.Escape(line) != line {
			t.Errorf("raw control bytes in %q", line)
		}
	}
	if !strings.Contains(buf.String(), `g\x1b[2J\x1b]0;x\a\x00\u009b31m\x9b`) {
		t.Errorf("not shown escaped:\n%s", buf.String())
	}
}
