package linkcheck

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// A linkAct is what one link of a tree calls for. resolve decides it
// without touching the Tree's state, so that the files' links are
// resolved in parallel; apply then does it, in the order of the files.
type linkAct struct {
	kind   actKind
	key    byte   // actRecord: 'x' excluded, 'i' invalid, 'r' needs --root or --base, 'o' offline
	shown  string // the URL as reported (actLocal: the reference as written)
	status Status
	detail string
	// actLocal: the file, the tree it must stay in, the fragment.
	target, top, frag string
	hasFrag, md       bool
}

type actKind uint8

const (
	actNone    actKind = iota // nothing to check: the document itself, data:, javascript:
	actRecord                 // a verdict known at once
	actLocal                  // a file of this machine, decided after the reading
	actNetwork                // handed to Found
)

// resultKey is the identity of a result: a skipped or invalid URL by its
// text, a local link by its text, target and fragment.
type resultKey struct {
	kind              byte
	ref, target, frag string
}

const excludedDetail = "excluded (--exclude-url, --include-url or " + IgnoreFile + ")"

// apply does what resolve decided for the link found at p.
func (t *Tree) apply(a linkAct, p Place) {
	switch a.kind {
	case actRecord:
		t.record(resultKey{kind: a.key, ref: a.shown}, a.shown, p, a.status, a.detail)
	case actLocal:
		i, isNew := t.record(resultKey{kind: 'l', ref: a.shown, target: a.target, frag: a.frag}, a.shown, p, OK, "")
		if !isNew {
			return
		}
		t.checks = append(t.checks, localCheck{result: i, path: a.target, top: a.top, frag: a.frag, hasFrag: a.hasFrag, md: a.md})
	case actNetwork:
		if t.Found != nil {
			t.Found(a.shown, p)
		}
	}
}

// resolve decides the reference ref found in file f (nil for a URL given
// directly), resolved against base (RFC 3986 §5.2).
func (t *Tree) resolve(f *treeFile, base *url.URL, ref string) linkAct {
	if ref == "" {
		return linkAct{} // the document itself (RFC 3986 §4.4)
	}
	scheme := HasScheme(ref)
	if scheme {
		switch strings.ToLower(ref[:strings.IndexByte(ref, ':')]) {
		case "data", "javascript", "about", "blob":
			return linkAct{} // the link carries its content, or is a script: nothing to fetch
		}
	}
	if t.excluded(ref) {
		return skip('x', ref, excludedDetail)
	}
	if ref[0] == '#' && f != nil {
		// Another place of the same document (RFC 3986 §4.4), whatever
		// its <base href>.
		return t.localAct(f, ref, f.abs, f.top, ref[1:], true)
	}
	if !scheme && base != nil && f != nil {
		if a, ok := t.resolveRelative(f, base, ref); ok {
			return a
		}
	}
	var res *url.URL
	r, err := url.Parse(ref)
	switch {
	case scheme:
		res = r
		if err != nil {
			return t.network(ref) // the RFC 1738 check says what is wrong
		}
	case err != nil:
		return linkAct{kind: actRecord, key: 'i', shown: ref, status: Invalid, detail: oneLine(err.Error())}
	case f == nil || base == nil:
		return linkAct{}
	case strings.HasPrefix(ref, "//") && base.Scheme == "file":
		return skip('r', ref, "scheme-relative in a local file: give --base")
	case strings.HasPrefix(ref, "/") && base.Scheme == "file":
		return skip('r', ref, "root-relative: give --root")
	default:
		res = base.ResolveReference(r) // RFC 3986 §5.2
	}
	if a, ok := t.localOf(f, ref, res); ok {
		return a
	}
	if scheme {
		if !t.Fragments {
			if i := strings.IndexByte(ref, '#'); i >= 0 {
				ref = ref[:i]
			}
		}
		return t.network(ref)
	}
	if !t.Fragments {
		res.Fragment, res.RawFragment = "", ""
	}
	return t.network(res.String())
}

func skip(key byte, ref, detail string) linkAct {
	return linkAct{kind: actRecord, key: key, shown: ref, status: Skipped, detail: detail}
}

// localOf decides a resolved link that names a file of this machine: a
// file: URL, or one under the tree's published URL (Base, or rootHost
// with Root).
func (t *Tree) localOf(f *treeFile, ref string, res *url.URL) (linkAct, bool) {
	frag, hasFrag := res.Fragment, strings.Contains(ref, "#")
	if strings.EqualFold(res.Scheme, "file") && (res.Host == "" || strings.EqualFold(res.Host, "localhost")) {
		top := ""
		if f != nil {
			top = f.top
		}
		return t.localAct(f, ref, filepath.Clean(filepath.FromSlash(res.Path)), top, frag, hasFrag), true
	}
	pre, root := t.published()
	if pre != nil && strings.EqualFold(res.Scheme, pre.Scheme) && strings.EqualFold(res.Host, pre.Host) &&
		(strings.HasPrefix(res.Path, pre.Path) || res.Path+"/" == pre.Path) {
		top := root
		if t.Root == "" {
			if f == nil {
				return t.network(ref), true
			}
			top = f.top
		}
		rest := strings.TrimPrefix(res.Path, strings.TrimSuffix(pre.Path, "/"))
		return t.localAct(f, ref, filepath.Join(top, filepath.FromSlash(rest)), top, frag, hasFrag), true
	}
	return linkAct{}, false
}

// resolveRelative is resolve's way for the commonest reference of a
// documentation tree, a relative path with at most a fragment
// ("../guide/x.html#install"): no query, no percent-escape, no colon,
// no control character, one '#', no empty segment. The path is merged
// with the base's and its dot segments removed (RFC 3986 §5.2.2,
// §5.2.3, §5.2.4) by path.Join, which also drops a final "/": what
// filepath.Clean does to a local target anyway. A result that is not a local file goes
// the general way (ok false), so that what Found receives is net/url's.
func (t *Tree) resolveRelative(f *treeFile, base *url.URL, ref string) (linkAct, bool) {
	if base.Opaque != "" || !strings.HasPrefix(base.Path, "/") || ref[0] == '/' {
		return linkAct{}, false
	}
	hashes := 0
	for i := 0; i < len(ref); i++ {
		switch c := ref[i]; {
		case c == '#':
			hashes++
		case c == '%', c == '?', c == ':', c == '\\', c < 0x20, c == 0x7f:
			return linkAct{}, false
		}
	}
	p, frag := ref, ""
	if hashes > 1 {
		return linkAct{}, false
	} else if hashes == 1 {
		i := strings.IndexByte(ref, '#')
		p, frag = ref[:i], ref[i+1:]
	}
	dir := base.Path[:strings.LastIndexByte(base.Path, '/')+1]
	if p == "" || strings.Contains(p, "//") || strings.Contains(dir, "//") {
		// An empty segment is one for remove_dot_segments ("a//.." is
		// "a/"), not for path.Join.
		return linkAct{}, false
	}
	res := url.URL{Scheme: base.Scheme, Host: base.Host, Path: path.Join(dir, p), Fragment: frag}
	return t.localOf(f, ref, &res)
}

func (t *Tree) localAct(f *treeFile, ref, target, top, frag string, hasFrag bool) linkAct {
	return linkAct{kind: actLocal, shown: ref, target: target, top: top, frag: frag, hasFrag: hasFrag,
		md: f != nil && kindOf(f.abs) == kindMarkdown}
}

// network decides a network URL: handed to Found, unless excluded or
// Offline.
func (t *Tree) network(s string) linkAct {
	if t.excluded(s) {
		return skip('x', s, excludedDetail)
	}
	if t.Offline && !strings.HasPrefix(strings.ToLower(s), "file:") {
		return skip('o', s, "offline (--offline)")
	}
	return linkAct{kind: actNetwork, shown: s}
}

// published returns the tree's published URL, ending in '/' (nil when
// it has none), and Root made absolute: worked out once.
func (t *Tree) published() (*url.URL, string) {
	t.pubOnce.Do(func() {
		t.pub = t.prefix()
		if t.Root != "" {
			t.rootDir, _ = filepath.Abs(t.Root)
		}
	})
	return t.pub, t.rootDir
}
