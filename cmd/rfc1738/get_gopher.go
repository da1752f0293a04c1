package main

import (
	"flag"
	"fmt"
	"strings"
	"sync"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, gopherAccessFlags)
}

// answerList is the repeatable --answer flag.
type answerList []string

func (a *answerList) String() string { return strings.Join(*a, ", ") }

func (a *answerList) Set(s string) error {
	*a = append(*a, s)
	return nil
}

// gopherAccessFlags adds --gopher-unstuff (see access.Gopher.Unstuff)
// and --answer: answers, in order, to the questions a
// fetch asks — the fields of a Gopher+ form (+ASK, RFC 1738 §3.4.5) and the
// search of a type-7 item without one (§3.4.2) — so that they can be
// scripted. Questions beyond the answers go to the terminal, or fail
// clearly when there is none.
func gopherAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	var answers answerList
	fs.Var(&answers, "answer", "answer the next question a gopher form (+ASK, §3.4.5) or a type-7 search asks, instead of prompting; repeatable, in order (an empty `TEXT` takes the default)")
	unstuff := fs.Bool("gopher-unstuff", false, `remove the first dot of gopher text lines starting ".." (RFC 1436 dot-stuffing; most servers send files as stored, so by default they are kept)`)
	return func(e *env, c *access.Client) error {
		if h, ok := c.Handler("gopher").(access.Gopher); ok {
			h.Unstuff = *unstuff
			c.RegisterProtocol("gopher", h)
		}
		if len(answers) == 0 {
			return nil
		}
		ask := terminalPrompt(e)
		var mu sync.Mutex
		next := 0
		c.Prompt = func(question string, secret bool) (string, error) {
			mu.Lock()
			if next < len(answers) {
				a := answers[next]
				next++
				mu.Unlock()
				return a, nil
			}
			mu.Unlock()
			if ask != nil {
				return ask(question, secret)
			}
			return "", fmt.Errorf("no --answer left for %q, and no terminal to ask on", strings.TrimSpace(question))
		}
		return nil
	}
}
