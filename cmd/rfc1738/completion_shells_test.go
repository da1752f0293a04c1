package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// completionScript writes the built binary's completion script for sh
// into a fresh folder and returns its path.
func completionScript(t *testing.T, sh, name string) string {
	t.Helper()
	out, errOut, status := runBinary(t, "", "completion", sh)
	if status != exitOK {
		t.Fatalf("completion %s: %d %s", sh, status, errOut)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// enumeratedFlags are command lines ending in an enumerated flag, and the
// values each shell must offer after it.
var enumeratedFlags = []completionCase{
	{"rfc1738 linkcheck --format ", []string{"text", "json", "csv", "junit", "markdown", "github", "sarif"}, false},
	{"rfc1738 mail --smtp-tls ", []string{"auto", "require", "off"}, false},
	{"rfc1738 get --wais-syntax ", []string{"sutrs", "usmarc", "default"}, false},
	{"rfc1738 encode --component ", []string{"fsegment", "selector", "wpath"}, true},
}

// A completionCase is a command line and what completing it offers: want
// exactly, or with some, at least want.
type completionCase struct {
	line string
	want []string
	some bool
}

// offers reports whether got is what tc wants.
func (tc completionCase) offers(got []string) bool {
	have := map[string]bool{}
	for _, g := range got {
		have[g] = true
	}
	for _, w := range tc.want {
		if !have[w] {
			return false
		}
	}
	return tc.some || len(have) == len(tc.want)
}

// TestCompletionValuesBash: bash's completion function, called as bash
// calls it, offers the values of an enumerated flag, and filters them by
// what is typed.
func TestCompletionValuesBash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bash := testserver.Need(t, "bash")[0]
	script := completionScript(t, "bash", "rfc1738.bash")
	for _, tc := range append(enumeratedFlags, completionCase{"rfc1738 linkcheck --format j", []string{"json", "junit"}, false}) {
		words := strings.Fields(tc.line)
		if strings.HasSuffix(tc.line, " ") {
			words = append(words, "")
		}
		quoted := make([]string, len(words))
		for i, w := range words {
			quoted[i] = "'" + w + "'"
		}
		prog := "source " + script + "; COMP_WORDS=(" + strings.Join(quoted, " ") + "); COMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "; _rfc1738; printf '%s\\n' \"${COMPREPLY[@]}\""
		out, err := exec.Command(bash, "--norc", "--noprofile", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		got := strings.Fields(string(out))
		if !tc.offers(got) {
			t.Errorf("bash, %q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestCompletionValuesFish: fish's own completion engine (complete -C)
// offers the values of an enumerated flag after the script is sourced.
func TestCompletionValuesFish(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	fish := testserver.Need(t, "fish")[0]
	script := completionScript(t, "fish", "rfc1738.fish")
	for _, tc := range enumeratedFlags {
		cmd := exec.Command(fish, "--no-config", "-c", "source "+script+"; complete -C '"+tc.line+"'")
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			word, _, _ := strings.Cut(l, "\t")
			got = append(got, word)
		}
		if !tc.offers(got) {
			t.Errorf("fish, %q: %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestCompletionValuesZsh: in an interactive zsh on a terminal (tmux),
// with the script in $fpath and compinit run, Tab after an enumerated
// flag lists its values.
func TestCompletionValuesZsh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	testserver.Need(t, "zsh")
	bin := binary(t)
	script := completionScript(t, "zsh", "_rfc1738")
	home := t.TempDir()
	s := newTTY(t, "env -i PATH="+filepath.Dir(bin)+":/usr/bin:/bin TERM=xterm HOME="+home+" zsh -f")
	s.tmux("send-keys", "-t", "t", "PS1='%% '; fpath=("+filepath.Dir(script)+" $fpath); autoload -U compinit; compinit -u; echo READY", "Enter")
	s.waitFor("READY")
	for _, tc := range enumeratedFlags {
		s.tmux("send-keys", "-t", "t", "C-u", "clear", "Enter")
		time.Sleep(100 * time.Millisecond)
		s.tmux("send-keys", "-t", "t", tc.line, "Tab")
		scr := s.waitFor(tc.want[len(tc.want)-1])
		for _, w := range tc.want {
			if !strings.Contains(scr, w) {
				t.Errorf("zsh, %q: no %q in the list:\n%s", tc.line, w, scr)
			}
		}
		s.tmux("send-keys", "-t", "t", "C-c")
	}
}
