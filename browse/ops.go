package browse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/edit"
	"github.com/rfc1738/rfc1738/internal/atomicfile"
)

// An operation is one fetch or download running beside the screen. Its
// goroutine reports through events: prompts (a question the access layer
// asks, answered in the screen), progress, and one final message; the
// model waits for them one at a time with wait.
type operation struct {
	id      int
	url     string
	events  chan tea.Msg
	ctx     context.Context
	cancel  context.CancelFunc
	timeout time.Duration // 0: none
	reload  bool          // the page replaces the current one, not pushed
	title   string        // the title of the link followed, for a page without one
	// answers are the user's answers to the operation's questions, but
	// passwords: a type-7 item's search is the first (§3.4.2).
	answers []string
	noAsk   bool // nobody to ask (a dump): the access layer says what is missing
}

// eventBuffer leaves room for the final message whatever progress did.
const eventBuffer = 4

func newOperation(parent context.Context, id int, url string, timeout time.Duration) *operation {
	ctx, cancel := context.WithCancel(parent)
	if timeout > 0 {
		cancel() // the one below replaces it
		ctx, cancel = context.WithTimeout(parent, timeout)
	}
	return &operation{id: id, url: url, timeout: timeout, events: make(chan tea.Msg, eventBuffer), ctx: ctx, cancel: cancel}
}

// wait is the command that delivers the operation's next event.
func (o *operation) wait() tea.Cmd {
	return func() tea.Msg { return <-o.events }
}

// progress reports without ever blocking the transfer: a report is
// dropped when the screen has not taken the last ones.
func (o *operation) progress(msg tea.Msg) {
	if len(o.events) < eventBuffer-1 {
		select {
		case o.events <- msg:
		default:
		}
	}
}

// promptMsg is a question of the access layer (a type-7 search, a
// Gopher+ form's field, an ftp password) for the screen to ask.
type promptMsg struct {
	op       int
	question string
	secret   bool
	reply    chan promptReply
}

type promptReply struct {
	answer string
	err    error
}

// errCancelled answers a prompt the user left with Esc.
var errCancelled = errors.New("cancelled")

// prompt is the access.Client Prompt of the operation: it asks the screen
// and waits for the answer, or for the operation's end.
func (o *operation) prompt(question string, secret bool) (string, error) {
	reply := make(chan promptReply, 1)
	select {
	case o.events <- promptMsg{op: o.id, question: question, secret: secret, reply: reply}:
	case <-o.ctx.Done():
		return "", context.Cause(o.ctx)
	}
	select {
	case r := <-reply:
		if r.err == nil && !secret {
			o.answers = append(o.answers, r.answer)
		}
		return r.answer, r.err
	case <-o.ctx.Done():
		return "", context.Cause(o.ctx)
	}
}

// loadedMsg ends a fetch.
type loadedMsg struct {
	op     int
	reload bool
	page   *Page
	err    error
}

// client returns a client for one operation: the user's settings, the
// listing format, and the screen as the one who answers questions.
func (m *Model) client(o *operation, listing access.Listing) (*access.Client, error) {
	c, err := m.opts.NewClient()
	if err != nil {
		return nil, err
	}
	c.Listing = listing
	c.Prompt = o.prompt
	if o.noAsk {
		c.Prompt = nil
	}
	c.Stdin, c.Stdout = nil, nil // the screen owns the terminal
	return c, nil
}

// listingFor returns the listing format a page of u is read in: JSON
// Lines, whose entries carry each item's URL, except where the access
// layer's text is the page (WAIS records, Gopher+ attributes).
func listingFor(u rfc1738.URL) access.Listing {
	switch u.Scheme() {
	case "wais":
		return access.ListingText
	case "gopher":
		if g, ok := u.Gopher(); ok && g.HasPlus &&
			(g.PlusKind == rfc1738.PlusItemAttributes || g.PlusKind == rfc1738.PlusDirectoryAttributes) {
			return access.ListingText
		}
	}
	return access.ListingJSON
}

// load fetches u and renders it as a page; it runs in the operation's
// goroutine.
func (m *Model) load(o *operation, u rfc1738.URL) {
	defer o.cancel()
	msg := loadedMsg{op: o.id, reload: o.reload}
	msg.page, msg.err = m.fetchPage(o, u)
	if msg.err == nil {
		o.name(msg.page, u)
	}
	o.events <- msg
}

// name gives p, fetched from u, the title of the link followed when it
// has none of its own, and, for a type-7 search asked in the screen, the
// search in its URL and title (§3.4.2: gopher://host/7selector%09search),
// so that the history and a reload keep the query.
func (o *operation) name(p *Page, u rfc1738.URL) {
	if p.Title == "" {
		p.Title = o.title
	}
	g, ok := u.Gopher()
	if !ok || g.Type != '7' || g.HasSearch || len(o.answers) == 0 {
		return
	}
	q := o.answers[0]
	if s, err := edit.Set(u, "gopher.search", q); err == nil {
		p.URL = access.Redact(s.String())
	}
	if p.Title == "" {
		p.Title = "Search"
	}
	p.Title += " (search: " + clean(q) + ")"
}

func (m *Model) fetchPage(o *operation, u rfc1738.URL) (*Page, error) {
	c, err := m.client(o, listingFor(u))
	if err != nil {
		return nil, err
	}
	if listable(u) {
		// A menu, a search or an ftp directory: its entries, from the
		// handler's List, with what the server says of each.
		ents, err := c.List(o.ctx, u)
		switch {
		case err == nil:
			return m.entriesPage(o, u, ents)
		case !errors.Is(err, access.ErrNotListable):
			return nil, o.explain(err)
		}
	}
	resp, err := c.Get(o.ctx, u)
	if err != nil {
		// An NLST names folders and files alike: a name that RETR cannot
		// fetch may be a folder, listed when asked as one (§3.2.2: a
		// path ending in "/" is a directory listing).
		d, ok := ftpFolder(u)
		if !ok || o.ctx.Err() != nil {
			return nil, o.explain(err)
		}
		ents, lerr := c.List(o.ctx, d)
		if lerr != nil {
			return nil, o.explain(err)
		}
		return m.entriesPage(o, d, ents)
	}
	return m.readPage(o, u, resp)
}

// listable reports whether u names what the handler's List reads: a
// gopher menu or search, or an ftp directory (§3.2.2: a path ending in
// "/", or ";type=d").
func listable(u rfc1738.URL) bool {
	if u.Scheme() == "gopher" {
		return true
	}
	f, ok := u.FTP()
	return ok && (f.Name == "" || f.IsDirectory())
}

// ftpFolder returns u as a folder (a "/" added), when u is an ftp URL
// of a name without a typecode.
func ftpFolder(u rfc1738.URL) (rfc1738.URL, bool) {
	f, ok := u.FTP()
	if !ok || f.Name == "" || f.Type != 0 {
		return u, false
	}
	d, _, err := rfc1738.Read(u.String() + "/")
	return d, err == nil
}

func (m *Model) readPage(o *operation, u rfc1738.URL, resp *access.Response) (*Page, error) {
	p, rerr := render(u, resp)
	cerr := resp.Body.Close()
	if rerr == nil && cerr != nil {
		rerr = cerr
	}
	if rerr != nil {
		rerr = o.explain(rerr)
		if p == nil || len(p.Lines) == 0 {
			return nil, rerr
		}
		p.Err = rerr // what came before the error is shown, with it
	}
	return p, nil
}

// entriesPage renders the entries of a listing as a page.
func (m *Model) entriesPage(o *operation, u rfc1738.URL, ents *access.Entries) (*Page, error) {
	p := &Page{URL: access.Redact(u.String())}
	if err := renderEntries(p, u, ents); err != nil {
		err = o.explain(err)
		if len(p.Lines) == 0 {
			return nil, err
		}
		p.Err = err // what came before the error is shown, with it
	}
	return p, nil
}

// explain names the cancel or the timeout when they ended an operation.
// A connection's deadline (set from the context's) may fire just before
// the context's own timer: a deadline error is the timeout either way.
func (o *operation) explain(err error) error {
	switch {
	case o.timeout > 0 && (errors.Is(err, context.DeadlineExceeded) || errors.Is(o.ctx.Err(), context.DeadlineExceeded)):
		return fmt.Errorf("gave up after %v: %w", o.timeout, err)
	case errors.Is(o.ctx.Err(), context.Canceled):
		return fmt.Errorf("cancelled: %w", err)
	}
	return err
}

// progressMsg reports the bytes a download wrote so far.
type progressMsg struct {
	op   int
	name string
	n    int64
	size int64
}

// savedMsg ends a download.
type savedMsg struct {
	op   int
	path string
	n    int64
	err  error
}

// progressEvery is how often a download reports its count.
const progressEvery = 100 * time.Millisecond

// counter counts what a download wrote, for the progress line.
type counter struct {
	r    io.Reader
	n    atomic.Int64
	last time.Time
	tell func(int64)
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	total := c.n.Add(int64(n))
	if now := time.Now(); now.Sub(c.last) >= progressEvery {
		c.last = now
		c.tell(total)
	}
	return n, err
}

// download saves what u names into the download folder with get's atomic
// write: a temporary file, renamed when the transfer ended well.
func (m *Model) download(o *operation, u rfc1738.URL) {
	defer o.cancel()
	msg := savedMsg{op: o.id}
	msg.path, msg.n, msg.err = m.save(o, u)
	o.events <- msg
}

func (m *Model) save(o *operation, u rfc1738.URL) (string, int64, error) {
	c, err := m.client(o, access.ListingText)
	if err != nil {
		return "", 0, err
	}
	resp, err := c.Get(o.ctx, u)
	if err != nil {
		return "", 0, o.explain(err)
	}
	defer resp.Body.Close()
	dir := m.opts.DownloadDir
	if dir == "" {
		dir = "."
	}
	path, err := freeName(dir, downloadName(u))
	if err != nil {
		return "", 0, err
	}
	name := filepath.Base(path)
	cnt := &counter{r: resp.Body, tell: func(n int64) {
		o.progress(progressMsg{op: o.id, name: name, n: n, size: resp.Size})
	}}
	if err := atomicfile.Write(path, cnt, resp.Body); err != nil {
		return "", cnt.n.Load(), o.explain(err)
	}
	return path, cnt.n.Load(), nil
}

// downloadName is the file name a download of u gets: the last segment
// of its path, decoded, without the gopher item type; "download" when
// that leaves nothing usable.
func downloadName(u rfc1738.URL) string {
	p, _ := u.Path()
	if i := strings.IndexAny(p, ";?"); i >= 0 {
		p = p[:i] // ftp's ";type=", http's search
	}
	if g, ok := u.Gopher(); ok {
		p = g.Selector
	} else if d, err := rfc1738.Unescape(p); err == nil {
		p = string(d)
	}
	name := path.Base(strings.TrimRight(p, "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '/' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	if name == "" || name == "." || name == ".." || name == "/" || strings.HasPrefix(name, ".") {
		name = strings.TrimLeft(name, ".")
		if name == "" || name == "/" {
			name = "download"
		}
	}
	return name
}

// freeName returns dir/name, or dir/name.1, name.2 … when that exists: a
// download never replaces a file.
func freeName(dir, name string) (string, error) {
	for i := 0; i < 1000; i++ {
		p := filepath.Join(dir, name)
		if i > 0 {
			p += "." + strconv.Itoa(i)
		}
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: a thousand files of that name exist already", filepath.Join(dir, name))
}

// telnetSession runs a telnet URL's session on the terminal while the
// screen is suspended (tea.Exec): the access layer's telnet handler, with
// the terminal the program gave back.
type telnetSession struct {
	c      *access.Client
	u      rfc1738.URL
	stdin  io.Reader
	stdout io.Writer
}

func (t *telnetSession) SetStdin(r io.Reader)  { t.stdin = r }
func (t *telnetSession) SetStdout(w io.Writer) { t.stdout = w }
func (t *telnetSession) SetStderr(io.Writer)   {}

func (t *telnetSession) Run() error {
	in, _ := t.stdin.(*os.File)
	out, _ := t.stdout.(*os.File)
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	t.c.Stdin, t.c.Stdout = in, out
	resp, err := t.c.Get(context.Background(), t.u)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// telnetDoneMsg is the end of a telnet session.
type telnetDoneMsg struct {
	url string
	err error
}
