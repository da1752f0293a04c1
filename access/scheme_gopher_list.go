package access

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/gopher"
)

// Stat implements Stater: the plan's request, and the first bytes of the
// reply (gopher.Client.Probe). A type-7 search without a search string
// is sent as its selector alone, without a query; a Gopher+ "?" item
// (§3.4.5) is asked for its attributes.
func (Gopher) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	d, ok := p.Data.(*gopherPlan)
	if !ok {
		return nil, fmt.Errorf("%s: the plan was not made by the gopher handler", p.URL)
	}
	req := d.req
	if d.mode == gopherAsk {
		req = d.attr
	}
	gc := gopher.Client{Trace: c.tracer()}
	probe, err := gc.Probe(ctx, p.Connect, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	info := &Info{Kind: KindFile, Size: -1}
	what := "item"
	switch probe.Kind {
	case gopher.Menu:
		what, info.Kind = "menu", KindDirectory
	case gopher.Text:
		what = "text"
	}
	if req.ItemType() == '7' {
		info.Kind = KindSearch
		if d.mode == gopherSearch {
			what = "search (sent without a query)"
		}
	}
	info.Detail = fmt.Sprintf("%s type %c, first %d bytes read", what, req.ItemType(), probe.Bytes)
	if probe.Bytes == 0 {
		info.Size = 0
		info.Detail = fmt.Sprintf("empty %s type %c", what, req.ItemType())
	}
	return info, nil
}

// List implements Lister for a menu (type 1) or a search (type 7, the
// search asked as Get asks it when the URL has none; a form filled as Get
// fills it, §3.4.5): the items of the
// reply (RFC 1436), each with its type, selector, host, port and
// Gopher+ mark in Attrs, and "line", the menu line as sent. An
// unreadable menu line is a *LineError.
func (Gopher) List(ctx context.Context, c *Client, p *Plan) (*Entries, error) {
	d, ok := p.Data.(*gopherPlan)
	if !ok {
		return nil, fmt.Errorf("%s: the plan was not made by the gopher handler", p.URL)
	}
	if gopher.KindOf(d.req.ItemType()) != gopher.Menu || d.mode == gopherAttributes {
		return nil, fmt.Errorf("%s: %w: gopher type %c is not a menu or a search", p.URL, ErrNotListable, d.req.ItemType())
	}
	run := &gopherRun{c: c, p: p, addr: p.Connect}
	run.gc = &gopher.Client{Trace: run.trace}
	var resp *gopher.Response
	var err error
	switch req := d.req; d.mode {
	case gopherAsk: // a menu behind a form (§3.4.5)
		resp, err = run.askFetch(ctx, d)
	case gopherSearch:
		if req, err = run.askSearch(d); err == nil {
			resp, err = run.fetch(ctx, req)
		}
	default:
		if err = run.matchSteps(req, 0, len(p.Steps)); err == nil {
			resp, err = run.fetch(ctx, req)
		}
	}
	if err != nil {
		return nil, err
	}
	mr := resp.Menu()
	// The menu reader skips a line it cannot use and keeps it in
	// Malformed: each is reported before the item that followed it.
	seen := 0
	var held *gopher.Item
	var heldErr error
	next := func() (Entry, error) {
		if held == nil && heldErr == nil {
			it, err := mr.Next()
			held, heldErr = &it, err
		}
		if seen < len(mr.Malformed) {
			le := mr.Malformed[seen]
			seen++
			return Entry{}, &LineError{Line: le.Text, Reason: "unreadable menu line: " + le.Reason}
		}
		it, err := held, heldErr
		held, heldErr = nil, nil
		switch {
		case err == io.EOF:
			return Entry{}, io.EOF
		case err != nil:
			return Entry{}, run.errorf("%w", err)
		}
		return gopherEntry(*it), nil
	}
	return NewEntries(next, resp.Body.Close), nil
}

// gopherEntry is a menu item as an Entry.
func gopherEntry(it gopher.Item) Entry {
	e := Entry{Name: it.Display, Kind: KindFile, Size: -1, Attrs: map[string]string{
		"type": gopher.NewJSONItem(it).Type, "label": gopher.TypeName(it.Type),
		"selector": it.Selector, "host": it.Host, "port": strconv.Itoa(it.Port), "line": it.Raw,
	}}
	if it.Plus {
		e.Attrs["plus"] = "+"
	}
	if it.Ask {
		e.Attrs["plus"] = "?"
	}
	switch it.Type {
	case 'i', '3':
		e.Kind = KindInfo
		return e
	case '1':
		e.Kind = KindDirectory
	case '7':
		e.Kind = KindSearch
	case '8', 'T':
		e.Kind = KindSession
	case '2':
		e.Kind = KindOther
	}
	e.URL = it.Link()
	return e
}

// Binary reports whether u names binary data by its own form: a gopher
// item of a type that is neither a menu nor text (RFC 1436), asked for
// without a Gopher+ view. A browser saves such an item rather than show
// it.
func Binary(u rfc1738.URL) bool {
	g, ok := u.Gopher()
	return ok && gopher.KindOf(g.Type) == gopher.Binary && !g.HasPlus
}
