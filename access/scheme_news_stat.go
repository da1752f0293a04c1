package access

import (
	"context"
	"fmt"
	"strconv"

	"github.com/rfc1738/rfc1738/access/nntp"
)

// Stat implements Stater with the plan's GROUP and, in place of ARTICLE,
// STAT (RFC 3977 §6.2.4), which proves an article without fetching it;
// a group is proved by GROUP, and news:* by the server answering.
func (h News) Stat(ctx context.Context, c *Client, p *Plan) (*Info, error) {
	conn, err := nntp.Dial(ctx, p.Connect, nntp.Config{Username: h.User, Password: h.Password, Trace: c.tracer()})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.URL, err)
	}
	defer conn.Close()
	// news: URLs name the reader's own server (§3.6): say which.
	on := ""
	if p.Parsed.Scheme() == "news" {
		on = " on " + h.Server
	}
	var group *nntp.GroupInfo
	for _, s := range p.Steps {
		switch s.Verb {
		case "LIST":
			return &Info{Kind: KindDirectory, Size: -1, Detail: h.Server + " answers"}, nil
		case "GROUP":
			g, err := conn.Group(ctx, s.Arg)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.URL, err)
			}
			group = &g
		case "ARTICLE":
			if id, ok := cutBrackets(s.Arg); ok {
				if _, err := conn.StatByID(ctx, id); err != nil {
					return nil, fmt.Errorf("%s: %w", p.URL, err)
				}
				return &Info{Kind: KindArticle, Size: -1, Detail: "article exists" + on}, nil
			}
			n, err := strconv.ParseInt(s.Arg, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s: ARTICLE %q: not a number or a <message-id>", p.URL, s.Arg)
			}
			if _, err := conn.Stat(ctx, n); err != nil {
				return nil, fmt.Errorf("%s: %w", p.URL, err)
			}
			return &Info{Kind: KindArticle, Size: -1, Detail: fmt.Sprintf("article %d exists", n)}, nil
		}
	}
	if group == nil {
		return nil, fmt.Errorf("%s: the plan names no group, article or listing", p.URL)
	}
	return &Info{Kind: KindGroup, Size: -1, Detail: fmt.Sprintf("group, %d articles%s", group.Count, on)}, nil
}

// cutBrackets returns the message-id of an ARTICLE argument "<id>".
func cutBrackets(arg string) (string, bool) {
	if len(arg) < 2 || arg[0] != '<' || arg[len(arg)-1] != '>' {
		return "", false
	}
	return arg[1 : len(arg)-1], true
}
