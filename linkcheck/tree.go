package linkcheck

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
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
	ignore  []*regexp.Regexp
	results []Result
	index   map[string]int
	checks  []localCheck
	docsMu  sync.Mutex
	docs    map[string]*docEntry
	stats   map[string]*fileEntry
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

// Add adds a file, every regular file under a folder (Include and
// Exclude applied), or the files a glob matches ("**" matches any number
// of folders).
func (t *Tree) Add(name string) error {
	st, err := os.Stat(name)
	if err != nil {
		if strings.ContainsAny(name, "*?[") {
			return t.glob(name)
		}
		return err
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		t.addFile(name, abs, t.topOf(abs, filepath.Dir(abs)))
		return nil
	}
	top := t.topOf(abs, abs)
	g := Gatherer{Include: t.Include, Exclude: t.Exclude}
	return filepath.WalkDir(name, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() || d.Name() == IgnoreFile {
			return nil // a symbolic link is not followed out of the tree
		}
		rel, _ := filepath.Rel(name, p)
		if g.selected(filepath.ToSlash(rel)) {
			t.addFile(p, filepath.Join(abs, rel), top)
		}
		return nil
	})
}

// topOf returns the tree of a file: Root when it holds it, else dflt.
func (t *Tree) topOf(abs, dflt string) string {
	if t.Root != "" {
		if r, err := filepath.Abs(t.Root); err == nil && inDir(abs, r) {
			return r
		}
	}
	return dflt
}

func (t *Tree) addFile(name, abs, top string) {
	if t.tops == nil {
		t.tops = map[string]bool{}
	}
	if !t.tops[top] {
		t.tops[top] = true
		t.loadIgnore(filepath.Join(top, IgnoreFile))
	}
	t.files = append(t.files, treeFile{name: name, abs: abs, top: top})
}

func (t *Tree) loadIgnore(name string) {
	f, err := os.Open(name)
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		re, err := regexp.Compile(line)
		if err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("%s:%d: %v", name, n, err))
			continue
		}
		t.ignore = append(t.ignore, re)
	}
}

// glob adds the files matching pattern, "**" standing for any number of
// folders.
func (t *Tree) glob(pattern string) error {
	pat := filepath.ToSlash(pattern)
	segs := strings.Split(pat, "/")
	i := 0
	for i < len(segs) && !strings.ContainsAny(segs[i], "*?[") {
		i++
	}
	dir := strings.Join(segs[:i], "/")
	if dir == "" {
		dir = "."
		if strings.HasPrefix(pat, "/") {
			dir = "/"
		}
	}
	rest := segs[i:]
	n := len(t.files)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if !globMatch(rest, strings.Split(filepath.ToSlash(rel), "/")) {
			return nil
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return err
		}
		dabs, _ := filepath.Abs(dir)
		t.addFile(p, abs, t.topOf(abs, dabs))
		return nil
	})
	if err == nil && len(t.files) == n {
		return fmt.Errorf("%s: no file matches", pattern)
	}
	return err
}

func globMatch(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(name); k++ {
				if globMatch(pat[1:], name[k:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// inDir reports whether p is dir or below it (both clean and absolute).
func inDir(p, dir string) bool {
	if p == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(p, dir)
}

// URL records a URL given directly, or found in stdin, as a network URL
// (a file: URL among them: the Run checks it, and reads it when
// recursive; give its path to read it as a tree).
func (t *Tree) URL(s string, p Place) {
	if p.File == "" {
		if t.excluded(s) {
			t.record("x\x00"+s, s, p, Skipped, "excluded (--exclude-url, --include-url or "+IgnoreFile+")")
			return
		}
		t.network(s, p)
		return
	}
	t.classify(nil, nil, s, p)
}

// Read reads every file added, in parallel, checks the links to local
// files and gives the network ones to Found, in the order of the files.
// The results of the local checks are in Results.
func (t *Tree) Read(ctx context.Context) {
	jobs := t.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type fileScan struct {
		doc  *docEntry
		text []docLink
		err  error
	}
	scans := make([]fileScan, len(t.files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(t.files) || ctx.Err() != nil {
					return
				}
				f := t.files[i]
				if kindOf(f.abs) == kindText {
					scans[i].text, scans[i].err = scanText(f.abs)
					continue
				}
				e := t.doc(f.abs)
				scans[i].doc, scans[i].err = e, e.err
			}
		}()
	}
	wg.Wait()
	for i := range t.files {
		f := &t.files[i]
		s := scans[i]
		if s.err != nil {
			t.Problems = append(t.Problems, fmt.Sprintf("%s: %v", f.name, oneLine(s.err.Error())))
		}
		links := s.text
		var base *url.URL
		if s.doc != nil {
			links = s.doc.scan.links
			if s.doc.scan.haveBase {
				if b, err := url.Parse(s.doc.scan.base); err == nil {
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
		for _, l := range links {
			t.classify(f, base, l.ref, Place{File: f.name, Line: l.line, Column: l.col})
		}
		if s.doc != nil {
			s.doc.scan.links = nil // only the anchors are needed now
		}
		scans[i] = fileScan{}
	}
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
	prefix := t.prefix()
	if prefix != nil && (t.Base != "" || t.Root != "") && (t.Root == "" || t.rootAbs() == f.top) {
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

func (t *Tree) rootAbs() string {
	r, _ := filepath.Abs(t.Root)
	return r
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

// classify resolves the reference ref found at p in file f (nil for a
// URL given directly) against base and records it.
func (t *Tree) classify(f *treeFile, base *url.URL, ref string, p Place) {
	if ref == "" {
		return // the document itself (RFC 3986 §4.4)
	}
	if HasScheme(ref) {
		switch strings.ToLower(ref[:strings.IndexByte(ref, ':')]) {
		case "data", "javascript", "about", "blob":
			return // the link carries its content, or is a script: nothing to fetch
		}
	}
	if t.excluded(ref) {
		t.record("x\x00"+ref, ref, p, Skipped, "excluded (--exclude-url, --include-url or "+IgnoreFile+")")
		return
	}
	var res *url.URL
	if ref[0] == '#' && f != nil {
		// Another place of the same document (RFC 3986 §4.4), whatever
		// its <base href>.
		t.local(f, ref, p, f.abs, f.top, ref[1:], true)
		return
	}
	r, err := url.Parse(ref)
	switch {
	case HasScheme(ref):
		res = r
		if err != nil {
			t.network(ref, p) // the RFC 1738 check says what is wrong
			return
		}
	case err != nil:
		t.record("i\x00"+ref, ref, p, Invalid, oneLine(err.Error()))
		return
	case f == nil || base == nil:
		return
	case strings.HasPrefix(ref, "//") && base.Scheme == "file":
		t.record("r\x00"+ref, ref, p, Skipped, "scheme-relative in a local file: give --base")
		return
	case strings.HasPrefix(ref, "/") && base.Scheme == "file":
		t.record("r\x00"+ref, ref, p, Skipped, "root-relative: give --root")
		return
	default:
		res = base.ResolveReference(r) // RFC 3986 §5.2
	}
	frag, hasFrag := res.Fragment, strings.Contains(ref, "#")
	if strings.EqualFold(res.Scheme, "file") && (res.Host == "" || strings.EqualFold(res.Host, "localhost")) {
		top := ""
		if f != nil {
			top = f.top
		}
		t.local(f, ref, p, filepath.Clean(filepath.FromSlash(res.Path)), top, frag, hasFrag)
		return
	}
	if pre := t.prefix(); pre != nil && strings.EqualFold(res.Scheme, pre.Scheme) && strings.EqualFold(res.Host, pre.Host) &&
		(strings.HasPrefix(res.Path, pre.Path) || res.Path+"/" == pre.Path) {
		top := t.rootAbs()
		if t.Root == "" {
			if f == nil {
				t.network(ref, p)
				return
			}
			top = f.top
		}
		rest := strings.TrimPrefix(res.Path, strings.TrimSuffix(pre.Path, "/"))
		t.local(f, ref, p, filepath.Join(top, filepath.FromSlash(rest)), top, frag, hasFrag)
		return
	}
	if HasScheme(ref) {
		if !t.Fragments {
			if i := strings.IndexByte(ref, '#'); i >= 0 {
				ref = ref[:i]
			}
		}
		t.network(ref, p)
		return
	}
	if !t.Fragments {
		res.Fragment, res.RawFragment = "", ""
	}
	t.network(res.String(), p)
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

// network hands a network URL to Found, unless Offline.
func (t *Tree) network(s string, p Place) {
	if t.excluded(s) {
		t.record("x\x00"+s, s, p, Skipped, "excluded (--exclude-url, --include-url or "+IgnoreFile+")")
		return
	}
	if t.Offline && !strings.HasPrefix(strings.ToLower(s), "file:") {
		t.record("o\x00"+s, s, p, Skipped, "offline (--offline)")
		return
	}
	if t.Found != nil {
		t.Found(s, p)
	}
}

// local records a link to the local file target, to be checked.
func (t *Tree) local(f *treeFile, ref string, p Place, target, top, frag string, hasFrag bool) {
	key := "l\x00" + ref + "\x00" + target + "\x00" + frag
	if i, ok := t.index[key]; ok {
		t.results[i].Places = append(t.results[i].Places, p)
		return
	}
	i := t.record(key, ref, p, OK, "")
	t.checks = append(t.checks, localCheck{result: i, path: target, top: top, frag: frag, hasFrag: hasFrag,
		md: f != nil && kindOf(f.abs) == kindMarkdown})
}

// record adds p to the result of key, made with status and detail when
// new, and returns its index.
func (t *Tree) record(key, shown string, p Place, status Status, detail string) int {
	if t.index == nil {
		t.index = map[string]int{}
	}
	i, ok := t.index[key]
	if !ok {
		i = len(t.results)
		t.index[key] = i
		t.results = append(t.results, Result{URL: access.Redact(shown), Scheme: "file", Status: status, Detail: detail})
		if HasScheme(shown) {
			t.results[i].Scheme = strings.ToLower(shown[:strings.IndexByte(shown, ':')])
		}
	}
	t.results[i].Places = append(t.results[i].Places, p)
	return i
}

// Results returns the verdicts on the links checked in the tree (and the
// URLs skipped), in order of first appearance. Call it after Read.
func (t *Tree) Results() []Result { return t.results }

// folderIndexes are the files a static server (and, for Markdown, a code
// host) shows for a folder.
var folderIndexes = []string{"index.html", "index.htm"}
var markdownIndexes = []string{"README.md", "index.md"}

// checkLocal decides a link to a local file: it exists (a folder: holds
// an index), and its fragment names an anchor of it. A target outside
// its tree is only tested for existence.
func (t *Tree) checkLocal(c localCheck) (Status, string) {
	shown := c.path
	if c.top != "" {
		if rel, err := filepath.Rel(c.top, c.path); err == nil && !strings.HasPrefix(rel, "..") {
			shown = filepath.ToSlash(rel)
		}
	}
	fe := t.stat(c.path)
	st, err := fe.info, fe.err
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return Broken, "no such file: " + oneLine(shown)
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
			return Broken, "folder without " + strings.Join(idx, " or ") + ": " + oneLine(shown)
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
	return BrokenFragment, "no anchor #" + oneLine(c.frag) + " in " + oneLine(shown)
}
