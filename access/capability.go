package access

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rfc1738/rfc1738"
)

// The optional capabilities of a Handler, found by interface assertion as
// net/http finds an http.Flusher: fetch is Get (every handler has it, Do
// adds the resume of a Request), Stat is the lightest exchange that proves
// a URL names something, List reads the entries of a directory, menu,
// group or search. The many-URL tools (linkcheck, mirror, browse) reach
// every scheme through these alone, so a scheme registered here (https,
// ftps) reaches all of them at once.

// A Stater is a Handler that can prove, with the lightest exchange its
// protocol has, that a URL names something retrievable, without
// retrieving it.
//
// Stat executes a plan that the handler's Plan returned. It returns what
// the server said of the object, or an error: a server's refusal (an ftp
// 550, a gopher error item, an nntp 430) is an error carrying the server's
// code and text, as for Get. A URL whose object cannot be proved at all
// without a side effect (a mailbox, with no relay to ask) is an error
// wrapping ErrNotVerified.
type Stater interface {
	Handler
	Stat(ctx context.Context, c *Client, p *Plan) (*Info, error)
}

// A Lister is a Handler that can read the entries of what a URL names
// when it is a collection: an ftp or file directory, a gopher menu or
// search, a news group or the list of groups.
//
// List executes a plan that the handler's Plan returned, and returns the
// entries as a stream the caller closes. A URL that names no collection
// is an error wrapping ErrNotListable.
type Lister interface {
	Handler
	List(ctx context.Context, c *Client, p *Plan) (*Entries, error)
}

// A Timer is a Handler that can ask a file's modification time to the
// second, where its listing gave it coarser: an ftp LIST shows ls -l
// times (the minute, or the day for a file older than six months), and
// MDTM (RFC 3659 §3) tells the second. A server that cannot answer is
// an error wrapping ErrUnsupported.
type Timer interface {
	Handler
	ModTime(ctx context.Context, c *Client, p *Plan) (time.Time, error)
}

// ErrNotVerified is wrapped by the error of a Stat that cannot prove the
// URL's object without a side effect, or without a setting the client
// lacks.
var ErrNotVerified = errors.New("cannot be verified")

// ErrNotListable is wrapped by the error of a List for a URL that names
// no collection (a file, an article, a document).
var ErrNotListable = errors.New("not a listing")

// Kind is what an entry of a listing, or a Stat, says a URL names.
type Kind string

// The kinds.
const (
	KindFile      Kind = "file"      // a document or binary: fetch it
	KindDirectory Kind = "directory" // a directory or gopher menu: list it
	KindSearch    Kind = "search"    // a gopher search or wais database: query it
	KindGroup     Kind = "group"     // a news group: list it
	KindArticle   Kind = "article"   // a news article: fetch it
	KindSession   Kind = "session"   // an interactive session (telnet, gopher 8 and T)
	KindMailbox   Kind = "mailbox"   // a mailto address
	KindInfo      Kind = "info"      // a line of text in a listing, naming nothing
	KindLink      Kind = "link"      // a symbolic link (ftp): Attrs["target"] is its target as listed
	KindOther     Kind = "other"     // anything else a server lists (a CSO server)
)

// Info is what a Stat learned of a URL's object.
type Info struct {
	Kind Kind
	Size int64     // bytes, -1 when unknown
	Time time.Time // modification time, zero when unknown
	// Detail says what the exchange proved, in words ("file, 12 bytes";
	// "group, 42 articles"), for a report.
	Detail string
}

// An Entry is one entry of a listing, with what the server said of it.
type Entry struct {
	Name string // the name as listed (a file name, a menu's display string, a group)
	URL  string // its URL; "" for an entry that names nothing (KindInfo)
	Kind Kind
	Size int64     // bytes, -1 when unknown
	Time time.Time // modification time, zero when unknown
	// Precision is how coarse Time is: 0 when it is to the second (or
	// unknown), time.Minute or a day for an ftp LIST's ls -l times.
	Precision time.Duration
	// Attrs holds the server's other facts, by protocol: the MLSD facts of
	// an ftp entry ("perm", "unique"…), a gopher item's "type", "selector",
	// "host", "port", "plus" and its "line" as sent, an article's
	// "number", "from", "subject". Nil when there are none.
	Attrs map[string]string
}

// Entries is a stream of listing entries. Next returns them one at a
// time, then io.EOF; a line of the listing that cannot be read is a
// *LineError, after which Next goes on with the next line. Close ends the
// exchange (an ftp listing's final reply) and returns its error.
type Entries struct {
	next   func() (Entry, error)
	close  func() error
	bad    int
	done   bool
	closed bool
	err    error
}

// NewEntries returns the Entries that next produces; close, which may be
// nil, ends the exchange. A Lister builds its result with it.
func NewEntries(next func() (Entry, error), close func() error) *Entries {
	return &Entries{next: next, close: close}
}

// Next returns the next entry, io.EOF at the end, a *LineError for a line
// that cannot be read (Next may be called again), or the error that ended
// the listing.
func (e *Entries) Next() (Entry, error) {
	if e.done {
		return Entry{}, e.errOrEOF()
	}
	ent, err := e.next()
	var le *LineError
	switch {
	case err == nil:
		return ent, nil
	case errors.As(err, &le):
		e.bad++
		return Entry{}, err
	}
	e.done = true
	if err != io.EOF {
		e.err = err
	}
	return Entry{}, e.errOrEOF()
}

func (e *Entries) errOrEOF() error {
	if e.err != nil {
		return e.err
	}
	return io.EOF
}

// Close ends the listing and returns the error of its end: a listing
// whose final reply was not a success, or that was cut short, is not
// whole.
func (e *Entries) Close() error {
	if e.closed {
		return e.err
	}
	e.closed = true
	if e.close == nil {
		return e.err
	}
	if err := e.close(); err != nil && e.err == nil {
		e.err = err
	}
	return e.err
}

// Whole reports whether the listing was read whole: to its end, every line
// understood, no error on the way (Close included). Only a whole listing
// says that a name missing from it is gone.
func (e *Entries) Whole() bool { return e.done && e.closed && e.err == nil && e.bad == 0 }

// Unreadable returns the count of lines that could not be read.
func (e *Entries) Unreadable() int { return e.bad }

// A LineError is a line of a listing that could not be read.
type LineError struct {
	Line   string // the line as sent (not escaped: print it through safetext)
	Reason string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("unreadable listing line %q: %s", e.Line, e.Reason)
}

// Stat proves with the lightest exchange its scheme has that u names
// something retrievable (see Stater). A scheme whose handler has no Stat
// is an error wrapping ErrUnsupported.
func (c *Client) Stat(ctx context.Context, u rfc1738.URL) (*Info, error) {
	p, err := c.Plan(u)
	if err != nil {
		return nil, err
	}
	s, ok := p.handler.(Stater)
	if !ok {
		return nil, fmt.Errorf("%s: %w: the %s access method has no stat", p.URL, ErrUnsupported, p.Scheme)
	}
	info, err := s.Stat(ctx, c, p)
	if err != nil {
		return nil, getError(ctx, p.URL, err)
	}
	return info, nil
}

// ModTime asks the modification time of what u names to the second (see
// Timer). A scheme whose handler has no ModTime is an error wrapping
// ErrUnsupported.
func (c *Client) ModTime(ctx context.Context, u rfc1738.URL) (time.Time, error) {
	p, err := c.Plan(u)
	if err != nil {
		return time.Time{}, err
	}
	tm, ok := p.handler.(Timer)
	if !ok {
		return time.Time{}, fmt.Errorf("%s: %w: the %s access method has no modification time", p.URL, ErrUnsupported, p.Scheme)
	}
	t, err := tm.ModTime(ctx, c, p)
	if err != nil {
		return time.Time{}, getError(ctx, p.URL, err)
	}
	return t, nil
}

// List reads the entries of what u names (see Lister). A scheme whose
// handler has no List is an error wrapping ErrUnsupported.
func (c *Client) List(ctx context.Context, u rfc1738.URL) (*Entries, error) {
	p, err := c.Plan(u)
	if err != nil {
		return nil, err
	}
	l, ok := p.handler.(Lister)
	if !ok {
		return nil, fmt.Errorf("%s: %w: the %s access method has no listing", p.URL, ErrUnsupported, p.Scheme)
	}
	ents, err := l.List(ctx, c, p)
	if err != nil {
		return nil, getError(ctx, p.URL, err)
	}
	return ents, nil
}
