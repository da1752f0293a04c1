// Package netrc reads the ~/.netrc file that ftp(1), curl, wget and lftp
// read for logins: tokens separated by white space, "machine NAME"
// followed by "login", "password" and "account" pairs, one "default"
// entry for every other host, and "macdef NAME" macros (skipped: they run
// to the next empty line). Comments start with "#".
package netrc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// An Entry is one machine's login.
type Entry struct {
	Machine  string // "" for the default entry
	Login    string
	Password string
}

// File is a parsed netrc file.
type File struct {
	Entries []Entry

	// Warning, set by ReadFile, says why the file is not private: it is
	// readable by group or others (ftp(1) refuses such a file when it
	// holds a password). Callers show it; the logins are used all the
	// same, as curl and wget use them.
	Warning string
}

// maxSize bounds the file read: a netrc is a handful of lines.
const maxSize = 1 << 20

// Parse reads a netrc file.
func Parse(r io.Reader) (*File, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSize {
		return nil, fmt.Errorf("more than %d bytes", maxSize)
	}
	f := &File{}
	var cur *Entry
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	sc.Buffer(make([]byte, 0, 4096), maxSize)
	line := 0
	inMacro := false
	var toks []string
	var lines []int
	for sc.Scan() {
		line++
		text := sc.Text()
		if inMacro {
			if strings.TrimSpace(text) == "" {
				inMacro = false
			}
			continue
		}
		fields := strings.Fields(text)
		for _, tok := range fields {
			if strings.HasPrefix(tok, "#") {
				break
			}
			if tok == "macdef" {
				// The macro's name is on this line; its body follows
				// until an empty line.
				inMacro = true
				break
			}
			toks = append(toks, tok)
			lines = append(lines, line)
		}
	}
	for i := 0; i < len(toks); i++ {
		switch tok := toks[i]; tok {
		case "default":
			f.Entries = append(f.Entries, Entry{})
			cur = &f.Entries[len(f.Entries)-1]
		case "machine", "login", "password", "account":
			if i+1 >= len(toks) {
				return nil, fmt.Errorf("line %d: %q without a value", lines[i], tok)
			}
			i++
			v := toks[i]
			if tok == "machine" {
				f.Entries = append(f.Entries, Entry{Machine: v})
				cur = &f.Entries[len(f.Entries)-1]
				continue
			}
			if cur == nil {
				return nil, fmt.Errorf("line %d: %q before any machine", lines[i], tok)
			}
			switch tok {
			case "login":
				cur.Login = v
			case "password":
				cur.Password = v
			}
		default:
			return nil, fmt.Errorf("line %d: unknown token %q", lines[i], tok)
		}
	}
	return f, sc.Err()
}

// ReadFile parses the netrc file at path, and sets File.Warning when
// group or others may read it.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	f, err := Parse(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if fi, err := fh.Stat(); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o044 != 0 {
		f.Warning = fmt.Sprintf("%s is readable by group or others (mode %04o): its passwords are not private; chmod 600 %s",
			path, fi.Mode().Perm(), path)
	}
	return f, nil
}

// Lookup returns the login for host: its machine entry (the first, host
// names compared without case), else the default entry.
func (f *File) Lookup(host string) (Entry, bool) {
	var def *Entry
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Machine == "" {
			if def == nil {
				def = e
			}
			continue
		}
		if strings.EqualFold(e.Machine, host) {
			return *e, true
		}
	}
	if def != nil {
		return *def, true
	}
	return Entry{}, false
}
