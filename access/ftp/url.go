package ftp

import (
	"bytes"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// The URLs of listed names (RFC 1738 §3.2.2), for every tool that lists.

// DirURL returns the URL of the directory that the CWD sequence dirs
// reaches on host (and port, when not ""), ending in "/": the same login
// user as the URL had (rawUser, as written; never a password, RFC 1738
// §6), each directory re-encoded as one segment (AppendSegment).
func DirURL(rawUser string, hasUser bool, host, port string, dirs []string) string {
	b := append([]byte(nil), "ftp://"...)
	if hasUser {
		b = append(b, rawUser...)
		b = append(b, '@')
	}
	b = append(b, host...)
	if port != "" {
		b = append(b, ':')
		b = append(b, port...)
	}
	b = append(b, '/')
	for _, d := range dirs {
		b = AppendSegment(b, d)
		b = append(b, '/')
	}
	return string(b)
}

// AppendSegment appends s as one §3.2.2 segment: "/" and ";" encoded as
// fsegment requires, and "?" too, which fsegment allows but later URL
// syntaxes (RFC 3986) read as the start of a query.
func AppendSegment(b []byte, s string) []byte {
	start := len(b)
	b = rfc1738.AppendEscape(b, s, rfc1738.FSegment)
	if bytes.IndexByte(b[start:], '?') < 0 {
		return b
	}
	seg := bytes.ReplaceAll(b[start:], []byte("?"), []byte("%3F"))
	return append(b[:start], seg...)
}

// ItemURL returns the URL of a name a listing of the directory base
// listed. RFC 959 §4.1.3 leaves the form of NLST names to the server:
// bare ("hello.txt", pyftpdlib, vsftpd for NLST without an argument) or
// with the argument in front ("pub/hello.txt", proftpd, pure-ftpd).
// Either way the entry is the name's last path segment inside base. ok
// is false for "." and ".." (pure-ftpd lists them) and for an empty
// name: they are not entries of the directory.
func ItemURL(base, name string) (url string, ok bool) {
	name = strings.TrimRight(name, "/")
	seg := name[strings.LastIndexByte(name, '/')+1:]
	if seg == "" || seg == "." || seg == ".." {
		return "", false
	}
	return string(AppendSegment([]byte(base), seg)), true
}
