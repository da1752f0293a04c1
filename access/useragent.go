package access

import (
	"runtime/debug"
	"strings"
)

// modulePath is the module the access package belongs to.
const modulePath = "github.com/rfc1738/rfc1738"

// DefaultUserAgent is the User-Agent of the http and https requests of an
// HTTP handler whose UserAgent is empty, and the one NewClient's carries:
// "rfc1738/" and the version of this module in the program's build (RFC
// 9110 §10.1.5: product "/" product-version), the version `rfc1738
// version` prints; a build from a clone says its commit. A robots.txt
// group addresses the product token, "rfc1738" (RFC 9309 §2.2.1).
var DefaultUserAgent = "rfc1738/" + moduleVersion()

// moduleVersion is this module's version in the program's build
// information: the main module's, or the dependency's; for a build
// without a version ("(devel)") the commit the go command recorded, else
// "devel". Only token characters (RFC 9110 §5.6.2) are kept.
func moduleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := ""
	switch {
	case bi.Main.Path == modulePath:
		v = bi.Main.Version
	default:
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				v = d.Version
				if d.Replace != nil && d.Replace.Version != "" {
					v = d.Replace.Version
				}
				break
			}
		}
	}
	if v == "" || v == "(devel)" {
		v = "devel"
		if bi.Main.Path == modulePath {
			for _, s := range bi.Settings {
				if s.Key == "vcs.revision" && s.Value != "" {
					v = s.Value[:min(12, len(s.Value))]
				}
			}
		}
	}
	return strings.Map(func(r rune) rune {
		if r < 0x80 && isTchar(byte(r)) {
			return r
		}
		return -1
	}, v)
}

// isTchar: RFC 9110 §5.6.2's tchar, the octets of a token.
func isTchar(c byte) bool {
	return c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}
