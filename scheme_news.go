package rfc1738

import "strings"

// News is the view of a news URL (§3.6): a newsgroup, a message-id, or "*"
// for all available groups. News URLs are location-independent: the
// reader's own news server resolves them.
type News struct {
	Group     string // a newsgroup name, or "*"; "" for a message-id
	MessageID string // without "<" and ">"; "" for a group
}

// News returns the news view of u, and false when u is not a news URL.
func (u URL) News() (News, bool) {
	if u.kind != KindNews {
		return News{}, false
	}
	part, _ := u.Opaque()
	// §3.6: a message-id is told from a group name by its "@".
	if strings.IndexByte(part, '@') >= 0 {
		return News{MessageID: unescape(part)}, true
	}
	return News{Group: part}, true
}

// All reports whether the URL is news:*, "all available news groups".
func (n News) All() bool { return n.Group == "*" }

// NNTP is the view of an nntp URL (§3.7): a group on a given server and
// optionally an article number within it.
type NNTP struct {
	Group      string
	Article    string // the digits of the article number, as written
	HasArticle bool
}

// NNTP returns the nntp view of u, and false when u is not an nntp URL.
func (u URL) NNTP() (NNTP, bool) {
	if u.kind != KindNNTP {
		return NNTP{}, false
	}
	path, _ := u.Path()
	var n NNTP
	n.Group = path
	if i := strings.IndexByte(path, '/'); i >= 0 {
		n.Group, n.Article, n.HasArticle = path[:i], path[i+1:], true
	}
	return n, true
}
