package linkcheck

import (
	"context"
	"strconv"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/nntp"
)

func (k *Checker) nntpConfig() nntp.Config {
	return nntp.Config{Username: k.Client.NNTPUser, Password: k.Client.NNTPPassword, Trace: k.Client.Trace}
}

// checkNews checks a news URL (§3.6) on the configured server (check
// skips it when there is none): STAT
// <message-id> for an article, GROUP for a group; news:* only needs the
// server to answer.
func (k *Checker) checkNews(ctx context.Context, u rfc1738.URL) outcome {
	n, _ := u.News()
	c, err := nntp.Dial(ctx, k.Client.NNTPServer, k.nntpConfig())
	if err != nil {
		return broken(err)
	}
	defer c.Close()
	switch {
	case n.MessageID != "":
		if _, err := c.StatByID(ctx, n.MessageID); err != nil {
			return broken(err)
		}
		return okay("article exists on %s", k.Client.NNTPServer)
	case n.All():
		return okay("%s answers", k.Client.NNTPServer)
	}
	g, err := c.Group(ctx, n.Group)
	if err != nil {
		return broken(err)
	}
	return okay("group, %d articles on %s", g.Count, k.Client.NNTPServer)
}

// checkNNTP checks an nntp URL (§3.7): GROUP, then STAT n.
func (k *Checker) checkNNTP(ctx context.Context, u rfc1738.URL) outcome {
	n, _ := u.NNTP()
	c, err := nntp.Dial(ctx, u.HostPort(), k.nntpConfig())
	if err != nil {
		return broken(err)
	}
	defer c.Close()
	g, err := c.Group(ctx, n.Group)
	if err != nil {
		return broken(err)
	}
	if !n.HasArticle {
		return okay("group, %d articles", g.Count)
	}
	num, err := strconv.ParseInt(n.Article, 10, 64)
	if err != nil {
		return outcome{status: Invalid, detail: "article number " + strconv.Quote(n.Article) + " out of range"}
	}
	if _, err := c.Stat(ctx, num); err != nil {
		return broken(err)
	}
	return okay("article %d exists", num)
}
