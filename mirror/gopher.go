package mirror

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/atomicfile"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// GopherMenuName is the local name of a saved menu inside the folder of
// its selector. No local name made of a remote one starts with a bare
// "%" (localSegment writes it "%25"), so it collides with nothing.
const GopherMenuName = "%gophermap"

// GopherPlusSuffix ends the local name of the Gopher+ attributes of an
// item, saved beside it: "docs/a.txt" has "docs/a.txt%gopher+", a menu
// "docs/%gophermap" has "docs/%gophermap%gopher+". A remote name that
// ends this way has its "%" written "%25" (localSegment), so no item's
// own name does.
const GopherPlusSuffix = "%gopher+"

// A gopher mirror reaches the server through the access handler alone:
// its List reads each menu (access/gopher's menu reader), its Get each
// document (the text reader, lines kept as sent) and each item's Gopher+
// attributes.

// gopherItem is an item of a menu: what the walk keeps of an Entry.
type gopherItem struct {
	Type     byte
	Selector string
	Host     string
	Port     int
	Plus     bool
	url      string
}

// URL is the item's gopher URL.
func (it gopherItem) URL() string { return it.url }

// itemOf is the gopherItem of a menu entry. Its strings are copies: the
// entry's share the menu line, display string included, which the walk
// does not keep.
func itemOf(e access.Entry) gopherItem {
	it := gopherItem{Selector: strings.Clone(e.Attrs["selector"]), Host: strings.Clone(e.Attrs["host"]), Plus: e.Attrs["plus"] != "", url: e.URL}
	if t := e.Attrs["type"]; len(t) == 1 {
		it.Type = t[0]
	}
	it.Port, _ = strconv.Atoi(e.Attrs["port"])
	return it
}

// gopherSite is one gopher mirror.
type gopherSite struct {
	c    *access.Client // text kept as sent; attributes as sent
	raw  *access.Client // the same, with Gopher+ attribute replies as sent
	host string         // host:port of the URL

	// For --delete: the local paths the menus read in this run named,
	// and the menus read whole.
	mu    sync.Mutex
	named map[string]bool
	whole map[string]bool
	// The local paths given to an item in this run: two selectors of
	// one local name ("" and "/", "/docs" and "/docs/") are one item,
	// fetched and saved once.
	claimed map[string]bool
}

// claim reports whether local is free in this run, and takes it.
func (s *gopherSite) claim(local string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.claimed[local] {
		return false
	}
	s.claimed[local] = true
	return true
}

func (r *run) mirrorGopher(ctx context.Context, u rfc1738.URL) error {
	v, _ := u.Gopher()
	if v.Type != '1' {
		return fmt.Errorf("mirror: %s is not a gopher menu (type %q); only a menu (type 1) can be mirrored", u, v.Type)
	}
	s := &gopherSite{c: r.opt.Access.Clone(), host: strings.ToLower(u.HostPort()), named: map[string]bool{}, whole: map[string]bool{}, claimed: map[string]bool{}}
	s.c.KeepLineEnds = true // a copy keeps the server's bytes
	s.raw = s.c.Clone()
	s.raw.Listing = access.ListingRaw
	it := gopherItem{Type: '1', Selector: v.Selector, Host: u.Host(), Port: u.PortNumber()}
	if it.Port == 0 {
		it.Port = u.DefaultPort()
	}
	port := it.Port
	if port == 70 {
		port = 0 // the default is left out
	}
	b, err := rfc1738.GopherURL{Host: it.Host, Port: port, Type: '1', Selector: it.Selector}.Append(nil)
	if err != nil {
		return fmt.Errorf("mirror: %s: %w", u, err)
	}
	it.url = string(b)
	s.claim(s.localPath(it))
	r.addGopher(s, it, 0, "")
	if err := r.fr.Run(ctx); err != nil {
		return err
	}
	if r.opt.Delete {
		r.gopherDelete(s)
	}
	return nil
}

// gopherDelete removes the local copies of items gone from their menu:
// a record whose menu was read whole in this run, and that no menu read
// in this run named, is deleted, and so, in turn, is everything listed
// by a menu so deleted. An item whose menu was not read (it failed, it is
// on another server not followed, or below --depth) stays: a selector
// may put an item anywhere, so only its own menu can say it is gone.
// Every removal goes through os.Root (never outside DIR); a folder left
// empty is removed too.
func (r *run) gopherDelete(s *gopherSite) {
	recs := r.man.gopherRecords()
	s.mu.Lock()
	gone := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, rec := range recs {
			if !gone[rec.Path] && !s.named[rec.Path] && (s.whole[rec.Menu] || gone[rec.Menu]) {
				gone[rec.Path], changed = true, true
			}
		}
	}
	s.mu.Unlock()
	paths := make([]string, 0, len(gone))
	for p := range gone {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if r.opt.DryRun {
			r.logf("would delete %s", p)
			r.count(func(st *Stats) { st.Deleted++ })
			continue
		}
		if err := r.root.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.logf("delete %s: %v", p, err.Error())
			r.fail(err)
			continue
		}
		r.logf("deleted %s", p)
		r.count(func(st *Stats) { st.Deleted++ })
		r.man.add(Record{Path: p, Deleted: true})
		for dir := parentDir(p); dir != ""; dir = parentDir(dir) {
			if r.root.Remove(dir) != nil { // not empty
				break
			}
		}
	}
}

// name records that a menu read in this run named local paths ps.
func (s *gopherSite) name(ps ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range ps {
		s.named[p] = true
	}
}

// menuRead records the end of reading a menu: whole or not.
func (s *gopherSite) menuRead(local string, whole bool) {
	if whole {
		s.mu.Lock()
		s.whole[local] = true
		s.mu.Unlock()
	}
}

// localPath is the local path of item it: its selector's parts made safe
// (see localSegment), under "%host:port/" when it is on another server
// than the URL's; a menu is the folder, its lines in GopherMenuName.
func (s *gopherSite) localPath(it gopherItem) string {
	var parts []string
	if hp := s.itemHost(it); hp != s.host {
		parts = append(parts, "%"+localSegment(hp))
	}
	for _, seg := range strings.Split(it.Selector, "/") {
		if seg != "" {
			parts = append(parts, localSegment(seg))
		}
	}
	if it.Type == '1' {
		parts = append(parts, GopherMenuName)
	} else if len(parts) == 0 || (len(parts) == 1 && strings.HasPrefix(parts[0], "%") && s.itemHost(it) != s.host) {
		parts = append(parts, "%root")
	}
	return strings.Join(parts, "/")
}

func (s *gopherSite) itemHost(it gopherItem) string {
	return strings.ToLower(net.JoinHostPort(it.Host, strconv.Itoa(it.Port)))
}

// addGopher queues item it, listed by the menu whose local path is menu.
func (r *run) addGopher(s *gopherSite, it gopherItem, depth int, menu string) {
	r.add(it.URL(), depth, func(ctx context.Context, wd *watchdog.Watchdog) {
		if it.Type == '1' {
			r.gopherMenu(ctx, wd, s, it, depth, menu)
		} else {
			r.gopherDoc(ctx, wd, s, it, menu)
		}
	})
}

// keepsCopy tells an item the mirror saves (a menu, document or binary)
// from one it only records: info and error lines (i, 3; RFC 1436 and
// its common extension), searches (7), telnet sessions (8, T), CSO
// phone books (2) and "h URL:" links out of gopherspace.
func keepsCopy(it gopherItem) bool {
	switch it.Type {
	case 'i', '3', '7', '8', 'T', '2':
		return false
	}
	return !strings.HasPrefix(it.Selector, "URL:")
}

// guard applies get's §6 port guard to an item on another server than
// the URL's: a menu may aim an item at any host and port (RFC 1436), and
// following it must not make a retrieval talk to another protocol's
// server (§6's example is a gopher URL that sends mail). A refusal is
// reported and counted, never fatal.
func (r *run) guard(it gopherItem) bool {
	u, err := parseURL(it.URL())
	if err == nil {
		_, err = r.opt.Access.CheckPort(u)
	}
	if err != nil {
		r.logf("refused %s", err.Error())
		r.count(func(st *Stats) { st.Refused++ })
		return false
	}
	return true
}

// gopherDoc fetches one document or binary item.
func (r *run) gopherDoc(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem, menu string) {
	r.gopherDocWith(ctx, wd, s, it, menu, nil)
}

// gopherRecheck asks the attributes of a Gopher+ document the manifest
// has whole, and fetches it again when they differ from the ones saved
// beside it (+ADMIN's Mod-Date, Gopher+'s time of the item, or a size in
// +VIEWS changed): a menu alone says nothing of a change.
func (r *run) gopherRecheck(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem, menu string) {
	b, ok := r.fetchAttributes(ctx, wd, s, it)
	if !ok {
		return
	}
	sum := sha256.Sum256(b)
	if old, found := r.man.read(s.localPath(it) + GopherPlusSuffix); found && old.SHA256 == hex.EncodeToString(sum[:]) {
		return
	}
	r.count(func(st *Stats) { st.Unchanged--; st.Planned++ })
	if r.opt.Verbose {
		r.logf("changed %s: its Gopher+ attributes differ", it.URL())
	}
	r.gopherDocWith(ctx, wd, s, it, menu, b)
}

// gopherVerify fetches again a plain gopher document the manifest has
// whole (Options.Recheck), and replaces the local copy only when the
// SHA-256 of what came differs from the manifest's: an identical copy
// is left as it was, its time included.
func (r *run) gopherVerify(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem, menu string) {
	u := it.URL()
	local := s.localPath(it)
	old, _ := r.man.read(local)
	resp, ok := r.gopherGet(ctx, s, u)
	if !ok {
		return
	}
	h := sha256.New()
	cw := &countWriter{h: h}
	end := &verifyEnd{body: resp.Body, same: func() bool { return hex.EncodeToString(h.Sum(nil)) == old.SHA256 }}
	err := atomicfile.WriteIn(r.root, local, io.TeeReader(r.limited(wd.Reader(resp.Body), r.opt.MaxSize), cw), end)
	switch {
	case errors.Is(err, errSame):
		if r.opt.Verbose {
			r.logf("verified %s: its SHA-256 is the manifest's", u)
		}
		return
	case err != nil:
		resp.Body.Close()
		r.fileFailed(ctx, u, err)
		return
	}
	r.count(func(st *Stats) { st.Unchanged--; st.Planned++ })
	r.logf("changed %s: its SHA-256 differs from the manifest's; replaced", u)
	r.record(Record{URL: u, Path: local, Menu: menu, Size: cw.n}, cw.n, h)
}

// gopherGet asks for the document u; false (reported) when it cannot.
func (r *run) gopherGet(ctx context.Context, s *gopherSite, u string) (*access.Response, bool) {
	iu, err := parseURL(u)
	if err == nil {
		var resp *access.Response
		if resp, err = s.c.Get(ctx, iu); err == nil {
			return resp, true
		}
	}
	r.fileFailed(ctx, u, err)
	return nil, false
}

// errSame ends the write of a rechecked document identical to its copy:
// atomicfile drops what it wrote.
var errSame = errors.New("the same bytes as the local copy")

// verifyEnd is the closer of a rechecked document: it reads the
// protocol's end, then refuses the new file when it is the same.
type verifyEnd struct {
	body io.Closer
	same func() bool
}

func (v *verifyEnd) Close() error {
	if err := v.body.Close(); err != nil {
		return err
	}
	if v.same() {
		return errSame
	}
	return nil
}

// gopherDocWith fetches a document, then saves attrs beside it, or, when
// attrs is nil, asks its attributes.
func (r *run) gopherDocWith(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem, menu string, attrs []byte) {
	u := it.URL()
	local := s.localPath(it)
	if r.totalReached() {
		r.logf("skipped %s: --max-total reached", local)
		r.count(func(st *Stats) { st.Skipped++; st.Planned-- })
		return
	}
	if err := r.mkdir(parentDir(local)); err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	resp, ok := r.gopherGet(ctx, s, u)
	if !ok {
		return
	}
	// A menu gives no size: --max-size and --max-total count the
	// bytes as they come.
	if !r.save(ctx, Record{URL: u, Path: local, Menu: menu}, r.limited(wd.Reader(resp.Body), r.opt.MaxSize), resp.Body) {
		return
	}
	if attrs != nil {
		r.saveAttributes(ctx, it, local, menu, attrs)
		return
	}
	r.gopherAttributes(ctx, wd, s, it, local, menu)
}

// gopherAttributes fetches the Gopher+ attributes of an item its menu
// marks as a Gopher+ one (a fifth field "+" or "?") with the request
// "selector TAB !" (RFC 1738 §3.4.6: "!" is all of an item's
// attributes), and saves their blocks (+INFO, +ADMIN, +VIEWS, +ABSTRACT…)
// beside the item's local copy, under its name and GopherPlusSuffix, as
// lines ending in CRLF: "+NAME: value", then the block's lines each
// after one space, as the Gopher+ protocol writes them. The manifest
// records it under the attribute request's URL ("…%09%09!", §3.4.3)
// with kind "gopher+". A server that answers without a Gopher+ status
// line is a Gopher-0 one: nothing is saved, and the item stays.
func (r *run) gopherAttributes(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem, local, menu string) {
	if !it.Plus || r.opt.DryRun {
		return
	}
	if b, ok := r.fetchAttributes(ctx, wd, s, it); ok {
		r.saveAttributes(ctx, it, local, menu, b)
	}
}

func (r *run) saveAttributes(ctx context.Context, it gopherItem, local, menu string, b []byte) {
	if !r.charge(int64(len(b))) {
		r.fileFailed(ctx, it.URL()+"%09%09!", r.errTotal())
		return
	}
	r.save(ctx, Record{URL: it.URL() + "%09%09!", Path: local + GopherPlusSuffix, Kind: KindGopherPlus, Menu: menu}, bytes.NewReader(b), io.NopCloser(nil))
}

// fetchAttributes asks the attributes of it and returns them as saved:
// the Gopher+ reply as sent, its end marker removed; false (reported)
// when there are none.
func (r *run) fetchAttributes(ctx context.Context, wd *watchdog.Watchdog, s *gopherSite, it gopherItem) ([]byte, bool) {
	u := it.URL() + "%09%09!"
	au, err := parseURL(u)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return nil, false
	}
	resp, err := s.raw.Get(ctx, au)
	if errors.Is(err, access.ErrNotGopherPlus) {
		r.logf("no Gopher+ attributes for %s: the server answered without a Gopher+ status line", it.URL())
		return nil, false
	}
	if err != nil {
		r.fileFailed(ctx, u, err)
		return nil, false
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(wd.Reader(io.LimitReader(resp.Body, maxAttributes+1))); err != nil {
		r.fileFailed(ctx, u, err)
		return nil, false
	}
	if b.Len() > maxAttributes {
		r.fileFailed(ctx, u, fmt.Errorf("the attributes are longer than %d bytes", maxAttributes))
		return nil, false
	}
	return b.Bytes(), true
}

// maxAttributes bounds the Gopher+ attributes of one item.
const maxAttributes = 1 << 20

func parentDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
