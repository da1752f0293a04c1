package nntp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
)

// GroupInfo is the answer to GROUP (RFC 3977 §6.1.1: "211 number low high
// group"). Count is the server's estimate of the articles in the group.
type GroupInfo struct {
	Name             string
	Count, Low, High int64
}

// Group selects the group (RFC 3977 §6.1.1). A missing group is the
// server's 411 ([IsNoSuchGroup]).
func (c *Conn) Group(ctx context.Context, name string) (GroupInfo, error) {
	if err := checkGroupName(name); err != nil {
		return GroupInfo{}, err
	}
	disarm, err := c.begin(ctx)
	if err != nil {
		return GroupInfo{}, err
	}
	defer disarm()
	cmd := "GROUP " + name
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		return GroupInfo{}, err
	}
	if code != CodeGroupSelected {
		return GroupInfo{}, c.unexpected(cmd, code, text)
	}
	f := strings.Fields(text)
	if len(f) < 3 {
		return GroupInfo{}, c.protocolError(cmd, "211 "+text, `want "211 count low high group"`)
	}
	var g GroupInfo
	var ok1, ok2, ok3 bool
	g.Count, ok1 = parseNumber(f[0])
	g.Low, ok2 = parseNumber(f[1])
	g.High, ok3 = parseNumber(f[2])
	if !ok1 || !ok2 || !ok3 {
		return GroupInfo{}, c.protocolError(cmd, "211 "+text, `want "211 count low high group"`)
	}
	g.Name = name
	if len(f) > 3 {
		g.Name = f[3]
	}
	c.group = g.Name
	return g, nil
}

// Article is an article being read: the numbers from the 220 line and the
// text (headers, blank line, body; RFC 3977 §6.2.1), dot-unstuffed by
// textproto's DotReader with line ends turned into "\n". It streams from
// the connection: Read it, then Close it. Close (or the connection's next
// command) reads and discards what is left, within the ctx given to the
// call that opened it.
type Article struct {
	Number    int64  // 0 when asked by message-id (RFC 3977 §6.2.1.2)
	MessageID string // with its angle brackets, as the server sent it

	c      *Conn
	ctx    context.Context
	cmd    string
	r      io.Reader
	disarm func()
	done   bool
	err    error
}

// Read reads the article text.
func (a *Article) Read(p []byte) (int, error) {
	if a.done {
		if a.err != nil {
			return 0, a.err
		}
		return 0, io.EOF
	}
	n, err := a.r.Read(p)
	if err == io.EOF {
		a.finish(nil)
	} else if err != nil {
		a.finish(a.c.ioError(a.ctx, a.cmd, err))
		err = a.err
	}
	return n, err
}

// Close discards the rest of the article so the connection can take the
// next command. It returns an error only if the connection failed.
func (a *Article) Close() error {
	if a.done {
		return a.err
	}
	_, err := io.Copy(io.Discard, a)
	if err != nil {
		return err
	}
	return a.err
}

func (a *Article) finish(err error) {
	a.done, a.err = true, err
	a.disarm()
}

// Article fetches article number n of the selected group (RFC 3977
// §6.2.1.2; RFC 1738 §3.7 nntp://host/group/n). A missing number is 423, no
// group selected 412 ([IsNoSuchArticle] covers 420, 423 and 430).
func (c *Conn) Article(ctx context.Context, n int64) (*Article, error) {
	if n < 1 {
		// RFC 3977 §6: article numbers start at 1.
		return nil, &ArgumentError{What: "article number", Value: strconv.FormatInt(n, 10), Offset: -1, Reason: "article numbers start at 1"}
	}
	return c.article(ctx, "ARTICLE "+strconv.FormatInt(n, 10))
}

// ArticleByID fetches the article whose Message-ID is id, given as in a
// news: URL, without the angle brackets (RFC 1738 §3.6); the client adds
// them. An id with brackets, space, control characters or non-ASCII is
// refused before anything is sent. A missing id is 430.
func (c *Conn) ArticleByID(ctx context.Context, id string) (*Article, error) {
	if err := checkMessageID(id); err != nil {
		return nil, err
	}
	return c.article(ctx, "ARTICLE <"+id+">")
}

func (c *Conn) article(ctx context.Context, cmd string) (*Article, error) {
	disarm, err := c.begin(ctx)
	if err != nil {
		return nil, err
	}
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		disarm()
		return nil, err
	}
	if code != CodeArticleFollows {
		disarm()
		return nil, c.unexpected(cmd, code, text)
	}
	// RFC 3977 §6.2.1.2: "220 n message-id".
	num, id, _ := strings.Cut(text, " ")
	id, _, _ = strings.Cut(id, " ")
	n, ok := parseNumber(num)
	if !ok || len(id) < 3 || id[0] != '<' || id[len(id)-1] != '>' {
		disarm()
		return nil, c.protocolError(cmd, "220 "+text, `want "220 n <message-id>"`)
	}
	a := &Article{Number: n, MessageID: id, c: c, ctx: ctx, cmd: cmd, r: c.tp.DotReader(), disarm: disarm}
	c.body = a
	return a, nil
}

// ActiveGroup is one line of the active list (RFC 3977 §7.6.3: "group
// high low status"). Status is "y" (posting allowed), "n" (not), "m"
// (moderated), or another server-specific flag.
type ActiveGroup struct {
	Name      string
	High, Low int64
	Status    string
}

// ListActive lists the server's groups, for news:* (RFC 1738 §3.6): it
// collects [Conn.Active]. At most Config.MaxListLines groups are accepted;
// a caller that prints the list should range over Active instead, which
// holds one line at a time.
func (c *Conn) ListActive(ctx context.Context) ([]ActiveGroup, error) {
	var groups []ActiveGroup
	for g, err := range c.Active(ctx) {
		if err != nil {
			return nil, err
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// Active streams the server's groups, for news:* (RFC 1738 §3.6). It sends
// LIST ACTIVE (RFC 3977 §7.6.3) and, if the server answers 501 (RFC 977
// knew only a bare LIST, §3.6.1), LIST. Lines are parsed one at a time, so
// memory stays flat whatever the size of the list; more than
// Config.MaxListLines groups is a *ProtocolError. An error is yielded
// once, last. Breaking out of the loop early reads and discards the rest
// of the list so the connection stays usable.
func (c *Conn) Active(ctx context.Context) iter.Seq2[ActiveGroup, error] {
	return listing(func(yield func(ActiveGroup, error) bool) error { return c.active(ctx, yield) })
}

// listing turns run, which reads a listing and yields its lines, into an
// iterator that yields run's error once, last.
func listing[T any](run func(yield func(T, error) bool) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		stopped := false
		guarded := func(v T, err error) bool {
			if !yield(v, err) {
				stopped = true
				return false
			}
			return true
		}
		// After the caller stops, an error from draining the rest must
		// not be yielded: a range-over-func loop panics on a yield after
		// it returned false. The connection keeps the error for the next
		// command.
		if err := run(guarded); err != nil && !stopped {
			var zero T
			yield(zero, err)
		}
	}
}

func (c *Conn) active(ctx context.Context, yield func(ActiveGroup, error) bool) error {
	disarm, err := c.begin(ctx)
	if err != nil {
		return err
	}
	defer disarm()
	cmd := "LIST ACTIVE"
	if c.listOnly {
		cmd = "LIST"
	}
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		return err
	}
	if code == CodeSyntaxError && cmd == "LIST ACTIVE" {
		c.listOnly = true
		cmd = "LIST"
		if code, text, err = c.command(ctx, cmd); err != nil {
			return err
		}
	}
	if code != CodeListFollows {
		return c.unexpected(cmd, code, text)
	}
	max := c.cfg.MaxListLines
	if max <= 0 {
		max = DefaultMaxListLines
	}
	n := 0
	sc := c.lines()
	for sc.Scan() {
		line := sc.Text()
		c.trace('<', line)
		if n == max {
			return c.protocolError(cmd, line, fmt.Sprintf("more than %d groups", max))
		}
		n++
		f := strings.Fields(line)
		if len(f) < 4 {
			return c.badLine(ctx, cmd, sc, line, `want "group high low status"`)
		}
		high, ok1 := parseNumber(f[1])
		low, ok2 := parseNumber(f[2])
		if !ok1 || !ok2 {
			return c.badLine(ctx, cmd, sc, line, `want "group high low status"`)
		}
		if !yield(ActiveGroup{Name: f[0], High: high, Low: low, Status: f[3]}, nil) {
			for sc.Scan() {
			}
			return c.scanError(ctx, cmd, sc.Err())
		}
	}
	return c.scanError(ctx, cmd, sc.Err())
}

// Range is an article-number range for OVER (RFC 3977 §8.3.1): Low alone
// when High == Low, "Low-" (to the end) when High is 0, else "Low-High".
type Range struct {
	Low, High int64
}

// String returns the range as OVER takes it.
func (r Range) String() string {
	switch {
	case r.High == r.Low:
		return strconv.FormatInt(r.Low, 10)
	case r.High == 0:
		return strconv.FormatInt(r.Low, 10) + "-"
	}
	return strconv.FormatInt(r.Low, 10) + "-" + strconv.FormatInt(r.High, 10)
}

// OverviewLine is one line of overview data (RFC 3977 §8.3.2, the order
// of §8.4.2): the article number and the seven standard fields. Group is
// the group selected when the line was read, for building nntp: URLs.
type OverviewLine struct {
	Group      string
	Number     int64
	Subject    string
	From       string
	Date       string
	MessageID  string // with its angle brackets
	References string
	Bytes      int64 // :bytes, 0 when the server left it empty
	Lines      int64 // :lines, 0 when the server left it empty
}

// Over streams the overview of the articles in rng of the selected group
// (RFC 3977 §8.3 OVER; a server that answers 500 gets XOVER, RFC 2980
// §2.8, from then on). Lines are parsed one at a time, so memory is
// bounded by Config.MaxLineLength whatever the size of the group. An empty
// range (423 or 420) yields nothing. An error is yielded once, last.
// Breaking out of the loop early reads and discards the rest of the
// listing so the connection stays usable.
func (c *Conn) Over(ctx context.Context, rng Range) iter.Seq2[OverviewLine, error] {
	return listing(func(yield func(OverviewLine, error) bool) error { return c.over(ctx, rng, yield) })
}

func (c *Conn) over(ctx context.Context, rng Range, yield func(OverviewLine, error) bool) error {
	if rng.Low < 0 || rng.High < 0 {
		return &ArgumentError{What: "range", Value: rng.String(), Offset: -1, Reason: "negative article number"}
	}
	disarm, err := c.begin(ctx)
	if err != nil {
		return err
	}
	defer disarm()
	verb := "OVER "
	if c.xover {
		verb = "XOVER "
	}
	cmd := verb + rng.String()
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		return err
	}
	if code == CodeUnknownCommand && !c.xover {
		c.xover = true
		cmd = "XOVER " + rng.String()
		if code, text, err = c.command(ctx, cmd); err != nil {
			return err
		}
	}
	switch code {
	case CodeOverviewFollows:
	case CodeNoSuchNumber, CodeNoCurrentArticle:
		return nil // RFC 3977 §8.3.2: "423 No articles in that range"
	default:
		return c.unexpected(cmd, code, text)
	}
	// RFC 3977 §8.3.2: the server returns one line per article in the
	// range. A line outside it, or more lines than it holds, is a peer
	// that will not stop where it was asked to: the listing ends there
	// with an error instead of being read to its end.
	var most int64 = -1 // no bound for an open range "Low-"
	if rng.High != 0 {
		most = rng.High - rng.Low + 1
	}
	var n int64
	sc := c.lines()
	for sc.Scan() {
		line := sc.Text()
		c.trace('<', line)
		ov, ok := parseOverview(line)
		if !ok {
			return c.badLine(ctx, cmd, sc, line, "want number TAB subject TAB from TAB date TAB message-id TAB references TAB bytes TAB lines")
		}
		n++
		switch {
		case ov.Number < rng.Low || (rng.High != 0 && ov.Number > rng.High):
			return c.protocolError(cmd, line, fmt.Sprintf("article %d is outside the range %s asked for", ov.Number, rng))
		case most >= 0 && n > most:
			return c.protocolError(cmd, line, fmt.Sprintf("more than the %d lines the range %s can hold", most, rng))
		}
		ov.Group = c.group
		if !yield(ov, nil) {
			// Early break: drain so the next command finds the stream in step.
			for sc.Scan() {
			}
			return c.scanError(ctx, cmd, sc.Err())
		}
	}
	return c.scanError(ctx, cmd, sc.Err())
}

// badLine is the error of a listing line that does not parse: the read
// error when the line is only the part that came before the connection
// failed (bufio.Scanner hands it over as a last line), else a protocol
// error.
func (c *Conn) badLine(ctx context.Context, cmd string, sc *bufio.Scanner, line, reason string) error {
	if err := sc.Err(); err != nil {
		return c.scanError(ctx, cmd, err)
	}
	return c.protocolError(cmd, line, reason)
}

// lines scans the dot-terminated block that follows a status line, one
// line at a time, no longer than maxLine.
func (c *Conn) lines() *bufio.Scanner {
	sc := bufio.NewScanner(c.tp.DotReader())
	// The bound is the larger of the two: a first buffer bigger than
	// maxLine+1 would let a line of its size through.
	sc.Buffer(make([]byte, 0, min(4096, c.maxLine+1)), c.maxLine+1)
	return sc
}

func (c *Conn) scanError(ctx context.Context, cmd string, err error) error {
	if err == nil {
		return nil
	}
	if err == bufio.ErrTooLong {
		return c.protocolError(cmd, "", fmt.Sprintf("line longer than %d bytes", c.maxLine))
	}
	return c.ioError(ctx, cmd, err)
}

// parseOverview splits an overview line on TAB (RFC 3977 §8.3.2): the
// number, then Subject, From, Date, Message-ID, References, :bytes,
// :lines; further (optional) fields are ignored.
func parseOverview(line string) (OverviewLine, bool) {
	var f [8]string
	rest := line
	for i := range f {
		if i == len(f)-1 {
			f[i], _, _ = strings.Cut(rest, "\t")
			break
		}
		var found bool
		f[i], rest, found = strings.Cut(rest, "\t")
		if !found {
			return OverviewLine{}, false
		}
	}
	var ov OverviewLine
	var ok bool
	if ov.Number, ok = parseNumber(f[0]); !ok {
		return OverviewLine{}, false
	}
	ov.Subject, ov.From, ov.Date, ov.MessageID, ov.References = f[1], f[2], f[3], f[4], f[5]
	if f[6] != "" {
		if ov.Bytes, ok = parseNumber(f[6]); !ok {
			return OverviewLine{}, false
		}
	}
	if f[7] != "" {
		if ov.Lines, ok = parseNumber(f[7]); !ok {
			return OverviewLine{}, false
		}
	}
	return ov, true
}

// Capabilities sends CAPABILITIES (RFC 3977 §5.2) and returns the lines
// of the list. Under ModeReaderAuto, a list with MODE-READER but without
// READER (a mode-switching server in transit mode, §5.2.2) makes the
// client send MODE READER now.
func (c *Conn) Capabilities(ctx context.Context) ([]string, error) {
	disarm, err := c.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer disarm()
	const cmd = "CAPABILITIES"
	code, text, err := c.command(ctx, cmd)
	if err != nil {
		return nil, err
	}
	if code != 101 {
		return nil, c.unexpected(cmd, code, text)
	}
	var caps []string
	reader, modeReader := false, false
	sc := c.lines()
	for sc.Scan() {
		line := sc.Text()
		c.trace('<', line)
		if len(caps) == 1000 {
			return nil, c.protocolError(cmd, line, "more than 1000 capability lines")
		}
		caps = append(caps, line)
		label, _, _ := strings.Cut(line, " ")
		reader = reader || strings.EqualFold(label, "READER")
		modeReader = modeReader || strings.EqualFold(label, "MODE-READER")
	}
	if err := c.scanError(ctx, cmd, sc.Err()); err != nil {
		return nil, err
	}
	if modeReader && !reader && c.cfg.ModeReader == ModeReaderAuto && !c.readerMode {
		if err := c.modeReader(ctx); err != nil {
			return nil, err
		}
	}
	return caps, nil
}

// parseNumber parses a non-negative decimal (RFC 3977 §9.8 "number"),
// leading zeros allowed (INN's active file pads to ten digits).
func parseNumber(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	if len(s) > 18 { // beyond int64; RFC 3977 §6 numbers fit in 31 bits
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}
