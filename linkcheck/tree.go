package linkcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/extract"
)

// IgnoreFile is the name of a tree's file of URL patterns to leave
// unchecked: one regular expression (Go's RE2 syntax) a line, blank lines
// and lines starting with '#' ignored, as lychee's .lycheeignore.
const IgnoreFile = ".linkcheckignore"

// rootHost is the address a tree given with --root but no --base is
// published at, so that its root-relative links resolve in it (RFC 6761
// §6.4: .invalid names nothing on the network).
const rootHost = "http://root.invalid/"

// A Tree checks documentation as it is written: local HTML, Markdown, CSS
// and text files, read in parallel. Links to the tree's own files
// (relative, root-relative, file:, and absolute ones under Base) are
// checked in the tree: the file exists, a folder holds an index, a
// #fragment names an anchor of the target. Network links go to Found.
//
// A local target outside the tree (Root, or the folder given; a ../ too
// many, or a symbolic link out of it) is only tested for existence, as
// LinkChecker tests any file: URL; its content is never read, so its
// fragments are not checked.
type Tree struct {
	// Root is the folder published at "/": root-relative links
	// ("/guide/x.html") resolve in it. Without Root and Base they are
	// skipped ("root-relative: give --root").
	Root string
	// Base is the URL the tree (Root, or each folder given) is published
	// at; absolute links under it are checked in the tree.
	Base string
	// Include and Exclude are globs on the walked files (as Gatherer's).
	Include, Exclude []string
	// IncludeURL, when not empty, keeps only the URLs matching one of
	// them; a URL matching one of ExcludeURL (or a pattern of a tree's
	// IgnoreFile) is skipped. They match the URL as written and as
	// resolved.
	IncludeURL, ExcludeURL []*regexp.Regexp
	// Offline skips every network URL: only the tree's own files are
	// checked.
	Offline bool
	// Fragments keeps the #fragment of the network URLs given to Found
	// (for a check that reads the page); without it they are dropped.
	Fragments bool
	// Jobs is the number of files read at once; zero means GOMAXPROCS.
	Jobs int
	// Found receives each network URL, in the order of the files.
	Found Source

	files   []treeFile
	tops    map[string]bool
	added   map[string]bool // abs of files
	ignore  []*regexp.Regexp
	results []Result
	places  []resultPlace // of results, not yet in their Places
	index   map[resultKey]int
	checks  []localCheck
	docsMu  sync.Mutex
	docs    map[string]*docEntry
	stats   map[string]*fileEntry
	pubOnce sync.Once
	pub     *url.URL // published: the tree's URL
	rootDir string   // published: Root, absolute
	// Problems are the files that could not be read whole, one line each.
	Problems []string
}

type treeFile struct {
	name string // as given, for the places
	abs  string // absolute, clean
	top  string // the tree it belongs to: absolute, clean
}

type docEntry struct {
	once sync.Once
	scan docScan
	kind docKind
	err  error
}

type docKind uint8

const (
	kindText docKind = iota
	kindHTML
	kindMarkdown
	kindCSS
)

func kindOf(name string) docKind {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".html", ".htm", ".xhtml", ".shtml":
		return kindHTML
	case ".md", ".markdown", ".mdown", ".mkd":
		return kindMarkdown
	case ".css":
		return kindCSS
	}
	return kindText
}

// Len is the number of files added.
func (t *Tree) Len() int { return len(t.files) }

// URL records a URL given directly, or found in stdin, as a network URL
// (a file: URL among them: the Run checks it, and reads it when
// recursive; give its path to read it as a tree).
func (t *Tree) URL(s string, p Place) {
	if p.File == "" {
		if t.excluded(s) {
			t.apply(skip('x', s, excludedDetail), p)
			return
		}
		t.apply(t.network(s), p)
		return
	}
	t.apply(t.resolve(nil, nil, s), p)
}

// Read reads every file added, in parallel, checks the links to local
// files and gives the network ones to Found, in the order of the files.
// The results of the local checks are in Results.
func (t *Tree) Read(ctx context.Context) {
	jobs := t.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	// Workers read the files and resolve their links; this goroutine
	// records them in the order of the files as each is done, so that
	// the results and Found's calls do not depend on the timing.
	type fileScan struct {
		done chan struct{}
		acts []linkAct
		at   []docLink
		err  error
	}
	scans := make([]fileScan, len(t.files))
	for i := range scans {
		scans[i].done = make(chan struct{})
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(t.files) {
					return
				}
				if ctx.Err() == nil {
					scans[i].at, scans[i].acts, scans[i].err = t.readLinks(&t.files[i])
				}
				close(scans[i].done)
			}
		}()
	}
	for i := range t.files {
		s := &scans[i]
		<-s.done
		if s.err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("%s: %v", t.files[i].name, oneLine(s.err.Error())))
		}
		for j, l := range s.at {
			t.apply(s.acts[j], Place{File: t.files[i].name, Line: l.line, Column: l.col})
		}
		*s = fileScan{}
	}
	wg.Wait()
	next.Store(0)
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(t.checks) {
					return
				}
				c := t.checks[i]
				r := &t.results[c.result]
				r.Status, r.Detail = t.checkLocal(c)
			}
		}()
	}
	wg.Wait()
	t.docs, t.stats, t.checks = nil, nil, nil
}

// readLinks reads the file f and resolves its links.
func (t *Tree) readLinks(f *treeFile) ([]docLink, []linkAct, error) {
	var links []docLink
	var base *url.URL
	var err error
	if kindOf(f.abs) == kindText {
		links, err = scanText(f.abs)
	} else {
		e := t.doc(f.abs)
		links, err = e.scan.links, e.err
		e.scan.links = nil // only the anchors are needed later
		if e.scan.haveBase {
			if b, err := url.Parse(e.scan.base); err == nil {
				base = b
			}
		}
	}
	doc := t.docURL(f)
	if base != nil && doc != nil {
		base = doc.ResolveReference(base)
	} else {
		base = doc
	}
	acts := make([]linkAct, len(links))
	for j, l := range links {
		acts[j] = t.resolve(f, base, l.ref)
	}
	return links, acts, err
}

// scanText finds the URLs of a text file (RFC 1738 Appendix).
func scanText(name string) ([]docLink, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var links []docLink
	sc := extract.NewScanner(f)
	for sc.Scan() {
		m := sc.Match()
		links = append(links, docLink{ref: m.URL, offset: m.Start.Offset, line: m.Start.Line, col: m.Start.Column})
	}
	return links, sc.Err()
}

// entry returns the entry of key in *m, made when it is not there yet:
// the one place of a path's memo, which its sync.Once then fills once.
func entry[E any](mu *sync.Mutex, m *map[string]*E, key string) *E {
	mu.Lock()
	defer mu.Unlock()
	if *m == nil {
		*m = map[string]*E{}
	}
	e := (*m)[key]
	if e == nil {
		e = new(E)
		(*m)[key] = e
	}
	return e
}

// doc reads the document at abs once (HTML, Markdown or CSS), for its
// links and anchors.
func (t *Tree) doc(abs string) *docEntry {
	e := entry(&t.docsMu, &t.docs, abs)
	e.once.Do(func() { e.kind, e.err = readDoc(abs, &e.scan) })
	return e
}

func readDoc(abs string, d *docScan) (docKind, error) {
	f, err := os.Open(abs)
	if err != nil {
		return kindText, err
	}
	defer f.Close()
	k := kindOf(abs)
	if k == kindText {
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		if !isHTML(abs, head[:n]) {
			return kindText, nil
		}
		f.Seek(0, io.SeekStart)
		k = kindHTML
	}
	d.ids = anchors{}
	switch k {
	case kindHTML:
		// A page of common size is read with one system call; a larger
		// one is streamed, its memory bounded by MaxToken.
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= 4<<20 {
			b := make([]byte, st.Size())
			n, err := io.ReadFull(f, b)
			if err != nil && err != io.ErrUnexpectedEOF {
				return k, err
			}
			return k, scanHTMLBytes(b[:n], position{line: 1}, d)
		}
		return k, scanHTML(f, position{line: 1}, d)
	case kindMarkdown:
		b, err := io.ReadAll(io.LimitReader(f, MaxHTMLSize+1))
		if err != nil {
			return k, err
		}
		if len(b) > MaxHTMLSize {
			return k, errors.New("larger than 32 MiB: not read as Markdown")
		}
		return k, scanMarkdown(b, d)
	default:
		b, err := io.ReadAll(io.LimitReader(f, MaxHTMLSize))
		if err != nil {
			return k, err
		}
		li := newLineIndex(b)
		cssURLs(b, func(ref string, i int) {
			line, col := li.at(i)
			d.links = append(d.links, docLink{ref: ref, offset: int64(i), line: line, col: col})
		})
		return k, nil
	}
}

// docURL is the URL a file of the tree is published at: under Base, or
// under rootHost for a file of Root, or its file: URL (RFC 1738 §3.10).
func (t *Tree) docURL(f *treeFile) *url.URL {
	prefix, root := t.published()
	if prefix != nil && (t.Base != "" || t.Root != "") && (t.Root == "" || root == f.top) {
		rel, err := filepath.Rel(f.top, f.abs)
		if err == nil {
			u := *prefix
			u.Path = strings.TrimSuffix(prefix.Path, "/") + "/" + filepath.ToSlash(rel)
			u.RawPath = ""
			return &u
		}
	}
	return &url.URL{Scheme: "file", Path: filepath.ToSlash(f.abs)}
}

// prefix is the published URL of the tree, ending in '/', or nil.
func (t *Tree) prefix() *url.URL {
	s := t.Base
	if s == "" {
		if t.Root == "" {
			return nil
		}
		s = rootHost
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return nil
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		u.RawPath = ""
	}
	return u
}

// A fileEntry is what a path of the file system is: os.Stat's answer
// and the path with its symbolic links followed, looked up once.
type fileEntry struct {
	once sync.Once
	info os.FileInfo
	err  error
	real string
}

func (t *Tree) stat(p string) *fileEntry {
	e := entry(&t.docsMu, &t.stats, p)
	e.once.Do(func() {
		if e.info, e.err = os.Stat(p); e.err == nil {
			e.real, _ = filepath.EvalSymlinks(p)
		}
	})
	return e
}

// localCheck is a link to a local file waiting for its verdict.
type localCheck struct {
	result  int
	path    string // absolute, clean
	top     string // the tree it must stay in to be read
	frag    string
	hasFrag bool
	md      bool // linked from Markdown: README.md and index.md are folder indexes too
}

func (t *Tree) excluded(s string) bool {
	for _, re := range t.ExcludeURL {
		if re.MatchString(s) {
			return true
		}
	}
	for _, re := range t.ignore {
		if re.MatchString(s) {
			return true
		}
	}
	if len(t.IncludeURL) == 0 {
		return false
	}
	for _, re := range t.IncludeURL {
		if re.MatchString(s) {
			return false
		}
	}
	return true
}

// record adds p to the result of key, made with status and detail when
// new, and returns its index and whether it is new.
func (t *Tree) record(key resultKey, shown string, p Place, status Status, detail string) (int, bool) {
	if t.index == nil {
		t.index = map[resultKey]int{}
	}
	i, ok := t.index[key]
	if !ok {
		i = len(t.results)
		t.index[key] = i
		if strings.IndexByte(shown, '@') >= 0 {
			shown = access.Redact(shown) // a password has an '@' after it (RFC 1738 §3.1)
		}
		t.results = append(t.results, Result{URL: shown, Scheme: "file", Status: status, Detail: detail})
		if HasScheme(shown) {
			t.results[i].Scheme = strings.ToLower(shown[:strings.IndexByte(shown, ':')])
		}
	}
	t.places = append(t.places, resultPlace{result: i, p: p})
	return i, !ok
}

// resultPlace is a place of a result, kept in one slice for all of them
// while the files are read (a slice per result made its growth the
// largest cost of recording).
type resultPlace struct {
	result int
	p      Place
}

// Results returns the verdicts on the links checked in the tree (and the
// URLs skipped), in order of first appearance. Call it after Read.
func (t *Tree) Results() []Result {
	if len(t.places) > 0 {
		n := make([]int, len(t.results))
		for _, rp := range t.places {
			n[rp.result]++
		}
		all := make([]Place, len(t.places))
		for i := range t.results {
			if len(t.results[i].Places) == 0 {
				t.results[i].Places, all = all[:0:n[i]], all[n[i]:]
			}
		}
		for _, rp := range t.places {
			t.results[rp.result].Places = append(t.results[rp.result].Places, rp.p)
		}
		t.places = nil
	}
	return t.results
}

// folderIndexes are the files a static server (and, for Markdown, a code
// host) shows for a folder.
var folderIndexes = []string{"index.html", "index.htm"}
var markdownIndexes = []string{"README.md", "index.md"}

// checkLocal decides a link to a local file: it exists (a folder: holds
// an index), and its fragment names an anchor of it. A target outside
// its tree is only tested for existence.
func (t *Tree) checkLocal(c localCheck) (Status, string) {
	shown := func() string { // the target as reported: relative to its tree
		if c.top != "" {
			if rel, err := filepath.Rel(c.top, c.path); err == nil && !strings.HasPrefix(rel, "..") {
				return oneLine(filepath.ToSlash(rel))
			}
		}
		return oneLine(c.path)
	}
	fe := t.stat(c.path)
	st, err := fe.info, fe.err
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Broken, "no such file: " + shown()
		}
		return Broken, oneLine(err.Error())
	}
	inside := false
	if c.top != "" && inDir(c.path, c.top) {
		// A symbolic link out of the tree is outside it.
		top := t.stat(c.top)
		inside = fe.real != "" && top.real != "" && inDir(fe.real, top.real)
	}
	target, detail := c.path, "file"
	if st.IsDir() {
		idx := folderIndexes
		if c.md {
			idx = append(append([]string{}, folderIndexes...), markdownIndexes...)
		}
		found := ""
		for _, n := range idx {
			if s, err := os.Stat(filepath.Join(c.path, n)); err == nil && s.Mode().IsRegular() {
				found = n
				break
			}
		}
		if found == "" {
			return Broken, "folder without " + strings.Join(idx, " or ") + ": " + shown()
		}
		target, detail = filepath.Join(c.path, found), "folder ("+found+")"
	}
	if !inside {
		detail += ", outside the tree: only its existence is checked"
		return OK, detail
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		// A pipe or a device is never opened: it may never end.
		return OK, "not a regular file: only its existence is checked"
	}
	if !c.hasFrag || c.frag == "" {
		return OK, detail
	}
	e := t.doc(target)
	if e.kind == kindText || e.kind == kindCSS || e.scan.ids == nil {
		return OK, detail + " (not HTML or Markdown: #" + oneLine(c.frag) + " not checked)"
	}
	if e.scan.ids.has(c.frag) {
		return OK, detail + " #" + oneLine(c.frag)
	}
	return BrokenFragment, "no anchor #" + oneLine(c.frag) + " in " + shown()
}
