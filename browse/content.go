package browse

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/extract"
)

// Bounds on what a page keeps of a server's reply.
const (
	maxDocument  = 4 << 20 // bytes of a document shown; the rest is cut, with a note
	maxJSONLine  = 1 << 20 // bytes of one listing entry
	sniffLength  = 1024    // bytes looked at to tell text from binary data
	jsonListType = "application/jsonl"
)

// binaryTitle is the title of a page that is a note that the item is
// not text.
const binaryTitle = "binary data"

// errTruncated notes a document longer than the page keeps.
var errTruncated = fmt.Errorf("the document is longer than %d MiB: the rest is not shown (press d to save it all)", maxDocument>>20)

// render reads a fetched reply into a page: a listing (JSON Lines from
// the access layer) by its scheme, HTML as text with numbered links,
// text as a document, and anything else as a note that it can be saved.
func render(u rfc1738.URL, resp *access.Response) (*Page, error) {
	p := &Page{URL: resp.URL}
	if p.URL == "" {
		p.URL = access.Redact(u.String())
	}
	mt, _, _ := mime.ParseMediaType(resp.Type)
	if mt == jsonListType {
		return p, renderListing(p, u, resp.Body)
	}
	br := bufio.NewReaderSize(resp.Body, 4096)
	head, _ := br.Peek(sniffLength)
	if mt == "text/html" || (mt == "" && looksHTML(head)) {
		p.Document = true
		return p, renderHTML(p, br, resp.URL)
	}
	if mt == "message/rfc822" || mt == "message/news" {
		p.Document = true
		return p, renderArticle(p, br)
	}
	if !isText(mt, head) {
		p.Title = binaryTitle
		size := "size unknown"
		if resp.Size >= 0 {
			size = strconv.FormatInt(resp.Size, 10) + " bytes"
		}
		kind := resp.Type
		if kind == "" {
			kind = "not text"
		}
		p.add(fmt.Sprintf("This item is %s (%s): press d to save it.", kind, size), nil)
		return p, nil
	}
	p.Document = true
	return p, renderText(p, br)
}

// isText reports whether a reply of media type mt starting with head is
// shown as text.
func isText(mt string, head []byte) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasPrefix(mt, "message/"):
		return true
	case mt != "" && mt != "application/octet-stream":
		return false
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return false
	}
	// Cut a rune split by the sniff window before judging.
	for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
		head = head[:len(head)-1]
	}
	return utf8.Valid(head)
}

func looksHTML(head []byte) bool {
	h := bytes.ToLower(bytes.TrimSpace(head))
	return bytes.HasPrefix(h, []byte("<!doctype html")) || bytes.HasPrefix(h, []byte("<html"))
}

// renderText reads a document: each line shown as it is (escaped), with
// the URLs the text holds (RFC 1738 Appendix) numbered as links.
func renderText(p *Page, r io.Reader) error {
	data, cut, err := readDocument(r)
	if err != nil {
		return err
	}
	return renderTextBytes(p, data, cut)
}

// readDocument reads at most maxDocument bytes of r; cut says there was
// more.
func readDocument(r io.Reader) (data []byte, cut bool, err error) {
	data, err = io.ReadAll(io.LimitReader(r, maxDocument+1))
	if len(data) > maxDocument {
		return data[:maxDocument], true, err
	}
	return data, false, err
}

// renderTextBytes is renderText of data read already; cut says data is
// the start of a longer document.
func renderTextBytes(p *Page, data []byte, cut bool) error {
	text := string(data)
	matches := extract.All(text)
	start := 0
	for start <= len(text) {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if end == len(text) && start == end && start > 0 {
			break // the final newline ends the last line
		}
		p.add(text[start:end], nil)
		for len(matches) > 0 && int(matches[0].Start.Offset) < end+1 {
			m := matches[0]
			matches = matches[1:]
			if !m.Valid {
				continue
			}
			p.addLink(Link{URL: m.URL, Label: clean(m.URL)})
		}
		if end == len(text) {
			break
		}
		start = end + 1
	}
	numberLinks(p)
	if cut {
		return errTruncated
	}
	return nil
}

// articleHeaders are the header fields a news article shows, in this
// order, as lynx shows them; the others (Path, Xref …) are the
// servers' business.
var articleHeaders = []string{"Subject", "From", "Reply-To", "Date", "Newsgroups", "Followup-To", "Organization", "Message-ID", "References"}

// renderArticle reads a news article (RFC 5536: header fields, a blank
// line, the body): the headers above, From and Reply-To as mailto links
// (§3.5), each of Newsgroups and Followup-To as a news link and each
// References id as one (§3.6), then the body as a document. Text whose
// header cannot be read is shown whole.
func renderArticle(p *Page, r io.Reader) error {
	data, cut, err := readDocument(r)
	if err != nil {
		return err
	}
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return renderTextBytes(p, data, cut)
	}
	body, _ := io.ReadAll(msg.Body)
	var dec mime.WordDecoder
	for _, name := range articleHeaders {
		v := strings.Join(strings.Fields(msg.Header.Get(name)), " ")
		if v == "" {
			continue
		}
		if d, err := dec.DecodeHeader(v); err == nil {
			v = d // RFC 2047 encoded words
		}
		p.add(name+": "+v, nil)
		switch name {
		case "From", "Reply-To":
			if as, err := msg.Header.AddressList(name); err == nil {
				for _, a := range as {
					addLinkTo(p, rfc1738.MailtoURL{Address: a.Address}.URL, a.Address)
				}
			}
		case "Newsgroups", "Followup-To":
			for _, g := range strings.Split(v, ",") {
				if g = strings.TrimSpace(g); g != "" && g != "poster" {
					addLinkTo(p, rfc1738.NewsURL{Group: g}.URL, g)
				}
			}
		case "References":
			for _, id := range strings.Fields(v) {
				if id = strings.TrimSuffix(strings.TrimPrefix(id, "<"), ">"); id != "" {
					addLinkTo(p, rfc1738.NewsURL{MessageID: id}.URL, "<"+id+">")
				}
			}
		}
	}
	p.add("", nil)
	return renderTextBytes(p, body, cut)
}

// addLinkTo adds a link to the last line, to the URL build makes; a part
// the builder refuses (an address with a CR, say) gets no link.
func addLinkTo(p *Page, build func() (rfc1738.URL, error), label string) {
	if u, err := build(); err == nil {
		p.addLink(Link{URL: u.String(), Label: clean(label)})
	}
}

// numberLinks writes each link's number after the text of its line,
// "[n]", so number keys can follow it.
func numberLinks(p *Page) {
	for i, l := range p.Links {
		p.Lines[l.Line].Text += fmt.Sprintf(" [%d]", i+1)
	}
}

// nameEntry is an entry of an ftp or file listing as JSON Lines (the
// access layer's listing of names), with the kind, size and time when
// the listing told them (a local folder's does; an ftp NLST names only).
type nameEntry struct {
	Name     string  `json:"name"`
	URL      *string `json:"url"`
	Kind     string  `json:"kind"`
	Size     *int64  `json:"size"`
	Modified string  `json:"modified"`
}

// line is the entry as a listing shows it: the name, then, when known,
// its size, date and type in columns, as lynx shows an ftp listing.
func (e nameEntry) line() string {
	if e.Kind == "" && e.Size == nil && e.Modified == "" {
		return e.Name
	}
	size, date := "", ""
	if e.Size != nil {
		size = humanBytes(*e.Size)
	}
	if t, err := time.Parse(time.RFC3339, e.Modified); err == nil {
		date = t.Format("2006-01-02 15:04")
	}
	kind := "File"
	switch e.Kind {
	case "directory":
		kind = "Directory"
	case "other":
		kind = "Other" // a symbolic link, a device
	default:
		if t := mime.TypeByExtension(path.Ext(e.Name)); t != "" {
			kind, _, _ = strings.Cut(t, ";")
		}
	}
	return fmt.Sprintf("%-30s %10s  %-16s  %s", e.Name, size, date, kind)
}

// addNameEntry adds an entry of an ftp directory's listing (MLSD, LIST
// or NLST, as the access layer's List read it) with its size, date and
// type where the server told them.
func addNameEntry(p *Page, e access.Entry) {
	n := nameEntry{Name: e.Name, Kind: string(e.Kind)}
	if e.Kind == access.KindFile && e.Size < 0 && e.Time.IsZero() {
		n.Kind = "" // an NLST name: nothing is known of it
	}
	if e.Size >= 0 {
		n.Size = &e.Size
	}
	if !e.Time.IsZero() {
		n.Modified = e.Time.UTC().Format(time.RFC3339)
	}
	if e.URL == "" {
		p.add(n.line(), nil)
		return
	}
	p.add(n.line(), &Link{URL: e.URL, Title: clean(e.Name)})
}

// parentLabel is the entry for the folder above a listed one, as lynx
// names it.
const parentLabel = "Up to higher level directory"

// parentURL returns the URL of the folder above the one u lists, and
// false at the top: the url-path less its last segment (§3.2.2: each
// segment but the last is a CWD; §3.10 for file), a ";type=d" dropped.
func parentURL(u rfc1738.URL) (string, bool) {
	p, ok := u.Path()
	if !ok {
		return "", false
	}
	if i := strings.IndexByte(p, ';'); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return "", false
	}
	return u.String()[:u.PathOffset()+strings.LastIndexByte(p, '/')+1], true
}

// renderListing reads a listing the access layer wrote as JSON Lines,
// and numbers its entries; an error keeps the entries before it.
func renderListing(p *Page, u rfc1738.URL, r io.Reader) error {
	if s := u.Scheme(); s == "ftp" || s == "file" {
		if up, ok := parentURL(u); ok {
			p.add(parentLabel, &Link{URL: up})
		}
	}
	before := len(p.Lines)
	err := readListing(p, u, r)
	numberListing(p)
	if len(p.Lines) == before && err == nil {
		p.add("(empty)", nil)
	}
	return err
}

func readListing(p *Page, u rfc1738.URL, r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxJSONLine)
	scheme := u.Scheme()
	for sc.Scan() {
		line := sc.Bytes()
		var err error
		switch scheme {
		case "news", "nntp":
			err = addNewsEntry(p, line)
		default: // ftp, file
			var e nameEntry
			if err = json.Unmarshal(line, &e); err == nil {
				if e.URL == nil {
					p.add(e.line(), nil)
				} else {
					p.add(e.line(), &Link{URL: *e.URL, Title: clean(e.Name)})
				}
			}
		}
		if err != nil {
			return fmt.Errorf("listing entry %d: %w", len(p.Lines)+1, err)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("listing entry %d is longer than %d bytes", len(p.Lines)+1, maxJSONLine)
		}
		return err
	}
	return nil
}

// renderEntries reads a listing the access layer's List gives (a gopher
// menu or search, an ftp directory), and numbers its entries; an error
// keeps the entries before it, and lines the server sent that could not
// be read are named after them.
func renderEntries(p *Page, u rfc1738.URL, ents *access.Entries) error {
	add := addGopherItem
	if s := u.Scheme(); s == "ftp" || s == "file" {
		if up, ok := parentURL(u); ok {
			p.add(parentLabel, &Link{URL: up})
		}
		add = addNameEntry
	}
	var bad []*access.LineError
	var err error
	for {
		var e access.Entry
		e, err = ents.Next()
		var le *access.LineError
		if errors.As(err, &le) {
			bad = append(bad, le)
			continue
		}
		if err != nil {
			break
		}
		add(p, e)
	}
	if err == io.EOF {
		err = nil
	}
	if cerr := ents.Close(); err == nil {
		err = cerr
	}
	numberListing(p)
	if len(p.Lines) == 0 && err == nil && len(bad) == 0 {
		p.add("(empty)", nil)
	}
	if err == nil && len(bad) == 1 {
		err = bad[0]
	} else if err == nil && len(bad) > 1 {
		err = fmt.Errorf("%v (and %d more unreadable lines)", bad[0], len(bad)-1)
	}
	return err
}

// numberListing writes each entry's link number before it, in a column,
// so number keys can follow it.
func numberListing(p *Page) {
	w := len(strconv.Itoa(len(p.Links)))
	blank := strings.Repeat(" ", w+1)
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Link < 0 {
			l.Text = blank + l.Text
			continue
		}
		l.Text = fmt.Sprintf("%*d %s", w, l.Link+1, l.Text)
	}
}

// addGopherItem adds a menu line: the type's label (RFC 1436 item types,
// as the access layer names them), the Gopher+ mark, the display string.
// Info lines are text; a telnet item (8, T) becomes a telnet URL (§3.8)
// with the selector as the login to advise.
func addGopherItem(p *Page, e access.Entry) {
	var t byte
	if typ := e.Attrs["type"]; len(typ) == 1 {
		t = typ[0]
	}
	if t == 'i' {
		p.add("       "+e.Name, nil)
		return
	}
	mark := " "
	plus, ask := e.Attrs["plus"] != "", e.Attrs["plus"] == "?"
	if plus {
		mark = e.Attrs["plus"]
	}
	text := fmt.Sprintf("%-6s%s %s", e.Attrs["label"], mark, e.Name)
	link := &Link{Gopher: t, Plus: plus, Ask: ask, Title: clean(e.Name)}
	switch {
	case t == '8' || t == 'T':
		port, _ := strconv.Atoi(e.Attrs["port"])
		sel := e.Attrs["selector"]
		tu := rfc1738.TelnetURL{Host: e.Attrs["host"], User: sel, HasUser: sel != ""}
		if port != 23 {
			tu.Port = port
		}
		if b, err := tu.Append(nil); err == nil {
			link.URL = string(b)
		}
	case t != '3':
		link.URL = e.URL
	}
	if link.URL == "" {
		p.add(text, nil)
		return
	}
	p.add(text, link)
}

// newsGroup and newsArticle are the entries of a news listing as the
// access layer writes them in JSON Lines (get --json): a group of news:*
// or an article of a group's overview.
type newsGroup struct {
	Group    string `json:"group"`
	Articles int64  `json:"articles"`
	NewsURL  string `json:"news_url"`
}

type newsArticle struct {
	Number  int64  `json:"number"`
	Subject string `json:"subject"`
	From    string `json:"from"`
	NewsURL string `json:"news_url"`
}

// addNewsEntry adds a group of news:* or an article of a group's
// listing.
func addNewsEntry(p *Page, line []byte) error {
	var g newsGroup
	if err := json.Unmarshal(line, &g); err != nil {
		return err
	}
	if g.Group != "" {
		p.add(fmt.Sprintf("%-40s %8d", g.Group, g.Articles), &Link{URL: g.NewsURL, Title: clean(g.Group)})
		return nil
	}
	var a newsArticle
	if err := json.Unmarshal(line, &a); err != nil {
		return err
	}
	if a.NewsURL != "" {
		p.add(fmt.Sprintf("%6d  %-44s  %s", a.Number, a.Subject, a.From), &Link{URL: a.NewsURL, Title: clean(a.Subject)})
	}
	return nil
}
