package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

func init() {
	register(&command{
		name:    "version",
		short:   "print the version of rfc1738 (also --version)",
		args:    "",
		summary: "Print the module version rfc1738 was built from, with the commit and the Go version when the build recorded them.",
		run:     runVersion,
	})
}

func runVersion(e *env, args []string) int {
	fs := newFlags(e, commands["version"])
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(operands) > 0 {
		return usageError(e, "version", "takes no arguments, got %q", operands[0])
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionLine(bi))
	return exitOK
}

// versionLine describes a build: "rfc1738 v1.2.0 (go1.26.0)" for a
// module installed with go install, or "rfc1738 (devel) 1a2b3c4d5e6f
// 2026-11-24T01:02:03Z, modified (go1.26.0)" for a build from a clone,
// whose commit the go command records (-buildvcs).
func versionLine(bi *debug.BuildInfo) string {
	if bi == nil {
		return "rfc1738 (unknown version: built without module support)"
	}
	var b strings.Builder
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	b.WriteString("rfc1738 " + v)
	var rev, at string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		b.WriteString(" " + rev[:min(12, len(rev))])
		if at != "" {
			b.WriteString(" " + at)
		}
		if modified {
			b.WriteString(", modified")
		}
	}
	b.WriteString(" (" + bi.GoVersion + ")")
	return b.String()
}
