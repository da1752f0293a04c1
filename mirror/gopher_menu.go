package mirror

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// gopherMenu fetches a menu, saves its lines, and queues its items:
// menus on the same server (any with SpanHosts) are followed, documents
// and binaries fetched; searches (7), telnet sessions (8, T), CSO (2)
// and "h URL:" links are recorded in the saved menu, not followed.
func (r *run) gopherMenu(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, menu gopherItem, depth int, parent string) {
	u := menu.URL()
	local := s.localPath(menu)
	whole := false
	defer func() { s.menuRead(local, whole) }()
	if r.totalReached() {
		// --max-total counts the menus too: a hole of menus that
		// link to new menus ends there.
		r.logf("skipped %s: --max-total reached", u)
		r.count(func(st *Stats) { st.Skipped++ })
		return
	}
	mu, err := parseURL(u)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	ents, err := s.c.List(ctx, mu)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	saved, items, recorded, plus, ok := r.readMenu(ctx, wd, s, menu, u, ents)
	if !ok {
		return
	}
	r.count(func(st *Stats) { st.Dirs++; st.Recorded += recorded })
	if parent == "" && !menu.Plus {
		// No menu line marked the URL's own menu; its server is a
		// Gopher+ one when it marks the menu's items so.
		menu.Plus = plus
	}
	if r.opt.Delete {
		// Each item that has a local copy, followed in this run or
		// not (another server, --depth), keeps it and its attributes;
		// a menu with a line that could not be read is not whole.
		whole = r.listedWhole(ents, u)
		var named []string
		for _, it := range items {
			p := s.localPath(it)
			named = append(named, p, p+GopherPlusSuffix)
		}
		s.name(named...)
	}
	if !r.opt.DryRun {
		if err := r.mkdir(parentDir(local)); err != nil {
			r.fileFailed(ctx, u, err)
			return
		}
		r.save(ctx, Record{URL: u, Path: local, Menu: parent}, saved, io.NopCloser(nil))
		r.gopherAttributes(ctx, wd, s, menu, local, parent)
	}
	r.followItems(s, items, depth, local)
}

// readMenu reads menu's listing: the lines as received (saved, bounded
// by the menu reader's 16 MiB), the items the walk follows or names
// (items), and a count of those it only records. Of a line that cannot be
// read it logs and counts a refusal. --max-total counts every line; false
// when the menu failed, which it reports.
func (r *run) readMenu(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, menu gopherItem, u string, ents *access.Entries) (saved *bytes.Buffer, items []gopherItem, recorded int, plus, ok bool) {
	saved = new(bytes.Buffer)
	for {
		e, err := ents.Next()
		wd.Touch()
		var le *access.LineError
		if errors.As(err, &le) {
			r.logf("unreadable menu line in %s: %q", u, le.Line)
			r.count(func(st *Stats) { st.Refused++ })
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			ents.Close()
			r.fileFailed(ctx, u, err)
			return nil, nil, 0, false, false
		}
		if !r.charge(int64(len(e.Attrs["line"]) + 2)) {
			ents.Close()
			r.fileFailed(ctx, u, r.errTotal())
			return nil, nil, 0, false, false
		}
		saved.WriteString(e.Attrs["line"])
		saved.WriteString("\r\n")
		it := itemOf(e)
		plus = plus || it.Plus && s.itemHost(it) == s.itemHost(menu)
		switch {
		case it.Type == 'i' || it.Type == '3':
		case keepsCopy(it):
			items = append(items, it)
		default:
			recorded++
		}
	}
	if err := ents.Close(); err != nil {
		r.fileFailed(ctx, u, err)
		return nil, nil, 0, false, false
	}
	return saved, items, recorded, plus, true
}

// followItems queues the items of a menu saved at local: menus to walk
// (within --depth), documents and binaries to fetch unless the manifest
// has them complete; another server's only with --span-hosts and past
// the §6 guard.
func (r *run) followItems(s *gopherSite, items []gopherItem, depth int, local string) {
	for _, it := range items {
		switch {
		case !r.opt.SpanHosts && s.itemHost(it) != s.host:
			r.count(func(st *Stats) { st.Recorded++ })
			continue
		case s.itemHost(it) != s.host && !r.guard(it):
			continue
		}
		rel := s.localPath(it)
		if !s.claim(rel) {
			continue // "/x" and "/x/": one name, one item
		}
		if it.Type == '1' {
			if r.opt.Depth > 0 && depth+2 > r.opt.Depth {
				continue
			}
			r.addGopher(s, it, depth+1, local)
			continue
		}
		// A menu names no size or time: a document already complete in
		// the manifest is not fetched again. A Gopher+ one is fetched
		// when its attributes (+ADMIN's Mod-Date, +VIEWS' sizes)
		// changed; a plain one, with Recheck, when its SHA-256 did; else
		// it is kept unverified, and counted so.
		if fetch, unchanged := r.want(rel, -1, zeroTime); !fetch {
			switch {
			case !unchanged:
			case it.Plus && !r.opt.DryRun:
				r.add(it.URL(), depth, func(ctx context.Context, wd *watchdog.Watchdog) { r.gopherRecheck(ctx, wd, s, it, local) })
			case r.opt.Recheck && !r.opt.DryRun:
				r.add(it.URL(), depth, func(ctx context.Context, wd *watchdog.Watchdog) { r.gopherVerify(ctx, wd, s, it, local) })
			default:
				r.count(func(st *Stats) { st.Unchanged--; st.NotRechecked++ })
			}
			continue
		}
		if r.opt.DryRun {
			r.logf("would fetch %s -> %s", it.URL(), rel)
			continue
		}
		r.addGopher(s, it, depth, local)
	}
}
