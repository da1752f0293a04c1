package main

import (
	"net"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
)

// runBinary runs the built binary and returns stdout, stderr and the
// exit status.
func runBinary(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runIn(t, "", stdin, args...)
}

// runIn runs the built binary in the folder dir ("" the test's own).
func runIn(t *testing.T, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return runEnvIn(t, dir, nil, stdin, args...)
}

// runEnvIn runs the built binary in dir with more environment variables
// (vars, "NAME=value").
func runEnvIn(t *testing.T, dir string, vars []string, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	if vars != nil {
		cmd.Env = append(os.Environ(), vars...)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), status
}

// TestBinaryUsageErrors: every command answers a bad flag or operand with
// the same two lines on stderr, never its whole help.
func TestBinaryUsageErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, tc := range []struct {
		args []string
		cmd  string
		msg  string
	}{
		{[]string{"get", "--bogus", "ftp://h/x"}, "get", "flag provided but not defined: --bogus"},
		{[]string{"parse", "-x"}, "parse", "flag provided but not defined: -x"},
		{[]string{"equal", "http://a/"}, "equal", "want two URLs, got 1"},
		{[]string{"plan"}, "plan", "want exactly one URL, got 0"},
		{[]string{"get", "--max-size", "lots", "ftp://h/x"}, "get", `--max-size: "lots" is not a size`},
		{[]string{"encode", "--component", "nope", "x"}, "encode", `invalid value "nope" for flag --component: want address, `},
		{[]string{"version", "extra"}, "version", `takes no arguments, got "extra"`},
	} {
		out, errOut, status := runBinary(t, "", tc.args...)
		want := "rfc1738 " + tc.cmd + ": " + tc.msg
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		if status != exitUsage || out != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], want) ||
			lines[1] != "Run 'rfc1738 "+tc.cmd+" --help' for usage." {
			t.Errorf("%q: status %d, stdout %q, stderr:\n%s\nwant 2 lines, the first starting %q", tc.args, status, out, errOut, want)
		}
	}
	// --help is asked for: the whole help, on stdout, status 0.
	out, errOut, status := runBinary(t, "", "get", "--help")
	if status != 0 || errOut != "" || !strings.HasPrefix(out, "usage: rfc1738 get") || !strings.Contains(out, "-allow-port") {
		t.Errorf("get --help: %d %q %q", status, out, errOut)
	}
	_, errOut, status = runBinary(t, "", "frobnicate")
	if status != exitUsage || errOut != "rfc1738: unknown command \"frobnicate\"\nRun 'rfc1738 help' for the list.\n" {
		t.Errorf("unknown command: %d %q", status, errOut)
	}
}

// TestBinaryRefusals: a §6 refusal names the flag that lifts it, and a
// dial error says "dial" once.
func TestBinaryRefusals(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, cmd := range []string{"get", "plan"} {
		_, errOut, status := runBinary(t, "", cmd, "gopher://127.0.0.1:25/")
		if status != exitUsage || !strings.Contains(errOut, "port 25 belongs to smtp") || !strings.HasSuffix(errOut, "; give --allow-port 25 to go on\n") {
			t.Errorf("%s of §6's example: %d %q", cmd, status, errOut)
		}
	}
	for _, args := range [][]string{{"equal", "bad url", "http://a/"}, {"encode", "http", "--host", "a_b"}, {"extract", "/nonexistent"}} {
		_, errOut, _ := runBinary(t, "", args...)
		if strings.Contains(errOut, "rfc1738: ") || strings.Count(errOut, "/nonexistent") > 1 || !strings.HasPrefix(errOut, "rfc1738 "+args[0]+": ") {
			t.Errorf("%q: a doubled prefix or path: %q", args, errOut)
		}
	}
	port := closedPort(t)
	_, errOut, _ := runBinary(t, "", "get", "ftp://127.0.0.1:"+port+"/x")
	if strings.Count(errOut, "dial") != 1 || strings.Contains(errOut, "rfc1738: rfc1738") {
		t.Errorf("dial error: %q", errOut)
	}
}

// TestBinaryVersion: --version and version print one line from the
// build info.
func TestBinaryVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	re := regexp.MustCompile(`^rfc1738 (\(devel\)|v\S+)( [0-9a-f]{12} \S+(, modified)?)? \(go1\.\S+\)\n$`)
	for _, arg := range []string{"--version", "version"} {
		out, errOut, status := runBinary(t, "", arg)
		if status != 0 || errOut != "" || !re.MatchString(out) {
			t.Errorf("%s: %d %q %q", arg, status, out, errOut)
		}
	}
}

func TestVersionLine(t *testing.T) {
	for _, tc := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.0"}}, "rfc1738 v1.2.0 (go1.26.0)"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"},
			{Key: "vcs.time", Value: "2026-11-24T01:02:03Z"},
			{Key: "vcs.modified", Value: "true"},
		}}, "rfc1738 (devel) 1a2b3c4d5e6f 2026-11-24T01:02:03Z, modified (go1.26.0)"},
		// A pseudo-version names the commit already.
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.0.0-20261124010203-1a2b3c4d5e6f"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"},
		}}, "rfc1738 v0.0.0-20261124010203-1a2b3c4d5e6f (go1.26.0)"},
		{nil, "rfc1738 (unknown version: built without module support)"},
	} {
		if got := versionLine(tc.bi); got != tc.want {
			t.Errorf("versionLine = %q\nwant %q", got, tc.want)
		}
	}
}

// closedPort returns a loopback port nothing listens on (one just closed).
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	return port
}
