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
	"github.com/rfc1738/rfc1738/internal/safetext"
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
		if v := e.Getenv("NNTPSERVER"); v != "" {
			setNews(c, func(n *access.News) {
				if n.Server == "" {
					n.Server = v
				}
			})
		}
		return nil
	}
}

// setNews changes the settings of the client's news and nntp handler
// (§3.6, §3.7).
func setNews(c *access.Client, f func(*access.News)) {
	n, _ := c.Handler("news").(access.News)
	f(&n)
	c.RegisterProtocol("news", n)
	c.RegisterProtocol("nntp", n)
}

// setHTTP changes the settings of the client's http and https handler
// (§3.3).
func setHTTP(c *access.Client, f func(*access.HTTP)) {
	h := c.HTTPSettings()
	f(&h)
	c.SetHTTP(h)
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

// parseOneURL parses the single URL operand of plan and mail, printing
// the errors with a caret when it is invalid (exit status 2).
func parseOneURL(e *env, cmd string, operands []string) (rfc1738.URL, int, bool) {
	if len(operands) != 1 {
		return rfc1738.URL{}, usageError(e, cmd, "want exactly one URL, got %d", len(operands)), false
	}
	return parseURL(e, cmd, operands[0], true, false)
}

// parseURL parses one URL operand. Unless strict, the URL is read as
// browsers and curl read it (rfc1738.Read): an IPv6 literal, an
// international name (sent as its A-label), a search with no path, octets
// §2.2 calls unsafe (sent encoded); each departure from RFC 1738 is a
// warning naming the RFC that allows the form, unless quiet. A URL that
// nothing reads, or any departure under strict, is reported with carets
// and the real cause, and the status is exitUsage.
func parseURL(e *env, cmd, raw string, strict, quiet bool) (rfc1738.URL, int, bool) {
	read, deps, readErr := rfc1738.Read(raw)
	if !strict && readErr == nil {
		if len(deps) > 0 && !quiet {
			writeDepartures(e.stderr, cmd, raw, read, deps)
		}
		return read, exitOK, true
	}
	r := rfc1738.Check(raw)
	if !r.Valid() {
		fmt.Fprintf(e.stderr, "rfc1738 %s: %s is not a valid RFC 1738 URL\n", cmd, quoteURL(raw))
		if access.Redact(raw) == raw {
			writeCarets(e.stderr, raw, "error", r.Errors, r.MoreErrors)
		} else {
			// The caret would show the password; name the offset only.
			writeOffsets(e.stderr, "error", r.Errors, r.MoreErrors)
		}
		writeCauses(e.stderr, raw, deps, readErr)
		return rfc1738.URL{}, exitUsage, false
	}
	var re *rfc1738.Error
	if !strict && errors.As(readErr, &re) {
		// Valid by §5, yet nothing can read it (ftp://h:99999/).
		fmt.Fprintf(e.stderr, "rfc1738 %s: %s is not a URL anything can read\n", cmd, quoteURL(raw))
		d := re.Diagnostic()
		if access.Redact(raw) == raw {
			writeCarets(e.stderr, raw, "error", []rfc1738.Diagnostic{d}, 0)
		} else {
			writeOffsets(e.stderr, "error", []rfc1738.Diagnostic{d}, 0)
		}
		return rfc1738.URL{}, exitUsage, false
	}
	if !r.URL.HasAuthority() && strings.Contains(raw, "://") && readErr == nil && len(deps) > 0 {
		// https://h?q is a valid genericurl with no host (§5): name why.
		fmt.Fprintf(e.stderr, "rfc1738 %s: %s has no host by RFC 1738 (§5 genericurl reads it as opaque)\n", cmd, quoteURL(raw))
		writeCauses(e.stderr, raw, deps, nil)
		return rfc1738.URL{}, exitUsage, false
	}
	return r.URL, exitOK, true
}

// writeDepartures prints each departure of a URL read from raw once, as a
// warning naming the form, the RFC that allows it and what RFC 1738 wants,
// then the URL acted on.
func writeDepartures(w io.Writer, cmd, raw string, read rfc1738.URL, deps []rfc1738.Departure) {
	carets := access.Redact(raw) == raw // a caret line would show the password
	for i, d := range deps {
		if i == maxShownDiagnostics {
			fmt.Fprintf(w, "  and %d more warning(s)\n", len(deps)-i)
			break
		}
		fmt.Fprintf(w, "rfc1738 %s: warning: %s: %s\n", cmd, quoteURL(raw), safetext.Escape(redactIn(read, d.String())))
		if carets {
			shown, col := window(raw, d.Offset)
			fmt.Fprintf(w, "  %s\n  %s^\n", shown, strings.Repeat(" ", col))
		}
	}
	fmt.Fprintf(w, "  taken as %s (--strict refuses it)\n", shownURL(read.String()))
}

// writeCauses names the real cause of a refusal under --strict (an IPv6
// literal, an international name, a search with no path), or what nothing
// reads.
func writeCauses(w io.Writer, raw string, deps []rfc1738.Departure, readErr error) {
	if access.Redact(raw) != raw {
		return // a cause may quote the login
	}
	for _, d := range deps {
		if d.Refusal != "" {
			fmt.Fprintf(w, "  cause: %s\n", safetext.Escape(d.Refusal))
		}
	}
	var re *rfc1738.Error
	if errors.As(readErr, &re) {
		fmt.Fprintf(w, "  cause: %s: %s (nothing reads it)\n", re.Rule, safetext.Escape(re.Message()))
	}
}

// errText is an error as a message shows it: through safetext, since
// the text of many errors holds what a server sent. (Go 1.26.1 and later
// quote a reply's text in net/textproto's errors; 1.26.0, which go.mod
// allows, passes it as received.)
func errText(err error) string { return safetext.Escape(err.Error()) }

// redactIn hides the password of u wherever it is quoted in msg.
func redactIn(u rfc1738.URL, msg string) string {
	if pw, ok := u.RawPassword(); ok && pw != "" {
		return strings.ReplaceAll(msg, ":"+pw+"@", ":****@")
	}
	return msg
}

// quoteURL shows a URL operand in a message: password redacted, quoted
// when short, a window of it when long.
func quoteURL(raw string) string {
	redacted := access.Redact(raw)
	shown, _ := window(redacted, 0)
	if len(redacted) <= windowAfter {
		shown = strconv.Quote(redacted)
	}
	return shown
}

// writeOffsets lists diagnostics by offset, for a URL whose caret line
// would show its password.
func writeOffsets(w io.Writer, severity string, ds []rfc1738.Diagnostic, more int) {
	for i, d := range ds {
		if i == maxShownDiagnostics {
			more += len(ds) - i
			break
		}
		fmt.Fprintf(w, "  %s at offset %d: %s: %s\n", severity, d.Offset, d.Rule, d.Message)
	}
	if more > 0 {
		fmt.Fprintf(w, "  and %d more %s(s)\n", more, severity)
	}
}

// inCLITerms rewrites what a library error suggests in the terms of the
// command line: a §6 port refusal names the flag that lifts it.
func inCLITerms(err error) error {
	var ge *access.GuardError
	if errors.As(err, &ge) && ge.Rule == "port" && ge.Port > 0 {
		ge.Hint = fmt.Sprintf("give --allow-port %d to go on", ge.Port)
	}
	return err
}
