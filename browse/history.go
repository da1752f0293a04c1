package browse

import (
	"context"
	"errors"
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// (history.go: the back and forward lists, bookmarks, saving and telnet.)

// push makes v the current page, the old one going to the back history.
func (m *Model) push(v visit) {
	if m.cur.page.URL != "" || m.cur.bookmarks {
		m.back = append(m.back, m.cur)
		if len(m.back) > maxBack {
			m.back = m.back[len(m.back)-maxBack:]
		}
		trim(m.back)
	}
	m.forward = m.forward[:0]
	m.cur = v
	m.relayout()
}

func (m *Model) goBack() tea.Cmd    { return m.travel(&m.back, &m.forward, "no page before this one") }
func (m *Model) goForward() tea.Cmd { return m.travel(&m.forward, &m.back, "no page after this one") }

// travel makes the last page of from the current one, the current page
// going to the end of to. A page the history no longer keeps whole is
// fetched again.
func (m *Model) travel(from, to *[]visit, none string) tea.Cmd {
	if len(*from) == 0 {
		m.note(none)
		return nil
	}
	*to = append(*to, m.cur)
	trim(*to)
	m.cur = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	m.relayout()
	if m.cur.stale {
		return m.open(m.cur.page.URL, false)
	}
	return nil
}

// keepPages is how many pages each history (back, forward) keeps whole:
// a page may hold megabytes. Older visits keep their URL, title and
// place, and are fetched again when gone back to.
var keepPages = 20

func trim(vs []visit) {
	for i := 0; i < len(vs)-keepPages; i++ {
		v := &vs[i]
		if v.stale || v.bookmarks {
			continue
		}
		stub := &Page{URL: v.page.URL, Title: v.page.Title}
		stub.add("(fetching the page again …)", nil)
		v.page, v.stale = stub, true
	}
}

// follow opens a link: through the access layer, so the §6 guards of a
// typed URL apply to every link a server offered.
func (m *Model) follow(l Link) tea.Cmd {
	if l.URL == "" {
		m.fail(fmt.Errorf("%s is not an RFC 1738 URL: it cannot be followed", l.Label))
		return nil
	}
	target := l.URL
	if l.Ask {
		target += "%09%09?" // §3.4.5: the item's form, asked in the screen
	}
	return m.openTitled(target, true, l.Title)
}

// info shows the Gopher+ attributes of the selected item (§3.4.6).
func (m *Model) info() tea.Cmd {
	l, ok := m.selected()
	if !ok || !l.Plus || l.Gopher == 0 {
		m.note("the selected item is not a Gopher+ item: it has no attributes")
		return nil
	}
	return m.open(l.URL+"%09%09!", true)
}

// saveSelected saves the selected link, or the page when none is.
func (m *Model) saveSelected() tea.Cmd {
	target := m.cur.page.URL
	if l, ok := m.selected(); ok && !m.cur.page.Document {
		target = l.URL
	}
	if target == "" {
		m.fail(errors.New("nothing to save here"))
		return nil
	}
	u, _, err := rfc1738.Read(target)
	if err != nil {
		m.fail(fmt.Errorf("%s is not a URL anything reads: %v", clean(target), err))
		return nil
	}
	return m.startSave(u)
}

func (m *Model) startSave(u rfc1738.URL) tea.Cmd {
	if m.saving != nil {
		m.fail(errors.New("a download is running: wait for it, or Esc to cancel it"))
		return nil
	}
	m.nextOp++
	o := newOperation(context.Background(), m.nextOp, access.Redact(u.String()), 0)
	m.saving = o
	m.progress = "saving " + clean(o.url) + " …"
	go m.download(o, u)
	return o.wait()
}

// telnet suspends the screen for a telnet session (§3.8) and comes back
// when it ends.
func (m *Model) telnet(u rfc1738.URL) tea.Cmd {
	c, err := m.opts.NewClient()
	if err != nil {
		m.fail(err)
		return nil
	}
	c.Prompt = nil
	if _, err := c.Plan(u); err != nil { // §6 guards before the screen goes
		m.fail(err)
		return nil
	}
	url := access.Redact(u.String())
	return tea.Exec(&telnetSession{c: c, u: u}, func(err error) tea.Msg {
		return telnetDoneMsg{url: url, err: err}
	})
}

// addBookmark keeps the current page's URL.
func (m *Model) addBookmark() {
	p := m.cur.page
	if p.URL == "" || m.cur.bookmarks {
		m.fail(errors.New("this page has no URL to keep"))
		return
	}
	es, err := m.store.read(bookmarksFile, maxBookmarks)
	if err == nil {
		for _, e := range es {
			if e.url == p.URL {
				m.note("already a bookmark: " + clean(p.URL))
				return
			}
		}
		err = m.store.write(bookmarksFile, append(es, entry{url: p.URL, title: p.Title}))
	}
	if err != nil {
		m.fail(fmt.Errorf("bookmark not kept: %w", err))
		return
	}
	m.note("bookmark added: " + clean(p.URL))
}

// showStore shows the bookmarks or the history as a page of links.
func (m *Model) showStore(file, title string, limit int) {
	es, err := m.store.read(file, limit)
	if err != nil {
		m.fail(err)
		return
	}
	p := &Page{Title: title}
	if m.store.dir == "" {
		p.add("(no config folder: nothing is kept)", nil)
	}
	if file == historyFile {
		for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
			es[i], es[j] = es[j], es[i]
		}
	}
	for _, e := range es {
		label := e.url
		if e.title != "" {
			label = e.title + "  " + e.url
		}
		p.add(label, &Link{URL: e.url})
	}
	if len(es) == 0 {
		p.add("(none yet: a adds the current page to the bookmarks)", nil)
	}
	m.push(visit{page: p, sel: -1, bookmarks: true})
	m.cur.sel = m.firstLinkFrom(0, 1)
}

func (m *Model) cancelAll() {
	if m.loading != nil {
		m.loading.cancel()
	}
	if m.saving != nil {
		m.saving.cancel()
	}
	if m.prompt != nil {
		m.prompt.reply <- promptReply{err: errCancelled}
		m.prompt = nil
	}
}
