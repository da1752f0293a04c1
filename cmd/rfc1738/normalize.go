package main

import (
	"fmt"
	"strconv"

	"github.com/rfc1738/rfc1738"
)

func init() {
	register(&command{
		name:    "normalize",
		short:   "write URLs in their canonical form",
		args:    "[--json] [--lenient] [URL ...]",
		summary: "Write each URL in its canonical form (rfc1738.Normalize), one per line. With no URL, read one per line from stdin. Exit status 1 when any input is invalid.",
		run:     runNormalize,
	})
}

// jsonNormalized is the JSON Lines object of "rfc1738 normalize --json".
type jsonNormalized struct {
	Input string `json:"input"`
	// Valid: the input matched the strict grammar.
	Valid bool `json:"valid"`
	// Repaired is the URL that --lenient read (rfc1738.Read), when it
	// differs from the input; null otherwise.
	Repaired   *string    `json:"repaired"`
	Normalized *string    `json:"normalized"`
	Changed    bool       `json:"changed"` // normalized != input
	Deviations []jsonDiag `json:"deviations"`
	Error      *jsonDiag  `json:"error"`
}

func runNormalize(e *env, args []string) int {
	c := commands["normalize"]
	fs := newFlags(e, c)
	asJSON := fs.Bool("json", false, "write JSON Lines, one object per input")
	lenient := fs.Bool("lenient", false, "read real-world input as browsers and curl do first (unsafe and 8-bit octets encoded, IPv6 literals, international names as A-labels, http://h?q; rfc1738.Read) and report each departure from RFC 1738")
	urls, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	out, enc := jsonLines(e.stdout)
	defer out.Flush()
	status = exitOK
	one := func(in string) {
		j := jsonNormalized{Input: in, Deviations: []jsonDiag{}}
		u, err := rfc1738.Parse(in)
		j.Valid = err == nil
		if *lenient {
			var deps []rfc1738.Departure
			u, deps, err = rfc1738.Read(in)
			for _, d := range deps {
				j.Deviations = append(j.Deviations, jsonDiag{d.Offset, d.Rule, d.String()})
			}
			if err == nil && u.String() != in {
				j.Repaired = opt(u.String(), true)
			}
		}
		if err != nil {
			status = exitNegative
			d := err.(*rfc1738.Error).Diagnostic()
			j.Error = &jsonDiag{d.Offset, d.Rule, d.Message}
			if *asJSON {
				enc.Encode(j)
				return
			}
			// One output line per input line, always: an empty one
			// for an invalid input, so that paste(1) stays aligned.
			fmt.Fprintln(out)
			out.Flush()
			fmt.Fprintf(e.stderr, "rfc1738 normalize: %s: offset %d: %s: %s\n", strconv.Quote(in), d.Offset, d.Rule, d.Message)
			return
		}
		n := rfc1738.Normalize(u)
		j.Normalized, j.Changed = &n, n != in
		if *asJSON {
			enc.Encode(j)
			return
		}
		if len(j.Deviations) > 0 {
			out.Flush()
			for _, d := range j.Deviations {
				fmt.Fprintf(e.stderr, "rfc1738 normalize: %s: repaired: offset %d: %s: %s\n", strconv.Quote(in), d.Offset, d.Rule, d.Message)
			}
		}
		fmt.Fprintln(out, n)
	}
	if st := eachInput(e, "normalize", urls, out, one); st != exitOK {
		return st
	}
	return status
}
