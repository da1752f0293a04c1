package access

import (
	"bytes"
	"encoding/json"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// The directory listings of the ftp (NLST) and file handlers, rendered the
// same way.

// A listingItem is one entry of a directory listing: a name and its URL.
type listingItem struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// listingReader renders a stream of listing items, pulled one at a time
// from next, as text (name, two spaces, URL), JSON Lines, or bare names
// one a line (ListingRaw, for listings that have no protocol bytes).
type listingReader struct {
	format Listing
	next   func() (listingItem, error)
	buf    bytes.Buffer
	err    error
}

func (r *listingReader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 && r.err == nil {
		it, err := r.next()
		if err != nil {
			r.err = err
			break
		}
		switch r.format {
		case ListingJSON:
			enc := json.NewEncoder(&r.buf)
			enc.SetEscapeHTML(false)
			enc.Encode(it)
			continue
		case ListingRaw:
			r.buf.WriteString(it.Name)
			r.buf.WriteByte('\n')
			continue
		}
		r.buf.WriteString(printableName(it.Name))
		r.buf.WriteString("  ")
		r.buf.WriteString(it.URL)
		r.buf.WriteByte('\n')
	}
	if r.buf.Len() > 0 {
		return r.buf.Read(p)
	}
	return 0, r.err
}

// printableName is a listed name as a terminal may show it: every control
// character (C0, DEL, C1 such as CSI 0x9B) and invalid byte as a Go escape
// (internal/safetext), so that a hostile name cannot drive the terminal.
func printableName(s string) string { return safetext.Escape(s) }
