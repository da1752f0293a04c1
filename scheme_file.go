package rfc1738

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
)

// File is the view of a file URL (§3.10).
type File struct {
	// Host is the host as written: "" or "localhost" for the machine
	// interpreting the URL, else a host name.
	Host string
	// Path is the fpath as written, without the leading "/".
	Path string
}

// File returns the file view of u, and false when u is not a file URL.
func (u URL) File() (File, bool) {
	if u.kind != KindFile {
		return File{}, false
	}
	path, _ := u.Path()
	return File{Host: u.Host(), Path: path}, true
}

// IsLocal reports whether the URL names a file on this machine: host ""
// or "localhost" (§3.10), compared without regard to case.
func (f File) IsLocal() bool { return f.Host == "" || equalFold(f.Host, "localhost") }

// Segments returns the decoded path segments.
func (f File) Segments() []string {
	parts := strings.Split(f.Path, "/")
	for i, p := range parts {
		parts[i] = unescape(p)
	}
	return parts
}

// LocalPath returns the file's path in this operating system's form, for a
// URL that names this machine. It fails for another host, and for a segment
// whose decoded form holds the OS path separator or a NUL, which no local
// path can express. §3.2.4 warns that a URL path is not an OS path: the
// segments are decoded and joined with the OS separator.
func (f File) LocalPath() (string, error) {
	if !f.IsLocal() {
		return "", errors.New("rfc1738: file URL names host " + f.Host + ", not this machine (§3.10)")
	}
	segs := f.Segments()
	for _, s := range segs {
		if strings.ContainsRune(s, 0) {
			return "", errors.New("rfc1738: file URL path has an encoded NUL")
		}
		if strings.ContainsAny(s, "/"+string(filepath.Separator)) {
			return "", errors.New("rfc1738: file URL path segment " + quoteAdvice(s) + " holds a path separator")
		}
	}
	if runtime.GOOS == "windows" && len(segs) > 0 && len(segs[0]) == 2 && segs[0][1] == ':' {
		return filepath.Join(segs[0]+`\`, filepath.Join(segs[1:]...)), nil
	}
	return string(filepath.Separator) + strings.Join(segs, string(filepath.Separator)), nil
}
