package download

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738"
)

// The name is the text after the last "/", even when that "/" is the
// first octet of the selector or path: a URL whose file sits right
// under the root still names it.
func TestNameAfterLeadingSlash(t *testing.T) {
	for in, want := range map[string]string{
		"gopher://h/0/x": "x",   // §3.4: selector "/x"
		"http://h//x":    "x",   // §3.3: hpath "/x" (an empty first hsegment)
		"news:a.b":       "a.b", // no "/": the opaque part whole
	} {
		u, err := rfc1738.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := NameFromURL(u); err != nil || got != want {
			t.Errorf("NameFromURL(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// A decoded name is refused at the first "/" or control byte (C0 or
// DEL), naming its offset; a space and the printable octets around the
// control ranges ("~" 0x7e, 8-bit 0x80) are names like any other.
func TestNameRefusesControlBytes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://h/ab%2Fc", `"/" (offset 2)`}, // §2.2: %2F decodes to "/"
		{"http://h/a%1Fb", "byte 0x1f (offset 1)"},
		{"http://h/%00", "byte 0x00 (offset 0)"},
		{"http://h/ab%7F", "byte 0x7f (offset 2)"},
	} {
		u, err := rfc1738.Parse(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := NameFromURL(u)
		if !errors.Is(err, ErrNoName) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NameFromURL(%s) = %q, %v; want ErrNoName with %q", tc.in, got, err, tc.want)
		}
	}
	for in, want := range map[string]string{
		"http://h/a%20b": "a b", "http://h/a%7Eb": "a~b", "http://h/a%80b": "a\x80b", "http://h/a%21": "a!",
	} {
		u, err := rfc1738.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := NameFromURL(u); err != nil || got != want {
			t.Errorf("NameFromURL(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// A folder on the way that is a file is named in the error, whether
// it is the last one (not a folder) or one above it (the system's
// error, not "does not exist").
func TestCheckTargetThroughAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := CheckTarget(filepath.Join(file, "x"))
	if err == nil || err.Error() != filepath.Join(file, "x")+": "+file+" is not a folder" {
		t.Errorf("CheckTarget(f/x) = %v", err)
	}
	deep := filepath.Join(file, "sub", "x")
	err = CheckTarget(deep)
	if err == nil || !strings.HasPrefix(err.Error(), deep+": ") || strings.Contains(err.Error(), "does not exist") ||
		!strings.Contains(err.Error(), "not a directory") {
		t.Errorf("CheckTarget(f/sub/x) = %v", err)
	}
}

// Restart empties the part for a server that ignored the resume: the
// committed file holds only what came after it.
func TestPartRestart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	p, err := OpenPart(path, false)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("stale bytes"))
	if err := p.Restart(); err != nil || p.Offset() != 0 {
		t.Fatalf("Restart = %v, offset %d", err, p.Offset())
	}
	if n, err := p.ReadFrom(strings.NewReader("new")); n != 3 || err != nil || p.Offset() != 3 {
		t.Fatalf("ReadFrom = %d, %v; offset %d", n, err, p.Offset())
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file = %q, want %q", b, "new")
	}
}

// Abort(keep) keeps a part only when it holds bytes: an empty one
// would make the next run resume from nothing for no gain.
func TestAbortKeepsOnlyBytes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	p, err := OpenPart(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if p.Abort(true) {
		t.Error("Abort(true) kept an empty part file")
	}
	if _, err := os.Lstat(p.Name); !os.IsNotExist(err) {
		t.Errorf("the empty part file is still there: %v", err)
	}
}

// A part whose data cannot be synced is not made complete: Commit
// fails, and neither the final file nor the part is left. (A pipe
// takes fchmod but refuses fsync.)
func TestCommitFailedSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	p, err := OpenPart(path, false)
	if err != nil {
		t.Fatal(err)
	}
	p.Write([]byte("data"))
	p.f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p.f = w
	if err := p.Commit(); err == nil || !strings.HasPrefix(err.Error(), path+": ") {
		t.Errorf("Commit after a failed sync = %v, want an error naming %s", err, path)
	}
	for _, name := range []string{path, p.Name} {
		if _, err := os.Lstat(name); !os.IsNotExist(err) {
			t.Errorf("%s is left: %v", name, err)
		}
	}
}
