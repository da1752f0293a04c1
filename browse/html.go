package browse

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/htmlref"
)

// maxHTMLTokens bounds the work on one page: a page with more tokens is
// cut, with a note.
const maxHTMLTokens = 1 << 20

// renderHTML reads an HTML page as text: paragraphs and headings as lines,
// <pre> as written, and each <a href> followed by its number "[n]" so that
// number keys follow it. Links resolve against base; the ones that are
// not RFC 1738 URLs (javascript:, or http URLs the grammar refuses) are
// numbered but noted instead of followed. A <base href> changes the base
// of the links after it (HTML: the first one counts).
func renderHTML(p *Page, r io.Reader, base string) error {
	baseURL, _ := htmlref.Base(base) // the zero URL resolves absolute links only
	haveBase := false
	z := html.NewTokenizer(io.LimitReader(r, maxDocument))
	var (
		line  strings.Builder
		pre   int
		skip  int // inside <script>, <style>, <head> text other than <title>
		title bool
		links []Link // links of the current line
	)
	flush := func(force bool) {
		text := strings.TrimRight(line.String(), " ")
		if pre > 0 {
			text = line.String()
		}
		if !force && strings.TrimSpace(text) == "" && len(links) == 0 {
			line.Reset()
			return
		}
		p.add(text, nil)
		for _, l := range links {
			p.addLink(l)
		}
		links = links[:0]
		line.Reset()
	}
	for n := 0; ; n++ {
		if n == maxHTMLTokens {
			flush(false)
			return fmt.Errorf("the page has more than %d HTML tokens: the rest is not shown", maxHTMLTokens)
		}
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			flush(false)
			if err := z.Err(); err != io.EOF {
				return err
			}
			return nil
		case html.TextToken:
			text := string(z.Text())
			switch {
			case title:
				p.Title = clean(strings.Join(strings.Fields(text), " "))
			case skip > 0:
			case pre > 0:
				parts := strings.Split(text, "\n")
				for i, part := range parts {
					if i > 0 {
						flush(true)
					}
					line.WriteString(part)
				}
			default:
				words := strings.Fields(text)
				if len(words) == 0 {
					if text != "" && line.Len() > 0 {
						line.WriteByte(' ')
					}
					continue
				}
				if startsSpace(text) && line.Len() > 0 && !strings.HasSuffix(line.String(), " ") {
					line.WriteByte(' ')
				}
				line.WriteString(strings.Join(words, " "))
				if endsSpace(text) {
					line.WriteByte(' ')
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			end := tt == html.EndTagToken
			switch a {
			case atom.Script, atom.Style:
				if end {
					skip = max(skip-1, 0)
				} else if tt == html.StartTagToken {
					skip++
				}
			case atom.Title:
				title = !end && tt == html.StartTagToken
			case atom.Pre:
				flush(false)
				if end {
					pre = max(pre-1, 0)
				} else {
					pre++
				}
			case atom.Br:
				flush(true)
			case atom.Base:
				if end || !hasAttr || haveBase {
					continue
				}
				for {
					k, v, more := z.TagAttr()
					if string(k) == "href" {
						if u, ok := htmlref.Resolve(baseURL, string(v)); ok {
							baseURL, haveBase = u, true
						}
					}
					if !more {
						break
					}
				}
			case atom.P, atom.Div, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
				atom.Li, atom.Tr, atom.Dt, atom.Dd, atom.Blockquote, atom.Ul, atom.Ol, atom.Table,
				atom.Hr, atom.Section, atom.Article, atom.Header, atom.Footer, atom.Nav, atom.Form:
				flush(false)
				if a == atom.Li && !end {
					line.WriteString("  * ")
				}
				if a == atom.Hr {
					p.add(strings.Repeat("-", 40), nil)
				}
			case atom.A:
				if end || !hasAttr {
					continue
				}
				href := ""
				for {
					k, v, more := z.TagAttr()
					if string(k) == "href" {
						href = string(v)
					}
					if !more {
						break
					}
				}
				if href == "" || strings.HasPrefix(href, "#") {
					continue
				}
				l := htmlLink(baseURL, href)
				links = append(links, l)
				// The number goes before the anchor text, as lynx shows it.
				fmt.Fprintf(&line, "[%d]", len(p.Links)+len(links))
			}
		}
	}
}

// htmlLink resolves href against base as browsers do (htmlref) into a
// link whose URL is an RFC 1738 URL; one that is not keeps its text as the label and an empty
// URL, which the browser refuses to follow with the reason.
func htmlLink(base rfc1738.URL, href string) Link {
	label := clean(href)
	href = strings.TrimSpace(href)
	// Gopher's HTML items point out of gopherspace with "URL:…" (the
	// RFC 1738 Appendix prefix, as gopher servers write it).
	if len(href) > 4 && strings.EqualFold(href[:4], "URL:") {
		href = href[4:]
	}
	u, ok := htmlref.Resolve(base, href)
	if !ok {
		return Link{Label: label}
	}
	return Link{URL: u.String(), Label: clean(u.String())}
}

func startsSpace(s string) bool { return s != "" && strings.IndexByte(" \t\r\n\f", s[0]) >= 0 }
func endsSpace(s string) bool   { return s != "" && strings.IndexByte(" \t\r\n\f", s[len(s)-1]) >= 0 }
