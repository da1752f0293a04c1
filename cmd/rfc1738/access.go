package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// accessFlagHooks add the flags that configure the access client, shared
// by plan and get. A scheme's CLI file appends its own in an init
// function: the hook defines flags on fs and returns a function that
// applies their values to the client once the flags are parsed.
var accessFlagHooks = []func(fs *flag.FlagSet) func(e *env, c *access.Client) error{
	commonAccessFlags,
}

// portList is a repeatable, comma-separated list of ports.
type portList []int

func (p *portList) String() string { return fmt.Sprint([]int(*p)) }

func (p *portList) Set(s string) error {
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("%q is not a TCP port", f)
		}
		*p = append(*p, n)
	}
	return nil
}

func commonAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	email := fs.String("email", "", "e-mail address sent as the anonymous FTP password (§3.2.1; default $EMAIL, else user@host)")
	var allow portList
	fs.Var(&allow, "allow-port", "let a URL use this port although another line protocol owns it (§6); repeatable, or comma-separated")
	anyPort := fs.Bool("any-port", false, "turn the §6 port guard off")
	showPassword := fs.Bool("show-password", false, "let advice print a password the URL suggests (telnet, §3.8)")
	return func(e *env, c *access.Client) error {
		if *email != "" {
			c.Email = *email
		} else if v := e.Getenv("EMAIL"); v != "" {
			c.Email = v
		}
		c.AllowPorts = append(c.AllowPorts, allow...)
		c.AllowAnyPort = *anyPort
		c.ShowPassword = *showPassword
		if v := e.Getenv("NNTPSERVER"); v != "" && c.NNTPServer == "" {
			c.NNTPServer = v
		}
		return nil
	}
}

// accessSetup defines the access flags on fs and returns a function that
// builds the client after fs is parsed.
func accessSetup(fs *flag.FlagSet) func(e *env) (*access.Client, error) {
	apply := make([]func(*env, *access.Client) error, len(accessFlagHooks))
	for i, h := range accessFlagHooks {
		apply[i] = h(fs)
	}
	return func(e *env) (*access.Client, error) {
		c := access.NewClient()
		for _, a := range apply {
			if err := a(e, c); err != nil {
				return nil, err
			}
		}
		if c.Prompt == nil { // a scheme's hook (gopher --answer) may have set one
			c.Prompt = terminalPrompt(e)
		}
		if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			if g, ok := e.stdout.(*os.File); ok && term.IsTerminal(int(g.Fd())) {
				c.Stdin, c.Stdout = f, g
			}
		}
		return c, nil
	}
}

// terminalPrompt returns a Prompt that asks on the terminal, without echo
// for secrets, or nil when stdin is not a terminal (§3.2.1: ask the user,
// or fail clearly when nobody can be asked).
func terminalPrompt(e *env) func(string, bool) (string, error) {
	f, ok := e.stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	var mu sync.Mutex
	var lines *bufio.Reader
	return func(question string, secret bool) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprint(e.stderr, question)
		if secret {
			b, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(e.stderr)
			return string(b), err
		}
		if lines == nil {
			lines = bufio.NewReader(f)
		}
		s, err := lines.ReadString('\n')
		if err != nil && (err != io.EOF || s == "") {
			return "", err
		}
		return strings.TrimRight(s, "\r\n"), nil
	}
}

// parseOneURL parses the single URL operand of plan and get, printing the
// errors with a caret when it is invalid.
func parseOneURL(e *env, cmd string, operands []string) (rfc1738.URL, int, bool) {
	if len(operands) != 1 {
		fmt.Fprintf(e.stderr, "rfc1738 %s: want exactly one URL, got %d\n", cmd, len(operands))
		return rfc1738.URL{}, exitUsage, false
	}
	r := rfc1738.Check(operands[0])
	if !r.Valid() {
		redacted := access.Redact(operands[0])
		shown, _ := window(redacted, 0)
		if len(redacted) <= windowAfter {
			shown = strconv.Quote(redacted)
		}
		fmt.Fprintf(e.stderr, "rfc1738 %s: %s is not a valid RFC 1738 URL\n", cmd, shown)
		if redacted == operands[0] {
			writeCarets(e.stderr, operands[0], "error", r.Errors, r.MoreErrors)
			return rfc1738.URL{}, exitNegative, false
		}
		// The caret would show the password; name the offset only.
		more := r.MoreErrors
		for i, d := range r.Errors {
			if i == maxShownDiagnostics {
				more += len(r.Errors) - i
				break
			}
			fmt.Fprintf(e.stderr, "  error at offset %d: %s: %s\n", d.Offset, d.Rule, d.Message)
		}
		if more > 0 {
			fmt.Fprintf(e.stderr, "  and %d more error(s)\n", more)
		}
		return rfc1738.URL{}, exitNegative, false
	}
	return r.URL, exitOK, true
}

// failStatus maps an access error to an exit status: 2 when no handler
// serves the URL, else 1.
func failStatus(err error) int {
	if errors.Is(err, access.ErrUnsupported) {
		return exitUsage
	}
	return exitNegative
}
