package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rfc1738/rfc1738"
)

func init() {
	register(&command{
		name:    "check",
		short:   "lint files of one URL per line",
		args:    "[--json] [FILE ...]",
		summary: "Lint files of one URL per line (stdin when no FILE): FILE:LINE:COL: error|warning: RULE: message. Exit status 1 when any error.",
		run:     runCheck,
	})
}

// jsonFinding is one line of "rfc1738 check --json".
type jsonFinding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Offset   int    `json:"offset"`
	Severity string `json:"severity"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Input    string `json:"input"`
}

func runCheck(e *env, args []string) int {
	c := commands["check"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "write JSON Lines, one object per finding")
	quiet := fs.Bool("errors-only", false, "report errors only, not warnings")
	files, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	out, enc := jsonLines(e.stdout)
	defer out.Flush()
	var urls, nerr, nwarn int
	status = exitOK
	for _, name := range files {
		var r io.Reader = e.stdin
		shown := "<stdin>"
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintln(e.stderr, "rfc1738 check:", errText(err))
				status = exitUsage
				continue
			}
			r, shown = f, name
			defer f.Close()
		}
		lr := newLineReader(r)
		for {
			line, err := lr.next()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "rfc1738 check: %s: %v\n", shown, errText(err))
				status = exitUsage
				break
			}
			// Blank lines and lines starting with "#" are not URLs.
			if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			urls++
			rep := rfc1738.Check(line)
			report := func(severity string, d rfc1738.Diagnostic) {
				if *asJSON {
					enc.Encode(jsonFinding{shown, lr.line, d.Offset + 1, d.Offset, severity, d.Rule, d.Message, line})
					return
				}
				fmt.Fprintf(out, "%s:%d:%d: %s: %s: %s\n", shown, lr.line, d.Offset+1, severity, d.Rule, d.Message)
			}
			for _, d := range rep.Errors {
				report("error", d)
			}
			nerr += len(rep.Errors)
			if !*quiet {
				for _, d := range rep.Warnings {
					report("warning", d)
				}
				nwarn += len(rep.Warnings)
			}
		}
	}
	if isTerminal(e.stderr) {
		out.Flush()
		fmt.Fprintf(e.stderr, "%d URL(s): %d error(s), %d warning(s)\n", urls, nerr, nwarn)
	}
	if status == exitOK && nerr > 0 {
		status = exitNegative
	}
	return status
}
