package testserver

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// GopherServer is a real Gopher daemon serving a test tree on 127.0.0.1.
type GopherServer struct {
	*Daemon
	Root string // the served tree; world-readable, files may be added
	Host string // "127.0.0.1"
	Port int
}

// GopherBlob returns the deterministic bytes of docs/blob.bin in the trees
// Gophernicus and Pygopherd serve.
func GopherBlob() []byte {
	r := rand.New(rand.NewPCG(1738, 1436))
	b := make([]byte, 5000)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// gopherTree makes a world-readable folder for a daemon that drops root
// (t.TempDir is 0700, which the daemon's user could not enter).
func gopherTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root, err := os.MkdirTemp("", "rfc1738-gopher-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "cgi-bin/") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // umask
	}
	return root
}

// sbin finds a daemon on PATH or in /usr/sbin (not on a user's PATH).
func sbin(t testing.TB, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := "/usr/sbin/" + name
	if _, err := os.Stat(p); err == nil {
		return p
	}
	Unavailable(t, "%s is not installed (.ci/run installs it with apt-get)", name)
	return ""
}

// GophernicusSearchCGI is the type-7 search script of the Gophernicus tree
// (/cgi-bin/search): it echoes the query, which gophernicus passes in
// QUERY_STRING, as an info line and a text item. Its lines end in LF only and
// it sends no final ".".
const GophernicusSearchCGI = `#!/bin/sh
echo "iYou searched for: ${QUERY_STRING}	fake	(NULL)	0"
echo "0Result for ${QUERY_STRING}	/hello.txt	127.0.0.1	7070"
`

// GopherLoneDot and GopherDotEnd are text files of the Gophernicus tree
// that an RFC 1436 reader cuts short: a lone "." line inside (sent as
// stored, it is no terminator), and one as the last line (which a reader
// cannot tell from a terminator).
const (
	GopherLoneDot = "line1\r\n.\r\n..dots\r\nend\r\n"
	GopherDotEnd  = "text\r\n.\r\n"
	// GopherDotNoEOL is a file whose last line is "." with no line ending
	// after it: sent as stored, that "." is data, no terminator.
	GopherDotNoEOL = "text\n."
)

// GopherLinks is the gophermap of the Gophernicus tree's /links menu:
// "h" items whose "URL:" selectors point out of gopherspace (one with a
// space, which a listing must encode), and an "h" item that is a file.
const GopherLinks = "hExample link\tURL:http://example.org/\n" +
	"hSpaced link\tURL:http://example.org/a b.html\n" +
	"hLocal page\t/links/page.html\n" +
	".\n"

// Gophernicus starts gophernicus (inetd-style) behind socat on a free
// loopback port, serving this tree:
//
//	gophermap           title, info line, items incl. a search and an external host
//	hello.txt           "Hello from gopher.\r\nSecond line.\r\n"
//	dots.txt            lines starting with "." and "..", sent without dot-stuffing
//	lonedot.txt         GopherLoneDot: a line that is only ".", then more lines
//	dotend.txt          GopherDotEnd: text whose last line is only "."
//	dotnoeol.txt        GopherDotNoEOL: text ending in "\n." (no line end)
//	empty.txt           an empty file
//	links/gophermap     GopherLinks: "h" items with "URL:" selectors
//	docs/readme.txt, docs/with space.txt, docs/blob.bin (GopherBlob)
//	cgi-bin/search      GophernicusSearchCGI
//
// As root, socat switches to the _gophernicus user (gophernicus refuses to
// run as root). Recipe: shared/reference/loopback-servers.md §2.
func Gophernicus(t testing.TB) *GopherServer {
	t.Helper()
	return gophernicusOn(t, false)
}

// Gophernicus6 is Gophernicus on the IPv6 loopback ::1 alone (socat
// TCP6-LISTEN); its menus and Host name "localhost".
func Gophernicus6(t testing.TB) *GopherServer {
	t.Helper()
	return gophernicusOn(t, true)
}

func gophernicusOn(t testing.TB, ipv6 bool) *GopherServer {
	t.Helper()
	paths := Need(t, "socat")
	socat := paths[0]
	g := sbin(t, "gophernicus")
	port := FreePort(t)
	root := gopherTree(t, map[string]string{
		"hello.txt":           "Hello from gopher.\r\nSecond line.\r\n",
		"dots.txt":            ".dot line\r\n..two dots\r\nplain\r\n",
		"lonedot.txt":         GopherLoneDot,
		"dotend.txt":          GopherDotEnd,
		"dotnoeol.txt":        GopherDotNoEOL,
		"empty.txt":           "",
		"links/gophermap":     GopherLinks,
		"docs/readme.txt":     "a document\n",
		"docs/with space.txt": "space name\n",
		"docs/blob.bin":       string(GopherBlob()),
		"cgi-bin/search":      GophernicusSearchCGI,
		"gophermap": strings.Join([]string{
			"!Test gopher root",
			"Welcome line (info)",
			"0Hello text\t/hello.txt",
			"1Docs directory\t/docs",
			"0Doc with space\t/docs/with space.txt",
			"9Binary blob\t/docs/blob.bin",
			"7Search test\t/cgi-bin/search",
			"1External example\t/\tgopher.example.invalid\t70",
			".",
		}, "\n") + "\n",
	})
	// -nm: no shared memory. Gophernicus otherwise keeps per-client-address
	// sessions in a System V segment that outlives the daemon, and after
	// 4 GiB (-k) or 4096 hits (-i) from 127.0.0.1 within 30 minutes (-s) it
	// sleeps 5 s before every reply — across test runs and benchmarks.
	host, listen, bind := "127.0.0.1", "TCP-LISTEN:", "127.0.0.1"
	addr := "127.0.0.1:" + strconv.Itoa(port)
	if ipv6 {
		// socat splits EXEC's command at ':', so the menus name the
		// host "localhost", not "::1".
		host, listen, bind = "localhost", "TCP6-LISTEN:", "[::1]"
		addr = "[::1]:" + strconv.Itoa(port)
	}
	exe := fmt.Sprintf("%s -h %s -p %d -r %s -nv -ns -nf -nm", g, host, port, root)
	opts := ",nofork"
	if os.Geteuid() == 0 {
		u := "_gophernicus"
		if _, err := user.Lookup(u); err != nil {
			u = "nobody"
		}
		opts = ",su=" + u + ",nofork"
	}
	cmd := exec.Command(socat,
		listen+strconv.Itoa(port)+",bind="+bind+",reuseaddr,fork",
		"EXEC:"+exe+opts)
	d := Start(t, "gophernicus", cmd, addr)
	return &GopherServer{Daemon: d, Root: root, Host: host, Port: port}
}

// PygopherdForm is the +ASK block of form.txt in the Pygopherd tree.
const PygopherdForm = "Ask: Your name\tnobody\nChoose: Colour\tred\tgreen\n"

// Pygopherd starts pygopherd (the Gopher+ reference) with its own
// configuration file on a free loopback port, serving:
//
//	hello.txt (+ hello.txt.abstract: +ABSTRACT "An abstract line.")
//	form.txt  (+ form.txt.ask: PygopherdForm, a +ASK block)
//	docs/readme.txt, docs/blob.bin (GopherBlob)
//
// The configuration is the packaged /etc/pygopherd/pygopherd.conf with the
// reference's diff (shared/reference/loopback-servers.md §2): no chroot, no
// detach, log to stdout, and — when running as root, as CI does — setuid
// and setgid "gopher" so the daemon drops root itself.
func Pygopherd(t testing.TB) *GopherServer {
	t.Helper()
	exe := sbin(t, "pygopherd")
	base, err := os.ReadFile("/etc/pygopherd/pygopherd.conf")
	if err != nil {
		Unavailable(t, "pygopherd's configuration is missing: %v", err)
	}
	root := gopherTree(t, map[string]string{
		"hello.txt":          "Hello from gopher.\r\nSecond line.\r\n",
		"hello.txt.abstract": "An abstract line.\n",
		"form.txt":           "form body\n",
		"form.txt.ask":       PygopherdForm,
		"docs/readme.txt":    "a document\n",
		"docs/blob.bin":      string(GopherBlob()),
		"dotnoeol.txt":       GopherDotNoEOL,
		"empty.txt":          "",
	})
	state := t.TempDir()
	port := FreePort(t)
	set := map[string]string{
		"pidfile":   filepath.Join(state, "pygopherd.pid"),
		"port":      strconv.Itoa(port),
		"usechroot": "no",
		"root":      root,
		"logmethod": "file",
		"detach":    "no",
	}
	var out []string
	for _, l := range strings.Split(string(base), "\n") {
		k, _, found := strings.Cut(l, "=")
		if v, ok := set[strings.TrimSpace(k)]; found && ok && !strings.HasPrefix(l, " ") {
			l = strings.TrimSpace(k) + " = " + v
		}
		out = append(out, l)
		if strings.TrimSpace(l) == "[pygopherd]" {
			out = append(out, "servername = 127.0.0.1", "interface = 127.0.0.1")
			if os.Geteuid() == 0 {
				out = append(out, "setuid = gopher", "setgid = gopher")
			}
		}
	}
	conf := filepath.Join(state, "pygopherd.conf")
	if err := os.WriteFile(conf, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, conf)
	cmd.Dir = state
	addr := "127.0.0.1:" + strconv.Itoa(port)
	d := Start(t, "pygopherd", cmd, addr)
	return &GopherServer{Daemon: d, Root: root, Host: "127.0.0.1", Port: port}
}
