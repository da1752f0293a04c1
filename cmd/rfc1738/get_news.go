package main

import (
	"flag"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, newsAccessFlags)
}

// newsAccessFlags adds the flags of the news: and nntp: access methods
// (RFC 1738 §3.6, §3.7): the server news: URLs go to, and the AUTHINFO
// credentials (RFC 4643), which come from here or the environment and
// never from a URL.
func newsAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	server := fs.String("nntp-server", "", "news server for news: URLs (§3.6), `host[:port]` (port 119 by default; default $NNTPSERVER)")
	user := fs.String("nntp-user", "", "user name for AUTHINFO, sent only if the news server demands it (RFC 4643; default $NNTPUSER)")
	password := fs.String("nntp-password", "", "password for AUTHINFO (default $NNTPPASS; the environment keeps it out of the process list)")
	return func(e *env, c *access.Client) error {
		setNews(c, func(n *access.News) {
			// The flag, then $NNTPSERVER, as lynx and tin read it.
			n.Server = *server
			if n.Server == "" {
				n.Server = e.Getenv("NNTPSERVER")
			}
			n.User = *user
			if n.User == "" {
				n.User = e.Getenv("NNTPUSER")
			}
			n.Password = *password
			if n.Password == "" {
				n.Password = e.Getenv("NNTPPASS")
			}
		})
		return nil
	}
}
