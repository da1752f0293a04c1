package access

import (
	"bytes"
	"io"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/gopher"
)

// The gopher handler's responses (scheme_gopher.go): a reply read by
// item type, a menu rendered per Client.Listing (gopher.MenuRenderer),
// text as local text unless KeepLineEnds, Gopher+ attribute blocks
// (gopher.WriteAttributes), and the body that names the URL in its errors.
// render returns the Response for a fetched item: menus as a listing per
// c.Listing, everything else as the item's bytes.
func (r *gopherRun) render(resp *gopher.Response, d *gopherPlan) *Response {
	r.mu.Lock()
	status := r.status
	r.mu.Unlock()
	out := &Response{Size: -1, URL: r.p.URL, Plan: r.p}
	b := &gopherBody{run: r, resp: resp, needDot: resp.Plus && status == "+-1"}
	switch {
	case resp.Kind == gopher.Menu && r.c.Listing != ListingRaw:
		b.r = gopher.NewMenuRenderer(resp.Menu(), r.c.Listing == ListingJSON)
		out.Type = r.c.Listing.mediaType("text/plain; charset=utf-8")
	case resp.Kind == gopher.Menu:
		b.r = resp.Body
		out.Type = "application/gopher-menu"
	default:
		b.r = resp.Body
		out.Size = resp.Size
		out.Type = gopher.MediaType(resp.Request.ItemType())
		if d.kind == rfc1738.PlusAlternateView && d.req.HasPlus {
			view, _, _ := strings.Cut(d.req.Plus[1:], " ")
			out.Type = view
		} else if resp.Request.ItemType() == '0' && r.c.Listing != ListingRaw && !r.c.KeepLineEnds {
			// RFC 1436: text items are lines ending in CRLF; like ftp's
			// TYPE A they are written as local text, and the count of
			// bytes written is no longer the count announced.
			b.r = newLocalText(resp.Body)
			out.Size = -1
		}
	}
	out.Body = b
	return out
}

// ErrNotGopherPlus is wrapped by the error of a Gopher+ attribute request
// (§3.4.6, §3.4.7) that the server answered as a Gopher-0 one, without a
// Gopher+ status line.
var ErrNotGopherPlus = gopher.ErrNotGopherPlus

// gopherBody is a Response.Body of the gopher handler: it names the URL in
// its errors and turns a "+-1" reply that ends without its "." into an
// error rather than a silently short item.
type gopherBody struct {
	run     *gopherRun
	resp    *gopher.Response
	r       io.Reader
	needDot bool
	err     error
}

func (b *gopherBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	switch {
	case err == io.EOF && b.needDot && !b.resp.Terminated():
		b.err = b.run.errorf("the reply was announced as +-1, ended by a lone \".\" line, but the server closed the connection before it: %w", io.ErrUnexpectedEOF)
	case err != nil && err != io.EOF:
		b.err = b.run.errorf("%w", err)
	default:
		return n, err
	}
	return n, b.err
}

// WriteTo hands the copy to the gopher body's own WriteTo, which can
// splice a binary item into a file (internal/zerocopy), when nothing
// stands between them: no menu rendering and no "+-1" end to check.
func (b *gopherBody) WriteTo(w io.Writer) (int64, error) {
	wt, ok := b.r.(io.WriterTo)
	if !ok || b.needDot || b.r != io.Reader(b.resp.Body) {
		return io.Copy(w, struct{ io.Reader }{b})
	}
	if b.err != nil {
		return 0, b.err
	}
	n, err := wt.WriteTo(w)
	if err != nil {
		b.err = b.run.errorf("%w", err)
	}
	return n, b.err
}

func (b *gopherBody) Close() error { return b.resp.Body.Close() }

// attributes renders a "!" or "$" reply (§3.4.6, §3.4.7) per c.Listing:
// the raw attribute lines, JSON Lines (one object an item), or for people
// each item's listing line followed by its blocks, views with their URLs.
func (r *gopherRun) attributes(resp *gopher.Response, d *gopherPlan) (*Response, error) {
	if !resp.Plus {
		resp.Body.Close()
		return nil, r.errorf("%w: it answered the attribute request %q with a plain item", gopher.ErrNotGopherPlus, d.req.Plus)
	}
	out := &Response{Size: -1, URL: r.p.URL, Plan: r.p}
	if r.c.Listing == ListingRaw {
		out.Type = "text/plain"
		out.Body = &gopherBody{run: r, resp: resp, r: resp.Body}
		return out, nil
	}
	blocks, err := resp.Attributes()
	if err != nil {
		return nil, r.errorf("%w", err)
	}
	var buf bytes.Buffer
	gopher.WriteAttributes(&buf, blocks, r.c.Listing == ListingJSON)
	out.Type = r.c.Listing.mediaType("text/plain; charset=utf-8")
	out.Body = io.NopCloser(&buf)
	return out, nil
}
