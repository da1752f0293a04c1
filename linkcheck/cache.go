package linkcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// A Cache keeps verdicts between runs, so that a re-run checks only what
// is stale. It is a JSON Lines file, one object per URL, keyed by the
// URL's §2.2 normalized form. Invalid verdicts are never cached (they
// need no network).
type Cache struct {
	// MaxAge is how long a verdict stays fresh; zero means one day.
	MaxAge time.Duration

	path    string
	mu      sync.Mutex
	entries map[string]CacheEntry
	now     func() time.Time
}

// CacheEntry is one cached verdict.
type CacheEntry struct {
	Key     string    `json:"key"`
	URL     string    `json:"url"`
	Status  Status    `json:"result"`
	Detail  string    `json:"detail"`
	Checked time.Time `json:"checked"`
}

// OpenCache reads the cache file at path; a missing file is an empty
// cache.
func OpenCache(path string, maxAge time.Duration) (*Cache, error) {
	c := &Cache{MaxAge: maxAge, path: path, entries: map[string]CacheEntry{}, now: time.Now}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e CacheEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		c.entries[e.Key] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

func (c *Cache) maxAge() time.Duration {
	if c.MaxAge > 0 {
		return c.MaxAge
	}
	return 24 * time.Hour
}

// Lookup returns the verdict for key if it is fresh.
func (c *Cache) Lookup(key string) (CacheEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || c.now().Sub(e.Checked) > c.maxAge() {
		return CacheEntry{}, false
	}
	return e, true
}

// Store records a verdict checked now.
func (c *Cache) Store(key, url string, s Status, detail string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = CacheEntry{Key: key, URL: url, Status: s, Detail: detail, Checked: c.now().UTC()}
}

// Save writes the cache back, atomically: a temporary file in the same
// folder, renamed over the old one. Entries older than MaxAge are
// dropped.
func (c *Cache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".linkcheck-cache-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	now := c.now()
	for _, e := range c.entries {
		if now.Sub(e.Checked) > c.maxAge() {
			continue
		}
		if err := enc.Encode(e); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), c.path)
}
