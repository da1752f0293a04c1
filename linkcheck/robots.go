package linkcheck

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// MaxRobotsSize is how much of a robots.txt is read: RFC 9309 §2.5 asks a
// crawler to parse at least the first 500 KiB.
const MaxRobotsSize = 500 << 10

// robotsRule is one allow or disallow line of a group.
type robotsRule struct {
	allow   bool
	pattern string // percent-normalized (robotsNormalize), "*" and "$" as written
}

// robotsRules are the rules a crawler obeys on one site: the groups that
// name its product token, else the "*" groups (RFC 9309 §2.2.1).
// disallowAll is a robots.txt that could not be read because of a server
// error (§2.3.1.3).
type robotsRules struct {
	rules       []robotsRule
	disallowAll bool
	why         string // the reason of disallowAll, or where the rules came from
}

// parseRobots reads a robots.txt (RFC 9309 §2.2) for the product token
// agent. A group is one or more user-agent lines followed by rules; lines
// other than user-agent, allow and disallow (sitemap, crawl-delay) are
// ignored, and rules outside any group too (§2.2). When several groups
// name agent their rules are combined; when none does, the "*" groups'
// are used; with neither, no rule applies (§2.2.1).
func parseRobots(b []byte, agent string) robotsRules {
	type group struct {
		agents []string
		rules  []robotsRule
	}
	var groups []*group
	var cur *group
	inRules := false
	for len(b) > 0 {
		// §2.2: lines end with CR, LF or CR LF.
		i := bytes.IndexAny(b, "\r\n")
		line := b
		if i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line, _, _ = bytes.Cut(line, []byte("#")) // §2.2: a comment runs to the end of the line
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(string(key)))
		v := strings.TrimSpace(string(value))
		switch k {
		case "user-agent":
			if cur == nil || inRules {
				cur = &group{}
				groups = append(groups, cur)
				inRules = false
			}
			cur.agents = append(cur.agents, robotsToken(v))
		case "allow", "disallow":
			if cur == nil {
				continue // §2.2: a rule outside a group is ignored
			}
			inRules = true
			if v == "" {
				continue // an empty path matches nothing
			}
			cur.rules = append(cur.rules, robotsRule{allow: k == "allow", pattern: robotsNormalize(v)})
		}
	}
	agent = strings.ToLower(agent)
	var named, star []robotsRule
	foundNamed := false
	for _, g := range groups {
		for _, a := range g.agents {
			switch {
			case a == agent && agent != "": // an agent without a token has no group of its own
				named, foundNamed = append(named, g.rules...), true
			case a == "*":
				star = append(star, g.rules...)
			default:
				continue
			}
			break
		}
	}
	if foundNamed {
		return robotsRules{rules: named, why: "the group of " + agent}
	}
	return robotsRules{rules: star, why: `the group of "*"`}
}

// robotsToken returns the product token of a user-agent line's value, or
// of the User-Agent sent, lower case (§2.2.1: matched case-insensitively):
// its leading letters, digits, "_" and "-", or "*". §2.2.1 names letters,
// "_" and "-"; digits are read too, since a product token (RFC 9110
// §10.1.5) may hold them and ours does: "rfc1738".
func robotsToken(v string) string {
	if strings.HasPrefix(v, "*") {
		return "*"
	}
	i := 0
	for i < len(v) {
		c := v[i]
		if c != '-' && c != '_' && (c|0x20 < 'a' || c|0x20 > 'z') && (c < '0' || c > '9') {
			break
		}
		i++
	}
	return strings.ToLower(v[:i])
}

// robotsNormalize puts a path or a pattern in the form RFC 9309 §2.2.2
// compares: octets outside US-ASCII (and controls and spaces, which a URI
// cannot hold) percent-encoded, so that "/ツ" reads "/%E3%83%84"; the hex
// digits of an escape in upper case; and an escape of an unreserved
// character decoded (RFC 3986 §6.2.2.2: "%7E" and "~" are the same URI).
// A "/" or "?" stays as written or escaped: an escaped reserved character
// is data, not a delimiter.
func robotsNormalize(s string) string {
	const digits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			if d, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				if isUnreserved(d[0]) {
					b.WriteByte(d[0])
				} else {
					b.WriteByte('%')
					b.WriteByte(digits[d[0]>>4])
					b.WriteByte(digits[d[0]&15])
				}
				i += 2
				continue
			}
		}
		// An if, not a switch: a case's condition counts as covered
		// only through its body, and the mutation gate reads every one.
		if c >= 0x80 || c <= ' ' || c == 0x7f {
			b.WriteByte('%')
			b.WriteByte(digits[c>>4])
			b.WriteByte(digits[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isUnreserved: RFC 3986 §2.3's ALPHA / DIGIT / "-" / "." / "_" / "~".
func isUnreserved(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// allowed reports whether path (with its query, as sent in the request
// line) may be fetched, and the rule that decided ("" when none did). RFC
// 9309 §2.2.2: the match with the most octets wins; between an allow and
// a disallow rule of the same length, allow; with no match, allowed.
// "/robots.txt" is always allowed.
func (r robotsRules) allowed(path string) (bool, string) {
	if r.disallowAll {
		return false, r.why
	}
	if path == "/robots.txt" {
		return true, ""
	}
	path = robotsNormalize(path)
	best, allow, which := -1, true, ""
	for _, rule := range r.rules {
		if !robotsMatch(rule.pattern, path) {
			continue
		}
		if n := len(rule.pattern); n > best || n == best && rule.allow && !allow {
			best, allow = n, rule.allow
			which = "Disallow: " + rule.pattern
			if rule.allow {
				which = "Allow: " + rule.pattern
			}
		}
	}
	return allow, which
}

// robotsMatch reports whether pattern matches path (RFC 9309 §2.2.3): a
// rule matches from the start of the path; "*" matches any run of
// octets, and a "$" that ends the pattern matches the end of the path.
func robotsMatch(pattern, path string) bool {
	if strings.HasSuffix(pattern, "$") {
		pattern = pattern[:len(pattern)-1]
	} else {
		pattern += "*" // a prefix: anything may follow
	}
	// The usual wildcard match, backtracking to the last "*" only.
	p, s := 0, 0
	star, mark := -1, 0
	for s < len(path) {
		if p < len(pattern) && pattern[p] == '*' {
			star, mark = p, s
			p++
		} else if p < len(pattern) && pattern[p] == path[s] {
			p++
			s++
		} else if star >= 0 {
			p = star + 1
			mark++
			s = mark
		} else {
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// robotsURL returns the robots.txt of u's site (RFC 9309 §2.3: at the root
// of the scheme, host and port).
func robotsURL(u rfc1738.URL) string { return httpOrigin(u) + "/robots.txt" }

// errRobotsUnreachable is a robots.txt that could not be fetched because
// the network failed: RFC 9309 §2.3.1.4 then forbids crawling the site,
// whose URLs are broken by the same cause.
var errRobotsUnreachable = errors.New("robots.txt unreachable")

// fetchRobots fetches the robots.txt of u's site (§2.3.1): a 2xx is read
// (its first MaxRobotsSize bytes, §2.5), redirects are followed (§2.3.1.2:
// at least five), a 4xx allows everything (§2.3.1.3), a 5xx disallows
// everything (§2.3.1.4), and a network failure is an error wrapping
// errRobotsUnreachable.
func (k *Checker) fetchRobots(ctx context.Context, u rfc1738.URL) (robotsRules, error) {
	k.init()
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	target := robotsURL(u)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return robotsRules{}, err
	}
	req.Header.Set("User-Agent", k.userAgent())
	resp, err := k.hc.Do(req)
	if err != nil {
		var fr *access.FTPRedirectError
		if errors.As(err, &fr) {
			return robotsRules{why: "robots.txt redirects to ftp: read as unavailable"}, nil
		}
		return robotsRules{}, fmt.Errorf("%w: %w", errRobotsUnreachable, unwrapURLError(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 2 {
		b, err := io.ReadAll(io.LimitReader(resp.Body, MaxRobotsSize+1))
		if err != nil {
			return robotsRules{}, fmt.Errorf("%w: %w", errRobotsUnreachable, err)
		}
		if len(b) > MaxRobotsSize {
			// §2.5: what is past the limit is not read; a line cut in
			// the middle is not read either (with no line end before
			// the limit, nothing is).
			b = b[:MaxRobotsSize]
			b = b[:bytes.LastIndexAny(b, "\r\n")+1]
		}
		// §2.2.1: the groups are matched against the product token of
		// the User-Agent actually sent.
		return parseRobots(b, robotsToken(k.userAgent())), nil
	}
	if resp.StatusCode/100 == 5 {
		return robotsRules{disallowAll: true, why: "robots.txt answered " + resp.Status + ": a server error disallows the whole site (RFC 9309 §2.3.1.4)"}, nil
	}
	// 4xx (§2.3.1.3), or a 3xx not followed: unavailable, no rule applies.
	io.CopyN(io.Discard, resp.Body, 4096)
	return robotsRules{why: "robots.txt answered " + resp.Status}, nil
}

// robotsEntry is the robots.txt of one site in a run, fetched once.
type robotsEntry struct {
	ready chan struct{}
	rules robotsRules
	err   error
}
