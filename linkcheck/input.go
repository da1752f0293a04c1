package linkcheck

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/rfc1738/extract"
)

// MaxHTMLSize bounds an HTML document read whole for its href and src
// attributes; a larger one is scanned as text only.
const MaxHTMLSize = 32 << 20

// A Source receives the URLs found in the input, each with its place.
type Source func(url string, p Place)

// Gatherer finds URLs in files, directories and readers. Include and
// Exclude are globs (path.Match syntax) matched against a walked file's
// name and its path below the directory; a file must match one Include
// (when there are any) and no Exclude.
type Gatherer struct {
	Include, Exclude []string
	// KeepFragments keeps the #fragment of the HTML links resolved
	// against the page (for Run.Fragments); by default it is dropped.
	KeepFragments bool
	// Found receives each URL.
	Found Source
}

// Path gathers from a file, or from every regular file under a directory.
func (g *Gatherer) Path(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return g.File(name)
	}
	return filepath.WalkDir(name, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(name, p)
		if !g.selected(filepath.ToSlash(rel)) {
			return nil
		}
		return g.File(p)
	})
}

// selected applies Include and Exclude to a path below a walked directory.
func (g *Gatherer) selected(rel string) bool {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	match := func(globs []string) bool {
		for _, pat := range globs {
			if ok, _ := filepath.Match(pat, base); ok {
				return true
			}
			if ok, _ := filepath.Match(pat, rel); ok {
				return true
			}
		}
		return false
	}
	if len(g.Include) > 0 && !match(g.Include) {
		return false
	}
	return !match(g.Exclude)
}

// File gathers from one file.
func (g *Gatherer) File(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return g.Reader(name, f)
}

// Reader gathers from r, named name in the places: the URLs extract finds
// in the text (RFC 1738 Appendix), and, when r is HTML, the URLs of its
// href and src attributes: absolute ones, and relative ones when the
// document's <base href> gives them an absolute base.
func (g *Gatherer) Reader(name string, r io.Reader) error { return g.read(name, "", r, false) }

// read is Reader, with asHTML saying the document is HTML whatever its
// name and first bytes (a media type said so), and fetched the URL it was
// fetched from ("" for a file), against which its relative references
// resolve.
func (g *Gatherer) read(name, fetched string, r io.Reader, asHTML bool) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(1024)
	if !asHTML && !isHTML(name, head) {
		return g.text(name, br, nil)
	}
	b, err := io.ReadAll(io.LimitReader(br, MaxHTMLSize+1))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if len(b) > MaxHTMLSize {
		return g.text(name, io.MultiReader(bytes.NewReader(b), br), nil)
	}
	g.htmlText(name, b)
	g.html(name, fetched, b)
	return nil
}

// text runs the extract scanner; seen, when not nil, collects the offsets
// of the URLs found.
func (g *Gatherer) text(name string, r io.Reader, seen map[int64]bool) error {
	sc := extract.NewScanner(r)
	for sc.Scan() {
		m := sc.Match()
		if seen != nil {
			seen[m.Start.Offset] = true
		}
		g.Found(m.URL, Place{File: name, Line: m.Start.Line, Column: m.Start.Column})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// HasScheme reports whether s starts with a scheme and ":" (§2.1), as an
// absolute URL does and a file name or relative reference does not.
func HasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return true
		default:
			return false
		}
	}
	return false
}

// lineCounter turns increasing offsets of b into lines and byte columns,
// from 1, counting each newline once.
type lineCounter struct {
	b      []byte
	off    int64 // b[:off] is counted
	line   int
	lastNL int64
}

func (lc *lineCounter) at(at int64) (line, col int) {
	at = min(at, int64(len(lc.b)))
	for ; lc.off < at; lc.off++ {
		if lc.b[lc.off] == '\n' {
			lc.line++
			lc.lastNL = lc.off
		}
	}
	return lc.line, int(at - lc.lastNL)
}

// isHTML tells an HTML document by its name or its first bytes.
func isHTML(name string, head []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm", ".xhtml", ".shtml":
		return true
	}
	h := strings.ToLower(string(bytes.TrimLeft(head, " \t\r\n\ufeff")))
	return strings.HasPrefix(h, "<!doctype html") || strings.HasPrefix(h, "<html")
}
