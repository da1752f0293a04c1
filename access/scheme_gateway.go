package access

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// Gateway locators (RFC 1738 §4: "clients … should be configurable with
// … gateway locators" for schemes they cannot speak).
//
// Client.Gateways maps a scheme to a URL template that holds "{url}":
// the URL to fetch, %-encoded as one query component, takes its place.
// The template must make an http or ftp URL, which the native handlers
// then fetch. Client.Plan and Client.Get use a gateway for a scheme that
// has no native handler, and for prospero (§3.11), whose handler can only
// explain that no Prospero server or client is known to exist when no
// gateway is configured.
//
// ParseGateways reads the configuration file format, one gateway a line:
//
//	# comment
//	prospero  http://gw.example/fetch?url={url}
//	x-foo     ftp://gw.example/pub/{url}
//
// and GatewayEnvScheme reads the environment variables, e.g.
// RFC1738_GATEWAY_PROSPERO=http://gw.example/fetch?url={url}.

// GatewayPlaceholder is where a gateway template takes the URL.
const GatewayPlaceholder = "{url}"

// GatewayEnvPrefix starts the environment variables that configure a
// gateway: RFC1738_GATEWAY_<SCHEME>=template.
const GatewayEnvPrefix = "RFC1738_GATEWAY_"

func init() {
	defaultHandlers["prospero"] = prosperoHandler{}
	defaultGateway = gatewayHandler{}
}

// ParseGateways reads a gateway configuration: one "scheme template" pair
// a line, separated by spaces or tabs; blank lines and lines starting
// with "#" are skipped. A later line for the same scheme wins. Errors name
// the line.
func ParseGateways(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			return nil, fmt.Errorf("line %d: want \"scheme template\", got %q", n, line)
		}
		scheme, tmpl := strings.ToLower(line[:i]), strings.TrimSpace(line[i+1:])
		if err := CheckGateway(scheme, tmpl); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out[scheme] = tmpl
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// GatewayEnvScheme returns the scheme an environment variable configures
// a gateway for: RFC1738_GATEWAY_PROSPERO is "prospero". Since variable
// names cannot hold "-", "+" or ".", an "_" stands for "-"
// (RFC1738_GATEWAY_X_FOO is "x-foo").
func GatewayEnvScheme(name string) (string, bool) {
	s, ok := strings.CutPrefix(name, GatewayEnvPrefix)
	if !ok || s == "" {
		return "", false
	}
	return strings.ReplaceAll(strings.ToLower(s), "_", "-"), true
}

// CheckGateway reports whether template can serve as the gateway of
// scheme: a scheme name of §2.1, and a template with "{url}" that makes
// an http or ftp URL.
func CheckGateway(scheme, template string) error {
	if !validScheme(scheme) {
		return fmt.Errorf("gateway: %q is not a scheme name (§2.1: letters, digits, \"+\", \"-\", \".\")", scheme)
	}
	if !strings.Contains(template, GatewayPlaceholder) {
		return fmt.Errorf("gateway for %s: the template %q has no %s", scheme, template, GatewayPlaceholder)
	}
	gu, err := rfc1738.Parse(strings.ReplaceAll(template, GatewayPlaceholder, "x"))
	if err != nil {
		return fmt.Errorf("gateway for %s: the template does not make a URL: %w", scheme, err)
	}
	if k := gu.Kind(); k != rfc1738.KindHTTP && k != rfc1738.KindFTP {
		return fmt.Errorf("gateway for %s: the template makes a %s URL; a gateway is reached by http or ftp", scheme, gu.Scheme())
	}
	return nil
}

func validScheme(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// ExpandGateway returns the gateway URL of u: template with "{url}"
// replaced by u without its fragment (the Appendix: a fragment is not part
// of the URL), %-encoded as a query component. Every octet but letters,
// digits, "-", "_" and "." is encoded, so the result is a valid RFC 1738
// search part and the gateway decodes it back to u exactly.
func ExpandGateway(template string, u rfc1738.URL) string {
	s := u.WithoutFragment()
	var b strings.Builder
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return strings.ReplaceAll(template, GatewayPlaceholder, b.String())
}

// gatewayHandler serves a scheme through its gateway locator.
type gatewayHandler struct{}

// gatewayPlan is the execution detail of a gateway plan: the plan of the
// gateway URL, made by its own handler.
type gatewayPlan struct {
	inner *Plan
}

// Plan makes the plan of the gateway URL and takes its steps: what is
// sent is exactly the fetch of the gateway URL.
func (gatewayHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	scheme := u.Scheme()
	tmpl, ok := c.Gateways[scheme]
	if !ok {
		return nil, fmt.Errorf("%s: %w for the %s scheme (no gateway locator configured, §4)", Redact(u.String()), ErrUnsupported, scheme)
	}
	if err := CheckGateway(scheme, tmpl); err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(u.String()), err)
	}
	if pw, ok := u.Password(); ok && pw != "" {
		return nil, &GuardError{URL: Redact(u.String()), Offset: u.PasswordOffset(), Rule: "password",
			Reason: "the URL holds a password, which the gateway locator would hand to the gateway; refused (§6)"}
	}
	gw := ExpandGateway(tmpl, u)
	gu, err := rfc1738.Parse(gw)
	if err != nil {
		return nil, fmt.Errorf("%s: the gateway URL %s: %w", Redact(u.String()), Redact(gw), err)
	}
	inner, err := c.Plan(gu)
	if err != nil {
		return nil, fmt.Errorf("%s: through the gateway: %w", Redact(u.String()), err)
	}
	p := &Plan{
		Connect:  inner.Connect,
		Steps:    inner.Steps,
		Warnings: inner.Warnings,
		Notes: append([]string{fmt.Sprintf("%s has no native access method; fetched through the gateway locator (§4) %s",
			scheme, inner.URL)}, inner.Notes...),
		Data: &gatewayPlan{inner: inner},
	}
	return p, nil
}

// Get fetches the gateway URL with its own handler, executing the plan
// Plan made for it.
func (gatewayHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	d, ok := p.Data.(*gatewayPlan)
	if !ok {
		return nil, fmt.Errorf("%s: not a plan of the gateway handler", p.URL)
	}
	h := d.inner.handler // the handler that planned the gateway URL
	if h == nil {
		return nil, fmt.Errorf("%s: the gateway URL %s: %w for the %s scheme", p.URL, d.inner.URL, ErrUnsupported, d.inner.Scheme)
	}
	resp, err := h.Get(ctx, c, d.inner)
	if err != nil {
		return nil, fmt.Errorf("%s: through the gateway: %w", p.URL, err)
	}
	if resp.URL == "" {
		resp.URL = d.inner.URL
	}
	resp.Plan = p
	return resp, nil
}

// prosperoHandler serves prospero URLs (§3.11) through a gateway locator,
// the only way left: no Prospero server or client is known to exist.
type prosperoHandler struct{}

// Plan delegates to the gateway; without one it returns an error wrapping
// ErrUnsupported that says why, and shows the URL's parts.
func (prosperoHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	if _, ok := c.Gateways["prospero"]; ok {
		return gatewayHandler{}.Plan(c, u)
	}
	pr, _ := u.Prospero()
	parts := []string{"host " + strconv.Quote(u.Host()), "port " + strconv.Itoa(u.PortNumber()), "hsoname " + strconv.Quote(pr.Hsoname)}
	for _, f := range pr.Fields {
		parts = append(parts, "field "+strconv.Quote(f.Name)+"="+strconv.Quote(f.Value))
	}
	return nil, fmt.Errorf("%s: %w for the prospero scheme: no Prospero server or client is known to exist (§3.11's protocol is gone); configure a gateway locator (§4) for prospero to fetch it (rfc1738: --gateway prospero=TEMPLATE, $RFC1738_GATEWAY_PROSPERO, or rfc1738/gateways in the config folder) (the URL's parts: %s)",
		Redact(u.String()), ErrUnsupported, strings.Join(parts, ", "))
}

// Get fetches through the gateway.
func (prosperoHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	return gatewayHandler{}.Get(ctx, c, p)
}
