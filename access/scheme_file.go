package access

import (
	"context"
	"fmt"
	"io"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/rfc1738"
)

func init() { defaultHandlers["file"] = fileHandler{} }

// fileHandler is the access method of §3.10: a file on this machine. "As
// such, it is unlike most other URL schemes, since it does not designate
// a resource that is universally accessible over the Internet": a file
// URL naming another host is refused, and nothing is dialled.
type fileHandler struct{}

// fileReadDirChunk is how many directory entries are read at a time, so
// that a huge folder is listed without holding all its names.
const fileReadDirChunk = 256

// Plan gives the one step, "open <path>", with the path in this operating
// system's form.
func (fileHandler) Plan(c *Client, u rfc1738.URL) (*Plan, error) {
	f, ok := u.File()
	if !ok {
		return nil, fmt.Errorf("%s: not a file URL: %w", Redact(u.String()), ErrUnsupported)
	}
	if !f.IsLocal() {
		return nil, fmt.Errorf("%s: the file is on host %q, and §3.10 gives no way to reach another machine's files (only \"\" or \"localhost\" name this one): %w",
			Redact(u.String()), f.Host, ErrUnsupported)
	}
	path, err := f.LocalPath()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(u.String()), err)
	}
	return &Plan{
		Steps: []Step{{Verb: "open", Arg: path, HasArg: true}},
		Notes: []string{"a folder is listed, one entry a line, with each entry's file URL"},
		Data:  path,
	}, nil
}

// Get opens the planned path: a file is streamed, a folder listed per
// Client.Listing.
func (fileHandler) Get(ctx context.Context, c *Client, p *Plan) (*Response, error) {
	path, ok := p.Data.(string)
	if !ok || len(p.Steps) != 1 || p.Steps[0].Verb != "open" || p.Steps[0].Arg != path {
		return nil, fmt.Errorf("%s: the plan is not one open step", p.URL)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	c.trace('>', p.Steps[0].Line())
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	if !fi.IsDir() {
		size := int64(-1)
		if fi.Mode().IsRegular() {
			size = fi.Size()
		}
		return &Response{Body: &fileBody{ctx: ctx, f: f, url: p.URL}, Size: size,
			Type: mime.TypeByExtension(filepath.Ext(path)), URL: p.URL, Plan: p}, nil
	}
	base := fileBaseURL(p)
	var pending []os.DirEntry
	next := func() (listingItem, error) {
		for len(pending) == 0 {
			if err := ctx.Err(); err != nil {
				return listingItem{}, err
			}
			var err error
			if pending, err = f.ReadDir(fileReadDirChunk); err != nil {
				return listingItem{}, err
			}
		}
		e := pending[0]
		pending = pending[1:]
		name, seg := e.Name(), rfc1738.Escape(e.Name(), rfc1738.FSegment)
		if e.IsDir() {
			name += "/"
			seg += "/"
		}
		it := listingItem{Name: name, URL: base + seg}
		if fi, err := e.Info(); err == nil {
			it = it.withInfo(fi) // a name removed since the read stays bare
		}
		return it, nil
	}
	// There is no protocol here: the raw listing is the names, one a line.
	render := &listingReader{format: c.Listing, next: next}
	return &Response{Body: &fileBody{ctx: ctx, f: f, r: render, url: p.URL}, Size: -1,
		Type: c.Listing.mediaType("text/plain"), URL: p.URL, Plan: p}, nil
}

// fileBaseURL returns the URL of the listed folder, ending in "/".
func fileBaseURL(p *Plan) string {
	s := p.Parsed.WithoutFragment()
	if !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return s
}

// fileBody reads a local file, or a rendered folder listing, and stops
// when the context ends.
type fileBody struct {
	ctx context.Context
	f   *os.File
	r   io.Reader // the listing; nil for a file
	url string
}

func (b *fileBody) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, fmt.Errorf("%s: %w", b.url, err)
	}
	var n int
	var err error
	if b.r != nil {
		n, err = b.r.Read(p)
	} else {
		n, err = b.f.Read(p)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: %w", b.url, err)
	}
	return n, err
}

func (b *fileBody) Close() error { return b.f.Close() }
