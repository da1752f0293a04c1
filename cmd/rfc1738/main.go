// Command rfc1738 parses, checks, normalizes, encodes, extracts and fetches
// URLs exactly as RFC 1738 defines them.
//
//	rfc1738 parse     [--json] [URL ...]           take URLs apart (stdin: one per line)
//	rfc1738 check     [--json] [FILE ...]          lint files of one URL per line
//	rfc1738 normalize [--json] [--lenient] [URL ...] canonical forms (§2.2)
//	rfc1738 encode    SCHEME --host … | --component C STRING   build or escape
//	rfc1738 equal     A B                          same resource? (exit 0 or 1)
//	rfc1738 extract   [--json] [FILE ...]          URLs in text (Appendix)
//	rfc1738 format    [--width N] [URL ...]        URLs into text, <URL:…> (Appendix)
//	rfc1738 plan      [--json] URL                 the protocol lines get would send
//	rfc1738 get       [flags] URL... [-o FILE|-O]  fetch with the scheme's protocol (§3, §6)
//	rfc1738 mail      [flags] mailto:ADDRESS       send stdin to a mailbox (§3.5)
//	rfc1738 linkcheck [flags] [FILE|DIR|URL ...]   check every link of a document set (§3)
//	rfc1738 browse    [flags] [URL]                a full-screen browser (gopher, ftp, news …)
//	rfc1738 mirror    [flags] URL DIR              a local copy of an ftp tree or a gopher hole
//	rfc1738 url       [--get T] [--set P=V] [URL ...] read and change parts (trurl-style)
//	rfc1738 completion bash|zsh|fish               shell completion
//	rfc1738 man                                    the manual page (roff)
//	rfc1738 version                                the build's version (also --version)
//
// Run "rfc1738 help" for every command. Exit status: 0 success, 1 a
// negative answer (an invalid URL, an error found, not equal), 2 a usage
// error. The commands that fetch (get, mirror, mail, plan, browse) say
// what failed, as wget does: 2 usage or a URL that does not parse or has
// no access method, 3 local file I/O, 4 network failure, 5 TLS, 6
// authentication, 7 protocol error, 8 the server said no, 130 after
// SIGINT and 143 after SIGTERM (see exitstatus.go).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// env is what a command may touch: its streams, and the environment
// variables, so tests can run commands in-process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string // nil: os.Getenv

	// describe, when set, sees each FlagSet a command defines: the
	// completion scripts and the man page read the flags from the
	// commands themselves (see describeCommand).
	describe func(fs *flag.FlagSet)
}

func (e *env) Getenv(key string) string {
	if e.getenv != nil {
		return e.getenv(key)
	}
	return os.Getenv(key)
}

// A command is one subcommand of the CLI. Commands register themselves
// from their own files.
type command struct {
	name    string
	args    string // argument synopsis for usage lines
	short   string // one line for the overview of "rfc1738 help"
	summary string // what --help says
	run     func(e *env, args []string) int
	fetches bool // its exit status says what failed (exitStatuses)
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// Exit statuses.
const (
	exitOK       = 0
	exitNegative = 1 // invalid URL, errors found, not equal; a generic failure
	exitUsage    = 2 // bad flags, unreadable input, unsupported scheme
)

func run(args []string, e *env) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(e, []string{"--help"})
			}
			fmt.Fprintf(e.stderr, "rfc1738 help: unknown command %q\nRun 'rfc1738 help' for the list.\n", args[1])
			return exitUsage
		}
		usage(e.stdout)
		return exitOK
	case "-version", "--version":
		name = "version"
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "rfc1738: unknown command %q\nRun 'rfc1738 help' for the list.\n", name)
		return exitUsage
	}
	return c.run(e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rfc1738 <command> [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "RFC 1738 URLs: exact parsing, checking and access.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'rfc1738 <command> --help' for a command's flags.")
}

// newFlags returns a FlagSet for c. Its Usage, the help that --help
// asks for, prints to e.stdout; a bad flag is reported on e.stderr in the
// short form of usageError.
func newFlags(e *env, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { commandHelp(e.stdout, c, fs) }
	if e.describe != nil {
		e.describe(fs)
	}
	return fs
}

// commandHelp writes the help of c: synopsis, summary and flags.
func commandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: rfc1738 %s %s\n\n%s\n", c.name, c.args, c.summary)
	var any bool
	fs.VisitAll(func(*flag.Flag) { any = true })
	if any {
		fmt.Fprintln(w, "\nflags:")
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	if c.fetches {
		writeExitStatuses(w)
	}
}

// usageError reports a usage error of command cmd in the one short form
// every command uses, an error line and where to find the help, and
// returns exitUsage.
func usageError(e *env, cmd string, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "rfc1738 %s: %s\n", cmd, fmt.Sprintf(format, args...))
	fmt.Fprintf(e.stderr, "Run 'rfc1738 %s --help' for usage.\n", cmd)
	return exitUsage
}

// parseFlags parses args with flags anywhere among the operands (URLs never
// start with "-"; "--" ends the flags). It returns the operands, or
// ok == false with the exit status to use: --help prints the help, and a
// bad flag is one line on stderr (usageError), not the whole help.
func parseFlags(fs *flag.FlagSet, args []string) (operands []string, status int, ok bool) {
	errOut, help := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(errOut); fs.Usage = help }()
	args = splitShortFlags(fs, args)
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return nil, exitOK, false
			}
			return nil, usageError(&env{stderr: errOut}, fs.Name(), "%s", asTyped(err, args)), false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, 0, true
		}
		// fs.Parse stops at the first operand, or after "--".
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(operands, rest...), 0, true
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// splitShortFlags writes a cluster of one-letter switches as curl users
// type it ("-fsSL") as the flags it stands for ("-f", "-s", "-S", "-L"):
// only when no flag has the cluster's name and every letter is a
// boolean flag. The value of a flag that takes one is left as it is;
// "--" ends the flags.
func splitShortFlags(fs *flag.FlagSet, args []string) []string {
	isBool := func(f *flag.Flag) bool {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		name := strings.TrimLeft(a, "-")
		if f := fs.Lookup(name); len(a) < 2 || a[0] != '-' || f != nil || strings.Contains(a, "=") || strings.HasPrefix(a, "--") {
			out = append(out, a)
			if f != nil && !isBool(f) && i+1 < len(args) {
				i++
				out = append(out, args[i]) // the flag's value
			}
			continue
		}
		var split []string
		for _, c := range name {
			f := fs.Lookup(string(c))
			if f == nil || !isBool(f) {
				split = nil
				break
			}
			split = append(split, "-"+string(c))
		}
		if split == nil {
			split = []string{a}
		}
		out = append(out, split...)
	}
	return out
}

// asTyped is the flag package's error as the user typed the flag: it
// writes every flag with one dash ("flag provided but not defined:
// -compressed"), and a flag typed with two is shown with two.
func asTyped(err error, args []string) string {
	msg := err.Error()
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") || name == "" {
			continue
		}
		if one := " -" + name; strings.HasSuffix(msg, one) {
			return strings.TrimSuffix(msg, one) + " --" + name
		} else if k := strings.LastIndex(msg, one+":"); k >= 0 {
			return msg[:k] + " --" + msg[k+2:]
		}
	}
	return msg
}

// lineReader reads one URL per line from r: "\n" or "\r\n" ends a line, and
// lines of any length are read whole.
type lineReader struct {
	r    *bufio.Reader
	line int
	buf  []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64*1024)}
}

// next returns the next line without its end, or io.EOF.
func (lr *lineReader) next() (string, error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.buf = append(lr.buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || len(lr.buf) == 0) {
			return "", err
		}
		lr.line++
		s := strings.TrimSuffix(string(lr.buf), "\n")
		s = strings.TrimSuffix(s, "\r")
		return s, nil
	}
}

// eachInput calls one for each operand or, when there is none, for each
// line of stdin, in order. Before a read from stdin would block, out (when
// not nil) is flushed, so a script that writes a line and waits gets its
// answer at once. It returns exitOK, or exitUsage after saying why stdin
// could not be read.
func eachInput(e *env, cmd string, operands []string, out *bufio.Writer, one func(string)) int {
	if len(operands) > 0 {
		for _, s := range operands {
			one(s)
		}
		return exitOK
	}
	lr := newLineReader(e.stdin)
	for {
		if out != nil && lr.idle() {
			out.Flush()
		}
		line, err := lr.next()
		if err == io.EOF {
			return exitOK
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "rfc1738 %s: reading stdin: %v\n", cmd, errText(err))
			return exitUsage
		}
		one(line)
	}
}

// idle reports whether no input is buffered, so that output should be
// flushed before the next read blocks: a script that writes one line and
// waits for the answer gets it at once, while bulk input is written in
// large blocks.
func (lr *lineReader) idle() bool { return lr.r.Buffered() == 0 }

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// jsonLines returns w buffered and a JSON Lines encoder on the buffer,
// which leaves <, > and & as they are (URLs are full of &). The caller
// flushes.
func jsonLines(w io.Writer) (*bufio.Writer, *json.Encoder) {
	out := bufio.NewWriterSize(w, 64*1024)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return out, enc
}

// libError returns err's text for a command's error line: without the
// "rfc1738: " its own package puts first (the line starts with
// "rfc1738 CMD: " already), and without a file name the line names
// already (an *os.PathError repeats it); through safetext, as errText.
func libError(err error, name string) string {
	var pe *fs.PathError
	if name != "" && errors.As(err, &pe) && pe.Path == name {
		return safetext.Escape(pe.Op + ": " + pe.Err.Error())
	}
	return safetext.Escape(strings.TrimPrefix(err.Error(), "rfc1738: "))
}
