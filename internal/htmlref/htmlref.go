// Package htmlref reads the links of HTML pages as browsers do: a page is
// written for browsers, so its relative references resolve by RFC 3986
// §5.2 (rfc1738's ResolveRFC3986), not by RFC 1808, and the characters a
// browser percent-encodes before sending (a space, "~", non-ASCII
// letters) are so encoded. linkcheck and browse share it.
package htmlref

import (
	"errors"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// Base returns the URL of a page as the base of its links: as written,
// or repaired as rfc1738.ParseLenient does (net/url writes the "~" of a
// redirect's target as it is, which RFC 1738 §2.2 has encoded). ok is
// false when it is neither.
func Base(s string) (rfc1738.URL, bool) {
	u, _, err := rfc1738.ParseLenient(s)
	if err != nil {
		return rfc1738.URL{}, false
	}
	return u, true
}

// Resolve resolves the reference ref of a page against base (RFC 3986
// §5.2; the zero URL resolves only absolute references), without its
// fragment: a fragment names a place in the page, not another document.
// A resolved form the strict grammar refuses only for characters a
// browser percent-encodes is so encoded. ok is false for a reference
// with no absolute RFC 1738 form.
func Resolve(base rfc1738.URL, ref string) (rfc1738.URL, bool) {
	u, err := base.ResolveRFC3986(strings.TrimSpace(ref))
	if err != nil {
		var re *rfc1738.ResolveError
		if !errors.As(err, &re) || re.Resolved == "" {
			return rfc1738.URL{}, false
		}
		if u, _, err = rfc1738.ParseLenient(re.Resolved); err != nil {
			return rfc1738.URL{}, false
		}
	}
	if _, has := u.Fragment(); has {
		if u, err = rfc1738.Parse(u.WithoutFragment()); err != nil {
			return rfc1738.URL{}, false
		}
	}
	return u, true
}
