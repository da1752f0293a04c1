package ftp

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"
)

// Feat sends "FEAT" (RFC 2389 §3) and returns the features of the 211
// reply, one per line as the server wrote it without the leading space
// (RFC 2389 §3.2: "SP feature-label [SP feat-params]"). A server without
// FEAT answers 500 or 502, a *CommandError.
func (c *Conn) Feat(ctx context.Context) ([]string, Reply, error) {
	rep, err := c.simple(ctx, "FEAT", "", false, func(code int) bool { return code == 211 })
	if err != nil {
		return nil, rep, err
	}
	var feats []string
	for _, line := range strings.Split(rep.Msg, "\n") {
		// RFC 2389 §3.2: each feature line starts with one space; the
		// first and last lines are the reply's own text.
		if len(line) > 1 && line[0] == ' ' {
			feats = append(feats, strings.TrimRight(line[1:], " \r"))
		}
	}
	return feats, rep, nil
}

// HasFeature reports whether feats (from Feat) lists the feature label
// name, compared without regard to case (RFC 2389 §3.2).
func HasFeature(feats []string, name string) bool {
	for _, f := range feats {
		label, _, _ := strings.Cut(f, " ")
		if strings.EqualFold(label, name) {
			return true
		}
	}
	return false
}

// Mlsd lists a directory in the machine format of RFC 3659 §7: one entry
// per CRLF line, facts then a space then the exact name. An empty name
// lists the current directory. The body has Nlst's contract; read its
// lines with ParseMLSxEntry.
func (c *Conn) Mlsd(ctx context.Context, name string) (io.ReadCloser, error) {
	b, err := c.open(ctx, "MLSD", name, name != "", 0)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// An MLSxEntry is one line of an MLSD listing (RFC 3659 §7.2).
type MLSxEntry struct {
	// Name is the entry's pathname, every byte as sent.
	Name string
	// Type is the "type" fact, lower case: "file", "dir", "cdir",
	// "pdir", or another value (§7.5.1); "" when absent.
	Type string
	// Size is the "size" fact in octets (§7.5.7), -1 when absent.
	Size int64
	// Modify is the "modify" fact (§7.5.3, UTC), zero when absent.
	Modify time.Time
	// Perm is the "perm" fact (§7.5.5), lower case, "" when absent: "r"
	// in it says RETR may be applied.
	Perm string
}

// ParseMLSxEntry parses one MLSD line without its CRLF. RFC 3659 §7.2:
// entry = [ facts ] SP pathname; facts = 1*( fact ";" ); fact names are
// case-insensitive. ok is false for a line without the space that ends
// the facts, or with a fact that is not "name=value".
func ParseMLSxEntry(line string) (e MLSxEntry, ok bool) {
	sp := strings.IndexByte(line, ' ')
	if sp < 0 {
		return e, false
	}
	facts, name := line[:sp], line[sp+1:]
	if name == "" {
		return e, false
	}
	e.Name, e.Size = name, -1
	for facts != "" {
		var fact string
		var found bool
		fact, facts, found = strings.Cut(facts, ";")
		if !found {
			return e, false // §7.2: every fact ends with ";"
		}
		k, v, found := strings.Cut(fact, "=")
		if !found {
			return e, false
		}
		switch strings.ToLower(k) {
		case "type":
			e.Type = strings.ToLower(v)
		case "size":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return e, false
			}
			e.Size = n
		case "modify":
			e.Modify = parseTimeVal(v)
		case "perm":
			e.Perm = strings.ToLower(v)
		}
	}
	return e, true
}

// parseTimeVal reads RFC 3659 §2.3's time-val, YYYYMMDDHHMMSS[.sss] in
// UTC; the zero time when it is not one.
func parseTimeVal(s string) time.Time {
	layout := "20060102150405"
	if len(s) > len(layout) && s[len(layout)] == '.' {
		layout += "." + strings.Repeat("0", min(len(s)-len(layout)-1, 9))
	}
	t, err := time.ParseInLocation(layout, s, time.UTC)
	if err != nil {
		return time.Time{}
	}
	return t
}
