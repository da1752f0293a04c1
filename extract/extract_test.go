package extract

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/internal/testenv"
)

// rfcURLs is every URL of RFC 1738, in order, as the Appendix says to read
// it: the whitespace of the line breaks removed.
var rfcURLs = []string{
	"http://www.acl.lanl.gov/URI/archive/uri-archive.index.html", // §1
	"ftp://@host.com/",                  // §3.1
	"ftp://host.com/",                   // §3.1
	"ftp://foo:@host.com/",              // §3.1
	"ftp://myname@host.dom/%2Fetc/motd", // §3.2.2
	"ftp://myname@host.dom/etc/motd",    // §3.2.2
	"ftp://myname@host.dom//etc/motd",   // §3.2.2
	"news:*",                            // §3.6
	"file://vms.host.edu/disk$user/my/notes/note12345.txt", // §3.10
	"prospero://host.dom//pros/name",                       // §3.11
	// Appendix example: two of the three are broken across lines.
	"ftp://info.cern.ch/pub/www/doc;type=d",
	"ftp://ds.internic.net/rfc",
	"http://ds.internic.net/instructions/overview.html#WARNING",
	// References.
	"ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
	"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
	"ftp://ds.internic.net/rfc/rfc1630.txt",
	"ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
	"ftp://ds.internic.net/rfc/rfc1123.txt",
	"ftp://ds.internic.net/rfc/rfc822.txt",
	"ftp://quake.think.com/pub/wais/doc/protspec.txt",
	"ftp://ds.internic.net/rfc/rfc1036.txt",
	"ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
	"ftp://ds.internic.net/rfc/rfc977.txt",
	"ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
	"ftp://ds.internic.net/rfc/rfc1034.txt",
	"ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
	"ftp://ds.internic.net/rfc/rfc959.txt",
	"ftp://ds.internic.net/rfc/rfc1737.txt",
	"ftp://ds.internic.net/rfc/rfc1625.txt",
	"ftp://uu.psi.com/wp/nir.txt",
}

func readRFC(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(testenv.SharedFile(t, "spec/rfc1738.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRFC1738Text extracts the RFC's own URLs from its text: every one is
// in <URL:…>, all are valid, and nothing else in the text (templates such
// as http://<host>:<port>/, <uri@bunyip.com>, "ftp://") is taken for one.
func TestRFC1738Text(t *testing.T) {
	text := readRFC(t)
	ms := All(text)
	var got []string
	for _, m := range ms {
		got = append(got, m.URL)
		if m.Form != URLBracket || !m.Valid || len(m.Notes) != 0 {
			t.Errorf("%s: form %s, valid %v, notes %v; want url-bracket, valid, no note", m.URL, m.Form, m.Valid, m.Notes)
		}
	}
	if !slices.Equal(got, rfcURLs) {
		t.Errorf("found %d URLs:\n%s\nwant %d:\n%s", len(got), strings.Join(got, "\n"), len(rfcURLs), strings.Join(rfcURLs, "\n"))
	}
	// The Appendix example: where each starts and ends in the text.
	for _, m := range ms {
		if m.URL == "http://ds.internic.net/instructions/overview.html#WARNING" {
			if f, ok := m.Fragment(); !ok || f != "WARNING" {
				t.Errorf("fragment %q %v, want WARNING", f, ok)
			}
			if text[m.Start.Offset:m.Start.Offset+12] != "http://ds.in" || text[m.End.Offset] != '>' || m.End.Line != m.Start.Line+1 {
				t.Errorf("span %+v .. %+v does not cover the URL broken across two lines", m.Start, m.End)
			}
		}
	}
	checkMatches(t, text, ms)
}

type want struct {
	url  string
	form Form
	alts []string // alternatives of the notes, in order
}

// ruleTests hold one case or more for each rule of the Appendix and of the
// issue; each names its rule.
var ruleTests = []struct {
	name string
	in   string
	want []want
}{
	// Appendix: "<" and ">", with the prefix "URL:", delimit the URL.
	{"url-bracket", "see <URL:http://a.org/x> now", []want{{"http://a.org/x", URLBracket, nil}}},
	{"url-bracket lower case prefix", "<url:http://a.org/x>", []want{{"http://a.org/x", URLBracket, nil}}},
	// Appendix: whitespace inside the wrapper is ignored.
	{"line break and indentation", "<URL:ftp://a.org/\n        b/c>", []want{{"ftp://a.org/b/c", URLBracket, nil}}},
	{"spaces around", "<URL:  http://a.org/  >", []want{{"http://a.org/", URLBracket, nil}}},
	{"tabs", "<URL:http://a.org/\t\n\tb>", []want{{"http://a.org/b", URLBracket, nil}}},
	{"CRLF", "<URL:http://a.org/\r\n  b>", []want{{"http://a.org/b", URLBracket, nil}}},
	{"break inside the scheme", "<URL:ht\ntp://a.org/>", []want{{"http://a.org/", URLBracket, nil}}},
	// Appendix: a hyphen before a line break is kept; the reading
	// without it is noted.
	{"hyphen at a line break", "<URL:http://www.ex-\n   ample.org/a>",
		[]want{{"http://www.ex-ample.org/a", URLBracket, []string{"http://www.example.org/a"}}}},
	{"two hyphens at line breaks", "<URL:ftp://h.org/a-\nb-\r\n c>",
		[]want{{"ftp://h.org/a-b-c", URLBracket, []string{"ftp://h.org/ab-c", "ftp://h.org/a-bc"}}}},
	// Appendix: the whitespace is there to break long URLs across lines;
	// within a line it makes the wrapper text, and its first word no URL.
	{"spaces within a line", "<URL:http://a.org/a b>", nil},
	{"tabs within a line", "<URL:http://a.org/\t\tb>", nil},
	{"hyphen before a space within a line", "<URL:http://a.org/x- y>", nil},
	{"mailto with spaces (issue 17 class 4)", "<mailto:joe at example.org>", nil},
	{"text after the spaced wrapper is read", "<http://a.org/x see http://b.org/>", []want{{"http://b.org/", Bare, nil}}},
	{"space between wrapper and URL", "<URL: http://a.org/x\n   y >", []want{{"http://a.org/xy", URLBracket, nil}}},
	// Typesetters (groff U+2010, others U+00AD) hyphenate at a line
	// break; neither can be in a URL (§2.2), so the hyphen is dropped.
	{"groff hyphen in <…>", "<http://gnu.org/li\u2010\n       censes/gpl.html>", []want{{"http://gnu.org/licenses/gpl.html", Bracket, nil}}},
	{"soft hyphen in <URL:…>", "<URL:ftp://a.org/pub/docu\u00ad\r\n  ments/>", []want{{"ftp://a.org/pub/documents/", URLBracket, nil}}},
	{"groff hyphen, bare", "see https://www.gnu.org/soft\u2010\n       ware/gro\u2010\n       ff/ for", []want{{"https://www.gnu.org/software/groff/", Bare, nil}}},
	{"soft hyphen, bare, then punctuation", "at http://a.org/lo\u00ad\n  ng.html.", []want{{"http://a.org/long.html", Bare, nil}}},
	{"groff hyphen within a line ends a bare URL", "http://a.org/x\u2010y", []want{{"http://a.org/x", Bare, nil}}},
	{"groff hyphen before a blank line", "http://a.org/x\u2010\n\ny", []want{{"http://a.org/x", Bare, nil}}},
	{"hyphen in <…>", "<http://a.org/x-\ny>", []want{{"http://a.org/x-y", Bracket, []string{"http://a.org/xy"}}}},
	// Appendix: a fragment goes inside the brackets.
	{"fragment", "<URL:http://a.org/p#frag>", []want{{"http://a.org/p#frag", URLBracket, nil}}},
	{"fragment broken", "<URL:http://a.org/p#fr\n ag>", []want{{"http://a.org/p#frag", URLBracket, nil}}},
	// Plain brackets: a scheme and ':' right after '<'.
	{"bracket", "at <http://a.org/x>.", []want{{"http://a.org/x", Bracket, nil}}},
	{"bracket mailto", "<mailto:a@b.org>", []want{{"mailto:a@b.org", Bracket, nil}}},
	{"bracket news", "<news:comp.infosystems.www>", []want{{"news:comp.infosystems.www", Bracket, nil}}},
	{"bracket other scheme", "<https://a.org/>", []want{{"https://a.org/", Bracket, nil}}},
	{"bracket broken", "<ftp://a.org/pub\n  /x>", []want{{"ftp://a.org/pub/x", Bracket, nil}}},
	// Not brackets: no scheme, or not what a bare URL needs.
	{"e-mail in brackets (RFC 1738 §1)", "the URI-WG <uri@bunyip.com>.", nil},
	{"template in brackets (§3.3)", "http://<host>:<port>/<path>?<searchpart>", nil},
	{"XML tag", "<xsl:template match='x'>", nil},
	{"C++ template", "std::vector<http::request>", nil},
	{"http: without //", "<http:foo>", nil},
	{"other scheme without //", "<urn:isbn:123>", nil},
	{"space after '<'", "< http://a.org/>", []want{{"http://a.org/", Bare, nil}}},
	{"empty wrappers", "<URL:> <URL:http:> <URL:http://> <news:> <URL:   >", nil},
	// A wrapper that does not close is not one; its text is read as prose.
	{"unclosed wrapper", "<URL:http://a.org/x and text", []want{{"http://a.org/x", URLPrefix, nil}}},
	{"blank line in wrapper", "<URL:http://a.org/\n\nnext> paragraph", []want{{"http://a.org/", URLPrefix, nil}}},
	{"'<' in wrapper", "<URL:http://a.org/<b>", []want{{"http://a.org/", URLPrefix, nil}}},
	// Appendix: the prefix "URL:" alone.
	{"url-prefix", "see URL:http://a.org/x.", []want{{"http://a.org/x", URLPrefix, nil}}},
	{"url-prefix any scheme", "URL:urn:isbn:123", []want{{"urn:isbn:123", URLPrefix, nil}}},
	{"url-prefix alone", "URL:http:// and URL:http: and URL: and URL:x", nil},
	{"URL: then a space", "URL: http://a.org/", []want{{"http://a.org/", Bare, nil}}},
	// Bare URLs end at whitespace, '<', '>', '"' and unencodable octets.
	{"bare", "see http://a.org/x now", []want{{"http://a.org/x", Bare, nil}}},
	{"ends at quote", `<a href="http://a.org/x">`, []want{{"http://a.org/x", Bare, nil}}},
	{"ends at angle brackets", "http://a.org/x<b>http://b.org/y>", []want{{"http://a.org/x", Bare, nil}, {"http://b.org/y", Bare, nil}}},
	{"ends at non-ASCII", "http://a.org/caf\xc3\xa9", []want{{"http://a.org/caf", Bare, nil}}},
	{"ends at a control", "http://a.org/x\x00y", []want{{"http://a.org/x", Bare, nil}}},
	{"second '#' ends", "http://a.org/#x#y", []want{{"http://a.org/#x", Bare, nil}}},
	// Unsafe national characters (§2.2) are taken, the URL invalid.
	{"unsafe '~' taken", "http://a.org/~user/ ok", []want{{"http://a.org/~user/", Bare, nil}}},
	{"unsafe '{' taken", "http://a.org/{x}.", []want{{"http://a.org/{x}", Bare, nil}}},
	{"'~' at the end", "`http://a.org/` and http://b.org/~ ok", []want{{"http://a.org/", Bare, nil}, {"http://b.org/~", Bare, nil}}},
	{"'`' ends, noted", "http://a.org/`x`", []want{{"http://a.org/", Bare, []string{"http://a.org/`x`"}}}},
	{"IPv6 literal whole", "clone ssh://user@[2001:db8::1]:22/r.git today", []want{{"ssh://user@[2001:db8::1]:22/r.git", Bare, []string{""}}}}, // the note: no IPv6 in §3.1
	{"IPv6 literal in parentheses", "(http://[::1]:8080/x)", []want{{"http://[::1]:8080/x", Bare, []string{""}}}},
	{"backslash of an escape, no note", `"http://a.org/\"x"`, []want{{"http://a.org/", Bare, nil}}},
	// Trailing sentence punctuation is left out of a bare URL...
	{"trailing .", "Go to http://a.org/x.", []want{{"http://a.org/x", Bare, nil}}},
	{"trailing ,;:!?'", "http://a.org/a, http://a.org/b; http://a.org/c: http://a.org/d! http://a.org/e? 'http://a.org/f'",
		[]want{{"http://a.org/a", Bare, nil}, {"http://a.org/b", Bare, nil}, {"http://a.org/c", Bare, nil},
			{"http://a.org/d", Bare, nil}, {"http://a.org/e", Bare, nil}, {"http://a.org/f", Bare, nil}}},
	{"trailing run", "(http://a.org/x).'", []want{{"http://a.org/x", Bare, nil}}},
	{"many )", "((http://a.org/x_(y)))).", []want{{"http://a.org/x_(y)", Bare, nil}}},
	{"unbalanced )", "(see http://a.org/x)", []want{{"http://a.org/x", Bare, nil}}},
	{"balanced ( )", "http://a.org/a_(b) and (http://a.org/a_(b)).", []want{{"http://a.org/a_(b)", Bare, nil}, {"http://a.org/a_(b)", Bare, nil}}},
	// A bracket opened before the URL and closed in it ends it.
	{"( before, text after )", "(see http://a.org/x)/y", []want{{"http://a.org/x", Bare, nil}}},
	{"( on the line before", "(see\n http://a.org/x)/y", []want{{"http://a.org/x", Bare, nil}}},
	{"( closed before the URL", "(a) http://a.org/x)/y", []want{{"http://a.org/x)/y", Bare, nil}}},
	{"( before, a pair inside, text after )", "(see http://a.org/a_(b))/c", []want{{"http://a.org/a_(b)", Bare, nil}}},
	{"a pair, then ) that close nothing", "http://a.org/x_(y))) and", []want{{"http://a.org/x_(y)", Bare, nil}}},
	{"Markdown link", "[t](https://a.org/x/)**", []want{{"https://a.org/x/", Bare, nil}}},
	{"Markdown link in bold", "**[the docs](https://a.org/x/)**, then", []want{{"https://a.org/x/", Bare, nil}}},
	{"square brackets", "[https://a.org/x]", []want{{"https://a.org/x", Bare, nil}}},
	{"unbalanced ] trimmed", "https://a.org/x] and", []want{{"https://a.org/x", Bare, nil}}},
	{"TeX \\url{…}", `\url{http://a.org/x}.`, []want{{"http://a.org/x", Bare, nil}}},
	{"Markdown emphasis", "*http://a.org/x* and _http://a.org/y_ but http://a.org/z_", []want{{"http://a.org/x", Bare, nil}, {"http://a.org/y", Bare, nil}, {"http://a.org/z_", Bare, nil}}},
	// HTML character references for quotes and brackets end a URL.
	{"&rdquo;", "&ldquo;http://a.org/x&rdquo; said", []want{{"http://a.org/x", Bare, nil}}},
	{"&gt;", "&lt;http://a.org/x&gt;", []want{{"http://a.org/x", Bare, nil}}},
	{"&quot; with text after", "href=&quot;http://a.org/x&quot;&gt;x", []want{{"http://a.org/x", Bare, nil}}},
	{"&#8221; and &#x22;", "&#8220;http://a.org/x&#8221; &#x22;http://a.org/y&#x22;", []want{{"http://a.org/x", Bare, nil}, {"http://a.org/y", Bare, nil}}},
	{"other entity at the end", "http://a.org/x&copy;.", []want{{"http://a.org/x", Bare, nil}}},
	{"&amp; inside stays", "http://a.org/?a=1&amp;b=2 and http://a.org/?a&#38;b", []want{{"http://a.org/?a=1&amp;b=2", Bare, nil}, {"http://a.org/?a&#38;b", Bare, nil}}},
	// ... and kept inside brackets.
	{"punctuation kept in brackets", "<URL:http://a.org/x.> <http://a.org/y)>", []want{{"http://a.org/x.", URLBracket, nil}, {"http://a.org/y)", Bracket, nil}}},
	// The ten schemes by their productions; others only as scheme://.
	{"mailto bare", "write to mailto:a@b.org.", []want{{"mailto:a@b.org", Bare, nil}}},
	{"news bare", "news:comp.lang.c, news:* and news:1234@x.org", []want{{"news:comp.lang.c", Bare, nil}, {"news:*", Bare, nil}, {"news:1234@x.org", Bare, nil}}},
	{"ftp with login, port, type", "ftp://u:p@h.org:21/x;type=a", []want{{"ftp://u:p@h.org:21/x;type=a", Bare, nil}}},
	{"other scheme with //", "https://a.org/x irc://h/c", []want{{"https://a.org/x", Bare, nil}, {"irc://h/c", Bare, nil}}},
	{"other scheme without //", "urn:isbn:123 javascript:void(0) about:blank", nil},
	{"upper-case scheme (§2.1)", "HTTP://A.ORG/", []want{{"HTTP://A.ORG/", Bare, nil}}},
	{"scheme after dots", "see...http://a.org/", []want{{"http://a.org/", Bare, nil}}},
	{"dotted scheme (§4 z39.50)", "z39.50s://h.org/db", []want{{"z39.50s://h.org/db", Bare, nil}}},
	{"scheme after prose colon", "Homepage:http://a.org/", []want{{"http://a.org/", Bare, nil}}},
	// Never a URL.
	{"scheme alone", "http: and http:// and http://. and ftp:// x", nil},
	{"http without //", "http:foo file:/etc/motd telnet:h", nil},
	{"mailto and news alone", "mailto: news: news:.", nil},
	{"e-mail address", "write to uri@bunyip.com.", nil},
	{"newsgroup name", "post to comp.infosystems.www.", nil},
	{"prose colons", "Note: this: that:: 10:30", nil},
	// A scheme begins a word.
	{"C format string", `snprintf(b, n, "%s://%s:%hu/%s", p, h, port, f);`, nil},
	{"shell variable", "curl $proto://$host/x and ${scheme}://h/", nil},
	{"pip's name@URL", "pip install Proj@git+https://git.repo/p.git@1.3.1", []want{{"git+https://git.repo/p.git@1.3.1", Bare, nil}}},
	{"templates", "file://{path} ssh://[user@]host.xz http://| http://[v]/", nil},
	// '|' delimits Markdown tables and shell pipes: a bare URL ends there,
	// as for every other extractor, with no note; '~' and {…} do not end it.
	{"| ends a bare URL", "http://foo.bar/path|more", []want{{"http://foo.bar/path", Bare, nil}}},
	{"Markdown table", "| http://a.org/x|http://a.org/y |", []want{{"http://a.org/x", Bare, nil}, {"http://a.org/y", Bare, nil}}},
	{"shell pipe", "curl -s http://a.org/x|sh", []want{{"http://a.org/x", Bare, nil}}},
	{"~ and {…} stay", "http://h.org/~u/{a,b}/x", []want{{"http://h.org/~u/{a,b}/x", Bare, nil}}},
	{"| inside <URL:…> stays", "<URL:ftp://h.org/a|b>", []want{{"ftp://h.org/a|b", URLBracket, nil}}},
	// §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]: what "URL:"
	// marks is taken whatever octet its scheme begins with; in prose a
	// scheme begins with a letter.
	{"URL: scheme with a digit first", "<URL:1ab://h.org/x> URL:9p://h.org/y", []want{{"1ab://h.org/x", URLBracket, nil}, {"9p://h.org/y", URLPrefix, nil}}},
	{"<URL:…> with an empty schemepart", "<URL:x:> <URL:https://>", []want{{"x:", URLBracket, nil}, {"https://", URLBracket, nil}}},
	{"URL: scheme with . + - first", "<URL:.x:y> <URL:+z://h/> <URL:-a:b>", []want{{".x:y", URLBracket, nil}, {"+z://h/", URLBracket, nil}, {"-a:b", URLBracket, nil}}},
	{"<…> scheme with a digit first", "<1ab:x> <.x:y>", nil},
	// A bare URL broken after an ASCII hyphen in the middle of a word of
	// its path is joined, the hyphen kept, when the next line makes it
	// no worse; both other readings are noted.
	{"bare hyphen at line end, joined", "http://a.org/long-\n  name.html and more",
		[]want{{"http://a.org/long-name.html", Bare, []string{"http://a.org/long-", "http://a.org/longname.html"}}}},
	{"joined after a groff break", "http://a.org/a\u2010\n b/long-\n  name.",
		[]want{{"http://a.org/ab/long-name", Bare, []string{"http://a.org/ab/long-", "http://a.org/ab/longname"}}}},
	// Otherwise the URL is as written, with the joined reading noted.
	{"bare hyphen, next line makes it worse", "ftp://h.org/a-\nb;c d",
		[]want{{"ftp://h.org/a-", Bare, []string{"ftp://h.org/a-b;c"}}}},
	{"bare hyphen in the host", "http://www.ex-\n  ample.org/",
		[]want{{"http://www.ex-", Bare, []string{"http://www.ex-ample.org/"}}}},
	{"bare hyphen, next line not a word", "http://a.org/x-\n(y)", []want{{"http://a.org/x-", Bare, []string{"http://a.org/x-(y)"}}}},
	{"bare hyphen at paragraph end", "http://a.org/long-\n\nname", []want{{"http://a.org/long-", Bare, nil}}},
}

// wants returns what the tables compare of each match.
func wants(ms []Match) []want {
	var got []want
	for _, m := range ms {
		w := want{url: m.URL, form: m.Form}
		for _, n := range m.Notes {
			w.alts = append(w.alts, n.Alternative)
		}
		got = append(got, w)
	}
	return got
}

func equalWants(got, expected []want) bool {
	return slices.EqualFunc(got, expected, func(a, b want) bool {
		return a.url == b.url && a.form == b.form && slices.Equal(a.alts, b.alts)
	})
}

func TestRules(t *testing.T) {
	for _, tt := range ruleTests {
		t.Run(tt.name, func(t *testing.T) {
			ms := All(tt.in)
			if got := wants(ms); !equalWants(got, tt.want) {
				t.Errorf("All(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
			checkMatches(t, tt.in, ms)
		})
	}
}

func TestValidity(t *testing.T) {
	tests := []struct {
		in    string
		valid bool
		rule  string // rule of the first error
	}{
		{"http://a.org/x", true, ""},
		{"http://a_b.org/", false, "domainlabel"},                 // §3.1: hostname
		{"<URL:ftp://a.org/x;type=q>", false, "ftptype"},          // §3.2.2
		{"<URL:http://a.org/a\n b>", true, ""},                    // Appendix: the line break is ignored
		{"http://a.org/~joe/", false, "hsegment"},                 // §2.2: '~' is unsafe
		{"ssh://u@[2001:db8::1]:22/r.git", false, "schemepart"},   // §3.1: no IPv6
		{"<URL:http://a.org/\"x\">", false, "hsegment"},           // '"' is unsafe (§2.2)
		{"<URL:news:comp.lang.c/x>", false, "group"},              // §3.6
		{"nntp://h.org/comp.lang.c/12x", false, "digits"},         // §3.7
		{"<URL:mailto:a@b.org#top>", true, ""},                    // Appendix: fragment
		{"telnet://h.org/x", false, "telneturl"},                  // §3.8
		{"<URL:http://a.org/%zz>", false, "escape"},               // §2.2
		{"<URL:HTTP://a.org/>", true, ""},                         // §2.1
		{"prospero://h.org/x;y", false, "fieldspec"},              // §3.11
		{"<URL:wais://h.org/db/TEXT>", false, "waisdoc"},          // §3.9
		{"gopher://h.org/0sel%09search", true, ""},                // §3.4
		{"file:///etc/motd", true, ""},                            // §3.10
		{"http://1.2.3/", false, "hostnumber"},                    // §3.1
		{"<URL:x-foo:anything>", true, ""},                        // §4: other scheme
		{"<URL:ftp://h.org/a;b>", false, "fsegment"},              // §3.2.2: ';' reserved
		{"<URL:ftp://h.org/a;b>", false, "fsegment"},              // repeated: stable
		{"http://h.org:80x/", false, "port"},                      // §3.1
		{"<URL:http://h.org/a\x7f>", false, "hsegment"},           // control
		{"<URL:gopher://h.org/1\xe6\x9d\xb1>", false, "selector"}, // not ASCII
	}
	for _, tt := range tests {
		ms := All(tt.in)
		if len(ms) != 1 {
			t.Errorf("All(%q): %d matches, want 1", tt.in, len(ms))
			continue
		}
		m := ms[0]
		if m.Valid != tt.valid {
			t.Errorf("All(%q): valid %v, want %v (errors %v)", tt.in, m.Valid, tt.valid, m.Errors)
			continue
		}
		if !tt.valid && (len(m.Errors) == 0 || m.Errors[0].Rule != tt.rule) {
			t.Errorf("All(%q): errors %v, want the first in rule %s", tt.in, m.Errors, tt.rule)
		}
		if tt.valid && m.Errors != nil {
			t.Errorf("All(%q): valid but errors %v", tt.in, m.Errors)
		}
	}
}

// TestUnsafeWhole: a bare URL with an unsafe octet is taken whole and
// reported invalid, with the §2.2 error where the octet stands and the
// strict form that encodes it.
func TestUnsafeWhole(t *testing.T) {
	tests := []struct {
		in, url  string
		offset   int // of the first error, in the URL
		repaired string
	}{
		{"see http://host.dom/~joe/paper.ps.", "http://host.dom/~joe/paper.ps", 16, "http://host.dom/%7Ejoe/paper.ps"},
		{"ftp://h.org/pub/{a,b}/x^y here", "ftp://h.org/pub/{a,b}/x^y", 16, "ftp://h.org/pub/%7Ba,b%7D/x%5Ey"},
		// A host is never repaired: an IPv6 literal (RFC 3986 §3.2.2) is
		// read as written, so the URL read is the URL found.
		{"git clone ssh://user@[2001:db8::1]:22/r.git", "ssh://user@[2001:db8::1]:22/r.git", 11, "ssh://user@[2001:db8::1]:22/r.git"},
	}
	for _, tt := range tests {
		ms := All(tt.in)
		if len(ms) != 1 || ms[0].URL != tt.url || ms[0].Valid {
			t.Errorf("All(%q) = %+v, want %s, invalid", tt.in, ms, tt.url)
			continue
		}
		m := ms[0]
		if len(m.Errors) == 0 || m.Errors[0].Offset != tt.offset || m.Repaired != tt.repaired {
			t.Errorf("All(%q): errors %v, repaired %q; want the first at %d, repaired %q", tt.in, m.Errors, m.Repaired, tt.offset, tt.repaired)
		}
		if strings.Contains(tt.url, "~") && !strings.Contains(m.Errors[0].Message, "§2.2") {
			t.Errorf("All(%q): %v does not cite §2.2", tt.in, m.Errors[0])
		}
	}
	if m := All("http://a.org/x")[0]; m.Repaired != "" {
		t.Errorf("a valid URL has Repaired %q", m.Repaired)
	}
}

// TestStrict: SetStrict(true) stops a bare URL at the first unsafe octet,
// as before, and takes no URL whose host would be cut off.
func TestStrict(t *testing.T) {
	tests := []struct {
		in   string
		want []want
	}{
		{"http://a.org/~user/ ok", []want{{"http://a.org/", Bare, []string{"http://a.org/~user/"}}}},
		{"http://a.org/{x}.", []want{{"http://a.org/", Bare, []string{"http://a.org/{x}"}}}},
		{"http://b.org/~ ok", []want{{"http://b.org/", Bare, nil}}},
		{"ssh://user@[2001:db8::1]:22/r.git and http://[::1]/", nil},
		{"git clone ssh://user@[2001:db8::1]:22/r.git", nil},
		{"<URL:http://a.org/~u>", []want{{"http://a.org/~u", URLBracket, nil}}}, // the wrapper says where it ends
		{"see http://gnu.org/li\u2010\n   censes/", []want{{"http://gnu.org/licenses/", Bare, nil}}},
	}
	for _, tt := range tests {
		sc := NewScanner(strings.NewReader(tt.in))
		sc.SetStrict(true)
		var ms []Match
		for sc.Scan() {
			ms = append(ms, sc.Match())
		}
		if got := wants(ms); !equalWants(got, tt.want) {
			t.Errorf("strict %q\n got %+v\nwant %+v", tt.in, got, tt.want)
		}
	}
}

func TestPositions(t *testing.T) {
	in := "ab\n  <URL:http://a.org/\n b>\r\nx http://c.org/ y"
	ms := All(in)
	if len(ms) != 2 {
		t.Fatalf("%d matches", len(ms))
	}
	want := []struct{ start, end Pos }{
		{Pos{10, 2, 8}, Pos{26, 3, 3}},
		{Pos{31, 4, 3}, Pos{44, 4, 16}},
	}
	for i, w := range want {
		if ms[i].Start != w.start || ms[i].End != w.end {
			t.Errorf("match %d %s: %+v..%+v, want %+v..%+v", i, ms[i].URL, ms[i].Start, ms[i].End, w.start, w.end)
		}
	}
	// The hyphen note points at the hyphen.
	in = "<URL:http://x-\n y.org/>"
	ms = All(in)
	if len(ms) != 1 || len(ms[0].Notes) != 1 || in[ms[0].Notes[0].Offset] != '-' {
		t.Errorf("All(%q) = %+v: want one note at the '-'", in, ms)
	}
}

// TestClassesAgreeWithCore checks the scanner's octet table against the
// core package, so that the two readings of §5 cannot drift.
func TestClassesAgreeWithCore(t *testing.T) {
	for c := 0; c < 256; c++ {
		b := string([]byte{byte(c)})
		// §5 xchar: what the core leaves unescaped in a gopher selector,
		// which allows every xchar (§3.4.1).
		xchar := rfc1738.Escape(b, rfc1738.GopherPart) == b
		if got := class[c]&cURL != 0 && c != '%' && c != '#'; got != xchar {
			t.Errorf("%q: URL octet %v, core xchar %v", b, got, xchar)
		}
		// §5 scheme: "a" c ":x" parses iff c may stand in a scheme name.
		if c != ':' {
			_, err := rfc1738.Parse("a" + b + ":x")
			if got := class[c]&cScheme != 0; got != (err == nil) {
				t.Errorf("%q: scheme octet %v, core parse error %v", b, got, err)
			}
		}
		// §2.2 national: unsafe, and not the punctuation the scanner
		// stops at anyway (<, >, ", #, %) nor a control or space.
		if c > ' ' && c < 0x7f && !xchar && !strings.ContainsRune(`<>"#%`, rune(c)) {
			r := rfc1738.Check("http://a.org/" + b)
			unsafe := len(r.Errors) == 1 && strings.Contains(r.Errors[0].Message, "unsafe")
			if got := class[c]&cNational != 0; got != unsafe {
				t.Errorf("%q: national %v, core says %v", b, got, r.Errors)
			}
		}
	}
}

func FuzzExtract(f *testing.F) {
	for _, tt := range ruleTests {
		f.Add(tt.in)
	}
	f.Add("Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\ntype=d> but you can probably pick it up from <URL:ftp://ds.in\nternic.net/rfc>.")
	f.Fuzz(func(t *testing.T, in string) {
		ms := All(in)
		checkMatches(t, in, ms)
		// With a 64-byte limit the buffer holds about 120 bytes: refills
		// everywhere, one byte per read, must not change what is found.
		whole, _ := scanAll(t, strings.NewReader(in), 64, len(in)+1)
		checkMatches(t, in, whole)
		got, err := scanAll(t, iotest.OneByteReader(strings.NewReader(in)), 64, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(got, whole, equalMatch) {
			t.Errorf("streaming:\n got %+v\nwant %+v", got, whole)
		}
		// Repeated past a few blocks, for colonBlocks: what it finds is
		// what the search colon by colon finds.
		if colonBlocks != nil {
			long := strings.Repeat(in+"\n", 1+400/(len(in)+1))
			var slow []Match
			withoutKernel(func() { slow = All(long) })
			if fast := All(long); !slices.EqualFunc(fast, slow, equalMatch) {
				t.Errorf("with colonBlocks:\n got %+v\nwant %+v", fast, slow)
			}
		}
	})
}

// TestFormNames: the forms by name, and a number beyond them.
func TestFormNames(t *testing.T) {
	for f, want := range map[Form]string{Bare: "bare", URLBracket: "url-bracket", Bracket: "bracket", URLPrefix: "url-prefix", 4: "Form(4)", 255: "Form(255)"} {
		if got := f.String(); got != want {
			t.Errorf("Form(%d).String() = %q, want %q", uint8(f), got, want)
		}
	}
}

// TestFragment: what follows the first '#', from its first octet on.
func TestFragment(t *testing.T) {
	tests := []struct {
		url, frag string
		ok        bool
	}{
		{"http://a.org/p#frag", "frag", true},
		{"http://a.org/p#", "", true},
		{"http://a.org/p#a#b", "a#b", true},
		{"#top", "top", true}, // a Match made by hand: the '#' may be first
		{"http://a.org/p", "", false},
	}
	for _, tt := range tests {
		if frag, ok := (Match{URL: tt.url}).Fragment(); frag != tt.frag || ok != tt.ok {
			t.Errorf("Fragment of %q = %q, %v; want %q, %v", tt.url, frag, ok, tt.frag, tt.ok)
		}
	}
}
