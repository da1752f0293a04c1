package rfc1738

// The url-paths of the schemes of §3.2–§3.11 after their login.

import "strings"

// nntpPath checks the part of an nntp URL after its hostport (§3.7).
func (p *parser) nntpPath(hasSlash bool, path, end int, rule string) {
	s := p.s
	// §5: nntpurl = "nntp://" hostport "/" group [ "/" digits ]
	if !hasSlash {
		p.fail(end, rule, "an nntp URL needs '/' and a newsgroup name (§3.7)")
		return
	}
	slash := indexByte(s, path, end, '/')
	if !p.group(path, slash) {
		return
	}
	if slash != end { // indexByte: end when there is none
		if slash+1 == end {
			p.fail(end, "digits", "an article number must follow the '/' after the group (§3.7)")
			return
		}
		for i := slash + 1; i < end; i++ {
			if classes[s[i]]&classDigit == 0 && p.fail(i, "digits", "an article number has only digits (§3.7)") {
				return
			}
		}
	}
}

// waisPath checks the part of a wais URL after its hostport (§3.9).
func (p *parser) waisPath(hasSlash bool, path, end int, rule string) {
	s := p.s
	// §5: waisdatabase = "wais://" hostport "/" database
	//     waisindex    = "wais://" hostport "/" database "?" search
	//     waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
	if !hasSlash {
		p.fail(end, rule, "a wais URL needs '/' and a database name (§3.9)")
		return
	}
	i := path
	for i < end && s[i] != '/' && s[i] != '?' {
		i++
	}
	if !p.scan(path, i, ucharOctets, "database") || i == end {
		return
	}
	if s[i] == '?' {
		p.scan(i+1, end, hsegmentOctets, "search")
		return
	}
	t := indexByte(s, i+1, end, '/')
	if t == end {
		p.fail(end, "waisdoc", "a wais document URL is database/wtype/wpath: the '/' before wpath is missing (§3.9)")
		return
	}
	if p.scan(i+1, t, ucharOctets, "wtype") {
		p.scan(t+1, end, ucharOctets, "wpath")
	}
}

// prosperoPath checks the part of a prospero URL after its hostport
// (§3.11).
func (p *parser) prosperoPath(hasSlash bool, path, end int, rule string) {
	s := p.s
	// §5: prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
	//     fieldspec   = ";" fieldname "=" fieldvalue
	if !hasSlash {
		p.fail(end, rule, "a prospero URL needs '/' and an hsoname (§3.11)")
		return
	}
	semi := indexByte(s, path, end, ';')
	if !p.scan(path, semi, fpathOctets, "psegment") {
		return
	}
	for semi < end {
		next := indexByte(s, semi+1, end, ';')
		eq := indexByte(s, semi+1, next, '=')
		if eq == next {
			if p.fail(next, "fieldspec", "a prospero field is ;name=value: '=' is missing (§3.11)") {
				return
			}
		} else if !p.scan(semi+1, eq, fieldOctets, "fieldname") || !p.scan(eq+1, next, fieldOctets, "fieldvalue") {
			return
		}
		semi = next
	}
}

// fpath checks §5 fpath = fsegment *[ "/" fsegment ], followed in ftp URLs by
// an optional ";type=" ftptype (§3.2.2). Within a segment ";" and "/" are
// reserved.
func (p *parser) fpath(i, end int, ftp bool) {
	s := p.s
	if span(s, i, end, fpathOctets) == end {
		return // no ';' and nothing to report: the common case, in one pass
	}
	semi := indexByte(s, i, end, ';')
	if !p.scan(i, semi, fpathOctets, "fsegment") || semi == end {
		return
	}
	if ftp && strings.HasPrefix(s[semi:end], ";type=") {
		t := semi + len(";type=")
		if t == end {
			p.fail(t, "ftptype", "the typecode after ';type=' is missing: one of a, i, d (§3.2.2)")
			return
		}
		switch s[t] {
		case 'a', 'i', 'd', 'A', 'I', 'D':
		default:
			if p.fail(t, "ftptype", "the typecode is one of a, i, d (§3.2.2)") {
				return
			}
		}
		if t+1 < end {
			p.fail(t+1, "ftpurl", "nothing may follow ';type=' and its typecode (§3.2.2)")
		}
		return
	}
	msg := "';' is reserved in a path segment and must be encoded as %3B (§3.2.2)"
	if ftp {
		msg = "';' is reserved in an ftp path: encode it as %3B, or write ';type=' and a typecode (§3.2.2)"
	}
	if p.fail(semi, "fsegment", msg) {
		return
	}
	p.scan(semi+1, end, fpathOctets, "fsegment")
}

// news checks §5 newsurl = "news:" grouppart; grouppart = "*" | group | article.
func (p *parser) news(i, end int) {
	// The conditions are an if chain, not switch cases: coverage tools
	// count a case's condition as run only through its body.
	s := p.s
	if i == end {
		p.fail(i, "grouppart", "a news URL names a group, a message-id or '*' (§3.6)")
		return
	}
	if end-i == 1 && s[i] == '*' {
		return // §3.6: news:* refers to all available news groups.
	}
	at := indexByte(s, i, end, '@')
	if at == end {
		p.group(i, end)
		return
	}
	// §3.6: a message-id is told from a group by its "@".
	// article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
	if at == i {
		p.fail(i, "article", "a message-id has a unique part before '@' (§3.6)")
		return
	}
	if p.scan(i, at, articleOctets, "article") {
		p.host(at+1, end)
	}
}

// group checks §5 group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ].
func (p *parser) group(i, end int) bool {
	s := p.s
	if i == end {
		return !p.fail(i, "group", "the newsgroup name is empty (§3.6)")
	}
	if classes[s[i]]&classAlpha == 0 && p.fail(i, "group", "a newsgroup name starts with a letter (§5 group)") {
		return false
	}
	for j := i + 1; j < end; j++ {
		if charsets[s[j]]&setGroup == 0 && p.failByte(j, "group") {
			return false
		}
	}
	return true
}
