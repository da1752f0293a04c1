package linkcheck

import (
	"strings"
	"testing"
)

// FuzzRobots reads any robots.txt for any product token and asks it about
// any path (RFC 9309 §2.2): no panic, "/robots.txt" is always allowed but
// by a file that could not be read (§2.3.1.3, not a parse result), a
// group of the token that disallows the path it allows otherwise wins over
// the "*" groups (§2.2.1), and an answer does not change when asked again.
func FuzzRobots(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /private\nAllow: /private/ok$\n"), "rfc1738", "/private/x?q")
	f.Add([]byte("user-agent: rfc-linkcheck\r\nuser-agent: other\rdisallow: /*.gif$\n\nUser-agent: *\nDisallow:\n"), "rfc-linkcheck", "/a/b.gif")
	f.Add([]byte("Disallow: /\nUser-agent: x # comment\nAllow: /%7Ea/\nDisallow: /~a\n"), "x", "/~a/b")
	f.Add([]byte("User-agent: *\nDisallow: /***************************a$\n"), "y", "/"+strings.Repeat("b", 200))
	f.Fuzz(func(t *testing.T, b []byte, agent, path string) {
		r := parseRobots(b, agent)
		if r.disallowAll {
			t.Fatalf("parseRobots(%q) disallows all: only an unreadable robots.txt does (§2.3.1.3)", b)
		}
		if ok, _ := r.allowed("/robots.txt"); !ok {
			t.Fatalf("parseRobots(%q) disallows /robots.txt", b)
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		ok1, why1 := r.allowed(path)
		ok2, why2 := r.allowed(path)
		if ok1 != ok2 || why1 != why2 {
			t.Fatalf("allowed(%q) = %v %q, then %v %q", path, ok1, why1, ok2, why2)
		}
		if !ok1 && why1 == "" {
			t.Fatalf("allowed(%q) = false with no rule named", path)
		}
		// A group of the token's own, after the rest, disallowing
		// everything: its rules alone apply whatever "*" says, as no other
		// group names the token.
		tok := robotsToken(agent)
		if tok == "" || tok == "*" || tok != strings.ToLower(agent) || strings.Contains(strings.ToLower(string(b)), tok) {
			return
		}
		own := parseRobots(append(append([]byte{}, b...), "\nUser-agent: "+agent+"\nDisallow: /\n"...), agent)
		if ok, _ := own.allowed(path); ok && path != "/robots.txt" {
			t.Fatalf("%q and then a group for %q disallowing /: %q still allowed", b, agent, path)
		}
	})
}
