package nntp

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/rfc1738/rfc1738/internal/safetext"
)

// NewsURL returns the news: URL of an article (RFC 1738 §3.6): the
// Message-ID without its angle brackets, escaped to fit the §5 production
//
//	article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
//
// The part before the last "@" keeps uchar (alpha, digit, safe, extra) and
// ";/?:&=" and %-encodes every other byte, "%" and "@" included; the part
// after it keeps what a host name may hold (alpha, digit, "-", ".").
func NewsURL(messageID string) string {
	id := strings.TrimSuffix(strings.TrimPrefix(messageID, "<"), ">")
	var b strings.Builder
	b.WriteString("news:")
	at := strings.LastIndexByte(id, '@')
	if at < 0 {
		escapeInto(&b, id, &articleChars)
		return b.String()
	}
	escapeInto(&b, id[:at], &articleChars)
	b.WriteByte('@')
	escapeInto(&b, id[at+1:], &hostChars)
	return b.String()
}

// NNTPURL returns nntp://host[:port]/group[/number] (RFC 1738 §3.7 and the
// §5 nntpurl production); the port is left out when it is 119 or 0, the
// number when it is 0. A group name is escaped beyond the §5 group
// production, which allows no escapes, so a name outside it gives a URL a
// strict parser will refuse rather than one that means something else.
func NNTPURL(host string, port int, group string, number int64) string {
	var b strings.Builder
	b.WriteString("nntp://")
	writeHostPort(&b, host, port)
	b.WriteByte('/')
	escapeInto(&b, group, &groupChars)
	if number > 0 {
		b.WriteByte('/')
		b.WriteString(strconv.FormatInt(number, 10))
	}
	return b.String()
}

// NewsGroupURL returns news:group (RFC 1738 §3.6), escaped as in NNTPURL.
func NewsGroupURL(group string) string {
	var b strings.Builder
	b.WriteString("news:")
	escapeInto(&b, group, &groupChars)
	return b.String()
}

// WriteGroupListing writes one block per overview line: the article
// number and subject, then From, Date, Message-ID, the news: URL of the
// article and its nntp://host[:port]/group/N URL. Text from the server is
// printed with control characters escaped (internal/safetext), so a
// hostile subject cannot drive the terminal.
func WriteGroupListing(w io.Writer, lines []OverviewLine, host string, port int) error {
	bw := bufio.NewWriter(w)
	for i, ov := range lines {
		if i > 0 {
			bw.WriteByte('\n')
		}
		bw.WriteString(strconv.FormatInt(ov.Number, 10))
		bw.WriteString("  ")
		bw.WriteString(printable(ov.Subject))
		field(bw, "From", printable(ov.From))
		field(bw, "Date", printable(ov.Date))
		field(bw, "Message-ID", printable(ov.MessageID))
		field(bw, "URL", NewsURL(ov.MessageID))
		if ov.Group != "" {
			field(bw, "URL", NNTPURL(host, port, ov.Group, ov.Number))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func field(bw *bufio.Writer, name, value string) {
	bw.WriteString("\n    ")
	bw.WriteString(name)
	bw.WriteString(":")
	bw.WriteString(strings.Repeat(" ", 12-len(name)))
	bw.WriteString(value)
}

// WriteActiveListing writes the listing for news:* (RFC 1738 §3.6 "all
// available news groups"): one row per group with the estimated article
// count (high-low+1, as RFC 3977 §6.1.1 permits for an estimate), the
// low and high numbers, the status flag, and the group's news: and nntp:
// URLs.
func WriteActiveListing(w io.Writer, groups []ActiveGroup, host string, port int) error {
	return WriteActivePage(w, groups, host, port, true)
}

// WriteActivePage writes one page of a news:* listing that is rendered as
// it streams: the rows of groups, aligned among themselves, after the
// column headings when header is set (the first page).
func WriteActivePage(w io.Writer, groups []ActiveGroup, host string, port int, header bool) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	if header {
		io.WriteString(tw, "GROUP\tARTICLES\tLOW\tHIGH\tSTATUS\tNEWS URL\tNNTP URL\n")
	}
	for _, g := range groups {
		count := int64(0)
		if g.High >= g.Low {
			count = g.High - g.Low + 1
		}
		io.WriteString(tw, printable(g.Name)+"\t"+
			strconv.FormatInt(count, 10)+"\t"+
			strconv.FormatInt(g.Low, 10)+"\t"+
			strconv.FormatInt(g.High, 10)+"\t"+
			printable(g.Status)+"\t"+
			NewsGroupURL(g.Name)+"\t"+
			NNTPURL(host, port, g.Name, 0)+"\n")
	}
	return tw.Flush()
}

func writeHostPort(b *strings.Builder, host string, port int) {
	if strings.IndexByte(host, ':') >= 0 {
		// An IPv6 literal; RFC 1738 predates them, RFC 3986 brackets them.
		b.WriteString("[" + host + "]")
	} else {
		b.WriteString(host)
	}
	if port != 0 && port != DefaultPort {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(port))
	}
}

// printable is the server's text as a terminal may show it: every
// control character (C0, DEL, C1 such as CSI 0x9B) and invalid byte as a
// Go escape, by internal/safetext.
func printable(s string) string { return safetext.Escape(s) }

type charClass [256]bool

var articleChars, hostChars, groupChars charClass

func init() {
	alnum := func(c *charClass) {
		for b := 'a'; b <= 'z'; b++ {
			c[b], c[b-'a'+'A'] = true, true
		}
		for b := '0'; b <= '9'; b++ {
			c[b] = true
		}
	}
	// RFC 1738 §5: uchar = unreserved | escape; unreserved = alpha |
	// digit | safe | extra; the article production adds ";/?:&=".
	alnum(&articleChars)
	for _, b := range "$-_.+" + "!*'()," + ";/?:&=" {
		articleChars[b] = true
	}
	// §5 hostname: alphadigit, "-", ".".
	alnum(&hostChars)
	hostChars['-'], hostChars['.'] = true, true
	// §5 group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ].
	alnum(&groupChars)
	for _, b := range "-.+_" {
		groupChars[b] = true
	}
}

const upperhex = "0123456789ABCDEF"

func escapeInto(b *strings.Builder, s string, keep *charClass) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if keep[c] {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperhex[c>>4])
		b.WriteByte(upperhex[c&15])
	}
}
