package ftp

import (
	"context"
	"strings"
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
