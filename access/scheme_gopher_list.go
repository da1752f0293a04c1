package access

import (
	"context"
	"fmt"

	"github.com/rfc1738/rfc1738/access/gopher"
)

// Stat implements Stater: the plan's request, and the first bytes of the
// reply (gopher.Client.Probe). A type-7 search without a search string
// is sent as its selector alone, without a query; a Gopher+ "?" item
// (§3.4.5) is asked for its attributes.
func (gopherHandler) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
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
	return info, nil
}
