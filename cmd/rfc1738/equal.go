package main

import (
	"fmt"

	"github.com/rfc1738/rfc1738"
)

func init() {
	register(&command{
		name:    "equal",
		short:   "tell whether two URLs name the same resource",
		args:    "[--lenient] URL1 URL2",
		summary: "Tell whether two URLs name the same resource (their normalized forms are equal). Exit status 0 when equivalent, 1 when not (with the reason), 2 when a URL is invalid.",
		run:     runEqual,
	})
}

func runEqual(e *env, args []string) int {
	c := commands["equal"]
	fs := newFlags(e, c)
	lenient := fs.Bool("lenient", false, "read real-world input as browsers and curl do first (rfc1738.Read)")
	quiet := fs.Bool("q", false, "print nothing; answer with the exit status only")
	urls, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(urls) != 2 {
		return usageError(e, "equal", "want two URLs, got %d", len(urls))
	}
	var parsed [2]rfc1738.URL
	for i, in := range urls {
		var err error
		if *lenient {
			parsed[i], _, err = rfc1738.Read(in)
		} else {
			parsed[i], err = rfc1738.Parse(in)
		}
		if err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 equal:", libError(err, ""))
			return exitUsage
		}
	}
	if d := rfc1738.Diff(parsed[0], parsed[1]); d != "" {
		if !*quiet {
			fmt.Fprintln(e.stdout, "not equal:", d)
		}
		return exitNegative
	}
	if !*quiet {
		fmt.Fprintln(e.stdout, "equal:", rfc1738.Normalize(parsed[0]))
	}
	return exitOK
}
