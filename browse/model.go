package browse

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// Options configure a Model.
type Options struct {
	// NewClient returns a client with the user's settings (the §6 port
	// allowances, the news server, the anonymous ftp e-mail address). The
	// model makes one per fetch and sets its Listing and Prompt.
	NewClient func() (*access.Client, error)
	// ConfigDir holds the bookmarks and history; "" keeps none.
	ConfigDir string
	// DownloadDir is where d saves; "" is the current folder.
	DownloadDir string
	// Timeout bounds one fetch in all; 0 means DefaultTimeout.
	Timeout time.Duration
	// NoColor draws without colours (NO_COLOR): selection and marks stay,
	// as reverse video and a "›".
	NoColor bool
}

// DefaultTimeout bounds a fetch when Options.Timeout is 0. Esc cancels
// sooner.
const DefaultTimeout = 60 * time.Second

// DefaultConfigDir returns the folder of bookmarks and history:
// $XDG_CONFIG_HOME/rfc1738 (os.UserConfigDir), or "" when there is none.
func DefaultConfigDir() string {
	d, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "rfc1738")
}

// Files in the config folder.
const (
	bookmarksFile = "bookmarks"
	historyFile   = "history"
)

// visit is a page in the back or forward history, with where the reader
// was on it.
type visit struct {
	page      *Page
	sel, top  int
	bookmarks bool // the bookmark list, rebuilt when shown again
	stale     bool // only the URL and place are kept: fetch it again
}

// maxBack is how many pages the back history keeps.
const maxBack = 100

// inputMode is what the bottom line's text input is for.
type inputMode uint8

const (
	inputNone   inputMode = iota
	inputURL              // g: a URL to open
	inputSearch           // /: text to find on the page
	inputLink             // a digit: the number of a link to follow
	inputPrompt           // a question of the access layer
)

// Model is the browser's screen: a Bubble Tea model. Make one with New.
type Model struct {
	opts  Options
	store store
	keys  keyMap
	help  help.Model
	st    styles

	width, height int

	cur      visit
	back     []visit
	forward  []visit
	lines    []dispLine // the page wrapped to the width
	search   string
	foundAt  int // the screen line search found, or -1
	startURL string

	input  textinput.Model
	mode   inputMode
	prompt *promptMsg

	nextOp   int
	loading  *operation
	saving   *operation
	progress string

	msg    string
	msgErr bool
	quit   bool
}

// dispLine is one screen line of the page: a piece of a wrapped Line.
type dispLine struct {
	text string
	line int // index in Page.Lines
}

// New returns a model that opens startURL (none when "") when it starts.
func New(startURL string, opts Options) *Model {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	ti := textinput.New()
	ti.CharLimit = 4096
	m := &Model{
		opts:     opts,
		store:    store{dir: opts.ConfigDir},
		keys:     newKeyMap(),
		help:     help.New(),
		st:       newStyles(opts.NoColor),
		width:    80,
		height:   24,
		input:    ti,
		startURL: startURL,
		foundAt:  -1,
	}
	m.cur = visit{page: welcomePage(), sel: -1}
	m.relayout()
	return m
}

// welcomePage is the page shown before anything is opened.
func welcomePage() *Page {
	p := &Page{Title: "rfc1738 browse"}
	for _, l := range []string{
		"No page yet. Press g and type a URL, for example:",
		"",
		"  gopher://gopher.floodgap.com/",
		"  ftp://ftp.example.org/pub/",
		"  news:comp.lang.go",
		"  file:///usr/share/doc/",
		"",
		"B lists bookmarks, H the history, ? the keys, q quits.",
	} {
		p.add(l, nil)
	}
	return p
}

// Init opens the start URL.
func (m *Model) Init() tea.Cmd {
	if m.startURL == "" {
		return nil
	}
	return m.open(m.startURL, true)
}

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = max(msg.Width, 20), max(msg.Height, 5)
		m.help.Width = m.width
		m.input.Width = max(m.width-30, 10)
		m.relayout()
		return m, nil
	case tea.KeyMsg:
		if m.mode != inputNone {
			return m.inputKey(msg)
		}
		return m.key(msg)
	case promptMsg:
		if m.loading == nil && m.saving == nil || !m.ours(msg.op) {
			msg.reply <- promptReply{err: errCancelled}
			return m, nil
		}
		if m.prompt != nil {
			// A download and a page both asking: one question at a time;
			// the second one's operation fails and says why.
			msg.reply <- promptReply{err: errors.New("another question is open")}
			return m, m.waitFor(msg.op)
		}
		return m, m.ask(msg)
	case loadedMsg:
		if m.loading == nil || msg.op != m.loading.id {
			return m, nil // a cancelled load
		}
		m.loading = nil
		m.loaded(msg)
		return m, nil
	case progressMsg:
		if m.saving != nil && msg.op == m.saving.id {
			m.progress = fmt.Sprintf("saving %s: %s", clean(msg.name), byteCount(msg.n, msg.size))
			return m, m.saving.wait()
		}
		return m, nil
	case savedMsg:
		if m.saving == nil || msg.op != m.saving.id {
			return m, nil
		}
		m.saving, m.progress = nil, ""
		if msg.err != nil {
			m.fail(fmt.Errorf("not saved: %w", msg.err))
		} else {
			m.note(fmt.Sprintf("saved %s (%d bytes)", clean(msg.path), msg.n))
		}
		return m, nil
	case telnetDoneMsg:
		if msg.err != nil {
			m.fail(msg.err)
		} else {
			m.note("telnet session with " + clean(msg.url) + " ended")
		}
		return m, nil
	}
	return m, nil
}

func (m *Model) ours(op int) bool {
	return m.loading != nil && m.loading.id == op || m.saving != nil && m.saving.id == op
}

// key handles a key when no input is open.
func (m *Model) key(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	ks := m.keys
	switch {
	case key.Matches(k, ks.Quit):
		m.quit = true
		m.cancelAll()
		return m, tea.Quit
	case key.Matches(k, ks.Cancel):
		switch {
		case m.loading != nil:
			m.loading.cancel()
			m.note("cancelled " + clean(m.loading.url))
			m.loading = nil
		case m.saving != nil:
			m.saving.cancel()
			m.note("download cancelled")
			m.saving, m.progress = nil, ""
		default:
			m.msg = ""
		}
	case key.Matches(k, ks.Up):
		m.moveLink(-1)
	case key.Matches(k, ks.Down):
		m.moveLink(1)
	case key.Matches(k, ks.PageUp):
		m.scroll(-m.view())
	case key.Matches(k, ks.PageDown):
		m.scroll(m.view())
	case key.Matches(k, ks.Home):
		m.cur.top = 0
		m.cur.sel = m.firstLinkFrom(0, 1)
	case key.Matches(k, ks.End):
		m.cur.top = max(len(m.lines)-m.view(), 0)
		m.cur.sel = m.firstLinkFrom(len(m.cur.page.Lines)-1, -1)
	case key.Matches(k, ks.Follow):
		if l, ok := m.selected(); ok {
			return m, m.follow(l)
		}
	case key.Matches(k, ks.Back):
		return m, m.goBack()
	case key.Matches(k, ks.Forward):
		return m, m.goForward()
	case key.Matches(k, ks.Go):
		m.openInput(inputURL, "URL: ", "", false)
	case key.Matches(k, ks.Search):
		m.openInput(inputSearch, "Find: ", "", false)
	case key.Matches(k, ks.Next):
		m.find(m.search, true)
	case key.Matches(k, ks.Reload):
		if m.cur.page.URL != "" && !m.cur.bookmarks {
			return m, m.open(m.cur.page.URL, false)
		}
	case key.Matches(k, ks.ShowURL):
		if l, ok := m.selected(); ok {
			m.note("URL: " + linkTarget(l))
		} else if m.cur.page.URL != "" {
			m.note("URL: " + clean(m.cur.page.URL))
		}
	case key.Matches(k, ks.Info):
		return m, m.info()
	case key.Matches(k, ks.Save):
		return m, m.saveSelected()
	case key.Matches(k, ks.Bookmark):
		m.addBookmark()
	case key.Matches(k, ks.Bookmarks):
		m.showStore(bookmarksFile, "Bookmarks", maxBookmarks)
	case key.Matches(k, ks.History):
		m.showStore(historyFile, "History", maxHistory)
	case key.Matches(k, ks.Help):
		m.help.ShowAll = !m.help.ShowAll
	default:
		// A number typed opens the "Follow link #" line, as in lynx. The
		// terminal may deliver several digits in one read ("12", then
		// Enter): they are all the number.
		if s := string(k.Runes); k.Type == tea.KeyRunes && digits(s) && s[0] != '0' && len(m.cur.page.Links) > 0 {
			m.openInput(inputLink, "Follow link #", s, false)
		}
	}
	return m, nil
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// linkTarget is what u shows for a link: its URL, escaped.
func linkTarget(l Link) string {
	if l.URL == "" {
		return l.Label + " (not an RFC 1738 URL)"
	}
	return clean(access.Redact(l.URL))
}

func (m *Model) selected() (Link, bool) {
	p := m.cur.page
	if m.cur.sel < 0 || m.cur.sel >= len(p.Links) {
		return Link{}, false
	}
	return p.Links[m.cur.sel], true
}

// openInput opens the bottom line's text input.
func (m *Model) openInput(mode inputMode, label, value string, secret bool) tea.Cmd {
	m.mode = mode
	m.input.Prompt = label
	m.input.SetValue(value)
	m.input.CursorEnd()
	m.input.EchoMode = textinput.EchoNormal
	if secret {
		m.input.EchoMode = textinput.EchoPassword
	}
	return m.input.Focus()
}

func (m *Model) closeInput() {
	m.mode = inputNone
	m.input.Blur()
	m.input.SetValue("")
}

// ask shows a question of the access layer. Earlier lines of a question
// (a form's notes) go to the message line.
func (m *Model) ask(p promptMsg) tea.Cmd {
	m.prompt = &p
	lines := strings.Split(strings.TrimRight(p.question, "\n"), "\n")
	if len(lines) > 1 {
		m.note(clean(strings.Join(lines[:len(lines)-1], " / ")))
	}
	return m.openInput(inputPrompt, clean(lines[len(lines)-1]), "", p.secret)
}

// inputKey handles a key while the text input is open.
func (m *Model) inputKey(k tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch k.Type {
	case tea.KeyEsc, tea.KeyCtrlC:
		mode := m.mode
		m.closeInput()
		if mode == inputPrompt {
			return m, m.answer(promptReply{err: errCancelled})
		}
		return m, nil
	case tea.KeyEnter:
		mode, value := m.mode, m.input.Value()
		m.closeInput()
		switch mode {
		case inputURL:
			if strings.TrimSpace(value) != "" {
				return m, m.open(strings.TrimSpace(value), true)
			}
		case inputSearch:
			m.search = value
			m.find(value, false)
		case inputLink:
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 1 || n > len(m.cur.page.Links) {
				m.fail(fmt.Errorf("no link #%s on this page (1 to %d)", clean(value), len(m.cur.page.Links)))
				return m, nil
			}
			m.selectLink(n - 1)
			return m, m.follow(m.cur.page.Links[n-1])
		case inputPrompt:
			return m, m.answer(promptReply{answer: value})
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(k)
	return m, cmd
}

// answer sends the reply to the pending question and waits for the
// operation's next event.
func (m *Model) answer(r promptReply) tea.Cmd {
	p := m.prompt
	m.prompt = nil
	if p == nil {
		return nil
	}
	p.reply <- r
	return m.waitFor(p.op)
}

// waitFor waits for the next event of the operation op, if it runs.
func (m *Model) waitFor(op int) tea.Cmd {
	switch {
	case m.loading != nil && m.loading.id == op:
		return m.loading.wait()
	case m.saving != nil && m.saving.id == op:
		return m.saving.wait()
	}
	return nil
}

// open starts loading a URL typed, followed or reloaded.
func (m *Model) open(raw string, push bool) tea.Cmd { return m.openTitled(raw, push, "") }

// openTitled is open for a link whose page, when it has no title of its
// own, gets title.
func (m *Model) openTitled(raw string, push bool, title string) tea.Cmd {
	u, _, err := rfc1738.Read(raw) // as browsers read it (RFC 3986 updates RFC 1738)
	if err != nil {
		m.fail(fmt.Errorf("%s is not a URL anything reads: %v", clean(access.Redact(raw)), err))
		return nil
	}
	switch u.Scheme() {
	case "telnet":
		return m.telnet(u)
	case "mailto":
		m.fail(fmt.Errorf("%s: a mailbox, not a page: send to it with rfc1738 mail", clean(raw)))
		return nil
	}
	if access.Binary(u) {
		return m.startSave(u) // a binary item is saved, not shown (lynx does the same)
	}
	if m.loading != nil {
		m.loading.cancel()
	}
	m.nextOp++
	o := newOperation(context.Background(), m.nextOp, access.Redact(raw), m.opts.Timeout)
	m.loading = o
	o.reload, o.title = !push, title
	if !push {
		o.title = m.cur.page.Title // a reload keeps the title
	}
	go m.load(o, u)
	return o.wait()
}

// loaded shows a fetched page, or the error.
func (m *Model) loaded(msg loadedMsg) {
	if msg.err != nil {
		m.fail(msg.err)
		return
	}
	p := msg.page
	if msg.reload {
		sel := m.cur.sel
		if sel >= len(p.Links) {
			sel = -1
		}
		m.cur = visit{page: p, sel: sel, top: m.cur.top}
	} else {
		m.push(visit{page: p, sel: -1})
		m.store.appendEntry(historyFile, entry{url: p.URL, title: p.Title})
	}
	m.relayout()
	if m.cur.sel < 0 {
		m.cur.sel = m.firstLinkFrom(0, 1)
	}
	m.msg, m.msgErr = "", false
	if p.Err != nil {
		m.fail(p.Err)
	}
}

// note shows a message; fail shows an error.
func (m *Model) note(s string) { m.msg, m.msgErr = s, false }

func (m *Model) fail(err error) {
	m.msg, m.msgErr = err.Error(), true
	// Errors quote URLs and server text: escaped like all the rest.
	m.msg = safetext.Escape(m.msg)
}

func byteCount(n, size int64) string {
	s := humanBytes(n)
	if size > 0 {
		s += " of " + humanBytes(size) + fmt.Sprintf(" (%d%%)", n*100/size)
	}
	return s
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
