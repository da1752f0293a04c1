package mirror

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"io"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rfc1738/rfc1738/internal/atomicfile"
	"github.com/rfc1738/rfc1738/internal/watchdog"
)

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
	return dir + "." + base + partialSuffix
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
	if !rec.Exact.IsZero() {
		setTime(dir, name, rec.Exact)
	} else if !rec.Mtime.IsZero() {
		setTime(dir, name, rec.Mtime)
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
// (the idle watchdog, an interrupt), and counts it. An error of the
// access layer names the URL already.
func (r *run) failed(ctx context.Context, what, u string, err error) {
	err = watchdog.Explain(ctx, err)
	r.logf(what+" %s: %v", u, strings.TrimPrefix(err.Error(), u+": "))
	r.fail(err)
}

// The times a local file can be given: os.Chtimes passes unix
// nanoseconds, which wrap outside them (9999-12-31 became 1901-12-13).
var (
	minLocalTime = time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC)
	maxLocalTime = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC)
)

// localTime is t clamped to the times a local file can be given. The
// manifest keeps the server's own time (RFC 3659 §2.3 allows any year
// 0000-9999): a second run compares that, and finds the file unchanged.
func localTime(t time.Time) time.Time {
	if t.Before(minLocalTime) {
		return minLocalTime
	}
	if t.After(maxLocalTime) {
		return maxLocalTime
	}
	return t
}

// setTime gives the file name in dir the remote time t, clamped (see
// localTime).
func setTime(dir *os.Root, name string, t time.Time) {
	t = localTime(t)
	dir.Chtimes(name, t, t)
}

type countWriter struct {
	h hash.Hash
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.h.Write(p)
}
