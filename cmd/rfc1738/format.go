package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/rfc1738/rfc1738/extract"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() {
	register(&command{
		name:  "format",
		short: "write URLs into text the Appendix's way (<URL:…>, broken lines)",
		args:  "[--width N] [--indent S] [URL ...]",
		summary: "Write each URL as the RFC 1738 Appendix recommends for text: in <URL:…>, broken into lines of at most --width columns " +
			"(later lines start with --indent), never right after a '-', preferably after / . ? ; &. \"rfc1738 extract\" gives the URL back. " +
			"With no URL, read one per line from stdin. Exit status 1 when a URL cannot be written (whitespace, '<', '>', 8-bit octets, no scheme).",
		run: runFormat,
	})
}

func runFormat(e *env, args []string) int {
	c := commands["format"]
	fs := newFlags(e, c)
	width := fs.Int("width", extract.DefaultWidth, "the longest line, in columns")
	indent := fs.String("indent", "  ", "what starts each line after the first (spaces and tabs)")
	urls, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if _, err := extract.Format("x:y", *width, *indent); err != nil {
		var perr *extract.FormatError
		errors.As(err, &perr)
		fmt.Fprintf(e.stderr, "rfc1738 format: --width %d --indent %q: %s\n", *width, *indent, perr.Message)
		return exitUsage
	}
	out := bufio.NewWriterSize(e.stdout, 64*1024)
	defer out.Flush()
	status = exitOK
	if st := eachInput(e, "format", urls, out, func(in string) {
		text, err := extract.Format(in, *width, *indent)
		if err != nil {
			status = exitNegative
			out.Flush()
			fmt.Fprintln(e.stderr, "rfc1738 format:", safetext.Escape(err.Error()))
			return
		}
		out.WriteString(text)
		out.WriteByte('\n')
	}); st != exitOK {
		return st
	}
	return status
}
