package mirror

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// What a mirror does with a symbolic link in a listing (Options.Symlinks).
const (
	// SymlinksSkip reports the link and counts it skipped: the default.
	SymlinksSkip = "skip"
	// SymlinksKeep makes a local link with the same target, when that
	// target stays inside the folder; a link that would leave it is
	// refused.
	SymlinksKeep = "keep"
	// SymlinksFollow takes the link for what it points to on the server:
	// a file is fetched, a directory listed, once: links are followed
	// after the tree itself is walked, and one to a server directory the
	// walk reached already (".", "..", another link's) is skipped. At
	// most MaxLinkHops links on one path, MaxLinkDirs directories in all.
	SymlinksFollow = "follow"
)

// SymlinkModes are the values of Options.Symlinks, the default first.
var SymlinkModes = []string{SymlinksSkip, SymlinksKeep, SymlinksFollow}

// MaxLinkHops bounds the links followed on one path with SymlinksFollow.
const MaxLinkHops = 8

// MaxLinkDirs bounds the directories one run reaches through links with
// SymlinksFollow: a server can make each path new (links to "l/a" and
// "l/b" where l, a and b lead to "." give 2ⁿ paths n links deep), and
// only a bound ends the walk.
const MaxLinkDirs = 1000

// linkDirBound is MaxLinkDirs, lowered by a test.
var linkDirBound = MaxLinkDirs

// ftpLink handles the link e, listed in the local folder dir as child,
// as Options.Symlinks says.
func (r *run) ftpLink(s *ftpSite, d ftpPlace, dir, child string, e access.Entry) {
	target := e.Attrs["target"]
	switch r.opt.Symlinks {
	case SymlinksKeep:
		r.keepLink(dir, child, target)
		return
	case SymlinksFollow:
		if d.hops >= MaxLinkHops {
			r.logf("skipped link %s -> %s: more than %d links on its path", child, target, MaxLinkHops)
			r.count(func(st *Stats) { st.Skipped++; st.Links++ })
			return
		}
		u := s.url(d.rel, e.Name, false)
		r.walk.addLink(func(ctx context.Context, wd *watchdog.Watchdog) {
			r.followFTPLink(ctx, wd, s, d, dir, child, e, u)
		})
		return
	}
	r.logf("skipped link %s -> %s (--symlinks keep or follow)", child, target)
	r.count(func(st *Stats) { st.Skipped++; st.Links++ })
}

// followFTPLink asks the server what the link at u points to (Stat: SIZE
// for a file, CWD for a directory; the server resolves the link) and
// fetches or lists that.
func (r *run) followFTPLink(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, d ftpPlace, dir, child string, e access.Entry, u string) {
	pu, err := parseURL(u)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	info, err := s.c.Stat(ctx, pu)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	r.count(func(st *Stats) { st.Links++ })
	if info.Kind == access.KindDirectory {
		to := d.child(e.Name)
		to.hops++
		to.srv = linkDir(d.srv, e.Name, e.Attrs["target"])
		s.mu.Lock()
		walked := s.walked[keyOf(to.srv)]
		over := !walked && s.linkDirs >= linkDirBound
		if !walked && !over {
			s.linkDirs++
		}
		s.mu.Unlock()
		switch {
		case walked:
			r.logf("skipped link %s -> %s: the server directory %s is walked already", child, e.Attrs["target"], to.srv)
			r.count(func(st *Stats) { st.Skipped++ })
			return
		case over:
			r.logf("skipped link %s -> %s: more than %d directories reached through links", child, e.Attrs["target"], linkDirBound)
			r.count(func(st *Stats) { st.Skipped++ })
			return
		}
		r.ftpSubdir(s, to, child)
		return
	}
	if fetch, _ := r.want(child, info.Size, info.Time); !fetch || r.opt.DryRun {
		return
	}
	fo := r.openFolder(dir)
	defer fo.done()
	r.ftpFile(ctx, wd, s, pu, access.Entry{Name: e.Name, Kind: access.KindFile, Size: info.Size, Time: info.Time}, time.Time{}, u, child, fo)
}

// linkDir is the server directory a link named name in the server
// directory dir leads to: its target resolved from dir ("." and ".."
// taken lexically), or, when the listing gave no target, the link's own
// path.
func linkDir(dir, name, target string) string {
	switch {
	case target == "":
		return path.Join(dir, name)
	case strings.HasPrefix(target, "/"):
		return path.Clean(target)
	}
	return path.Join(dir, target)
}

// keepLink makes the local link child (in the local folder dir) point to
// target, the remote one's, each of its names made local as a file's
// (localSegment), when it resolves inside the folder: an absolute
// target, or one whose ".." climb above the top, is refused. os.Root
// keeps the link itself inside; its target is checked here, as the
// kernel follows it later from wherever it is read. dir is a real
// folder, reached through no link (ftpDir checks it, realDir), so the
// real local path the target resolves to is the lexical one.
func (r *run) keepLink(dir, child, target string) {
	local, ok := localLinkTarget(dir, target)
	if !ok {
		r.logf("refused link %s -> %s: its target is outside the folder", child, target)
		r.count(func(st *Stats) { st.Refused++; st.Links++ })
		return
	}
	if r.opt.DryRun || r.root == nil {
		r.logf("would link %s -> %s", child, local)
		r.count(func(st *Stats) { st.Links++ })
		return
	}
	if old, err := r.root.Readlink(child); err == nil && old == local {
		r.count(func(st *Stats) { st.Links++ })
		return
	}
	// What was there (an older link, a file, a folder the server now
	// lists as a link) goes, and the records of a file or folder with it.
	old, err := r.root.Lstat(child)
	if err == nil {
		err = r.root.RemoveAll(child)
	}
	if err != nil && !isNotExist(err) {
		r.logf("link %s: %v", child, err.Error())
		r.fail(err)
		return
	}
	switch {
	case err != nil:
	case old.IsDir():
		for _, p := range r.man.under(child) {
			r.man.add(Record{Path: p, Deleted: true})
		}
	case old.Mode().IsRegular():
		if _, _, ok := r.man.stat(child); ok {
			r.man.add(Record{Path: child, Deleted: true})
		}
	}
	if err := r.root.Symlink(local, child); err != nil {
		r.logf("link %s: %v", child, err.Error())
		r.fail(err)
		return
	}
	r.logf("linked %s -> %s", child, local)
	r.count(func(st *Stats) { st.Links++ })
}

// localLinkTarget is target, a link's in the folder dir, with its names
// made local, and whether it stays inside the mirror's top. Only a
// target whose ".." all come first is taken: they climb real folders of
// the mirror, so the lexical answer is the kernel's; a ".." after a name
// would climb from wherever that name, maybe a link, leads.
func localLinkTarget(dir, target string) (string, bool) {
	if target == "" || strings.HasPrefix(target, "/") || strings.ContainsRune(target, 0) {
		return "", false
	}
	var segs []string
	up, named := 0, false
	for _, seg := range strings.Split(target, "/") {
		switch {
		case seg == "" || seg == ".":
			continue
		case seg == ".." && named:
			return "", false
		case seg == "..":
			up++
		default:
			named = true
			seg = localSegment(seg)
		}
		segs = append(segs, seg)
	}
	depth := 0
	if dir != "" {
		depth = strings.Count(dir, "/") + 1
	}
	if up > depth || len(segs) == 0 {
		return "", false
	}
	local := strings.Join(segs, "/")
	if path.Join(dir, local) == ManifestName {
		return "", false
	}
	return local, true
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
