package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"net/textproto"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/atomicfile"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// ftpSite holds the logins of one ftp mirror and what the server can do.
type ftpSite struct {
	pool *ftp.Pool
	addr string
	cred ftp.Credentials
	base string   // URL of the mirror's top, ending in "/"
	top  []string // §3.2.2: the CWD arguments from the login directory

	mu      sync.Mutex
	idle    []*siteConn
	featsOK bool
	mlsd    bool
}

// A siteConn is a login that knows which directory of the tree it is in,
// so that files of one directory need no CWD between them.
type siteConn struct {
	pc  *ftp.PooledConn
	dir string // key of the directory, "\x00" when unknown
}

const unknownDir = "\x00"

func dirKey(rel []string) string { return strings.Join(rel, "/") }

func (r *run) mirrorFTP(ctx context.Context, u rfc1738.URL) error {
	v, _ := u.FTP()
	user, pass, _ := v.Login(r.opt.Email)
	s := &ftpSite{
		// The §6 guard on the data ports the server names (227, 229).
		pool: &ftp.Pool{Config: r.opt.Access.FTPConfig(), MaxIdlePerLogin: r.opt.Parallel},
		addr: u.HostPort(),
		cred: ftp.Credentials{User: user, Password: pass, HasPassword: true},
	}
	// The URL names a directory: its <cwd>s, and its <name> too when
	// there is one (ftp://host/pub is the directory pub).
	s.top = append(s.top, v.Cwd...)
	if v.Name != "" {
		s.top = append(s.top, v.Name)
	}
	b := []byte("ftp://")
	if v.HasUser {
		b = rfc1738.AppendEscape(b, v.User, rfc1738.UserComponent)
		b = append(b, '@')
	}
	b = append(b, u.HostPort()...)
	b = append(b, '/')
	for _, seg := range s.top {
		b = rfc1738.AppendEscape(b, seg, rfc1738.FSegment)
		b = append(b, '/')
	}
	s.base = string(b)
	defer s.close()

	// The top directory is listed first, on its own: a login or CWD that
	// fails there fails the run.
	wctx, wd := r.watch(ctx)
	sc, err := s.get(wctx, nil)
	if err != nil {
		err = watchdog.Explain(wctx, err)
		wd.Stop()
		return err
	}
	wd.Stop()
	s.put(sc)
	r.walk = newWalker()
	r.addFTPDir(s, nil, 0)
	return r.walk.run(ctx, r.opt.Parallel, r.runJob)
}

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

// get returns a login in directory rel: an idle one already there, else
// any idle one (or a new login) moved there with the §3.2.2 CWD
// sequence from the login directory.
func (s *ftpSite) get(ctx context.Context, rel []string) (*siteConn, error) {
	key := dirKey(rel)
	s.mu.Lock()
	var sc *siteConn
	for i, c := range s.idle {
		if c.dir == key {
			sc = c
			s.idle = append(s.idle[:i], s.idle[i+1:]...)
			break
		}
	}
	if sc == nil && len(s.idle) > 0 {
		sc = s.idle[len(s.idle)-1]
		s.idle = s.idle[:len(s.idle)-1]
	}
	s.mu.Unlock()
	if sc == nil {
		pc, err := s.pool.Get(ctx, s.addr, s.cred)
		if err != nil {
			return nil, err
		}
		sc = &siteConn{pc: pc, dir: unknownDir}
		if pc.Home == "" {
			// Without a known login directory the connection can take
			// the CWD sequence only once.
			sc.dir = "\x00home"
		}
		s.features(ctx, pc)
	}
	if err := s.cd(ctx, sc, rel); err != nil {
		if sc.pc.Usable() && sc.pc.Home == "" && sc.dir == unknownDir {
			// It left an unknown login directory: no way back.
			sc.pc.Conn.Close()
			return s.get(ctx, rel)
		}
		s.put(sc)
		return nil, err
	}
	return sc, nil
}

// cd moves sc to directory rel: back to the login directory, where
// every URL's path starts, then §3.2.2's sequence, one CWD per <cwd>
// element with its own argument, then one per directory below the top.
func (s *ftpSite) cd(ctx context.Context, sc *siteConn, rel []string) error {
	key := dirKey(rel)
	if sc.dir == key {
		return nil
	}
	if sc.dir != "\x00home" {
		if sc.pc.Home == "" {
			sc.dir = unknownDir
			return errors.New("the server did not say its login directory (PWD)")
		}
		sc.dir = unknownDir
		if _, err := sc.pc.Cwd(ctx, sc.pc.Home); err != nil {
			return err
		}
	}
	sc.dir = unknownDir
	for _, seg := range append(append([]string(nil), s.top...), rel...) {
		if _, err := sc.pc.Cwd(ctx, seg); err != nil {
			return err
		}
	}
	sc.dir = key
	return nil
}

// features reads FEAT once per site: whether MLSD may be used.
func (s *ftpSite) features(ctx context.Context, pc *ftp.PooledConn) {
	s.mu.Lock()
	done := s.featsOK
	s.mu.Unlock()
	if done {
		return
	}
	feats, _, err := pc.Feat(ctx)
	s.mu.Lock()
	s.featsOK = err == nil || isRefusal(err)
	// RFC 3659 §7.8: a server with MLSD lists "MLST" in FEAT.
	s.mlsd = ftp.HasFeature(feats, "MLST")
	s.mu.Unlock()
}

func (s *ftpSite) put(sc *siteConn) {
	if !sc.pc.Usable() {
		sc.pc.Conn.Close()
		return
	}
	s.mu.Lock()
	s.idle = append(s.idle, sc)
	s.mu.Unlock()
}

func (s *ftpSite) close() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, sc := range idle {
		if sc.dir == "\x00home" {
			sc.pc.Conn.Quit(ctx)
			continue
		}
		s.pool.Put(ctx, sc.pc)
	}
	s.pool.Close()
}

func isRefusal(err error) bool {
	var te *textproto.Error
	return errors.As(err, &te)
}

func (r *run) addFTPDir(s *ftpSite, rel []string, depth int) {
	r.walk.addDir(func(ctx context.Context, wd *watchdog.Watchdog) { r.ftpDir(ctx, wd, s, rel, depth) })
}

// ftpDir lists one directory and queues its subdirectories and the
// files that are new or changed.
func (r *run) ftpDir(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, rel []string, depth int) {
	local := path.Join(rel...)
	where := s.url(rel, "", true)
	sc, err := s.get(ctx, rel)
	if err != nil {
		r.failed(ctx, "list", where, err)
		return
	}
	ents, err := r.ftpList(ctx, wd, s, sc, rel)
	s.put(sc)
	if err != nil {
		r.failed(ctx, "list", where, err)
		return
	}
	r.count(func(st *Stats) { st.Dirs++ })
	names := map[string]bool{}
	type fileJob struct {
		e        entry
		u, local string
	}
	var files []fileJob
	for _, e := range ents {
		if err := safeName(e.name, len(rel) == 0); err != nil {
			r.logf("refused %q in %s: %v", e.name, where, err.Error())
			r.count(func(st *Stats) { st.Refused++ })
			continue
		}
		if names[e.name] {
			continue // listed twice: fetched once
		}
		names[e.name] = true
		child := path.Join(local, e.name)
		if e.dir {
			if matches(r.opt.Exclude, child) || (r.opt.Depth > 0 && depth+2 > r.opt.Depth) {
				continue
			}
			if err := r.mkdir(child); err != nil {
				r.logf("mkdir %s: %v", child, err.Error())
				r.fail(err)
				continue
			}
			sub := append(append([]string(nil), rel...), e.name)
			r.addFTPDir(s, sub, depth+1)
			continue
		}
		if fetch, _ := r.want(child, e.size, e.mtime); !fetch {
			continue
		}
		u := s.url(rel, e.name, false)
		if r.opt.DryRun {
			r.logf("would fetch %s -> %s", u, child)
			continue
		}
		files = append(files, fileJob{e, u, child})
	}
	// What the listing no longer names goes before any file of the
	// folder is written, so no temporary file of this run is taken for
	// a stray one.
	if r.opt.Delete {
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
			r.ftpFile(ctx, wd, s, rel, f.e, f.u, f.local, fo)
		})
	}
	fo.done() // the listing's own hold
}

// ftpList reads the directory sc is in: MLSD where FEAT lists it (RFC
// 3659 §7, exact names, sizes and times), else LIST in the Unix or DOS
// format, else NLST with a CWD probe per name.
func (r *run) ftpList(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, sc *siteConn, rel []string) ([]entry, error) {
	where := s.url(rel, "", true)
	s.mu.Lock()
	mlsd := s.mlsd
	s.mu.Unlock()
	if mlsd {
		var ents []entry
		err := readLines(wd, func() (io.ReadCloser, error) { return sc.pc.Mlsd(ctx, "") }, func(line string) {
			m, ok := ftp.ParseMLSxEntry(line)
			switch {
			case !ok:
				r.logf("unreadable MLSD line in %s: %q", where, line)
				r.count(func(st *Stats) { st.Refused++ })
			case m.Type == "file":
				ents = append(ents, entry{name: m.Name, size: m.Size, mtime: m.Modify})
			case m.Type == "dir":
				ents = append(ents, entry{name: m.Name, dir: true, size: -1})
			}
		})
		return ents, err
	}
	var ents []entry
	bad, lines := 0, 0
	now := time.Now().UTC()
	err := readLines(wd, func() (io.ReadCloser, error) { return sc.pc.List(ctx, "") }, func(line string) {
		lines++
		e, skip, ok := parseListLine(line, now)
		switch {
		case !ok:
			bad++
			r.logf("unreadable LIST line in %s: %q", where, line)
		case !skip:
			ents = append(ents, e)
		}
	})
	if err != nil {
		return nil, err
	}
	if bad == 0 || bad < lines {
		r.count(func(st *Stats) { st.Refused += bad })
		return ents, nil
	}
	// No line of LIST was readable: NLST for the names, and a CWD into
	// each tells a directory from a file.
	var names []string
	if err := readLines(wd, func() (io.ReadCloser, error) { return sc.pc.Nlst(ctx, "") }, func(line string) {
		names = append(names, path.Base(line))
	}); err != nil {
		return nil, err
	}
	ents = ents[:0]
	for _, n := range names {
		wd.Touch() // each probe's replies are progress
		if safeName(n, false) != nil {
			ents = append(ents, entry{name: n, size: -1})
			continue
		}
		_, err := sc.pc.Cwd(ctx, n)
		if err == nil {
			ents = append(ents, entry{name: n, dir: true, size: -1})
			sc.dir = unknownDir
			if err := s.cd(ctx, sc, rel); err != nil {
				return nil, err
			}
			continue
		}
		if !isRefusal(err) {
			return nil, err
		}
		e := entry{name: n, size: -1}
		if sc.pc.Binary(ctx) == nil {
			if size, _, err := sc.pc.Size(ctx, n); err == nil {
				e.size = size
			}
		}
		ents = append(ents, e)
	}
	return ents, nil
}

// readLines opens a listing and calls each for every line; every
// arrival touches the watchdog.
func readLines(wd *watchdog.Watchdog, open func() (io.ReadCloser, error), each func(string)) error {
	body, err := open()
	if err != nil {
		return err
	}
	nr := ftp.NewNameReader(wd.Reader(body))
	for {
		line, err := nr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			body.Close()
			return err
		}
		each(line)
	}
	return body.Close()
}

// ftpFile fetches one file with TYPE I into DIR/local, atomically, and
// records it in the manifest.
func (r *run) ftpFile(ctx context.Context, wd *watchdog.Watchdog, s *ftpSite, rel []string, e entry, u, local string, fo *folder) {
	sc, err := s.get(ctx, rel)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	defer s.put(sc)
	if err := sc.pc.Binary(ctx); err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	if e.size > 0 && !e.mtime.IsZero() {
		r.ftpResumable(ctx, wd, sc, e, u, local, fo)
		return
	}
	body, _, err := sc.pc.Retr(ctx, e.name)
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	r.saveIn(ctx, fo.root, fo.name(local), Record{URL: u, Path: local, Mtime: e.mtime}, wd.Reader(body), body)
}

// A folder is the local directory of one listing, opened once for all
// the files it queues: os.Root resolves a path one element at a time
// (an openat and a close each), so with the folder open, each file's
// open, rename and time cost one system call each. The listing holds it
// while it queues files, each file while it runs; the last one closes
// it, and the run closes what a cut-short walk left open.
type folder struct {
	r    *run
	root *os.Root
	top  bool         // root is the run's own: names are paths from the top
	left atomic.Int32 // holds
	once sync.Once
}

func (r *run) openFolder(local string) *folder {
	fo := &folder{r: r, root: r.root, top: true}
	if local != "" {
		if fr, err := r.root.OpenRoot(local); err == nil {
			fo.root, fo.top = fr, false
			r.mu.Lock()
			r.folders[fo] = true
			r.mu.Unlock()
		}
	}
	fo.left.Store(1)
	return fo
}

// name is local's name inside the folder.
func (fo *folder) name(local string) string {
	if fo.top {
		return local
	}
	return path.Base(local)
}

func (fo *folder) done() {
	if fo.left.Add(-1) == 0 {
		fo.close()
	}
}

func (fo *folder) close() {
	if fo.top {
		return
	}
	fo.once.Do(func() {
		fo.root.Close()
		fo.r.mu.Lock()
		delete(fo.r.folders, fo)
		fo.r.mu.Unlock()
	})
}

// partialName is where a file of known size and time is written while it
// comes: kept when the transfer breaks, so that the next run resumes it.
func partialName(local string) string {
	dir, base := path.Split(local)
	return dir + "." + base + ".rfc1738-partial"
}

// ftpResumable fetches a file of known size and time into its partial
// file, resuming with REST (RFC 3659 §5) from the bytes a broken earlier
// transfer left there when that partial has the listed time (the same
// version of the file), and renames it to local once the end reply says
// it is complete. A broken transfer leaves the partial (never the local
// name) with the listed time; a server refusing REST sends it whole.
func (r *run) ftpResumable(ctx context.Context, wd *watchdog.Watchdog, sc *siteConn, e entry, u, local string, fo *folder) {
	dir, name := fo.root, fo.name(local)
	part := partialName(name)
	h := sha256.New()
	var offset int64
	if fi, err := dir.Lstat(part); err == nil && fi.Mode().IsRegular() && fi.Size() < e.size && fi.ModTime().Equal(e.mtime) {
		if f, err := dir.Open(part); err == nil {
			offset, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				offset = 0
			}
		}
	}
	body, _, err := sc.pc.RetrFrom(ctx, e.name, offset)
	if offset > 0 && isRefusal(err) {
		offset = 0
		body, _, err = sc.pc.Retr(ctx, e.name)
	}
	if err != nil {
		r.fileFailed(ctx, u, err)
		return
	}
	if offset == 0 {
		h.Reset()
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if offset == 0 {
		flags |= os.O_TRUNC
	}
	f, err := dir.OpenFile(part, flags, 0o644)
	if err != nil {
		body.Close()
		r.fileFailed(ctx, u, err)
		return
	}
	n, err := io.Copy(io.MultiWriter(f, h), wd.Reader(body))
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
	if err != nil {
		// The bytes that came stay for the next run, marked with the
		// listed time of the version they belong to.
		dir.Chtimes(part, e.mtime, e.mtime)
		r.fileFailed(ctx, u, err)
		return
	}
	dir.Chtimes(name, e.mtime, e.mtime)
	if offset > 0 {
		r.logf("resumed %s at byte %s", u, strconv.FormatInt(offset, 10))
	}
	r.record(Record{URL: u, Path: local, Size: offset + n, Mtime: e.mtime}, n, h)
}

// save writes src to rec.Path atomically, hashing it, closes body
// (whose Close reads the protocol's end of the transfer), sets the remote
// time and records the file as rec with its size and SHA-256.
func (r *run) save(ctx context.Context, rec Record, src io.Reader, body io.Closer) bool {
	return r.saveIn(ctx, r.root, rec.Path, rec, src, body)
}

// saveIn is save with the file written as name inside dir; it reports
// whether the file is complete.
func (r *run) saveIn(ctx context.Context, dir *os.Root, name string, rec Record, src io.Reader, body io.Closer) bool {
	h := sha256.New()
	cw := &countWriter{h: h}
	if err := atomicfile.WriteIn(dir, name, io.TeeReader(src, cw), body); err != nil {
		body.Close()
		r.fileFailed(ctx, rec.URL, err)
		return false
	}
	if !rec.Mtime.IsZero() {
		dir.Chtimes(name, rec.Mtime, rec.Mtime)
	}
	rec.Size = cw.n
	r.record(rec, cw.n, h)
	return true
}

// record adds a complete file, of which came bytes were transferred in
// this run, to the manifest and the counts.
func (r *run) record(rec Record, came int64, h hash.Hash) {
	rec.SHA256 = hex.EncodeToString(h.Sum(nil))
	if err := r.man.add(rec); err != nil {
		r.logf("manifest: %v", err.Error())
	}
	if r.opt.Verbose {
		r.logf("fetched %s -> %s (%d bytes)", rec.URL, rec.Path, rec.Size)
	}
	r.count(func(st *Stats) { st.Fetched++; st.Bytes += came })
}

func (r *run) fileFailed(ctx context.Context, u string, err error) { r.failed(ctx, "fetch", u, err) }

// failed reports a failed item, with why its context ended when it did
// (the idle watchdog, an interrupt), and counts it.
func (r *run) failed(ctx context.Context, what, u string, err error) {
	err = watchdog.Explain(ctx, err)
	r.logf(what+" %s: %v", u, err.Error())
	r.fail(err)
}

type countWriter struct {
	h hash.Hash
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}
