package main

import (
	"cmp"
	"slices"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/extract"
)

// Place is where a URL was found: its document (a file, or a WARC record's
// WARC-Target-URI) and the line and byte column of its first byte, both
// from 1, as "rfc1738 extract --json" counts them.
type Place struct {
	Document string `json:"document"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

func comparePlaces(a, b Place) int {
	if c := strings.Compare(a.Document, b.Document); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	return cmp.Compare(a.Column, b.Column)
}

// URLStats is what the census knows of one distinct URL: the normal form
// when it is valid (§2.2, rfc1738.Normalize), the text as written when not.
type URLStats struct {
	Valid  bool
	Scheme string // lower case; for an invalid URL, what stands before ':'
	Host   string // lower case; "" when invalid or when the URL has none
	Rule   string // the §5 rule of the first error, when invalid
	Count  int64  // occurrences
	// Year is the year of the earliest dated document the URL is in (a
	// WARC record's WARC-Date, or --date-from-path); 0 when none is.
	Year int
	// Samples are the first places (by document, line, column) it was
	// found, at most the census's sample limit.
	Samples []Place
}

// mergeSamples returns the first max places of two sorted lists, sorted.
func mergeSamples(a, b []Place, max int) []Place {
	out := make([]Place, 0, min(len(a)+len(b), max))
	for len(out) < max && (len(a) > 0 || len(b) > 0) {
		if len(b) == 0 || len(a) > 0 && comparePlaces(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return out
}

// merge adds b's occurrences to a.
func (a URLStats) merge(b URLStats, samples int) URLStats {
	a.Count += b.Count
	a.Year = earliestYear(a.Year, b.Year)
	a.Samples = mergeSamples(a.Samples, b.Samples, samples)
	return a
}

// maxYear bounds the year of a document.
const maxYear = 9999

// earliestYear is the earlier of two years, 0 being none.
func earliestYear(a, b int) int {
	if a == 0 || b != 0 && b < a {
		return b
	}
	return a
}

// census gathers the URLs of many documents, one entry per distinct URL.
type census struct {
	samples int
	urls    map[string]*URLStats
	year    int // of the document being read; 0: undated
}

func newCensus(samples int) *census {
	return &census{samples: samples, urls: map[string]*URLStats{}}
}

// add counts one URL found by extract in document doc, whose line numbers
// start after line lines (a piece of a file cut in the middle).
func (c *census) add(doc string, lines int, m extract.Match) {
	// The key of a URL is its normal form when valid, its text when not.
	// A URL counted under its own text is one of the two: an invalid URL's
	// text, or a normal form, which is valid and its own normal form
	// (Normalize is idempotent). Either way its key is its text: no parse.
	e := c.urls[m.URL]
	if e == nil {
		key := m.URL
		u, err := rfc1738.Parse(m.URL)
		if err == nil {
			// §2.2: equal URLs are counted as one, by their normal form.
			key = rfc1738.Normalize(u)
		}
		if key != m.URL {
			e = c.urls[key]
		}
		if e == nil {
			if err == nil {
				// The host of the normal form, not of this spelling:
				// file://localhost/x and file:///x are one URL (§3.10),
				// and its host must not depend on which came first.
				if key != m.URL {
					u, _ = rfc1738.Parse(key) // a normal form is valid
				}
				e = &URLStats{Valid: true, Scheme: u.Scheme(), Host: strings.ToLower(u.Host())}
			} else {
				e = &URLStats{Scheme: schemeOf(m.URL), Rule: firstRule(m, err)}
			}
			c.urls[key] = e
		}
	}
	e.Count++
	e.Year = earliestYear(e.Year, c.year)
	p := Place{Document: doc, Line: lines + m.Start.Line, Column: m.Start.Column}
	// Places arrive in order within a document; keep the least ones.
	if len(e.Samples) < c.samples {
		i, _ := slices.BinarySearchFunc(e.Samples, p, comparePlaces)
		e.Samples = slices.Insert(e.Samples, i, p)
	} else if c.samples > 0 && comparePlaces(p, e.Samples[len(e.Samples)-1]) < 0 {
		i, _ := slices.BinarySearchFunc(e.Samples, p, comparePlaces)
		e.Samples = slices.Insert(e.Samples[:len(e.Samples)-1], i, p)
	}
}

// merge adds the URLs of o to c.
func (c *census) merge(o *census) {
	for url, u := range o.urls {
		c.put(url, u)
	}
}

// put adds what u says of url to c; c may keep u.
func (c *census) put(url string, u *URLStats) {
	if have := c.urls[url]; have != nil {
		*have = have.merge(*u, c.samples)
	} else {
		c.urls[url] = u
	}
}

// firstRule is the §5 rule of the first error of an invalid URL.
func firstRule(m extract.Match, err error) string {
	if len(m.Errors) > 0 {
		return m.Errors[0].Rule
	}
	if e, ok := err.(*rfc1738.Error); ok {
		return e.Rule
	}
	return ""
}

// schemeOf returns the scheme of a URL that may be invalid: the text before
// the first ':' in lower case (§2.1: "interpreters should treat upper case
// letters as equivalent to lower case in scheme names").
func schemeOf(s string) string {
	if i := strings.IndexByte(s, ':'); i > 0 {
		return strings.ToLower(s[:i])
	}
	return ""
}

// batches divides the census between buckets and hands emit the batch of
// each bucket that has URLs or hosts, in bucket order: each distinct URL
// goes to the batch of its bucket, and each host, with the occurrences of
// the valid URLs it serves, to the batch of the host's bucket.
func (c *census) batches(buckets int, emit func(bucket int, batch []byte)) {
	urls := make([][]urlEntry, buckets)
	hosts := make([]map[string]int64, buckets)
	for url, u := range c.urls {
		b := shardOf(url, buckets)
		urls[b] = append(urls[b], urlEntry{url, u})
		if u.Valid && u.Host != "" {
			hb := shardOf(u.Host, buckets)
			if hosts[hb] == nil {
				hosts[hb] = map[string]int64{}
			}
			hosts[hb][u.Host] += u.Count
		}
	}
	for b, es := range urls {
		if len(es) == 0 && len(hosts[b]) == 0 {
			continue
		}
		urls[b] = nil
		slices.SortFunc(es, func(x, y urlEntry) int { return compareURLs(x.URL, y.URL) })
		emit(b, appendBatch(nil, &batch{Buckets: buckets, URLs: es, Hosts: sortedCounts(hosts[b])}))
	}
}
