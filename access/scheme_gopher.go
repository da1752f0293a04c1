package access

import (
	"context"
	"errors"
	"fmt"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"strings"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/gopher"
)

func init() { defaultHandlers["gopher"] = Gopher{} }

// Gopher is the handler of gopher URLs (RFC 1738 §3.4), with the
// access/gopher client: plain Gopher items, menus and searches, and the
// Gopher+ requests of §3.4.4–§3.4.9 — the default view, attributes,
// alternate views, and items with forms, whose questions it asks through
// Client.Prompt.
type Gopher struct {
	// Unstuff removes the first dot of text lines that start with ".."
	// (RFC 1436 dot-stuffing). Off by default: most servers send files
	// as stored, so such a line is usually the file's own.
	Unstuff bool
}

// gopherMode is what Get does with a gopher plan.
type gopherMode uint8

const (
	gopherFetch      gopherMode = iota // one request, the reply read by item type
	gopherAttributes                   // "!" or "$": Gopher+ attribute blocks (§3.4.6, §3.4.7)
	gopherAsk                          // "?": fetch "!", ask the +ASK questions, send the form (§3.4.5, §3.4.9)
	gopherSearch                       // type 7 without a search: ask for it (§3.4.2)
)

// gopherPlan is the execution detail of a gopher Plan (Plan.Data).
type gopherPlan struct {
	mode gopherMode
	// req is the request as the URL gives it; for gopherAsk it lacks the
	// filled form and for gopherSearch the search, both known at run time.
	req gopher.Request
	// attr is the attribute request of gopherAsk that fetches the +ASK
	// block.
	attr gopher.Request
	kind rfc1738.PlusKind
}

// Placeholders of the run-time parts of a gopher plan.
const (
	gopherAnswers = "<answers>" // the value lines of a filled form
	gopherAsked   = "<search>"  // a search asked at run time
)

// gopherBad are the octets that no decoded selector or search may carry:
// TAB splits the request line's fields (§3.4.1), CR, LF and NUL end it (§6).
const gopherBad = "\t" + LineDelimiters

// Plan implements Handler: the request lines §3.4 prescribes, each a step.
func (Gopher) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	g, ok := u.Gopher()
	if !ok {
		return nil, fmt.Errorf("%s: not a gopher URL", Redact(u.String()))
	}
	p := &Plan{Connect: u.HostPort()}
	if err := c.guardPort(p, u); err != nil {
		return nil, err
	}
	if p.Connect == "" {
		return nil, fmt.Errorf("%s: a gopher URL needs a host (§3.4)", Redact(u.String()))
	}
	if err := checkGopherLines(u, g); err != nil {
		return nil, err
	}

	t := g.Type
	switch t {
	case '8', 'T':
		hint := ""
		if h := u.Host(); h != "" {
			user := ""
			if g.Selector != "" {
				user = rfc1738.Escape(g.Selector, rfc1738.UserComponent) + "@"
			}
			port := ""
			if pt, ok := u.Port(); ok {
				port = ":" + pt
			}
			hint = fmt.Sprintf(": open telnet://%s%s%s/ instead (§3.8)", user, h, port)
		}
		return nil, fmt.Errorf("%s: %w: gopher type %c is a telnet session, not an item (RFC 1436)%s", Redact(u.String()), ErrUnsupported, t, hint)
	case '2':
		return nil, fmt.Errorf("%s: %w: gopher type 2 is a CSO phone-book server, which speaks its own protocol", Redact(u.String()), ErrUnsupported)
	case 'i', '3':
		return nil, fmt.Errorf("%s: %w: gopher type %c is an info or error line of a menu, not an item", Redact(u.String()), ErrUnsupported, t)
	}

	d := &gopherPlan{
		req: gopher.Request{Type: t, Selector: g.Selector, Search: g.Search, HasSearch: g.HasSearch,
			Plus: g.Plus, HasPlus: g.HasPlus},
		kind: g.PlusKind,
	}
	p.Data = d
	if path, _ := u.Path(); path == "" {
		p.Notes = append(p.Notes, "empty gopher-path: the server's top-level menu, type 1 (§3.4.1)")
	}
	p.Notes = append(p.Notes, gopher.TypeNote(t))

	switch {
	case g.HasPlus && g.PlusKind == rfc1738.PlusAsk:
		// §3.4.5: "?" names an item with a form. Its +ASK block comes with
		// the item's attributes ("!"; pygopherd ignores "!+ASK"), then the
		// filled form goes out on a second connection as §3.4.9 shows.
		d.mode = gopherAsk
		d.req.Plus, d.req.HasPlus = "", false
		d.attr = d.req
		d.attr.Plus, d.attr.HasPlus = "!", true
		line, err := d.attr.Line()
		if err != nil {
			return nil, gopherGuard(u, err)
		}
		p.Steps = append(p.Steps, Step{Arg: line})
		empty, _ := gopher.FormString()
		form := d.req
		form.Plus, form.HasPlus = empty, true
		line, err = form.Line()
		if err != nil {
			return nil, gopherGuard(u, err)
		}
		lines := strings.Split(line, "\r\n")
		for _, l := range lines[:len(lines)-1] {
			p.Steps = append(p.Steps, Step{Arg: l})
		}
		p.Steps = append(p.Steps, Step{Placeholder: gopherAnswers}, Step{Arg: lines[len(lines)-1]})
		p.Notes = append(p.Notes, "an item with a form (§3.4.5): the first line fetches its attributes and +ASK block; "+
			"the questions are asked at run time and the filled form is sent on a second connection as §3.4.9 shows")
		return p, nil

	case t == '7' && !g.HasSearch:
		// §3.4.2: a search item needs a search string; the URL has none.
		d.mode = gopherSearch
		if _, err := d.req.Line(); err != nil {
			return nil, gopherGuard(u, err)
		}
		p.Steps = append(p.Steps, Step{Arg: g.Selector, Placeholder: g.Selector + "\t" + gopherAsked})
		p.Notes = append(p.Notes, "a search item (type 7) without a search string: it is asked at run time (§3.4.2)")
		return p, nil
	}

	if g.HasPlus {
		switch g.PlusKind {
		case rfc1738.PlusItemAttributes, rfc1738.PlusDirectoryAttributes:
			d.mode = gopherAttributes
		}
		p.Notes = append(p.Notes, gopher.PlusNote(g.PlusKind, g.Plus))
	}
	line, err := d.req.Line()
	if err != nil {
		return nil, gopherGuard(u, err)
	}
	for _, l := range strings.Split(line, "\r\n") {
		p.Steps = append(p.Steps, Step{Arg: l})
	}
	return p, nil
}

// checkGopherLines applies the §6 delimiter guard to the parts of a gopher
// URL that are sent decoded in the request line: the type, selector and
// search may hold no TAB, CR, LF or NUL (§3.4.1); the Gopher+ string holds
// them only in the §3.4.9 form layout, which is sent as written.
func checkGopherLines(u rfc1738.URL, g rfc1738.Gopher) error {
	path, ok := u.Path()
	if !ok || path == "" {
		return nil
	}
	off := u.PathOffset()
	typeLen := 1
	if path[0] == '%' && len(path) >= 3 {
		typeLen = 3
	}
	if err := CheckLine(u, path[:typeLen], off, "gopher type", gopherBad); err != nil {
		return err
	}
	off += typeLen
	if err := CheckLine(u, g.RawSelector, off, "selector", gopherBad); err != nil {
		return err
	}
	if !g.HasSearch {
		return nil
	}
	off += len(g.RawSelector) + len("%09")
	if err := CheckLine(u, g.RawSearch, off, "search", gopherBad); err != nil {
		return err
	}
	if !g.HasPlus {
		return nil
	}
	off += len(g.RawSearch) + len("%09")
	if g.PlusKind == rfc1738.PlusForm && gopher.IsForm(g.Plus) {
		return nil // §3.4.9: the form's own TABs and CRLFs are the protocol
	}
	return CheckLine(u, g.RawPlus, off, "Gopher+ string", gopherBad)
}

// gopherGuard turns the client's refusal of a request into a GuardError;
// checkGopherLines has normally refused the URL already, with an offset.
func gopherGuard(u rfc1738.URL, err error) error {
	var re *gopher.RequestError
	if errors.As(err, &re) {
		return &GuardError{URL: Redact(u.String()), Offset: -1, Rule: "line-delimiter", Reason: re.Error()}
	}
	return fmt.Errorf("%s: %w", Redact(u.String()), err)
}

// Get implements Handler: it sends the plan's request lines and returns
// the reply, read by item type and rendered per c.Listing for menus and
// attributes.
func (h Gopher) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	d, ok := p.Data.(*gopherPlan)
	if !ok {
		return nil, fmt.Errorf("%s: the plan was not made by the gopher handler", p.URL)
	}
	run := &gopherRun{c: c, p: p, addr: p.Connect}
	// ListingRaw: a plain text or menu reply as sent, final "." included.
	run.gc = &gopher.Client{Trace: run.trace, Unstuff: h.Unstuff, Raw: c.Listing == ListingRaw}
	switch d.mode {
	case gopherAsk:
		return run.ask(ctx, d)
	case gopherSearch:
		return run.search(ctx, d)
	}
	if err := run.matchSteps(d.req, 0, len(p.Steps)); err != nil {
		return nil, err
	}
	resp, err := run.fetch(ctx, d.req)
	if err != nil {
		return nil, err
	}
	if d.mode == gopherAttributes {
		return run.attributes(resp, d)
	}
	return run.render(resp, d), nil
}

// gopherRun is one execution of a gopher plan.
type gopherRun struct {
	c    *Client
	p    *Plan
	addr string
	gc   *gopher.Client

	mu     sync.Mutex
	status string // the first line received after the last request: a Gopher+ status when Response.Plus
	fresh  bool   // no line received yet since the last request
}

func (r *gopherRun) trace(dir byte, line string) {
	r.mu.Lock()
	switch {
	case dir == '>':
		r.fresh, r.status = true, ""
	case dir == '<' && r.fresh:
		r.fresh, r.status = false, line
	}
	r.mu.Unlock()
	r.c.trace(dir, Redact(line))
}

func (r *gopherRun) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: "+format, append([]any{r.p.URL}, args...)...)
}

// matchSteps checks that the request req puts on the wire is the plan's
// steps i to j-1, so that Get sends what Plan showed. A step with a
// placeholder matches the run-time text in its place; gopherAnswers matches
// any number of lines.
func (r *gopherRun) matchSteps(req gopher.Request, i, j int) error {
	line, err := req.Line()
	if err != nil {
		return r.errorf("%w", err)
	}
	lines := strings.Split(line, "\r\n")
	j = min(j, len(r.p.Steps))
	i = min(i, j)
	if !gopherMatchLines(r.p.Steps[i:j], lines) {
		return r.errorf("the request %q does not match the plan's steps %q: the plan was altered", line, r.p.Lines()[i:j])
	}
	return nil
}

func gopherMatchLines(steps []Step, lines []string) bool {
	for len(steps) > 0 {
		s := steps[0]
		if s.Placeholder == gopherAnswers {
			// Any number of value lines, then the rest must match.
			for k := 0; k <= len(lines); k++ {
				if gopherMatchLines(steps[1:], lines[k:]) {
					return true
				}
			}
			return false
		}
		if len(lines) == 0 {
			return false
		}
		if s.Placeholder != "" {
			pre, post, _ := strings.Cut(s.Placeholder, gopherAsked)
			if !strings.HasPrefix(lines[0], pre) || !strings.HasSuffix(lines[0][len(pre):], post) {
				return false
			}
		} else if s.Line() != lines[0] {
			return false
		}
		steps, lines = steps[1:], lines[1:]
	}
	return len(lines) == 0
}

func (r *gopherRun) fetch(ctx context.Context, req gopher.Request) (*gopher.Response, error) {
	resp, err := r.gc.Fetch(ctx, r.addr, req)
	if err != nil {
		return nil, r.errorf("%w", err)
	}
	return resp, nil
}

// search asks for the search string of a type-7 item (§3.4.2) and sends it.
func (r *gopherRun) search(ctx context.Context, d *gopherPlan) (*Response, error) {
	req, err := r.askSearch(d)
	if err != nil {
		return nil, err
	}
	resp, err := r.fetch(ctx, req)
	if err != nil {
		return nil, err
	}
	return r.render(resp, d), nil
}

// askSearch asks for the search string of a type-7 item (§3.4.2) and
// returns the request that sends it.
func (r *gopherRun) askSearch(d *gopherPlan) (gopher.Request, error) {
	if r.c.Prompt == nil {
		return gopher.Request{}, r.errorf("a search (type 7) needs a search string: none is in the URL (add %%09 and the search) and nobody can be asked")
	}
	s, err := r.c.Prompt("Search "+safetext.Escape(Redact(r.p.URL))+": ", false)
	if err != nil {
		return gopher.Request{}, r.errorf("asking for the search: %w", err)
	}
	req := d.req
	req.Search, req.HasSearch = s, true
	return req, r.matchSteps(req, 0, len(r.p.Steps))
}

// ask runs the §3.4.5 form exchange: the item's attributes give its +ASK
// block, whose questions go to c.Prompt; the answers go back as the
// filled form of §3.4.9.
func (r *gopherRun) ask(ctx context.Context, d *gopherPlan) (*Response, error) {
	resp, err := r.askFetch(ctx, d)
	if err != nil {
		return nil, err
	}
	return r.render(resp, d), nil
}

// askFetch runs the form exchange of ask (gopher.Client.Ask), each
// request checked against the plan's steps, and returns the reply to the
// filled form.
func (r *gopherRun) askFetch(ctx context.Context, d *gopherPlan) (*gopher.Response, error) {
	first := true
	check := func(req gopher.Request) error {
		if first {
			first = false
			return r.matchSteps(req, 0, 1)
		}
		return r.matchSteps(req, 1, len(r.p.Steps))
	}
	resp, err := r.gc.Ask(ctx, r.addr, d.req, r.c.Prompt, check)
	if err != nil && !strings.HasPrefix(err.Error(), r.p.URL+": ") {
		err = r.errorf("%w", err)
	}
	return resp, err
}
