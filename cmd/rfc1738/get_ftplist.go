package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ftpFolder reports whether get lists u as a folder with what the server
// tells of each entry (kind, size, time: MLSD, else LIST, else NLST), as
// curl and lftp's ls do: an ftp URL whose <name> is empty and that has no
// ;type= (§3.2.2: the directory the CWDs reach). ";type=d" asks for NLST
// and gets it: names only, as §3.2.2 says.
func ftpFolder(u rfc1738.URL, listing access.Listing) bool {
	f, ok := u.FTP()
	return ok && f.Name == "" && f.Type == 0 && listing != access.ListingRaw
}

// listFTP reads the folder u names through the ftp handler's List and
// returns it as a Response whose body is the listing rendered: one line
// per entry (type, size, time, name, URL; a folder's URL ends in "/", so
// that get on it lists it), or JSON Lines.
func (g *getter) listFTP(ctx context.Context, u rfc1738.URL) (*access.Response, error) {
	ents, err := g.c.List(ctx, u)
	if err != nil {
		return nil, err
	}
	r := &entryReader{ents: ents, json: g.c.Listing == access.ListingJSON, warn: func(msg string) { g.say("rfc1738 get: warning: %s\n", msg) }}
	return &access.Response{Body: r, Size: -1, URL: access.Redact(u.String()), Type: "text/plain"}, nil
}

// entryReader renders listing entries as they come.
type entryReader struct {
	ents *access.Entries
	json bool
	warn func(string)
	buf  bytes.Buffer
	bad  int
	err  error
}

func (r *entryReader) Read(p []byte) (int, error) {
	for r.buf.Len() == 0 && r.err == nil {
		e, err := r.ents.Next()
		var le *access.LineError
		switch {
		case errors.As(err, &le):
			r.bad++
			continue
		case err != nil:
			r.err = err
			if err == io.EOF && r.bad > 0 {
				r.warn(fmt.Sprintf("%d lines of the listing could not be read and are left out", r.bad))
			}
			continue
		}
		if r.json {
			r.writeJSON(e)
		} else {
			r.writeText(e)
		}
	}
	if r.buf.Len() > 0 {
		return r.buf.Read(p)
	}
	return 0, r.err
}

// writeText writes an entry as "type size time  name  URL", the columns
// of ls -l that an ftp LIST gives: "d" a folder, "l" a link, "-" a file;
// "-" for a size or time the server did not tell.
func (r *entryReader) writeText(e access.Entry) {
	typ := "-"
	name := safetext.Escape(e.Name)
	switch e.Kind {
	case access.KindDirectory:
		typ, name = "d", name+"/"
	case access.KindLink:
		typ = "l"
		if t := e.Attrs["target"]; t != "" {
			name += " -> " + safetext.Escape(t)
		}
	}
	size := "-"
	if e.Size >= 0 && e.Kind != access.KindDirectory {
		size = fmt.Sprint(e.Size)
	}
	when := "-"
	switch {
	case e.Time.IsZero():
	case e.Precision >= 24*time.Hour:
		when = e.Time.UTC().Format("2006-01-02")
	default:
		when = e.Time.UTC().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(&r.buf, "%s %12s %-16s  %s  %s\n", typ, size, when, name, e.URL)
}

// writeJSON writes an entry with the keys of the other listings' JSON
// Lines: name, url, kind, size, modified.
func (r *entryReader) writeJSON(e access.Entry) {
	v := struct {
		Name     string `json:"name"`
		URL      string `json:"url"`
		Kind     string `json:"kind,omitempty"`
		Size     *int64 `json:"size,omitempty"`
		Modified string `json:"modified,omitempty"`
	}{Name: e.Name, URL: e.URL}
	switch e.Kind {
	case access.KindDirectory:
		v.Kind = "directory"
	case access.KindLink:
		v.Kind = "other"
	default:
		v.Kind = "file"
		if e.Size >= 0 {
			v.Size = &e.Size
		}
	}
	if !e.Time.IsZero() {
		v.Modified = e.Time.UTC().Format(time.RFC3339)
	}
	enc := json.NewEncoder(&r.buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func (r *entryReader) Close() error { return r.ents.Close() }
