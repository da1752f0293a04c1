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
	// Repaired is the strict URL that --lenient made of the input, when it
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
	lenient := fs.Bool("lenient", false, "repair real-world input first (unsafe, 8-bit octets; rfc1738.ParseLenient) and report each deviation")
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
		if err != nil && *lenient {
			var devs []rfc1738.Diagnostic
			u, devs, err = rfc1738.ParseLenient(in)
			j.Deviations = diags(devs)
			if err == nil {
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
