package ftp

import (
	"context"
	"strings"
)

// Pwd sends "PWD" (RFC 959 §4.1.3) and returns the current directory
// from the 257 reply, whose pathname is quoted, a quote inside it
// doubled (RFC 959 Appendix II). ok is false when the reply has no
// quoted name.
func (c *Conn) Pwd(ctx context.Context) (dir string, ok bool, err error) {
	rep, err := c.simple(ctx, "PWD", "", false, func(code int) bool { return code == 257 })
	if err != nil {
		return "", false, err
	}
	dir, ok = parse257(rep.Msg)
	return dir, ok, nil
}

// parse257 reads the quoted pathname of a 257 reply.
func parse257(msg string) (string, bool) {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", false
	}
	var b strings.Builder
	for j := i + 1; j < len(msg); j++ {
		if msg[j] != '"' {
			b.WriteByte(msg[j])
			continue
		}
		if j+1 < len(msg) && msg[j+1] == '"' {
			b.WriteByte('"')
			j++
			continue
		}
		return b.String(), true
	}
	return "", false
}

// Idle reports whether the connection can take a command now: no
// transfer is open, no earlier error broke it and it is not closed.
// A connection kept for reuse is checked with it (the server may still
// have closed it since: the next command then fails).
func (c *Conn) Idle() bool {
	return c.body == nil && c.broken == nil && !c.closed.Load()
}
