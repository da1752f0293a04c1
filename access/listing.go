package access

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"time"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// The directory listings of the ftp (NLST) and file handlers, rendered the
// same way.

// A listingItem is one entry of a directory listing: a name and its URL,
// and what the listing tells of it when it tells (a local folder does;
// an NLST names only): its kind ("file", "directory" or "other"), its
// size in octets and when it was last modified (RFC 3339, UTC). The
// JSON Lines listing carries them; the text one stays "name  URL".
type listingItem struct {
	Name     string `json:"name"`
	URL      string `json:"url"`
	Kind     string `json:"kind,omitempty"`
	Size     *int64 `json:"size,omitempty"`
	Modified string `json:"modified,omitempty"`
}

// withInfo returns it with the kind, size and time fi tells.
func (it listingItem) withInfo(fi fs.FileInfo) listingItem {
	switch m := fi.Mode(); {
	case m.IsDir():
		it.Kind = "directory"
	case m.IsRegular():
		it.Kind = "file"
		size := fi.Size()
		it.Size = &size
	default:
		it.Kind = "other" // a symbolic link, a device, a socket
	}
	if t := fi.ModTime(); !t.IsZero() {
		it.Modified = t.UTC().Format(time.RFC3339)
	}
	return it
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
