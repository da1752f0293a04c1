package mirror

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// An ftp mirror reaches the server through the access handler alone: its
// List reads each directory (MLSD, LIST or NLST, with their fallbacks,
// in access/ftp), its fetch with resume (Request.Offset) each file. The
// client's pool keeps Parallel logins, each left in the directory of its
// last file, so the files of one directory need no CWD between them.

// ftpSite is one ftp mirror.
type ftpSite struct {
	c    *access.Client
	base string // URL of the mirror's top, ending in "/"

	// --symlinks follow: the server directories walked (see
	// ftpPlace.srv), each once, and how many were reached through a
	// link (at most MaxLinkDirs).
	mu       sync.Mutex
	walked   map[pathKey]bool
	linkDirs int
}

// An ftpPlace is a directory of the walk: its names from the top (rel),
// its level, the links followed to reach it, and, with --symlinks follow,
// the server directory it is: its path from the login directory ("~")
// or from the server's root ("/"), each link on the way taken for its
// target, "." and ".." resolved.
type ftpPlace struct {
	rel         []string
	depth, hops int
	srv         string
}

// child is the place of the directory name listed in d.
func (d ftpPlace) child(name string) ftpPlace {
	return ftpPlace{rel: append(append([]string(nil), d.rel...), name), depth: d.depth + 1, hops: d.hops, srv: path.Join(d.srv, name)}
}

// claimDir claims the server directory srv for the walk: false when it was
// walked already (a link to ".", "..", or to another walked directory).
func (s *ftpSite) claimDir(srv string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := keyOf(srv)
	if s.walked[k] {
		return false
	}
	s.walked[k] = true
	return true
}

func (r *run) mirrorFTP(ctx context.Context, u rfc1738.URL) error {
	v, _ := u.FTP()
	s := &ftpSite{c: r.opt.Access.Clone()}
	if r.opt.Email != "" {
		s.c.Email = r.opt.Email
	}
	// The §6 guard on the data ports the server names (227, 229) comes
	// with the client's FTPConfig.
	defer s.c.KeepFTPLogins(r.opt.Parallel, true).Close()
	// The URL names a directory: its <cwd>s, and its <name> too when
	// there is one (ftp://host/pub is the directory pub).
	top := append([]string(nil), v.Cwd...)
	if v.Name != "" {
		top = append(top, v.Name)
	}
	b := []byte("ftp://")
	if v.HasUser {
		b = rfc1738.AppendEscape(b, v.User, rfc1738.UserComponent)
		b = append(b, '@')
	}
	b = append(b, u.HostPort()...)
	b = append(b, '/')
	for _, seg := range top {
		b = rfc1738.AppendEscape(b, seg, rfc1738.FSegment)
		b = append(b, '/')
	}
	s.base = string(b)

	// The login and the CWDs to the top come first, on their own (Stat
	// of the top directory): failing there fails the run. Its listing
	// is then the first job, on the same login.
	topURL, err := parseURL(s.base)
	if err != nil {
		return err
	}
	wctx, wd := r.watch(ctx)
	_, err = s.c.Stat(wctx, topURL)
	wd.Stop()
	if err != nil {
		return watchdog.Explain(wctx, err)
	}
	r.walk = newWalker()
	top0 := ftpPlace{srv: "~"}
	for _, seg := range top {
		top0.srv = path.Join(top0.srv, seg)
	}
	if r.opt.Symlinks == SymlinksFollow {
		s.walked = map[pathKey]bool{}
		s.claimDir(top0.srv)
	}
	r.addFTPDir(s, top0)
	return r.walk.run(ctx, r.opt.Parallel, r.runJob)
}

// url is the URL of name in directory rel, or of rel itself when dir.
func (s *ftpSite) url(rel []string, name string, dir bool) string {
	b := []byte(s.base)
	for _, seg := range rel {
		b = rfc1738.AppendEscape(b, seg, rfc1738.FSegment)
		b = append(b, '/')
	}
	if dir {
		return string(b)
	}
	return string(rfc1738.AppendEscape(b, name, rfc1738.FSegment))
}

// list starts the listing of directory rel.
func (s *ftpSite) list(ctx context.Context, rel []string) (*access.Entries, error) {
	u, err := parseURL(s.url(rel, "", true))
	if err != nil {
		return nil, err
	}
	return s.c.List(ctx, u)
}

// addFTPDir queues the listing of d.
func (r *run) addFTPDir(s *ftpSite, d ftpPlace) {
	r.walk.addDir(func(ctx context.Context, wd *watchdog.Watchdog) { r.ftpDir(ctx, wd, s, d) })
}

// ftpDir lists one directory and queues its subdirectories and the
// files that are new or changed. The listing is read as a stream: what
// stays of an entry is its local name (for --delete and for a name
// listed twice) and, for a file to fetch, its name, size and time.
func (r *run) ftpDir(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, d ftpPlace) {
	rel := d.rel
	local := localDir(rel)
	where := s.url(rel, "", true)
	if r.totalReached() {
		// --max-total counts the listings too: a tree without end
		// ends there.
		r.logf("skipped %s: --max-total reached", where)
		r.count(func(st *Stats) { st.Skipped++ })
		return
	}
	// The local folder is reached through real folders only, never
	// through a link (one an earlier run kept, say): else its files,
	// and --delete's removals, would land in whatever the link reaches.
	// ftpSubdir replaced any such link with a folder; in a dry run,
	// where it did not, nothing is deleted.
	linked := r.realDir(local)
	if linked != nil && !r.opt.DryRun {
		r.failed(ctx, "list", where, linked)
		return
	}
	ents, err := s.list(ctx, rel)
	if err != nil {
		r.failed(ctx, "list", where, err)
		return
	}
	names := nameSet{} // local names listed
	var files []ftpFileJob
	for {
		e, err := ents.Next()
		wd.Touch()
		var le *access.LineError
		if errors.As(err, &le) {
			r.logf("%s in %s: %q", le.Reason, where, le.Line)
			r.count(func(st *Stats) { st.Refused++ })
			continue
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			ents.Close()
			r.failed(ctx, "list", where, err)
			return
		}
		if !r.charge(int64(len(e.Name) + len(e.Attrs["target"]) + 1)) {
			ents.Close()
			r.failed(ctx, "list", where, r.errTotal())
			return
		}
		if j, ok := r.ftpEntry(s, d, local, e, names); ok {
			files = append(files, j)
		}
	}
	if err := ents.Close(); err != nil {
		r.failed(ctx, "list", where, err)
		return
	}
	r.count(func(st *Stats) { st.Dirs++ })
	// What the listing no longer names goes before any file of the
	// folder is written, so no temporary file of this run is taken for
	// a stray one.
	if r.opt.Delete && linked == nil && r.listedWhole(ents, where) {
		r.deleteGone(local, names)
	}
	if len(files) == 0 {
		return
	}
	fo := r.openFolder(local)
	for _, f := range files {
		fo.left.Add(1)
		r.walk.addFile(func(ctx context.Context, wd *watchdog.Watchdog) {
			defer fo.done()
			r.ftpQueued(ctx, wd, s, rel, local, f, fo)
		})
	}
	fo.done() // the listing's own hold
}

// An ftpFileJob is a file a listing queued for transfer: no more of its
// entry than the fetch needs.
type ftpFileJob struct {
	name string
	size int64
	time time.Time
	// coarse: the listed time is to the minute or the day (LIST), and
	// MDTM is asked for the second; check: the manifest has the file
	// whole with that size and listed time, and MDTM decides whether it
	// changed within the listing's precision.
	coarse, check bool
}

// ftpEntry takes one entry of the listing of rel (local, at depth):
// a directory is made and queued, a symbolic link handled as --symlinks
// says, a file that is new or changed returned for transfer. names
// collects the local names listed.
func (r *run) ftpEntry(s *ftpSite, d ftpPlace, local string, e access.Entry, names nameSet) (ftpFileJob, bool) {
	rel := d.rel
	where := s.url(rel, "", true)
	if err := safeName(e.Name, len(rel) == 0); err != nil {
		r.logf("refused %q in %s: %v", e.Name, where, err.Error())
		r.count(func(st *Stats) { st.Refused++ })
		return ftpFileJob{}, false
	}
	// Control bytes and "%" of a remote name are written %XX locally.
	lname := localSegment(e.Name)
	if !names.add(lname) {
		return ftpFileJob{}, false // listed twice: fetched once
	}
	child := path.Join(local, lname)
	switch e.Kind {
	case access.KindDirectory:
		r.ftpSubdir(s, d.child(e.Name), child)
		return ftpFileJob{}, false
	case access.KindLink:
		r.ftpLink(s, d, local, child, e)
		return ftpFileJob{}, false
	}
	// An ls -l time is to the minute, or to the day: a same-size
	// rewrite within it looks unchanged, so MDTM (RFC 3659 §3) decides
	// (as lftp does), in the file's own job.
	coarse := e.Precision > 0 && !r.opt.DryRun
	fetch, unchanged := r.decide(child, e.Size, e.Time, !coarse)
	if !fetch && !(coarse && unchanged) {
		return ftpFileJob{}, false
	}
	if r.opt.DryRun {
		r.logf("would fetch %s -> %s", s.url(rel, e.Name, false), child)
		return ftpFileJob{}, false
	}
	return ftpFileJob{e.Name, e.Size, e.Time, coarse, unchanged}, true
}

// ftpSubdir makes the local folder child of the directory d, and queues
// its listing, unless --exclude or --depth leave it out, or (--symlinks
// follow) that server directory was walked already.
func (r *run) ftpSubdir(s *ftpSite, d ftpPlace, child string) {
	if matches(r.opt.Exclude, child) || (r.opt.Depth > 0 && d.depth+1 > r.opt.Depth) {
		return
	}
	if s.walked != nil && !s.claimDir(d.srv) {
		r.logf("skipped %s: the server directory %s is walked already", child, d.srv)
		r.count(func(st *Stats) { st.Skipped++ })
		return
	}
	if err := r.folderAt(child); err != nil {
		r.logf("mkdir %s: %v", child, err.Error())
		r.fail(err)
		return
	}
	r.addFTPDir(s, d)
}

// ftpQueued runs the job of a file a listing queued: MDTM first where
// the listed time is coarse, then the fetch, unless MDTM finds the file
// the manifest has.
func (r *run) ftpQueued(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, rel []string, local string, f ftpFileJob, fo *folder) {
	u := s.url(rel, f.name, false)
	child := path.Join(local, localSegment(f.name))
	var exact time.Time
	if f.coarse {
		if pu, err := parseURL(u); err == nil {
			t, err := s.c.ModTime(ctx, pu)
			wd.Touch()
			switch {
			case err == nil:
				exact = t
			case !errors.Is(err, access.ErrUnsupported):
				r.fileFailed(ctx, u, err)
				return
			}
		}
	}
	if f.check {
		rec, _ := r.man.read(child)
		switch {
		case exact.IsZero(), rec.Exact.Equal(exact):
			// No MDTM, or the second the manifest has: unchanged.
			r.count(func(st *Stats) { st.Unchanged++ })
			return
		case rec.Exact.IsZero():
			// A manifest from before MDTM was asked: the time is
			// taken, once, as the file's.
			rec.Exact = exact
			r.man.add(rec)
			setTime(fo.root, fo.name(child), exact)
			r.count(func(st *Stats) { st.Unchanged++ })
			return
		}
		r.logf("changed %s: MDTM says %s, the copy is of %s", child, exact.Format(time.DateTime), rec.Exact.Format(time.DateTime))
		if !r.plan(child, f.size) {
			return
		}
	}
	pu, err := parseURL(u)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	r.ftpFile(ctx, wd, s, pu, access.Entry{Name: f.name, Kind: access.KindFile, Size: f.size, Time: f.time}, exact, u, child, fo)
}

// ftpFile fetches one file with TYPE I into DIR/local, atomically, and
// records it in the manifest.
// exact, when not zero, is its time to the second (MDTM) where e's is
// coarse: the local file gets it, and the manifest records both.
func (r *run) ftpFile(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, pu rfc1738.URL, e access.Entry, exact time.Time, u, local string, fo *folder) {
	if e.Size > 0 && !e.Time.IsZero() {
		r.ftpResumable(ctx, wd, s, pu, e, exact, u, local, fo)
		return
	}
	resp, err := s.c.Do(ctx, r.request(pu, 0, &e))
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	r.saveIn(ctx, fo.root, fo.name(local), Record{URL: u, Path: local, Mtime: e.Time, Exact: exact}, r.limited(wd.Reader(resp.Body), 0), resp.Body)
}

// ftpResumable fetches a file of known size and time into its partial
// file, resuming with REST (RFC 3659 §5) from the bytes a broken earlier
// transfer left there when that partial has the listed time (the same
// version of the file), and renames it to local once the end reply says
// it is complete. A broken transfer leaves the partial (never the local
// name) with the listed time; a server refusing REST sends it whole, and
// one that accepts REST but sends more than the listed size less the
// offset (from byte 0) has the partial dropped and the file fetched
// whole, once.
func (r *run) ftpResumable(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, pu rfc1738.URL, e access.Entry, exact time.Time, u, local string, fo *folder) {
	dir, name := fo.root, fo.name(local)
	// The time that marks the partial's version, and the local file's:
	// to the second when MDTM told it.
	mark := e.Time
	if !exact.IsZero() {
		mark = exact
	}
	part := partialName(name)
	h := sha256.New()
	var offset int64
	if fi, err := dir.Lstat(part); err == nil && fi.Mode().IsRegular() && fi.Size() < e.Size && fi.ModTime().Equal(localTime(mark)) {
		if f, err := dir.Open(part); err == nil {
			offset, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				offset = 0
			}
		}
	}
	resp, err := s.c.Do(ctx, r.request(pu, offset, &e))
	if offset > 0 && errors.Is(err, access.ErrNoResume) {
		offset = 0
		resp, err = s.c.Do(ctx, r.request(pu, 0, &e))
	}
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	body := resp.Body
	if offset == 0 {
		h.Reset()
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if offset == 0 {
		flags |= os.O_TRUNC
	}
	f, err := dir.OpenFile(part, flags, fileMode)
	if err != nil {
		body.Close()
		r.fileFailed(ctx, u, err)
		return
	}
	n, err := io.Copy(io.MultiWriter(f, h), r.limited(wd.Reader(body), 0))
	if err == nil {
		err = body.Close()
	} else {
		body.Close()
	}
	// No fsync per file (as lftp and wget): the manifest line follows the
	// rename, so a killed run or a dropped server leaves it true; a crash
	// of the machine itself may not.
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = dir.Rename(part, name)
	}
	if errors.Is(err, access.ErrTooLarge) {
		// Beyond --max-size or --max-total: nothing of it is kept.
		dir.Remove(part)
		r.fileFailed(ctx, u, err)
		return
	}
	if err != nil && errors.Is(err, access.ErrLongTransfer) {
		// More bytes than the listing's size: after REST the server
		// sent from elsewhere (from 0), or the file changed. The
		// partial is no prefix of the file: it goes, and the file is
		// fetched whole, once (a partial of 0 bytes is not resumed).
		dir.Remove(part)
		if offset > 0 {
			r.logf("fetch %s: %v; fetching it whole", u, strings.TrimPrefix(err.Error(), u+": "))
			r.ftpResumable(ctx, wd, s, pu, e, exact, u, local, fo)
			return
		}
		r.fileFailed(ctx, u, err)
		return
	}
	if err != nil {
		// The bytes that came stay for the next run, marked with the
		// listed time of the version they belong to.
		setTime(dir, part, mark)
		r.fileFailed(ctx, u, err)
		return
	}
	setTime(dir, name, mark)
	if offset > 0 {
		r.logf("resumed %s at byte %s", u, strconv.FormatInt(offset, 10))
	}
	r.record(Record{URL: u, Path: local, Size: offset + n, Mtime: e.Time, Exact: exact}, n, h)
}
