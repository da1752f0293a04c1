package gopher

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// ErrNoPrompt is the cause when a form has questions and nobody can be
// asked.
var ErrNoPrompt = errors.New("the item's form (+ASK, §3.4.5) has questions and nobody can be asked (no Prompt)")

// PromptAnswers returns the FillForm answer function that asks each
// question of qs through prompt, showing the Notes before it: a choice
// with its numbered choices, a Select as y/n, AskL line by line, AskP as
// a secret; every byte of the form is escaped (internal/safetext) before
// prompt sees it. A nil prompt answers every question with ErrNoPrompt.
func PromptAnswers(qs []Question, prompt func(question string, secret bool) (string, error)) func(int, Question) ([]string, error) {
	shown := 0
	return func(i int, q Question) ([]string, error) {
		if prompt == nil {
			return nil, ErrNoPrompt
		}
		var b strings.Builder
		for ; shown < i; shown++ {
			if n := qs[shown]; !n.Answerable() {
				b.WriteString(safetext.Escape(n.Prompt))
				b.WriteString("\n")
			}
		}
		shown = i + 1
		b.WriteString(safetext.Escape(q.Prompt))
		defs := make([]string, len(q.Defaults))
		for k, v := range q.Defaults {
			defs[k] = safetext.Escape(v)
		}
		switch q.Kind {
		case "Choose", "ChooseF":
			if len(q.Defaults) == 0 {
				return nil, fmt.Errorf("a %s question without choices", q.Kind)
			}
			for k, v := range defs {
				fmt.Fprintf(&b, " (%d) %s", k+1, v)
			}
			fmt.Fprintf(&b, " [%s]: ", defs[0])
			a, err := prompt(b.String(), false)
			if err != nil || a == "" {
				return nil, err
			}
			for _, v := range q.Defaults {
				if a == v {
					return []string{v}, nil
				}
			}
			if n, err := strconv.Atoi(a); err == nil && n >= 1 && n <= len(q.Defaults) {
				return []string{q.Defaults[n-1]}, nil
			}
			return nil, fmt.Errorf("%q is not one of the choices %q", a, q.Defaults)
		case "Select":
			// Gopher+: a check box, answered "1" (on) or "0" (off).
			def := "0"
			if len(q.Defaults) > 0 && strings.TrimSpace(q.Defaults[0]) == "1" {
				def = "1"
			}
			fmt.Fprintf(&b, " (y/n) [%s]: ", map[string]string{"0": "n", "1": "y"}[def])
			a, err := prompt(b.String(), false)
			if err != nil {
				return nil, err
			}
			switch strings.ToLower(strings.TrimSpace(a)) {
			case "":
				return []string{def}, nil
			case "y", "yes", "1", "on", "true":
				return []string{"1"}, nil
			case "n", "no", "0", "off", "false":
				return []string{"0"}, nil
			}
			return nil, fmt.Errorf("%q is not y or n", a)
		case "AskL":
			// Lines until an empty one; an answer holding line breaks is
			// the whole text at once.
			b.WriteString(" (lines; an empty line ends): ")
			var lines []string
			for {
				a, err := prompt(b.String(), false)
				if err != nil {
					return nil, err
				}
				if strings.Contains(a, "\n") {
					return append(lines, strings.Split(strings.TrimSuffix(strings.ReplaceAll(a, "\r\n", "\n"), "\n"), "\n")...), nil
				}
				if a == "" {
					return lines, nil
				}
				lines = append(lines, a)
			}
		}
		// Ask, AskP (a password: not echoed), AskF and kinds this client
		// does not know: one line, empty meaning the default.
		if len(defs) > 0 && defs[0] != "" && q.Kind != "AskP" {
			fmt.Fprintf(&b, " [%s]", defs[0])
		}
		b.WriteString(": ")
		a, err := prompt(b.String(), q.Kind == "AskP")
		if err != nil || a == "" {
			return nil, err
		}
		return []string{a}, nil
	}
}

// Ask runs the form exchange of RFC 1738 §3.4.5 for req, an item with a
// form: it fetches the item's attributes ("!"; pygopherd ignores
// "!+ASK"), asks the questions of their +ASK block through prompt (see
// PromptAnswers), and sends req with the filled form as its Gopher+
// string (§3.4.9) on a second connection, returning that reply. check,
// when not nil, sees each request before it is sent, and its error is
// returned as it is: a caller that planned the requests refuses one it
// did not plan.
func (c *Client) Ask(ctx context.Context, addr string, req Request, prompt func(question string, secret bool) (string, error), check func(Request) error) (*Response, error) {
	if check == nil {
		check = func(Request) error { return nil }
	}
	attr := req
	attr.Plus, attr.HasPlus = "!", true
	if err := check(attr); err != nil {
		return nil, err
	}
	resp, err := c.Fetch(ctx, addr, attr)
	if err != nil {
		return nil, err
	}
	if !resp.Plus {
		resp.Body.Close()
		return nil, fmt.Errorf("fetch the +ASK form: %w", ErrNotGopherPlus)
	}
	blocks, err := resp.Attributes()
	if err != nil {
		return nil, fmt.Errorf("fetch the +ASK form: %w", err)
	}
	block, ok := Find(blocks, "ASK")
	if !ok {
		return nil, errors.New("the item's attributes have no +ASK block: it has no form to fill (§3.4.5)")
	}
	qs, err := block.Questions()
	if err != nil {
		return nil, err
	}
	form, err := FillForm(qs, PromptAnswers(qs, prompt))
	if err != nil {
		return nil, err
	}
	req.Plus, req.HasPlus = form, true
	if err := check(req); err != nil {
		return nil, err
	}
	return c.Fetch(ctx, addr, req)
}
