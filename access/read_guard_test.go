package access

import (
	"errors"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
)

// TestGuardIPv6Spellings: §6's port guard holds for every spelling of a
// host, IPv6 literals (RFC 3986 §3.2.2) read by rfc1738.Read included:
// ::1, its long form and the IPv4-mapped ::ffff:127.0.0.1 (RFC 4291
// §2.5.5.2) are refused on the same ports, warned on the same ports, as
// 127.0.0.1 is.
func TestGuardIPv6Spellings(t *testing.T) {
	c := NewClient()
	hosts := []string{"127.0.0.1", "[::1]", "[0:0:0:0:0:0:0:1]", "[::ffff:127.0.0.1]", "[::FFFF:7f00:1]", "[fe80::1%25lo]"}
	for _, h := range hosts {
		for _, tt := range []struct {
			url           string
			warn, refused bool
		}{
			{"gopher://" + h + ":25/0HELO", false, true}, // §6's own example
			{"http://" + h + ":21/", false, true},
			{"http://" + h + ":119/", false, true},
			{"ftp://" + h + ":6379/", false, true},
			{"http://" + h + ":65536/", false, true},
			{"gopher://" + h + ":7070/", true, false},
			{"gopher://" + h + "/", false, false},
		} {
			u, _, err := rfc1738.Read(tt.url)
			if err != nil {
				if !tt.refused {
					t.Errorf("Read(%q): %v", tt.url, err)
				}
				continue // nothing reads it, so nothing is fetched
			}
			warn, err := c.CheckPort(u)
			if (warn != "") != tt.warn || (err != nil) != tt.refused {
				t.Errorf("CheckPort(%q) = %q, %v", tt.url, warn, err)
			}
			var g *GuardError
			if err != nil && (!errors.As(err, &g) || g.Rule != "port" || g.Offset != u.PortOffset()) {
				t.Errorf("CheckPort(%q): %v is not a port GuardError at the port", tt.url, err)
			}
			if _, err := c.Plan(u); (err != nil) != tt.refused {
				t.Errorf("Plan(%q): %v", tt.url, err)
			}
		}
	}
}

// TestPlanIPv6: the plan of a read IPv6 URL connects to the bracketed
// literal and names it in the Host header (RFC 9110 §7.2: uri-host with
// its brackets).
func TestPlanIPv6(t *testing.T) {
	for in, want := range map[string][2]string{
		"http://[::1]:8080/f.txt":    {"[::1]:8080", "[::1]:8080"},
		"https://[::1]?q":            {"[::1]:443", "[::1]"},
		"gopher://[::1]/0x":          {"[::1]:70", ""},
		"ftp://[::1]:2121/pub/a.txt": {"[::1]:2121", ""},
	} {
		u, _, err := rfc1738.Read(in)
		if err != nil {
			t.Fatal(err)
		}
		p, err := NewClient().Plan(u)
		if err != nil {
			t.Errorf("Plan(%q): %v", in, err)
			continue
		}
		if p.Connect != want[0] {
			t.Errorf("Plan(%q).Connect = %q, want %q", in, p.Connect, want[0])
		}
		if want[1] != "" {
			found := false
			for _, s := range p.Steps {
				found = found || s.Verb == "Host:" && s.Arg == want[1]
			}
			if !found {
				t.Errorf("Plan(%q) has no Host: %s: %+v", in, want[1], p.Steps)
			}
		}
	}
}

// TestPlanHTTPSIPv6SNI: an https URL whose host is an IPv6 literal sends
// no SNI (RFC 6066 §3: no literal IP addresses), as for an IPv4 number.
func TestPlanHTTPSIPv6SNI(t *testing.T) {
	u, _, err := rfc1738.Read("https://[::1]:8443/x")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewClient().Plan(u)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Notes) == 0 || !strings.Contains(p.Notes[0], "no SNI for an IP address") {
		t.Errorf("notes %q", p.Notes)
	}
}
