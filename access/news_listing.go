package access

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/rfc1738/rfc1738/access/nntp"
)

// The news handler's listings (scheme_news.go): a group's overview (OVER)
// and the list of groups (LIST ACTIVE), rendered per Client.Listing a page
// at a time (nntp.PageReader) as they arrive.
// over sends OVER low-high for the group GROUP selected and returns the
// listing, rendered as it streams.
func (r *newsRun) over(ctx context.Context) (io.ReadCloser, string, error) {
	g := r.group
	if g.Name == "" {
		return nil, "", errors.New("OVER: no GROUP before it in the plan")
	}
	typ := r.c.Listing.mediaType("text/plain")
	var head []byte
	if r.c.Listing == ListingText {
		head = fmt.Appendf(nil, "%s  about %d articles, numbers %d-%d, at %s\n", g.Name, g.Count, g.Low, g.High, nntp.NNTPURL(r.host, r.port, g.Name, 0))
	}
	if g.High < g.Low || g.High == 0 {
		// RFC 3977 §6.1.1.2: an empty group has high < low (or all 0);
		// there is no range to ask for.
		r.c.trace('!', "GROUP says "+g.Name+" is empty: OVER not sent")
		return nntp.NewPageReader(head, func(dst []byte) ([]byte, error) { return dst, io.EOF }, r.finish), typ, nil
	}
	next, stop := iter.Pull2(r.conn.Over(ctx, nntp.Range{Low: g.Low, High: g.High}))
	var page []nntp.OverviewLine
	var text bytes.Buffer
	var js nntp.JSONLines
	b := nntp.NewPageReader(head, nil, func() error {
		stop() // drains the rest of the listing, if any, so QUIT is in step
		return r.finish()
	})
	b.Next = func(dst []byte) ([]byte, error) {
		page = page[:0]
		for len(page) < newsPage {
			ov, err, ok := next()
			if !ok {
				break
			}
			if err != nil {
				return dst, fmt.Errorf("%s: %w", r.p.URL, err)
			}
			switch r.c.Listing {
			case ListingRaw:
				// The overview line as the server sent it (RFC 3977
				// §8.3.2), dot-unstuffed.
				return append(append(dst, r.last...), '\n'), nil
			case ListingJSON:
				return js.Append(dst, nntp.NewArticleItem(ov, r.host, r.port))
			}
			page = append(page, ov)
		}
		if len(page) == 0 {
			return dst, io.EOF
		}
		text.Reset()
		if err := nntp.WriteGroupListing(&text, page, r.host, r.port); err != nil {
			return dst, err
		}
		// A blank line before each page: WriteGroupListing separates
		// the blocks within a page the same way.
		dst = append(dst, '\n')
		return append(dst, text.Bytes()...), nil
	}
	return b, typ, nil
}

// listActive sends LIST ACTIVE (RFC 3977 §7.6.3; the client falls back to
// LIST for RFC 977 servers) and renders the groups for news:* as they
// arrive, a page at a time: memory stays flat however long the list.
func (r *newsRun) listActive(ctx context.Context, s Step) (io.ReadCloser, string, error) {
	if s.Line() != "LIST ACTIVE" {
		return nil, "", fmt.Errorf("step %q is not one this handler executes", s.Line())
	}
	next, stop := iter.Pull2(r.conn.Active(ctx))
	// The status line (215) comes before the first group: an error there
	// is the handler's, not the body's.
	first, err, ok := next()
	if err != nil {
		stop()
		return nil, "", err
	}
	var page []nntp.ActiveGroup
	var text bytes.Buffer
	var js nntp.JSONLines
	pending, header := ok, true
	b := nntp.NewPageReader(nil, nil, func() error {
		stop() // drains the rest of the list, if any, so QUIT is in step
		return r.finish()
	})
	b.Next = func(dst []byte) ([]byte, error) {
		page = page[:0]
		for len(page) < newsPage {
			g := first
			if pending {
				pending = false
			} else {
				var err error
				if g, err, ok = next(); !ok {
					break
				} else if err != nil {
					return dst, fmt.Errorf("%s: %w", r.p.URL, err)
				}
			}
			switch r.c.Listing {
			case ListingRaw:
				// The active line as the server sent it.
				return append(append(dst, r.last...), '\n'), nil
			case ListingJSON:
				return js.Append(dst, nntp.NewGroupItem(g, r.host, r.port))
			}
			page = append(page, g)
		}
		if len(page) == 0 && (!header || r.c.Listing != ListingText) {
			return dst, io.EOF
		}
		text.Reset()
		if err := nntp.WriteActivePage(&text, page, r.host, r.port, header); err != nil {
			return dst, err
		}
		header = false
		return append(dst, text.Bytes()...), nil
	}
	return b, r.c.Listing.mediaType("text/plain"), nil
}
