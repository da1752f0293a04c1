package main

import (
	"encoding/json"
	"fmt"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

func init() {
	register(&command{
		name:    "plan",
		short:   "print the protocol lines get would send",
		args:    "[--json] [flags] URL",
		summary: "Print the protocol lines that fetching URL sends, exactly as sent (a dry run of get); secrets and run-time values show as <…>.",
		run:     runPlan,
		fetches: true,
	})
}

// jsonPlan is the object of "rfc1738 plan --json".
type jsonPlan struct {
	URL      string   `json:"url"`
	Scheme   string   `json:"scheme"`
	Connect  *string  `json:"connect"`
	Steps    []string `json:"steps"`
	Warnings []string `json:"warnings"`
	Notes    []string `json:"notes"`
}

func runPlan(e *env, args []string) int {
	fs := newFlags(e, commands["plan"])
	asJSON := fs.Bool("json", false, "write one JSON object")
	strict := fs.Bool("strict", false, "refuse a URL that breaks §2.2 only by unencoded octets, as get --strict does")
	applyNetrc := netrcFlags(fs)
	proxy := proxyFlags(fs)
	setup := accessSetup(fs)
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(operands) != 1 {
		return usageError(e, "plan", "want exactly one URL, got %d", len(operands))
	}
	u, status, ok := parseURL(e, "plan", operands[0], *strict, false)
	if !ok {
		return status
	}
	c, err := setup(e)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 plan:", errText(err))
		return exitUsage
	}
	if err := applyNetrc(e, c); err != nil {
		return usageError(e, "plan", "%v", err)
	}
	proxy.apply(c)
	p, err := c.Plan(u)
	if err != nil {
		fmt.Fprintln(e.stderr, "rfc1738 plan:", errText(inCLITerms(err)))
		return exitStatus(err)
	}
	if *asJSON {
		j := jsonPlan{URL: p.URL, Scheme: p.Scheme, Connect: opt(p.Connect, p.Connect != ""),
			Steps: p.Lines(), Warnings: p.Warnings, Notes: p.Notes}
		for _, l := range []*[]string{&j.Steps, &j.Warnings, &j.Notes} {
			if *l == nil {
				*l = []string{}
			}
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(j); err != nil {
			fmt.Fprintln(e.stderr, "rfc1738 plan:", errText(err))
			return exitUsage
		}
		return exitOK
	}
	writePlan(e, p)
	return exitOK
}

// writePlan prints the plan for people: the steps on stdout, one protocol
// line a line, and where to connect, warnings and notes on stderr as
// comments, so that stdout is exactly the conversation. A line holds
// decoded URL parts: control bytes (but TAB) are shown as Go escapes by
// safetext, so that a URL cannot drive the terminal; --json gives them
// exactly.
func writePlan(e *env, p *access.Plan) {
	if p.Connect != "" {
		fmt.Fprintf(e.stderr, "# connect %s\n", safetext.Escape(p.Connect))
	}
	for _, w := range p.Warnings {
		fmt.Fprintf(e.stderr, "# warning: %s\n", safetext.Escape(w))
	}
	for _, n := range p.Notes {
		fmt.Fprintf(e.stderr, "# note: %s\n", safetext.Escape(n))
	}
	for _, l := range p.Lines() {
		fmt.Fprintln(e.stdout, safetext.Line(l))
	}
}
