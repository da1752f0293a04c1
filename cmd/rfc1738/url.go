package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/edit"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() {
	register(&command{
		name:  "url",
		short: "read and change URL parts: --get '{host}:{port}', --set, --append, --iterate",
		args:  "[--get TEMPLATE] [--set PART=VALUE] [--append PART=VALUE] [--iterate 'PART=V1 V2'] [--url-file FILE] [URL ...]",
		summary: "Take each URL (the operands, --url-file, else stdin one a line), change its parts (--set, --append, each value decoded " +
			"and encoded as §2.2 and the scheme ask), and write it, or the --get template filled with its parts " +
			"({host}, {port}, {path}, {ftp.type}, {gopher.selector} …; --list-parts shows a URL's). One output line per input line: " +
			"an invalid input gives an empty line, and its error on stderr.",
		run: runURL,
	})
}

// partValue is a PART=VALUE flag, repeatable.
type partValue struct{ part, value string }

type partValues []partValue

func (p *partValues) String() string { return fmt.Sprint(*p) }
func (p *partValues) Set(s string) error {
	part, value, ok := strings.Cut(s, "=")
	if !ok || part == "" {
		return fmt.Errorf("%q is not PART=VALUE", s)
	}
	*p = append(*p, partValue{part, value})
	return nil
}

func runURL(e *env, args []string) int {
	fs := newFlags(e, commands["url"])
	get := fs.String("get", "", "write this `TEMPLATE` filled with each URL's parts: {part}, {{ and }} for braces")
	var sets, appends, iterates partValues
	fs.Var(&sets, "set", "set a part: `PART=VALUE`, the value decoded (\"path\" as written); repeatable")
	fs.Var(&appends, "append", "add to a part: `PART=VALUE` (path: one more segment; search: &VALUE; ftp.cwd: one more CWD); repeatable")
	fs.Var(&iterates, "iterate", "write one URL for each of the space-separated values: `'PART=V1 V2 …'`; repeatable (every combination)")
	urlFile := fs.String("url-file", "", "read URLs from `FILE`, one a line (- is stdin)")
	listParts := fs.Bool("list-parts", false, "write each URL's part names and values, one \"name value\" a line, then an empty line")
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if *urlFile != "" && len(operands) > 0 {
		return usageError(e, "url", "give URLs as operands or with --url-file, not both")
	}
	out := bufio.NewWriterSize(e.stdout, 64*1024)
	defer out.Flush()
	status = exitOK
	fail := func(in string, err error) {
		status = exitNegative
		fmt.Fprintln(out) // one line per input line, always
		out.Flush()
		fmt.Fprintf(e.stderr, "rfc1738 url: %s: %v\n", strconv.Quote(access.Redact(in)), err)
	}
	one := func(in string) {
		u, err := rfc1738.Parse(in)
		if err != nil {
			var pe *rfc1738.Error
			if errors.As(err, &pe) {
				d := pe.Diagnostic()
				err = fmt.Errorf("offset %d: %s: %s", d.Offset, d.Rule, d.Message)
			}
			fail(in, err)
			return
		}
		for _, s := range sets {
			if u, err = edit.Set(u, s.part, s.value); err != nil {
				fail(in, err)
				return
			}
		}
		for _, a := range appends {
			if u, err = edit.Append(u, a.part, a.value); err != nil {
				fail(in, err)
				return
			}
		}
		results := []rfc1738.URL{u}
		for _, it := range iterates {
			var next []rfc1738.URL
			for _, r := range results {
				for _, v := range strings.Fields(it.value) {
					n, err := edit.Set(r, it.part, v)
					if err != nil {
						fail(in, err)
						return
					}
					next = append(next, n)
				}
			}
			results = next
		}
		var lines []string
		for _, r := range results {
			switch {
			case *listParts:
				for _, name := range edit.Names(r) {
					v, ok := edit.Get(r, name)
					if !ok {
						v = "-"
					}
					lines = append(lines, name+" "+safetext.Escape(v))
				}
				lines = append(lines, "")
			case *get != "":
				s, err := edit.ExpandFunc(r, *get, safetext.Escape)
				if err != nil {
					fail(in, err)
					return
				}
				lines = append(lines, s)
			default:
				lines = append(lines, r.String())
			}
		}
		for _, l := range lines {
			fmt.Fprintln(out, l)
		}
	}
	if *urlFile != "" && *urlFile != "-" {
		f, err := os.Open(*urlFile)
		if err != nil {
			return usageError(e, "url", "--url-file: %v", err)
		}
		defer f.Close()
		sub := *e
		sub.stdin = f
		e = &sub
	}
	if st := eachInput(e, "url", operands, out, one); st != exitOK {
		return st
	}
	return status
}
