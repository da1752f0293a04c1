package linkcheck

import (
	"context"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/wais"
)

// waisProbeTerm is searched for in a database URL that has no search of
// its own: any answer without a diagnostic proves the database is there.
const waisProbeTerm = "a"

// checkWAIS checks a wais URL (§3.9): the Z39.50 init, then a search
// whose first record, if any, is presented; a document URL is retrieved
// by its WAIS document id.
func (k *Checker) checkWAIS(ctx context.Context, u rfc1738.URL) outcome {
	w, _ := u.WAIS()
	c, err := wais.Dial(ctx, u.HostPort(), wais.Config{Trace: k.Client.Trace})
	if err != nil {
		return broken(err)
	}
	defer c.Close()
	if w.IsDocument {
		if _, err := c.Retrieve(ctx, w.Database, w.Type, w.Path); err != nil {
			return broken(err)
		}
		return okay("document retrieved")
	}
	terms := waisProbeTerm
	if w.HasSearch {
		if terms, err = rfc1738.Unescape(w.Search); err != nil {
			return outcome{status: Invalid, detail: err.Error()}
		}
	}
	res, err := c.Search(ctx, w.Database, terms)
	if err != nil {
		return broken(err)
	}
	if res.Hits > 0 {
		if _, err := c.Present(ctx, 1, 1, nil); err != nil {
			return broken(err)
		}
	}
	if !w.HasSearch {
		return okay("database %s answers a search", w.Database)
	}
	return okay("%d hits", res.Hits)
}
