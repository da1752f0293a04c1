package mirror

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/crawl"
	"github.com/rfc1738/rfc1738/internal/safetext"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

// DefaultParallel is the number of transfers at once per host when
// Options.Parallel is zero.
const DefaultParallel = crawl.DefaultPerHost

// DefaultIdleTimeout is Options.IdleTimeout when it is zero: the default
// of get's --idle-timeout.
const DefaultIdleTimeout = 60 * time.Second

// The modes of the files and folders a mirror makes, less the umask,
// which the kernel applies: those of wget and of get (download), so that
// a user's umask 077 keeps a mirror private and 002 shares it with the
// group. The files the mirror writes through atomicfile get the same.
const (
	fileMode = 0o666
	dirMode  = 0o777
)

// A job is the work of one URL of the tree. Its context ends when the
// run's does or when nothing arrived for Options.IdleTimeout; each
// arrival touches the watchdog.
type job func(ctx context.Context, wd *watchdog.Watchdog)

// Options control a mirror run. The zero value mirrors everything with
// DefaultParallel transfers.
type Options struct {
	// Parallel bounds the listings and transfers running at once
	// against the host; zero means DefaultParallel.
	Parallel int
	// Depth bounds the directory (or menu) levels read, the URL's own
	// being level 1; zero means no bound.
	Depth int
	// Include, if not empty, keeps only files matching one of these
	// globs (path.Match); Exclude drops files and directories matching
	// one. A glob without "/" matches the base name, else the path
	// relative to the mirror's top.
	Include, Exclude []string
	// MaxSize skips files larger than this many bytes; zero means none.
	// A gopher document, whose menu gives no size, is counted as it
	// arrives and stopped at the limit (ErrLimit).
	MaxSize int64
	// MaxTotal stops fetching once this many bytes were planned; zero
	// means no bound. Gopher documents count as their bytes arrive: the
	// one that crosses the limit is stopped (ErrLimit), and the rest are
	// skipped. Menus, listings and Gopher+ attributes count too, so a
	// walk without end (menus linking to new menus) ends at the limit.
	MaxTotal int64
	// Delete removes local files whose remote ones are gone (only in
	// directories listed whole in this run, and only inside the folder).
	Delete bool
	// DryRun lists and reports what would be fetched or deleted, and
	// changes nothing.
	DryRun bool
	// Symlinks says what to do with a symbolic link in an ftp listing:
	// SymlinksSkip (the default, ""), SymlinksKeep or SymlinksFollow.
	Symlinks string
	// SpanHosts lets a gopher mirror follow menus to other hosts.
	SpanHosts bool
	// Recheck fetches again the gopher documents that nothing else can
	// recheck (a plain gopher menu gives no size or time) and replaces
	// one only when its SHA-256 differs from the manifest's; without
	// it they are kept on the manifest's word and counted in
	// Stats.NotRechecked.
	Recheck bool
	// Access holds the §6 port guard (AllowPorts, AllowAnyPort) applied
	// to the URL, to every gopher item on another server, and to the data
	// ports an ftp server names, and the ftp trace; nil means
	// access.NewClient()'s defaults.
	Access *access.Client
	// Email is the anonymous ftp password (§3.2.1).
	Email string
	// IdleTimeout gives up on a listing or a transfer when nothing has
	// arrived for this long, on the control or the data connection; the
	// item is reported failed and the run goes on. Zero means
	// DefaultIdleTimeout, a negative value no limit.
	IdleTimeout time.Duration
	// Log receives one line per problem, deleted or refused item, and
	// with Verbose per fetched file too; nil discards. Peer-controlled
	// text is escaped.
	Log     io.Writer
	Verbose bool
	// Progress, if set, is called now and then with the counts so far.
	Progress func(Stats)
	// Failure, if set, is called with the error of each item counted in
	// Stats.Failed (a listing, a file, a folder made or a file deleted),
	// maybe from several goroutines at once.
	Failure func(error)
}

// Stats counts what a run did.
type Stats struct {
	// Unchanged counts files verified unchanged: an ftp listing's size
	// and time, a Gopher+ item's attributes, or with Options.Recheck a
	// gopher document fetched again whose SHA-256 is the manifest's.
	Fetched, Unchanged, Deleted, Skipped, Failed, Refused int
	// NotRechecked counts gopher documents the manifest has whole and
	// that were not fetched again: a plain gopher menu gives no size or
	// time to compare, so a change goes unseen (see Options.Recheck).
	NotRechecked int
	// Recorded counts gopher items kept in their menu, not followed:
	// searches, telnet sessions, "h URL:" links, other servers.
	Recorded int
	Dirs     int
	// Links counts the symbolic links listed (each also counted as
	// skipped, refused, or made); DeletesSkipped the folders whose
	// listing was not read whole, so that --delete left them alone.
	Links, DeletesSkipped int
	Bytes                 int64
	Planned               int // files queued for transfer
}

// A run is the state of one Mirror call.
type run struct {
	opt  Options
	root *os.Root
	man  *manifest
	fr   crawl.Frontier // gopher: menus link anywhere, each URL once
	walk *walker        // ftp: a tree, each directory listed once
	// folders open for the files of a listing (see folder)
	folders map[*folder]bool

	mu      sync.Mutex
	jobs    map[string]job
	stats   Stats
	planned atomic.Int64
	arrived atomic.Int64 // bytes of transfers, counted as they come (--max-total; see limited)
	logMu   sync.Mutex
}

// Mirror copies the tree under rawURL (an ftp directory or a gopher menu)
// into dir, creating dir if needed, and returns what it did. Problems
// with single items are logged and counted, never fatal; the error is
// for a run that could not start or was cut short (ctx cancelled, the
// server gone), and the manifest then describes exactly the files that
// are complete.
func Mirror(ctx context.Context, rawURL, dir string, opt Options) (Stats, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return Stats{}, err
	}
	if opt.Parallel <= 0 {
		opt.Parallel = DefaultParallel
	}
	if opt.IdleTimeout == 0 {
		opt.IdleTimeout = DefaultIdleTimeout
	}
	if opt.Access == nil {
		opt.Access = access.NewClient()
	}
	switch opt.Symlinks {
	case "":
		opt.Symlinks = SymlinksSkip
	case SymlinksSkip, SymlinksKeep, SymlinksFollow:
	default:
		return Stats{}, fmt.Errorf("mirror: --symlinks %q: want skip, keep or follow", opt.Symlinks)
	}
	// §6: the URL's own port passes the guard get applies.
	if _, err := opt.Access.CheckPort(u); err != nil {
		return Stats{}, err
	}
	if !opt.DryRun {
		if err := os.MkdirAll(dir, dirMode); err != nil {
			return Stats{}, err
		}
	}
	r := &run{opt: opt, jobs: map[string]job{}, folders: map[*folder]bool{}}
	if root, err := os.OpenRoot(dir); err == nil {
		r.root = root
		defer root.Close()
	} else if !opt.DryRun {
		return Stats{}, err
	}
	if r.man, err = loadManifest(r.root); err != nil {
		return Stats{}, fmt.Errorf("read manifest: %w", err)
	}
	if !opt.DryRun {
		if err := r.man.open(); err != nil {
			return Stats{}, fmt.Errorf("open manifest: %w", err)
		}
	}
	r.fr = crawl.Frontier{Jobs: opt.Parallel, PerHost: opt.Parallel, Visit: r.visit}

	var runErr error
	switch u.Kind() {
	case rfc1738.KindFTP:
		runErr = r.mirrorFTP(ctx, u)
	case rfc1738.KindGopher:
		runErr = r.mirrorGopher(ctx, u)
	default:
		runErr = fmt.Errorf("mirror: %s URLs cannot be mirrored (ftp and gopher can)", u.Scheme())
	}
	if runErr == nil && ctx.Err() != nil {
		runErr = ctx.Err()
	}
	r.mu.Lock()
	var open []*folder
	for fo := range r.folders {
		open = append(open, fo)
	}
	r.mu.Unlock()
	for _, fo := range open {
		fo.close()
	}
	if cerr := r.man.compact(); runErr == nil && cerr != nil {
		runErr = fmt.Errorf("write manifest: %w", cerr)
	}
	return r.snapshot(), runErr
}

func (r *run) snapshot() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stats
}

// fail counts an item that failed with err.
func (r *run) fail(err error) {
	r.count(func(st *Stats) { st.Failed++ })
	if r.opt.Failure != nil {
		r.opt.Failure(err)
	}
}

func (r *run) count(f func(s *Stats)) {
	r.mu.Lock()
	f(&r.stats)
	s := r.stats
	r.mu.Unlock()
	if r.opt.Progress != nil {
		r.opt.Progress(s)
	}
}

// logf writes one line; every argument is escaped with safetext.
func (r *run) logf(format string, args ...any) {
	if r.opt.Log == nil {
		return
	}
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = safetext.Escape(s)
		}
	}
	r.logMu.Lock()
	fmt.Fprintf(r.opt.Log, format+"\n", args...)
	r.logMu.Unlock()
}

// add queues job under u, once per distinct URL (§2.2 via crawl).
func (r *run) add(u string, depth int, j job) {
	pu, err := parseURL(u)
	if err != nil {
		r.logf("refused %s: %v", u, err.Error())
		r.count(func(s *Stats) { s.Refused++ })
		return
	}
	key := rfc1738.Normalize(pu)
	r.mu.Lock()
	if _, dup := r.jobs[key]; dup {
		r.mu.Unlock()
		return
	}
	r.jobs[key] = j
	r.mu.Unlock()
	r.fr.Add(pu, depth)
}

func (r *run) visit(ctx context.Context, t crawl.Task) {
	r.mu.Lock()
	j := r.jobs[t.Key]
	delete(r.jobs, t.Key)
	r.mu.Unlock()
	if j != nil {
		r.runJob(ctx, j)
	}
}

// runJob runs j under its own idle watchdog, unless the run is over.
func (r *run) runJob(ctx context.Context, j job) {
	if ctx.Err() != nil {
		return
	}
	jctx, wd := r.watch(ctx)
	defer wd.Stop()
	j(jctx, wd)
}

// watch starts the idle watchdog of one job (or of the first login).
func (r *run) watch(ctx context.Context) (context.Context, *watchdog.Watchdog) {
	return watchdog.New(ctx, r.opt.IdleTimeout, nil)
}

var zeroTime time.Time

// safeName checks one remote name as a local path element: a name that
// would leave the folder or cannot be a file name ("", ".", "..", one
// holding "/" or NUL) is refused, and so is the manifest's own name at
// the top.
func safeName(name string, top bool) error {
	// An if chain, not a switch: a case's condition counts as covered only
	// through its body, and the mutation gate reads every one.
	if name == "" || name == "." || name == ".." {
		return errors.New("the name would leave the folder")
	}
	if strings.ContainsAny(name, "/\x00") {
		return errors.New("the name holds / or NUL")
	}
	if top && name == ManifestName {
		return errors.New("the name is the manifest's own")
	}
	return nil
}

// matches reports whether rel (slash-separated) matches one of globs.
func matches(globs []string, rel string) bool {
	for _, g := range globs {
		target := rel
		if !strings.Contains(g, "/") {
			target = path.Base(rel)
		}
		if ok, _ := path.Match(g, target); ok {
			return true
		}
	}
	return false
}

// want decides whether the file rel of the listed size and time must be
// fetched: it is new, its size or time differs from the manifest's, or
// the local copy is gone or of another size. It also applies the
// filters and limits, logging what it skips. unchanged reports a file
// left alone because the manifest has it whole.
func (r *run) want(rel string, size int64, mtime time.Time) (fetch, unchanged bool) {
	return r.decide(rel, size, mtime, true)
}

// decide is want; with countUnchanged false, a file the manifest has
// whole is returned unchanged but not counted (a later check may find it
// changed all the same).
func (r *run) decide(rel string, size int64, mtime time.Time, countUnchanged bool) (fetch, unchanged bool) {
	if (len(r.opt.Include) > 0 && !matches(r.opt.Include, rel)) || matches(r.opt.Exclude, rel) {
		r.count(func(s *Stats) { s.Skipped++ })
		return false, false
	}
	if r.opt.MaxSize > 0 && size > r.opt.MaxSize {
		r.logf("skipped %s: %d bytes, more than --max-size", rel, size)
		r.count(func(s *Stats) { s.Skipped++ })
		return false, false
	}
	if rsize, rtime, ok := r.man.stat(rel); ok && (size < 0 || rsize == size) && (mtime.IsZero() || rtime.Equal(mtime)) && r.root != nil {
		if fi, err := r.root.Lstat(rel); err == nil && fi.Mode().IsRegular() && fi.Size() == rsize {
			if countUnchanged {
				r.count(func(s *Stats) { s.Unchanged++ })
			}
			return false, true
		}
	}
	return r.plan(rel, size), false
}

// plan reserves size bytes of --max-total for the file rel, and counts it
// planned; false when the total is reached.
func (r *run) plan(rel string, size int64) bool {
	if r.opt.MaxTotal > 0 {
		n := max(size, 0)
		if r.arrived.Load() >= r.opt.MaxTotal {
			r.logf("skipped %s: --max-total reached", rel)
			r.count(func(s *Stats) { s.Skipped++ })
			return false
		}
		if r.planned.Add(n) > r.opt.MaxTotal {
			r.planned.Add(-n)
			r.logf("skipped %s: --max-total reached", rel)
			r.count(func(s *Stats) { s.Skipped++ })
			return false
		}
	}
	r.count(func(s *Stats) { s.Planned++ })
	return true
}

// request is the fetch of pu from offset on, bounded by --max-size: the
// bytes are counted as they arrive (access.Request.MaxBytes), whatever
// the listing or the server announced.
func (r *run) request(pu rfc1738.URL, offset int64, listed *access.Entry) access.Request {
	req := access.Request{URL: pu, Offset: offset, Listed: listed}
	if r.opt.MaxSize > 0 {
		req.MaxBytes = max(r.opt.MaxSize-offset, 1)
	}
	return req
}

// mkdir creates the local directory rel (dry run: nothing).
func (r *run) mkdir(rel string) error {
	if r.opt.DryRun || rel == "" {
		return nil
	}
	return r.root.MkdirAll(rel, dirMode)
}

// folderAt makes rel a local folder, its parent being one (see realDir):
// a symbolic link there (an earlier run's, with --symlinks keep) is
// removed first, as the listing now has a directory, so nothing of the
// folder is ever written or deleted through a link.
func (r *run) folderAt(rel string) error {
	if r.root == nil || rel == "" {
		return nil
	}
	fi, err := r.root.Lstat(rel)
	// An if chain, not a switch: a case's condition counts as covered
	// only through its body, and the mutation gate reads every one.
	if err == nil && fi.IsDir() {
		return nil
	}
	if err == nil && fi.Mode()&fs.ModeSymlink == 0 {
		return fmt.Errorf("local %s is a file, and the server lists a directory", rel)
	}
	if err == nil && r.opt.DryRun {
		r.logf("would replace the link %s with a folder", rel)
		return nil
	}
	if err == nil {
		if err := r.root.Remove(rel); err != nil {
			return err
		}
		r.logf("replaced the link %s with a folder: the server lists a directory", rel)
	} else if !isNotExist(err) {
		return err
	}
	if r.opt.DryRun {
		return nil
	}
	if err := r.root.Mkdir(rel, dirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// realDir checks that every element of the local path rel is a folder,
// none a symbolic link: os.Root keeps a path inside DIR, but a link
// inside DIR would make one place of it reached as another.
func (r *run) realDir(rel string) error {
	if r.root == nil || rel == "" {
		return nil
	}
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		fi, err := r.root.Lstat(rel[:i])
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("local %s is no folder but a %s", rel[:i], kindName(fi.Mode()))
		}
	}
	return nil
}

func kindName(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symbolic link"
	}
	return "file"
}

// deleteGone removes, in the directory dir just listed whole, the local
// entries that the listing did not name (names); os.Root keeps every
// removal inside the folder, and symbolic links are removed, never
// followed. It runs right after the listing, so that no directory's
// names are held longer than its own listing.
func (r *run) deleteGone(dir string, names nameSet) {
	d := dir
	if d == "" {
		d = "."
	}
	if r.root == nil {
		return
	}
	f, err := r.root.Open(d)
	if err != nil {
		return
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	for _, e := range ents {
		name := e.Name()
		if names.has(name) || (dir == "" && name == ManifestName) || isPartial(name) {
			continue
		}
		rel := path.Join(dir, name)
		if r.opt.DryRun {
			r.logf("would delete %s", rel)
			r.count(func(s *Stats) { s.Deleted++ })
			continue
		}
		if err := r.root.RemoveAll(rel); err != nil {
			r.logf("delete %s: %v", rel, err.Error())
			r.fail(err)
			continue
		}
		r.logf("deleted %s", rel)
		r.count(func(s *Stats) { s.Deleted++ })
		if !e.IsDir() {
			if _, _, ok := r.man.stat(rel); ok {
				r.man.add(Record{Path: rel, Deleted: true})
			}
			continue
		}
		// A folder: every record below it goes (one pass over the
		// manifest's file).
		for _, p := range r.man.under(rel) {
			r.man.add(Record{Path: p, Deleted: true})
		}
	}
}

// parseURL reads a URL the mirror was given or made as RFC 1738 reads
// it, but for its host, read as get reads it (rfc1738.Read): an IPv6
// literal (RFC 3986 §3.2.2) or an international name (RFC 5891) reaches
// the server as curl reaches it. Any other departure is refused: the
// mirror encodes every URL it makes (§2.2), so one that needs repair is a
// fault, not a form to read. The departures of the URL given are its
// caller's to report (the rfc1738 mirror command prints them).
func parseURL(s string) (rfc1738.URL, error) {
	u, deps, err := rfc1738.Read(s)
	for _, d := range deps {
		if d.Rule != "host" && d.Rule != "hostname" {
			return rfc1738.Parse(s)
		}
	}
	return u, err
}
