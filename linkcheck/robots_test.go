package linkcheck

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// rfc9309Simple is the example of RFC 9309 §5.1, as the RFC gives it.
const rfc9309Simple = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

// rfc9309Longest is the example of RFC 9309 §5.2.
const rfc9309Longest = `User-Agent: foobot
Allow: /example/page/
Disallow: /example/page/disallowed.gif
`

var robotsTests = []struct {
	robots, agent, path string
	allowed             bool
}{
	// RFC 9309 §5.1: foobot may fetch only page.html and allowed.gif.
	{rfc9309Simple, "foobot", "/example/page.html", true},
	{rfc9309Simple, "foobot", "/example/allowed.gif", true},
	{rfc9309Simple, "foobot", "/example/other.html", false},
	{rfc9309Simple, "foobot", "/", false},
	{rfc9309Simple, "FooBot", "/publications/", false}, // §2.2.1: case-insensitive, and "*" no longer applies
	// barbot and bazbot share a group; everything but page.html is allowed.
	{rfc9309Simple, "barbot", "/example/page.html", false},
	{rfc9309Simple, "bazbot", "/example/page.html", false},
	{rfc9309Simple, "bazbot", "/example/other.gif", true},
	// quxbot's group has no rule: everything is allowed, "*" is not used.
	{rfc9309Simple, "quxbot", "/example/", true},
	{rfc9309Simple, "quxbot", "/a.gif", true},
	// Any other crawler obeys "*": "$" ends the match, "*" spans octets.
	{rfc9309Simple, "otherbot", "/images/a.gif", false},
	{rfc9309Simple, "otherbot", "/images/a.gif?x=1", true},
	{rfc9309Simple, "otherbot", "/example/", false},
	{rfc9309Simple, "otherbot", "/example/x/y", false},
	{rfc9309Simple, "otherbot", "/publications/", true},
	{rfc9309Simple, "otherbot", "/robots.txt", true},
	// RFC 9309 §5.2: the longest match wins.
	{rfc9309Longest, "foobot", "/example/page/", true},
	{rfc9309Longest, "foobot", "/example/page/disallowed.gif", false},
	// §2.2.2: between an allow and a disallow of the same length, allow.
	{"User-agent: *\nDisallow: /a\nAllow: /a\n", "x", "/a", true},
	{"User-agent: *\nDisallow: /a*\nAllow: /a\n", "x", "/ab", false},
	{"User-agent: *\nAllow: /a\nDisallow: /a\n", "x", "/a", true},
	{"User-agent: *\nAllow: /a\nDisallow: /ab\n", "x", "/ab", false},
	// §2.2.2: "/robots.txt" is always allowed.
	{"User-agent: *\nDisallow: /\n", "x", "/robots.txt", true},
	{"User-agent: *\nDisallow: /\n", "x", "/index.html", false},
	// An empty Disallow matches nothing; a rule before any group is
	// ignored (§2.2); a comment ends at the line's end.
	{"User-agent: *\nDisallow:\n", "x", "/a", true},
	{"Disallow: /\nUser-agent: *\nAllow: /\n", "x", "/a", true},
	{"User-agent: * # all\nDisallow: /p # private\n", "x", "/private", false},
	{"User-agent: * # all\nDisallow: /p # private\n", "x", "/q", true},
	// Two groups naming the agent are combined (§2.2.1).
	{"User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: a\nDisallow: /z\n", "a", "/z", false},
	{"User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: a\nDisallow: /z\n", "a", "/y", true},
	// A product token with a version is matched by its name.
	{"User-agent: rfc-linkcheck/1.0\nDisallow: /\n", "rfc-linkcheck", "/a", false},
	// The token of the User-Agent sent, digits and all: rfc1738.
	{"User-agent: rfc1738\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "rfc1738", "/a", false},
	{"User-agent: rfc\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "rfc1738", "/a", true},
	// An agent without a token is addressed by "*" only.
	{"User-agent: @bot\nAllow: /\n\nUser-agent: *\nDisallow: /\n", "", "/a", false},
	// CR line ends; the path's query is matched (§2.2.2).
	{"User-agent: *\rDisallow: /search?q=\r", "x", "/search?q=go", false},
	{"User-agent: *\rDisallow: /search?q=\r", "x", "/search", true},
	// §2.2.2: octets outside US-ASCII are compared percent-encoded;
	// escapes of unreserved characters as the characters (RFC 3986
	// §6.2.2.2); an escaped "/" is data, not a delimiter.
	{"User-agent: *\nDisallow: /foo/bar/ツ\n", "x", "/foo/bar/%E3%83%84", false},
	{"User-agent: *\nDisallow: /foo/bar/%e3%83%84\n", "x", "/foo/bar/%E3%83%84", false},
	{"User-agent: *\nDisallow: /foo/bar/%62%61%7A\n", "x", "/foo/bar/baz", false},
	{"User-agent: *\nDisallow: /~joe/\n", "x", "/%7Ejoe/index.html", false},
	{"User-agent: *\nDisallow: /a%2fb\n", "x", "/a/b", true},
}

// within runs f under a deadline: code that does not come to an end on
// some input (a loop that never ends) fails the test at once instead of
// hanging it.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return in 5 s", what)
	}
}

func TestRobots(t *testing.T) {
	for _, tt := range robotsTests {
		var got bool
		var rule string
		within(t, "parseRobots and allowed of "+strconv.Quote(tt.robots), func() {
			got, rule = parseRobots([]byte(tt.robots), tt.agent).allowed(tt.path)
		})
		if got != tt.allowed {
			t.Errorf("robots.txt %q, agent %s, path %s: allowed = %v (%s), want %v",
				strings.ReplaceAll(tt.robots, "\n", `\n`), tt.agent, tt.path, got, rule, tt.allowed)
		}
	}
}

// TestRobotsMatch: "*" and "$" (RFC 9309 §2.2.3).
func TestRobotsMatch(t *testing.T) {
	for _, tt := range []struct {
		pattern, path string
		match         bool
	}{
		{"/fish", "/fish", true},
		{"/fish", "/fish.html", true},
		{"/fish", "/Fish.asp", false},
		{"/fish*", "/fishheads/yummy.html", true},
		{"/*.php", "/index.php", true},
		{"/*.php", "/folder/any.php.file.html", true},
		{"/*.php$", "/folder/any.php.file.html", false},
		{"/*.php$", "/filename.php", true},
		{"/fish*.php", "/fishheads/catfish.php?parameters", true},
		{"/fish*.php", "/Fish.PHP", false},
		{"/a*b*c$", "/aXbYbZc", true},
		{"/a*b*c$", "/aXbYbZcd", false},
		{"/a$", "/a", true},
		{"/a$", "/ab", false},
		{"*", "/", true},
	} {
		var got bool
		within(t, "robotsMatch("+tt.pattern+", "+tt.path+")", func() { got = robotsMatch(tt.pattern, tt.path) })
		if got != tt.match {
			t.Errorf("robotsMatch(%q, %q) = %v, want %v", tt.pattern, tt.path, got, tt.match)
		}
	}
}

// TestRobotsSizeLimit: RFC 9309 §2.5: a robots.txt is read to
// MaxRobotsSize bytes; a line cut by the limit is not read, nor anything
// after it. One of exactly MaxRobotsSize bytes is read whole, its last
// line too.
func TestRobotsSizeLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	filler := func(n int) string { return "#" + strings.Repeat("x", n-2) + "\n" }
	// The limit falls inside "Disallow: /b...": kept, "/b" would match.
	cut := "Disallow: /b"
	over := head + filler(MaxRobotsSize-len(head)-len(cut)) + cut + "cdefgh\nDisallow: /z\n"
	// The last whole line before the cut is a rule: read to its end.
	rule := "Disallow: /c\n"
	overRule := head + filler(MaxRobotsSize-len(head)-len(rule)-len(cut)) + rule + cut + "cdefgh\n"
	// Exactly the limit, the last line without its line end.
	last := "Disallow: /z"
	exact := head + filler(MaxRobotsSize-len(head)-len(last)) + last
	if len(exact) != MaxRobotsSize || len(over) <= MaxRobotsSize || len(overRule) <= MaxRobotsSize {
		t.Fatalf("sizes %d, %d, %d", len(exact), len(over), len(overRule))
	}
	for _, tt := range []struct {
		name, body string
		allowed    map[string]bool
	}{
		{"over the limit", over, map[string]bool{"/a": false, "/bz": true, "/bcdefgh": true, "/z": true}},
		{"over the limit after a rule", overRule, map[string]bool{"/a": false, "/c": false, "/y": true, "/bcdefgh": true}},
		{"at the limit", exact, map[string]bool{"/a": false, "/z": false, "/y": true}},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, tt.body)
		}))
		c := access.NewClient()
		c.AllowAnyPort = true
		k := &Checker{Client: c, Timeout: 5 * time.Second}
		u, err := rfc1738.Parse(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		rules, err := k.fetchRobots(context.Background(), u)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for p, want := range tt.allowed {
			if got, rule := rules.allowed(p); got != want {
				t.Errorf("%s: %s allowed = %v (%s), want %v", tt.name, p, got, rule, want)
			}
		}
		k.Close()
		srv.Close()
	}
}

// TestRobotsNormalize: RFC 9309 §2.2.2 compares percent-normalized
// octets: controls, space, DEL and octets past US-ASCII escaped, hex
// digits upper case, unreserved characters (RFC 3986 §2.3) decoded, a
// '%' not followed by two hex digits kept as it is.
func TestRobotsNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"/a b\x7f\x1f~":          "/a%20b%7F%1F~",
		"/\x80\xff!":             "/%80%FF!",
		"/%7e%41%5A%61%7A%30%39": "/~AZaz09",
		"/%2d%2e%5f%2f%3f%40%60": "/-._%2F%3F%40%60",
		"/%5b%7b%2F":             "/%5B%7B%2F",
		"/%zz%4":                 "/%zz%4",
		"/%41":                   "/A",
		"%4":                     "%4",
		"/!$&'()*+,;=:@":         "/!$&'()*+,;=:@",
	} {
		if got := robotsNormalize(in); got != want {
			t.Errorf("robotsNormalize(%q) = %q, want %q", in, got, want)
		}
	}
	for c := range 256 {
		want := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.ContainsRune("-._~", rune(c))
		if isUnreserved(byte(c)) != want {
			t.Errorf("isUnreserved(%#x) = %v", c, !want)
		}
	}
}

// TestRobotsToken: §2.2.1: a user-agent line names its product token,
// letters, "_" and "-", lower case; "*" is the group of every crawler.
func TestRobotsToken(t *testing.T) {
	for in, want := range map[string]string{
		"Foo-Bar_baz/1.0": "foo-bar_baz",
		"AZaz":            "azaz",
		"a`b":             "a",
		"a{b":             "a",
		"a@b":             "a",
		"a[b":             "a",
		"a0":              "a0",
		"a9z":             "a9z",
		"9Z/1":            "9z",
		"rfc1738/1.2.0":   "rfc1738",
		"*bot":            "*",
		"":                "",
		"-_":              "-_",
	} {
		if got := robotsToken(in); got != want {
			t.Errorf("robotsToken(%q) = %q, want %q", in, got, want)
		}
	}
}
