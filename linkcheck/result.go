package linkcheck

import (
	"encoding/json"
	"fmt"
	"time"
)

// Status is the verdict on a URL.
type Status uint8

// The verdicts.
const (
	OK      Status = iota // the object is there
	Broken                // the server or the network said no
	Invalid               // not a URL anything reads (by default), or not RFC 1738 (strict)
	Skipped               // no way to check it is configured, or excluded
	// BrokenFragment: the document is there, but no anchor of it is
	// named by the URL's #fragment (HTML §7.4.6).
	BrokenFragment
)

var statusNames = [...]string{"ok", "broken", "invalid", "skipped", "broken fragment"}

// String returns "ok", "broken", "invalid", "skipped" or "broken fragment".
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", s)
}

// MarshalText returns the status's name, for JSON.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status's name.
func (s *Status) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("linkcheck: unknown status %q", b)
}

// Place is where a URL occurs in the input. File is "" for a URL given
// directly; Line and Column count from 1 (0 when unknown).
type Place struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// Result is the verdict on one distinct URL.
type Result struct {
	// URL is the URL as it first appears in the input (the whitespace of
	// a wrapper removed), any password redacted.
	URL     string
	Detail  string // one line, safe to print
	Scheme  string
	Places  []Place
	Elapsed time.Duration
	Status  Status
	// Cached reports a verdict taken from the cache, not checked now.
	Cached bool
	// Warnings are the URL's departures from RFC 1738 that the reading
	// took (rfc1738.Read), one line each; never a verdict.
	Warnings []string
}

// resultJSON is the JSON Lines form of a Result.
type resultJSON struct {
	URL       string   `json:"url"`
	Result    Status   `json:"result"`
	Detail    string   `json:"detail"`
	Scheme    string   `json:"scheme"`
	Places    []Place  `json:"places"`
	ElapsedMS float64  `json:"elapsed_ms"`
	Cached    bool     `json:"cached,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
}

// MarshalJSON writes the fields url, result, detail, scheme, places and
// elapsed_ms, and warnings when there are any.
func (r Result) MarshalJSON() ([]byte, error) {
	places := r.Places
	if places == nil {
		places = []Place{}
	}
	return json.Marshal(resultJSON{URL: r.URL, Result: r.Status, Detail: r.Detail, Scheme: r.Scheme,
		Places: places, ElapsedMS: float64(r.Elapsed.Microseconds()) / 1000, Cached: r.Cached, Warnings: r.Warnings})
}
