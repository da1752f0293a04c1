package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestBrowseUsage: browse needs a terminal, and takes one URL at most.
func TestBrowseUsage(t *testing.T) {
	if _, errOut, status := runCLI(t, "", "browse", "gopher://h/"); status != exitUsage || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("without a terminal: %d %q", status, errOut)
	}
	if _, errOut, status := runCLI(t, "", "browse", "gopher://a/", "gopher://b/"); status != exitUsage || !strings.Contains(errOut, "at most one URL") {
		t.Errorf("two URLs: %d %q", status, errOut)
	}
}

// tmuxScreen runs "rfc1738 browse" in a detached tmux session of its own
// server (-L), a real terminal the test types into and reads back.
type tmuxScreen struct {
	t      *testing.T
	tmux   string
	socket string
}

func newTmuxScreen(t *testing.T, bin string, env []string, args ...string) *tmuxScreen {
	t.Helper()
	return newTmuxScreenAfter(t, 0, bin, env, args...)
}

// newTmuxScreenAfter is newTmuxScreen with the browser started after a
// pause, during which the test may type ahead.
func newTmuxScreenAfter(t *testing.T, pause time.Duration, bin string, env []string, args ...string) *tmuxScreen {
	t.Helper()
	paths := testserver.Need(t, "tmux")
	s := &tmuxScreen{t: t, tmux: paths[0], socket: fmt.Sprintf("rfc1738-browse-%d-%d", os.Getpid(), time.Now().UnixNano())}
	cmdline := []string{"env"}
	cmdline = append(cmdline, env...)
	cmdline = append(cmdline, bin, "browse")
	cmdline = append(cmdline, args...)
	var quoted []string
	for _, a := range cmdline {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	// remain-on-exit keeps the pane after the browser quits, to read its
	// exit status.
	shell := strings.Join(quoted, " ") + "; echo EXIT=$?; sleep 30"
	if pause > 0 {
		shell = fmt.Sprintf("sleep %.1f; %s", pause.Seconds(), shell)
	}
	s.run("new-session", "-d", "-s", "b", "-x", "100", "-y", "30", shell)
	t.Cleanup(func() { exec.Command(s.tmux, "-L", s.socket, "kill-server").Run() })
	return s
}

func (s *tmuxScreen) run(args ...string) string {
	s.t.Helper()
	out, err := exec.Command(s.tmux, append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (s *tmuxScreen) screen() string { return s.run("capture-pane", "-p", "-t", "b") }

// keys types into the terminal: tmux key names (Enter, Left, Escape) or
// literal text.
func (s *tmuxScreen) keys(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		switch k {
		case "Enter", "Left", "Escape", "Down", "Up", "BSpace":
			s.run("send-keys", "-t", "b", k)
		default:
			s.run("send-keys", "-t", "b", "-l", k)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wait waits until the screen shows want.
func (s *tmuxScreen) wait(want string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		screen := s.screen()
		if strings.Contains(screen, want) {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", want, screen)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestBrowseTypeAhead: a key typed as the browser starts is a key, on a
// terminal whatever it answers. The browser used to ask the terminal for
// its background colour and read the keys waiting as part of the answer
// (and, on a terminal that answers nothing, every key of five seconds):
// a "q" typed ahead was lost and the browser never quit. Here the q is
// typed before the browser runs; it must quit at once.
func TestBrowseTypeAhead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	testserver.Need(t, "tmux")
	bin := binary(t)
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/a.txt", []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, term := range []string{"linux", "xterm-256color"} {
		t.Run(term, func(t *testing.T) {
			env := []string{"NO_COLOR=1", "XDG_CONFIG_HOME=" + t.TempDir(), "TERM=" + term, "CI=", "COLORFGBG="}
			s := newTmuxScreenAfter(t, time.Second, bin, env, "file://"+dir+"/")
			s.keys("q") // while the shell sleeps: waiting in the terminal when the browser starts
			deadline := time.Now().Add(8 * time.Second)
			for {
				screen := s.screen()
				if strings.Contains(screen, "EXIT=0") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("TERM=%s: the q typed ahead did not quit the browser within 8 s:\n%s", term, screen)
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}

// browseEnv is the browser's environment in the tmux pane. CI is emptied:
// the terminal library takes a set CI for "no terminal" and draws without
// colour or underline, and .ci/run sets CI=true for the tests themselves.
func browseEnv(t *testing.T, extra ...string) []string {
	return append([]string{"NO_COLOR=1", "XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color", "CI="}, extra...)
}

// TestBrowseTmux drives the browser in a terminal against the loopback
// daemons: a gophernicus hole (open, follow, back, a type-7 search, find
// in a page, quit; NO_COLOR), a Gopher+ form on pygopherd, WAIS results
// from yaz-ztest, vsftpd's listings, and
// INN's groups and articles, and a telnet session on telnetd that
// suspends the screen and comes back.
func TestBrowseTmux(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts daemons")
	}
	testserver.Need(t, "tmux")
	bin := binary(t)

	t.Run("gophernicus", func(t *testing.T) {
		g := testserver.Gophernicus(t)
		root := fmt.Sprintf("gopher://127.0.0.1:%d/", g.Port)
		s := newTmuxScreen(t, bin, browseEnv(t), root)
		s.wait("Welcome line")
		s.wait("Docs directory")
		s.keys("2", "Enter") // follow a numbered link
		s.wait("with space.txt")
		s.wait(root + "1/docs")
		s.keys("Left") // back
		s.wait("Welcome line")
		s.keys("5", "Enter") // the type-7 search asks in the screen
		s.wait("Search " + root + "7/cgi-bin/search")
		s.keys("moon", "Enter")
		s.wait("You searched for: moon")
		s.keys("BSpace")
		s.wait("Welcome line")
		s.keys("1", "Enter")
		s.wait("Second line.")
		s.keys("/", "second", "Enter") // find in the page: the line is underlined
		time.Sleep(200 * time.Millisecond)
		colour := s.run("capture-pane", "-p", "-e", "-t", "b")
		if !strings.Contains(colour, "4mSecond line.") {
			t.Errorf("the line found is not underlined:\n%q", colour)
		}
		if strings.Contains(colour, "44m") {
			t.Errorf("NO_COLOR is set, yet the title has its blue background:\n%q", colour)
		}
		s.keys("q")
		s.wait("EXIT=0")

		// Without NO_COLOR the title bar is blue.
		s = newTmuxScreen(t, bin, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color", "CI="}, root)
		s.wait("Welcome line")
		if colour := s.run("capture-pane", "-p", "-e", "-t", "b"); !strings.Contains(colour, "44m") {
			t.Errorf("no colours without NO_COLOR:\n%q", colour)
		}
		s.keys("q")
		s.wait("EXIT=0")
	})

	t.Run("yaz-ztest", func(t *testing.T) {
		z := testserver.YazZtest(t)
		s := newTmuxScreen(t, bin, browseEnv(t), "wais://"+z.Addr+"/Default?computer")
		s.wait("23 hits")
		s.keys("q")
		s.wait("EXIT=0")
	})

	t.Run("pygopherd form", func(t *testing.T) {
		g := testserver.Pygopherd(t)
		url := fmt.Sprintf("gopher://127.0.0.1:%d/0/form.txt%%09%%09?", g.Port)
		s := newTmuxScreen(t, bin, browseEnv(t), url)
		s.wait("Your name [nobody]")
		s.keys("Ann", "Enter")
		s.wait("Colour (1) red (2) green")
		s.keys("2", "Enter")
		// pygopherd ignores filled forms and sends the item.
		s.wait("form body")
		s.keys("q")
		s.wait("EXIT=0")
	})

	t.Run("telnet", func(t *testing.T) {
		d := testserver.Telnetd(t, "echo telnet-session-here\nread x\necho you said: $x\n")
		s := newTmuxScreen(t, bin, browseEnv(t), "telnet://"+d.Addr+"/")
		s.wait("telnet-session-here") // the screen is suspended for the session
		s.keys("hi", "Enter")
		s.wait("you said: hi")
		s.wait("telnet session with telnet://" + d.Addr + "/ ended") // and comes back
		s.keys("q")
		s.wait("EXIT=0")
	})

	t.Run("vsftpd", func(t *testing.T) {
		addr, _ := testserver.VSFTPD(t)
		s := newTmuxScreen(t, bin, browseEnv(t), "ftp://"+addr+"/pub/")
		s.wait("lf.txt")
		s.keys("/", "lf.txt", "Enter", "Enter")
		s.wait("line2")
		s.keys("Left")
		s.wait("ftp://" + addr + "/pub/")
		s.keys("q")
		s.wait("EXIT=0")
	})

	t.Run("inn", func(t *testing.T) {
		n := testserver.INN(t)
		subject := fmt.Sprintf("browse test %d", time.Now().UnixNano())
		n.Post(t, testserver.INNArticle{MessageID: testserver.FreshMessageID("browse"), Subject: subject, Body: "The body of the browse test.\n"})
		s := newTmuxScreen(t, bin, browseEnv(t, "NNTPSERVER="+n.Addr), "news:"+n.Group)
		s.wait("news:" + n.Group)
		s.wait("link 1/") // the group's listing is in; INN's spool keeps older tests' articles
		// Find the article, scrolling to it. The prompt is waited for:
		// under load, a subject typed ahead of it was once read as keys
		// of the page (its digits as a link number).
		s.keys("/")
		s.wait("Find:")
		s.keys(subject, "Enter")
		s.wait(subject)
		s.keys("Enter")
		s.wait("The body of the browse test.")
		s.keys("Left")
		s.wait(subject)
		s.keys("q")
		s.wait("EXIT=0")
	})
}
