package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestOneTable: every flag of every command, as the command defines it,
// is in its --help, in each completion script and in the man page; so
// are the commands.
func TestOneTable(t *testing.T) {
	outputs := map[string]string{}
	for _, args := range [][]string{{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"man"}} {
		out, errOut, status := runCLI(t, "", args...)
		if status != 0 || out == "" {
			t.Fatalf("%q: %d %q", args, status, errOut)
		}
		outputs[strings.Join(args, " ")] = out
	}
	for _, name := range commandNames() {
		c := commands[name]
		flags := describeCommand(c)
		help, _, _ := runCLI(t, "", name, "--help")
		for what, out := range outputs {
			if !strings.Contains(out, name) {
				t.Errorf("%s lacks the command %s", what, name)
			}
		}
		for _, f := range flags {
			if !strings.Contains(help, "-"+f.name) {
				t.Errorf("%s --help lacks -%s", name, f.name)
			}
			for what, out := range outputs {
				want := f.dashed()
				switch what {
				case "man":
					want = strings.ReplaceAll(want, "-", `\-`)
				case "completion fish":
					want = "-l " + f.name
					if len(f.name) == 1 {
						want = "-s " + f.name
					}
				}
				if !strings.Contains(out, want) {
					t.Errorf("%s lacks %s's %s", what, name, want)
				}
			}
		}
	}
	if len(describeCommand(commands["get"])) < 20 {
		t.Errorf("get has %d flags in the table", len(describeCommand(commands["get"])))
	}
}

// TestCompletionSyntax: each shell reads its script without a syntax
// error.
func TestCompletionSyntax(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			path := testserver.Need(t, sh)[0]
			out, _, _ := runCLI(t, "", "completion", sh)
			file := filepath.Join(t.TempDir(), "script")
			os.WriteFile(file, []byte(out), 0o644)
			if msg, err := exec.Command(path, "-n", file).CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, msg)
			}
		})
	}
	_, errOut, status := runCLI(t, "", "completion", "tcsh")
	if status != exitUsage || !strings.Contains(errOut, `no completion for "tcsh"`) {
		t.Errorf("tcsh: %d %q", status, errOut)
	}
}

// TestManPage: man reads the page without a warning of its own.
func TestManPage(t *testing.T) {
	groff := testserver.Need(t, "groff")[0]
	out, _, _ := runCLI(t, "", "man")
	cmd := exec.Command(groff, "-k", "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(out)
	msg, err := cmd.CombinedOutput()
	// "cannot adjust line" is typesetting of long words, not an error.
	var bad []string
	for _, l := range strings.Split(string(msg), "\n") {
		if l != "" && !strings.Contains(l, "cannot adjust line") && !strings.Contains(l, "cannot break line") {
			bad = append(bad, l)
		}
	}
	if err != nil || len(bad) > 0 {
		t.Errorf("groff: %v\n%s", err, strings.Join(bad, "\n"))
	}
}

// TestTTYCompletion: in bash on a terminal, Tab completes the commands
// and a command's flags from the generated script.
func TestTTYCompletion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := binary(t)
	s := newTTY(t, "env -i PATH="+filepath.Dir(bin)+":/usr/bin:/bin TERM=xterm bash --norc --noprofile")
	s.tmux("send-keys", "-t", "t", "PS1='$ '; source <(rfc1738 completion bash); echo READY", "Enter")
	s.waitFor("READY")
	s.tmux("send-keys", "-t", "t", "rfc1738 get --retr", "Tab")
	s.waitFor("$ rfc1738 get --retry")
	s.tmux("send-keys", "-t", "t", "Tab")
	time.Sleep(200 * time.Millisecond)
	s.tmux("send-keys", "-t", "t", "Tab")
	scr := s.waitFor("--retry-delay")
	if !strings.Contains(scr, "--retry ") && !strings.Contains(scr, "--retry\n") {
		t.Errorf("flags of get:\n%s", scr)
	}
	s.tmux("send-keys", "-t", "t", "C-u", "rfc1738 compl", "Tab")
	s.waitFor("rfc1738 completion ")
	s.tmux("send-keys", "-t", "t", "Tab")
	time.Sleep(200 * time.Millisecond)
	s.tmux("send-keys", "-t", "t", "Tab")
	scr = s.waitFor("fish")
	if !strings.Contains(scr, "bash") || !strings.Contains(scr, "zsh") {
		t.Errorf("completion's operands:\n%s", scr)
	}
}
