package linkcheck

import (
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// readURL reads a link as browsers and curl read it (rfc1738.Read), or,
// when strict, exactly as RFC 1738 does (rfc1738.Parse). It returns the
// URL to check and one warning per departure from RFC 1738, naming the
// form and the RFC that allows it; a warning is never a verdict. What
// nothing reads is an error, and so Invalid.
func readURL(s string, strict bool) (rfc1738.URL, []string, error) {
	if strict {
		u, err := rfc1738.Parse(s)
		if err != nil {
			// Name the real cause when browsers read it: an IPv6 literal,
			// an international name, a search with no path.
			if _, deps, rerr := rfc1738.Read(s); rerr == nil {
				for _, d := range deps {
					if d.Refusal != "" {
						return u, nil, fmt.Errorf("%s; %s", invalidDetail(err), d.Refusal)
					}
				}
			}
		}
		return u, nil, err
	}
	u, deps, err := rfc1738.Read(s)
	if err != nil {
		return rfc1738.URL{}, nil, err
	}
	if strings.Contains(u.Host(), "%25") {
		// RFC 6874 §1: a zone ID names an interface of one machine; a
		// link in a document, read on another, names nothing.
		return rfc1738.URL{}, nil, fmt.Errorf("offset %d: IP-literal: a zone ID names an interface of the reader's own machine (RFC 6874 §1); a link cannot carry one", u.HostOffset())
	}
	var warnings []string
	for _, d := range deps {
		w := d.String()
		if pw, ok := u.RawPassword(); ok && pw != "" {
			w = strings.ReplaceAll(w, ":"+pw+"@", ":****@")
		}
		warnings = append(warnings, oneLine(w))
	}
	return u, warnings, nil
}
