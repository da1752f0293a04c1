package ftp

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Size sends "SIZE <name>" (RFC 3659 §4) and returns the size in bytes
// from the 213 reply. It proves that a file exists without opening a data
// connection; a missing file is a *CommandError (usually 550). Servers
// may refuse SIZE under TYPE A (vsftpd does), so send TYPE I first.
func (c *Conn) Size(ctx context.Context, name string) (int64, Reply, error) {
	rep, err := c.simple(ctx, "SIZE", name, true, func(code int) bool { return code == 213 })
	if err != nil {
		return -1, rep, err
	}
	// RFC 3659 §4.2: "213 SP 1*DIGIT"; anything else is a protocol error
	// of the reply, but the file is there: report -1.
	n, perr := strconv.ParseInt(strings.TrimSpace(rep.Msg), 10, 64)
	if perr != nil || n < 0 {
		return -1, rep, nil
	}
	return n, rep, nil
}

// Mdtm sends "MDTM <name>" (RFC 3659 §3) and returns the modification
// time from the 213 reply (YYYYMMDDHHMMSS[.sss], UTC). Like Size it needs
// no data connection; the zero time means the reply held no time the RFC
// allows.
func (c *Conn) Mdtm(ctx context.Context, name string) (time.Time, Reply, error) {
	rep, err := c.simple(ctx, "MDTM", name, true, func(code int) bool { return code == 213 })
	if err != nil {
		return time.Time{}, rep, err
	}
	return parseTimeVal(strings.TrimSpace(rep.Msg)), rep, nil
}

// Mlst sends "MLST name" (RFC 3659 §7) and returns the facts of name:
// the 250 reply's entry line, which §7.2 sets off with one space.
func (c *Conn) Mlst(ctx context.Context, name string) (MLSxEntry, Reply, error) {
	rep, err := c.simple(ctx, "MLST", name, true, func(code int) bool { return code == 250 })
	if err != nil {
		return MLSxEntry{}, rep, err
	}
	for line := range strings.SplitSeq(rep.Msg, "\n") {
		if e, ok := ParseMLSxEntry(strings.TrimSuffix(strings.TrimPrefix(line, " "), "\r")); ok && strings.HasPrefix(line, " ") {
			return e, rep, nil
		}
	}
	return MLSxEntry{}, rep, &ProtocolError{Cmd: redact("MLST", name, true), Reason: "no entry line in the 250 reply", Line: rep.String()}
}

// Pwd sends "PWD" (RFC 959 §4.1.3) and returns the directory named in the
// 257 reply. RFC 959 Appendix II: the name is quoted, a quote inside it is
// doubled. A reply without a quoted name returns "" and the reply.
func (c *Conn) Pwd(ctx context.Context) (string, Reply, error) {
	rep, err := c.simple(ctx, "PWD", "", false, func(code int) bool { return code == 257 })
	if err != nil {
		return "", rep, err
	}
	return quotedName(rep.Msg), rep, nil
}

// quotedName reads the leading "dir" of a 257 reply, undoubling "".
func quotedName(msg string) string {
	if len(msg) == 0 || msg[0] != '"' {
		return ""
	}
	var b strings.Builder
	for i := 1; i < len(msg); i++ {
		if msg[i] != '"' {
			b.WriteByte(msg[i])
			continue
		}
		if i+1 < len(msg) && msg[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		return b.String()
	}
	return "" // no closing quote
}
