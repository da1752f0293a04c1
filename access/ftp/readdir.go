package ftp

import (
	"context"
	"errors"
	"io"
	"path"
	"strings"
	"time"
)

// A ListLineError is a line of a directory listing that DirReader could
// not read. The listing goes on after it, but it is not whole: a name the
// line held cannot be taken for gone.
type ListLineError struct {
	Form string // "MLSD" or "LIST"
	Line string // as sent
}

func (e *ListLineError) Error() string { return "unreadable " + e.Form + " line" }

// maxStash bounds the unreadable lines kept while no line of a listing
// has been readable yet; the count goes on beyond it.
const maxStash = 64

// A DirReader reads the current directory entry by entry, in the best
// form the server has, falling back to the next when a listing has no
// line it can read: MLSD (RFC 3659 §7: exact names, sizes and times)
// where the server lists MLST in FEAT (§7.8), else LIST in the Unix or
// DOS format, else NLST (RFC 959 §4.1.3) with a CWD probe per name to
// tell a directory from a file and SIZE for a file's size. One reader
// serves every tool: the access handler's List, and through it linkcheck,
// mirror and browse.
//
// An unreadable line is a *ListLineError from Next, reported once a line
// of the same listing was readable (before that, the form may be the
// wrong one: when no line is readable the reader falls back instead).
type DirReader struct {
	c     *Conn
	ctx   context.Context
	dir   string // the listed directory, from PWD, for the NLST probes' way back
	form  string // the listing being read
	body  io.ReadCloser
	names *NameReader
	now   time.Time

	good    int      // lines read in this form
	stash   []string // unreadable lines before the first readable one
	stashed int
	pending []string // stashed lines to report before held
	held    *DirEntry
	nlst    []string // NLST names still to probe
	done    bool
}

// ReadDir starts reading the current directory. mlsd says the server
// lists MLST in FEAT (see Features). The caller reads the entries with
// Next and ends with Close. The NLST fallback asks PWD for the way back
// from its CWD probes; a server that refuses PWD gets none, and its names
// are files of unknown size.
func (c *Conn) ReadDir(ctx context.Context, mlsd bool) (*DirReader, error) {
	d := &DirReader{c: c, ctx: ctx, now: time.Now().UTC()}
	form := "LIST"
	if mlsd {
		form = "MLSD"
	}
	if err := d.open(form); err != nil {
		return nil, err
	}
	return d, nil
}

// Features sends FEAT once per connection and reports whether the
// server has MLSD (RFC 3659 §7.8: it lists "MLST"); a server without
// FEAT has not. Only a broken connection is an error.
func (c *Conn) Features(ctx context.Context) (mlsd bool, err error) {
	if c.feats == nil {
		feats, _, err := c.Feat(ctx)
		if err != nil && !isRefusal(err) {
			return false, err
		}
		c.feats = append(feats, "") // non-nil: asked
	}
	return HasFeature(c.feats, "MLST"), nil
}

func (d *DirReader) open(form string) error {
	d.form, d.good, d.stash, d.stashed = form, 0, nil, 0
	var err error
	switch form {
	case "MLSD":
		d.body, err = d.c.Mlsd(d.ctx, "")
	case "LIST":
		d.body, err = d.c.List(d.ctx, "")
	default:
		if d.dir, _, err = d.c.Pwd(d.ctx); err != nil && !isRefusal(err) {
			return err
		}
		d.body, err = d.c.Nlst(d.ctx, "")
	}
	if err != nil {
		d.body = nil
		return err
	}
	d.names = NewNameReader(d.body)
	return nil
}

// Form returns the listing being read: "MLSD", "LIST" or "NLST".
func (d *DirReader) Form() string { return d.form }

// Next returns the next entry, io.EOF at the end, a *ListLineError for a
// line it could not read (Next may be called again), or the error that
// ended the listing — the final reply's refusal included: a listing is
// whole only when Next returned io.EOF.
func (d *DirReader) Next() (DirEntry, error) {
	for {
		if len(d.pending) > 0 {
			line := d.pending[0]
			d.pending = d.pending[1:]
			return DirEntry{}, &ListLineError{Form: d.form, Line: line}
		}
		if d.held != nil {
			e := *d.held
			d.held = nil
			return e, nil
		}
		if d.done {
			return DirEntry{}, io.EOF
		}
		if d.body == nil {
			return d.probe()
		}
		line, err := d.names.Next()
		if err == io.EOF {
			if err := d.endBody(); err != nil {
				return DirEntry{}, err
			}
			continue
		}
		if err != nil {
			d.body.Close()
			d.body, d.done = nil, true
			return DirEntry{}, err
		}
		if d.form == "NLST" {
			d.nlst = append(d.nlst, line)
			continue
		}
		e, skip, ok := d.parse(line)
		switch {
		case !ok && d.good == 0:
			if len(d.stash) < maxStash {
				d.stash = append(d.stash, line)
			}
			d.stashed++
			continue
		case !ok:
			return DirEntry{}, &ListLineError{Form: d.form, Line: line}
		}
		d.good++
		if len(d.stash) > 0 {
			d.pending, d.stash = d.stash, nil
		}
		if skip {
			continue
		}
		if len(d.pending) > 0 {
			d.held = &e
			continue
		}
		return e, nil
	}
}

// endBody ends a listing's transfer (its final reply) and falls back to
// the next form when no line of it was readable.
func (d *DirReader) endBody() error {
	err := d.body.Close()
	d.body = nil
	if err != nil {
		d.done = true
		return err
	}
	switch {
	case d.form == "NLST":
		return nil // the names are probed next
	case d.good == 0 && d.stashed > 0:
		// No line of this form was readable: the next form.
		next := "LIST"
		if d.form == "LIST" {
			next = "NLST"
		}
		if err := d.open(next); err != nil {
			d.done = true
			return err
		}
		return nil
	}
	d.done = true
	return nil
}

func (d *DirReader) parse(line string) (e DirEntry, skip, ok bool) {
	if d.form == "LIST" {
		return ParseListLine(line, d.now)
	}
	m, ok := ParseMLSxEntry(line)
	if !ok {
		return e, false, false
	}
	switch m.Type {
	case "file":
		return DirEntry{Name: m.Name, Size: m.Size, Time: m.Modify}, false, true
	case "dir":
		return DirEntry{Name: m.Name, Dir: true, Size: -1}, false, true
	case "os.unix=symlink", "os.unix=slink":
		return DirEntry{Name: m.Name, IsLink: true, Size: -1}, false, true
	}
	if target, ok := strings.CutPrefix(m.Type, "os.unix=slink:"); ok {
		// The "OS.unix=slink:target" of proftpd and pure-ftpd (RFC 3659
		// §7.5.1 leaves OS-specific types to the server); the type fact
		// was lowered, and so the target taken from the line as sent.
		if i := strings.Index(strings.ToLower(line), "os.unix=slink:"); i >= 0 {
			target = line[i+len("os.unix=slink:"):]
			target, _, _ = strings.Cut(target, ";")
		}
		return DirEntry{Name: m.Name, IsLink: true, Link: target, Size: -1}, false, true
	}
	return e, true, true // cdir, pdir and devices: nothing to fetch
}

// probe tells the next NLST name a directory (CWD succeeds, then back)
// from a file (SIZE under TYPE I, when the server answers it).
func (d *DirReader) probe() (DirEntry, error) {
	if len(d.nlst) == 0 {
		d.done = true
		return DirEntry{}, io.EOF
	}
	n := path.Base(d.nlst[0])
	d.nlst = d.nlst[1:]
	e := DirEntry{Name: n, Size: -1}
	if d.dir == "" || n == "." || n == ".." || strings.ContainsAny(n, "/\x00") {
		return e, nil
	}
	_, err := d.c.Cwd(d.ctx, n)
	if err == nil {
		e.Dir = true
		if _, err := d.c.Cwd(d.ctx, d.dir); err != nil {
			d.done = true
			return DirEntry{}, err
		}
		return e, nil
	}
	if !isRefusal(err) {
		d.done = true
		return DirEntry{}, err
	}
	if !d.c.binary {
		if _, err := d.c.Type(d.ctx, "I"); err != nil && !isRefusal(err) {
			d.done = true
			return DirEntry{}, err
		}
	}
	if d.c.binary {
		if size, _, err := d.c.Size(d.ctx, n); err == nil {
			e.Size = size
		} else if !isRefusal(err) {
			d.done = true
			return DirEntry{}, err
		}
	}
	return e, nil
}

// Close ends the listing: an open transfer is closed (abandoned).
func (d *DirReader) Close() error {
	d.done, d.nlst = true, nil
	if d.body == nil {
		return nil
	}
	err := d.body.Close()
	d.body = nil
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}
