package linkcheck

import (
	"context"
	"net/url"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// skipExternalLocked records s, found at depth > 0 on a page of the run
// and on no site of its input, as skipped (Run.InternalOnly). r.mu is
// held.
func (r *Run) skipExternalLocked(s string, u rfc1738.URL, p Place, depth int) {
	if r.external == nil {
		r.external = map[string]int{}
	}
	key := rfc1738.Normalize(u)
	i, ok := r.external[key]
	if !ok {
		i = len(r.results)
		r.external[key] = i
		r.results = append(r.results, Result{URL: access.Redact(s), Scheme: u.Scheme(), Status: Skipped,
			Detail: "not on a site of the input (--internal-only)"})
		r.done = append(r.done, true)
		r.depth = append(r.depth, int32(depth))
		r.followed = append(r.followed, false)
		r.ndone++
	}
	r.results[i].Places = append(r.results[i].Places, p)
}

// A page is an http or https document read once for the anchors its
// fragments name, however many links point into it.
type page struct {
	once   sync.Once
	status Status
	detail string
	ids    anchors // nil when the page is not HTML
}

// checkFragment checks u, an http or https URL with a fragment: its page
// is fetched (once per run) and the fragment looked up among its ids and
// <a name>s (HTML §7.4.6).
func (r *Run) checkFragment(ctx context.Context, u rfc1738.URL, frag string) (Status, string) {
	pu, err := rfc1738.Parse(u.WithoutFragment())
	if err != nil {
		return r.Checker.CheckURL(ctx, u)
	}
	pg := r.page(pu)
	pg.once.Do(func() {
		var doc *document
		pg.status, pg.detail, doc = r.Checker.checkURL(ctx, pu, true)
		pg.ids = pageAnchors(pg.status, doc)
	})
	if pg.status != OK {
		return pg.status, pg.detail
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if pg.ids == nil {
		return OK, pg.detail + " (not HTML: #" + oneLine(frag) + " not checked)"
	}
	if !pg.ids.has(frag) {
		return BrokenFragment, "no anchor #" + oneLine(frag) + " in the page (" + pg.detail + ")"
	}
	return OK, pg.detail
}

// page returns the entry of the page u (without a fragment).
func (r *Run) page(u rfc1738.URL) *page {
	key := rfc1738.Normalize(u)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pages == nil {
		r.pages = map[string]*page{}
	}
	pg := r.pages[key]
	if pg == nil {
		pg = &page{}
		r.pages[key] = pg
	}
	return pg
}

// pageRead keeps the anchors of a page a recursive run read to follow
// it, so that the fragments into it need no second GET.
func (r *Run) pageRead(u rfc1738.URL, status Status, detail string, doc *document) {
	pg := r.page(u)
	pg.once.Do(func() { pg.status, pg.detail, pg.ids = status, detail, pageAnchors(status, doc) })
}

func pageAnchors(status Status, doc *document) anchors {
	if status != OK || doc == nil || !doc.html {
		return nil
	}
	var d docScan
	scanHTMLBytes(doc.body, position{line: 1}, &d)
	return d.ids
}
