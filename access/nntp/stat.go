package nntp

import (
	"context"
	"strconv"
	"strings"
)

// CodeArticleExists is STAT's success (RFC 3977 §6.2.4: "223 n
// message-id").
const CodeArticleExists = 223

// Stat asks whether article n of the selected group exists, without
// fetching it (RFC 3977 §6.2.4 STAT; RFC 1738 §3.7 nntp://host/group/n
// after Group). It returns the message-id of the 223 reply, with its
// brackets. A missing number is 423, no group selected 412.
func (c *Conn) Stat(ctx context.Context, n int64) (string, error) {
	if n < 1 {
		return "", &ArgumentError{What: "article number", Value: strconv.FormatInt(n, 10), Offset: -1, Reason: "article numbers start at 1"}
	}
	return c.stat(ctx, "STAT "+strconv.FormatInt(n, 10))
}

// StatByID asks whether the article whose Message-ID is id exists (RFC
// 3977 §6.2.4), id given as in a news: URL, without the angle brackets
// (RFC 1738 §3.6). A missing id is 430.
func (c *Conn) StatByID(ctx context.Context, id string) (string, error) {
	if err := checkMessageID(id); err != nil {
		return "", err
	}
	return c.stat(ctx, "STAT <"+id+">")
}

func (c *Conn) stat(ctx context.Context, cmd string) (string, error) {
	disarm, err := c.begin(ctx)
	if err != nil {
		return "", err
	}
	defer disarm()
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		return "", err
	}
	if code != CodeArticleExists {
		return "", c.unexpected(cmd, code, text)
	}
	_, id, _ := strings.Cut(text, " ")
	id, _, _ = strings.Cut(id, " ")
	return id, nil
}
