package main

import (
	"flag"
	"fmt"
	"net/http"
	"strings"

	"github.com/rfc1738/rfc1738/access"
)

// curlOptions are the flags of get that curl users type, with curl's
// meaning: headers (-H, -A, -e), content coding (--compressed), the
// proxy (-x, --noproxy), the quiet pair (-s, -S), and the flags that ask
// for what get already does (-L, -f), or refuses (-d, -X POST).
type curlOptions struct {
	headers            stringList
	userAgent, referer string
	compressed         bool
	proxy              *proxyOptions
	silent, showError  bool
	post               string // the flag that asked to send data, for the refusal
	method             string
}

// curlFlags defines the curl flags on get's fs.
func curlFlags(fs *flag.FlagSet) *curlOptions {
	co := &curlOptions{}
	for _, name := range []string{"H", "header"} {
		fs.Var(&co.headers, name, "http: send this header field, `'Name: value'` ('Name:' sends none); repeatable, as curl's")
	}
	for _, name := range []string{"A", "user-agent"} {
		fs.StringVar(&co.userAgent, name, "", "http: send this User-Agent (`NAME`), as -H 'User-Agent: NAME'")
	}
	for _, name := range []string{"e", "referer"} {
		fs.StringVar(&co.referer, name, "", "http: send this Referer (`URL`), as -H 'Referer: URL'")
	}
	fs.BoolVar(&co.compressed, "compressed", false, "http: ask for a gzip body and save it decoded (--max-size counts the decoded bytes); without it a body is saved as sent")
	co.proxy = proxyFlags(fs)
	for _, name := range []string{"s", "silent"} {
		fs.BoolVar(&co.silent, name, false, "as curl's: print nothing, not even errors (the exit status says what failed); with -S, errors")
	}
	for _, name := range []string{"S", "show-error"} {
		fs.BoolVar(&co.showError, name, false, "with -s, still print errors (as -q)")
	}
	for _, name := range []string{"L", "location"} {
		fs.Bool(name, false, "accepted for curl's sake: redirects are always followed (at most 10, to http, https and ftp)")
	}
	for _, name := range []string{"f", "fail"} {
		fs.Bool(name, false, "accepted for curl's sake: an http error status always fails (exit status 8, no body saved; --keep-error-body saves it)")
	}
	for _, name := range []string{"d", "data", "data-binary"} {
		fs.Func(name, "refused: URLs here are retrieved, not posted", func(string) error {
			if co.post == "" {
				co.post = flagShown(name)
			}
			return nil
		})
	}
	for _, name := range []string{"X", "request"} {
		fs.StringVar(&co.method, name, "", "the request `METHOD`: GET only (URLs here are retrieved, not posted); -I asks for the header")
	}
	return co
}

// flagShown writes a flag name as it is typed: one dash for a letter,
// two for a word.
func flagShown(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// check refuses what get does not do: a body sent, a method other than
// GET. §3.3: an http URL names a resource, which a client retrieves.
func (co *curlOptions) check() error {
	if co.post != "" {
		return fmt.Errorf("%s: URLs here are retrieved, not posted (§3.3: an http URL names what a GET retrieves); get sends no data", co.post)
	}
	if co.method != "" && !strings.EqualFold(co.method, "GET") {
		return fmt.Errorf("-X %s: URLs here are retrieved, not posted (§3.3: an http URL names what a GET retrieves); the method is GET (-I for HEAD)", co.method)
	}
	return nil
}

// apply sets the http settings on the client.
func (co *curlOptions) apply(c *access.Client) error {
	h := http.Header{}
	for _, f := range co.headers {
		name, value, ok := strings.Cut(f, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || !validFieldName(name) {
			return fmt.Errorf("-H %q: want 'Name: value', a field name of letters, digits and !#$%%&'*+-.^_`|~ (RFC 9110 §5.1)", f)
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return fmt.Errorf("-H %q: a field value holds no CR, LF or NUL (RFC 9110 §5.5)", f)
		}
		h[http.CanonicalHeaderKey(name)] = append(h[http.CanonicalHeaderKey(name)], value)
	}
	for name, v := range map[string]string{"User-Agent": co.userAgent, "Referer": co.referer} {
		if v == "" {
			continue
		}
		if strings.ContainsAny(v, "\r\n\x00") {
			return fmt.Errorf("%s %q: a field value holds no CR, LF or NUL (RFC 9110 §5.5)", name, v)
		}
		h.Set(name, v)
	}
	setHTTP(c, func(hh *access.HTTP) {
		if len(h) > 0 {
			hh.Header = h
		}
		hh.Compressed = co.compressed
	})
	co.proxy.apply(c)
	return nil
}

// proxyOptions are curl's proxy flags, -x and --noproxy (get and
// linkcheck).
type proxyOptions struct {
	proxy    string
	proxySet bool
	noProxy  string
}

// proxyFlags defines -x (--proxy) and --noproxy on fs.
func proxyFlags(fs *flag.FlagSet) *proxyOptions {
	po := &proxyOptions{}
	for _, name := range []string{"x", "proxy"} {
		fs.Func(name, "http, https: go through this proxy (`URL`, http:// when no scheme is given) instead of $HTTP_PROXY and $HTTPS_PROXY; \"\" for none", func(s string) error {
			po.proxy, po.proxySet = s, true
			return nil
		})
	}
	fs.StringVar(&po.noProxy, "noproxy", "", "http, https: reach these hosts directly (`LIST`, comma-separated; a name matches its subdomains; * is every host), instead of $NO_PROXY")
	return po
}

// apply sets the proxy on the client.
func (po *proxyOptions) apply(c *access.Client) {
	setHTTP(c, func(h *access.HTTP) {
		h.Proxy, h.NoProxy = po.proxy, po.noProxy
		if po.proxySet && po.proxy == "" {
			h.NoProxy = "*" // curl's -x "": no proxy at all
		}
	})
}

// validFieldName reports whether s is an RFC 9110 §5.1 field name (a
// token).
func validFieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}
