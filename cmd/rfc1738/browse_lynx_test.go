package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// lynxFolder makes a folder of 15 files, each saying its name.
func lynxFolder(t *testing.T) string {
	dir := t.TempDir()
	for i := 1; i <= 15; i++ {
		name := fmt.Sprintf("f%02d", i)
		os.WriteFile(filepath.Join(dir, name), []byte("this is "+name+"\n"), 0o644)
	}
	return dir
}

// TestBrowseTmuxDigitBurst: "1", "2" and Enter typed in one go (one
// tmux send-keys, one write to the terminal) follow link 12, as in lynx,
// not the selected link.
func TestBrowseTmuxDigitBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	testserver.Need(t, "tmux")
	dir := lynxFolder(t)
	s := newTmuxScreen(t, binary(t), browseEnv(t), "file://"+dir+"/")
	screen := s.wait("link 1/16")
	m := regexp.MustCompile(`(?m)^.{2}12 (f\d\d) `).FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("no link 12 on the screen:\n%s", screen)
	}
	s.run("send-keys", "-t", "b", "1", "2", "Enter")
	s.wait("this is " + m[1])
	s.keys("q")
	s.wait("EXIT=0")
}

// TestBrowseDump: browse --dump writes the page, then its links under
// "References", as lynx -dump does, without a terminal.
func TestBrowseDump(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "t.txt"), []byte("see http://a.org/x\nand ftp://f.org/pub/ too\n"), 0o644)
	out, errOut, status := runBinary(t, "", "browse", "--dump", "file://"+dir+"/t.txt")
	want := "see http://a.org/x [1]\nand ftp://f.org/pub/ too [2]\n\nReferences\n\n   1. http://a.org/x\n   2. ftp://f.org/pub/\n"
	if status != 0 || out != want {
		t.Errorf("--dump: %d %q %q\nwant %q", status, out, errOut, want)
	}
	out, _, status = runBinary(t, "", "browse", "--dump", "file://"+dir+"/")
	if status != 0 || !strings.HasPrefix(out, "1 Up to higher level directory\n2 t.txt ") || !strings.Contains(out, "   2. file://"+dir+"/t.txt\n") {
		t.Errorf("--dump of a folder: %d\n%s", status, out)
	}
	if _, errOut, status := runBinary(t, "", "browse", "--dump"); status != exitUsage || !strings.Contains(errOut, "--dump needs a URL") {
		t.Errorf("--dump without a URL: %d %q", status, errOut)
	}
}

// TestBrowseDumpNews: an article from INN shows its headers as lynx does,
// From as a mailto link and the group as a news link, then its body.
func TestBrowseDumpNews(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and starts innd")
	}
	n := testserver.INN(t)
	id := testserver.FreshMessageID("dump")
	n.Post(t, testserver.INNArticle{MessageID: id, Subject: "dump test", Body: "See ftp://ftp.example.org/pub/ please.\n"})
	out, errOut, status := runIn(t, "", "", "browse", "--dump", "--nntp-server", n.Addr, "news:"+strings.Trim(id, "<>"))
	for _, want := range []string{
		"Subject: dump test\nFrom: Tester <tester@example.com> [1]\n",
		"\nNewsgroups: " + n.Group + " [2]\n",
		"\nMessage-ID: " + id + "\n\nSee ftp://ftp.example.org/pub/ please. [3]\n",
		"\nReferences\n\n   1. mailto:tester@example.com\n   2. news:" + n.Group + "\n   3. ftp://ftp.example.org/pub/\n",
	} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("status %d, stderr %q; the dump lacks %q:\n%s", status, errOut, want, out)
		}
	}
	if strings.Contains(out, "Path:") || strings.Contains(out, "Xref:") {
		t.Errorf("transport headers shown:\n%s", out)
	}
}
