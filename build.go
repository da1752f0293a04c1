package rfc1738

import (
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// The builders below make a URL from decoded parts, one struct per scheme
// of §3. Each writes every part with the minimal encoding its §5 production
// needs (Escape of the part's Component): an octet is encoded only when it
// is not allowed unencoded there, or when it is a reserved character that
// would otherwise be read for its reserved purpose. Host names are never
// encoded: a host the grammar rejects is an error.
//
// Each builder has two methods: Append writes the URL to a byte slice
// without parsing it again, and URL returns the parsed URL. Parsing a built
// URL gives back, through the scheme's view, exactly the parts it was built
// from (the tests and FuzzBuild check this).

// BuildError reports a part that a builder cannot write into a URL.
type BuildError struct {
	Kind  Kind   // the scheme being built
	Field string // the builder's field, e.g. "Host" or "Selector"
	Value string // the offending value
	// Diagnostic gives the offset into Value, the §5 rule and the reason.
	Diagnostic
}

func (e *BuildError) Error() string {
	return "rfc1738: build " + e.Kind.String() + " URL: " + e.Field + " " + strconv.Quote(e.Value) +
		": offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + ": " + e.Message
}

func buildErr(k Kind, field, value string, off int, rule, msg string) error {
	return &BuildError{Kind: k, Field: field, Value: value, Diagnostic: Diagnostic{Offset: off, Rule: rule, Message: msg}}
}

// checkHost validates host with the §5 grammar; hosts are never escaped.
func checkHost(k Kind, host string, needed bool) error {
	if host == "" {
		if needed {
			return buildErr(k, "Host", host, 0, "host", "the host name is missing (§3.1)")
		}
		return nil
	}
	p := parser{s: host}
	if p.host(0, len(host)) {
		return nil
	}
	return &BuildError{Kind: k, Field: "Host", Value: host, Diagnostic: p.diagnostic()}
}

// appendLogin writes "scheme://[user[:password]@]host[:port]".
func appendLogin(dst []byte, k Kind, user, password string, hasUser, hasPassword bool, host string, port int) ([]byte, error) {
	if err := checkHost(k, host, k != KindFile); err != nil {
		return dst, err
	}
	if port < 0 || port > 65535 {
		return dst, buildErr(k, "Port", strconv.Itoa(port), 0, "port", "a TCP port is between 1 and 65535; 0 leaves it out (§3.1)")
	}
	dst = append(dst, kindNames[k]...)
	dst = append(dst, "://"...)
	hasPassword = hasPassword || password != ""
	if hasUser || user != "" || hasPassword {
		// §3.1: ":", "@" and "/" within user and password are encoded.
		dst = AppendEscape(dst, user, UserComponent)
		if hasPassword {
			dst = append(dst, ':')
			dst = AppendEscape(dst, password, UserComponent)
		}
		dst = append(dst, '@')
	}
	dst = append(dst, host...)
	if port != 0 {
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, int64(port), 10)
	}
	return dst, nil
}

// appendEscapeData escapes s for component c and also encodes the octets
// of reserved, which the production allows unencoded only for their
// reserved purpose (§2.2) and which are data here.
func appendEscapeData(dst []byte, s string, c Component, reserved string) []byte {
	for {
		i := strings.IndexAny(s, reserved)
		if i < 0 {
			return AppendEscape(dst, s, c)
		}
		dst = AppendEscape(dst, s[:i], c)
		dst = append(dst, '%', upperhex[s[i]>>4], upperhex[s[i]&15])
		s = s[i+1:]
	}
}

func parseBuilt(b []byte, err error) (URL, error) {
	if err != nil {
		return URL{}, err
	}
	return Parse(string(b))
}

// FTPURL builds an ftp URL (§3.2).
type FTPURL struct {
	Host string
	Port int // 0 leaves the port out: the default, 21
	// User and Password are decoded. A user is written when HasUser is set
	// or User is not empty, a password likewise; an empty user differs from
	// an absent one (§3.1: ftp://@host/ is not anonymous FTP).
	User, Password       string
	HasUser, HasPassword bool
	// Cwd are the <cwd1>…<cwdN> elements, each the argument of one CWD
	// (§3.2.2). A "/" inside an element is encoded as %2F: Cwd ["/etc"]
	// is written %2Fetc.
	Cwd  []string
	Name string
	// Type is the typecode: 0 for none, else one of a, i, d (§3.2.2).
	Type byte
}

// Append appends the URL to dst.
func (f FTPURL) Append(dst []byte) ([]byte, error) {
	switch f.Type {
	case 0, 'a', 'i', 'd', 'A', 'I', 'D':
	default:
		return dst, buildErr(KindFTP, "Type", string(f.Type), 0, "ftptype", "the typecode is one of a, i, d (§3.2.2)")
	}
	dst, err := appendLogin(dst, KindFTP, f.User, f.Password, f.HasUser, f.HasPassword, f.Host, f.Port)
	if err != nil {
		return dst, err
	}
	// §3.2.2: <cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>; "/" and
	// ";" within a segment are encoded (FSegment does both).
	dst = append(dst, '/')
	for _, c := range f.Cwd {
		dst = AppendEscape(dst, c, FSegment)
		dst = append(dst, '/')
	}
	dst = AppendEscape(dst, f.Name, FSegment)
	if f.Type != 0 {
		dst = append(dst, ";type="...)
		dst = append(dst, f.Type)
	}
	return dst, nil
}

// URL returns the built URL.
func (f FTPURL) URL() (URL, error) { return parseBuilt(f.Append(make([]byte, 0, 96))) }

// HTTPURL builds an http URL (§3.3).
type HTTPURL struct {
	Host string
	Port int // 0 leaves the port out: the default, 80
	// Segments are the decoded path segments; "/", ";" and "?" in them are
	// data and encoded (§3.3: they are reserved in the path). No segments
	// and no search give "http://host/".
	Segments []string
	// Search is the decoded search, written after "?" when HasSearch is
	// set or Search is not empty. "/", ";" and "?" are encoded (§3.3); "&",
	// "=", ":" and "@" stay as written, since searches use them as
	// delimiters (encode data that holds them with Escape before).
	Search    string
	HasSearch bool
}

// Append appends the URL to dst.
func (h HTTPURL) Append(dst []byte) ([]byte, error) {
	dst, err := appendLogin(dst, KindHTTP, "", "", false, false, h.Host, h.Port)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	for i, s := range h.Segments {
		if i > 0 {
			dst = append(dst, '/')
		}
		dst = appendEscapeData(dst, s, HSegment, ";")
	}
	if h.HasSearch || h.Search != "" {
		dst = append(dst, '?')
		dst = appendEscapeData(dst, h.Search, Search, ";")
	}
	return dst, nil
}

// URL returns the built URL.
func (h HTTPURL) URL() (URL, error) { return parseBuilt(h.Append(make([]byte, 0, 96))) }

// GopherURL builds a gopher URL (§3.4).
type GopherURL struct {
	Host string
	Port int // 0 leaves the port out: the default, 70
	// Type is the gophertype. 0 means "1", a directory (§3.4.1); with an
	// empty selector and no search it gives "gopher://host/".
	Type byte
	// Selector and Search are decoded. Neither may hold a TAB (%09 would
	// end it, §3.4.1), CR, LF or NUL (they would break the gopher request
	// line, §6). The search is written when HasSearch is set or Search is
	// not empty, and always before a Gopher+ string (§3.4.3).
	Selector, Search string
	HasSearch        bool
	// Plus is the decoded Gopher+ string (§3.4.4–§3.4.9), written when
	// HasPlus is set or Plus is not empty. It may hold TAB, CR and LF: the
	// §3.4.9 form string "+\t1\r\n+-1\r\n…" is written +%091%0D%0A+-1%0D%0A….
	Plus    string
	HasPlus bool
}

// Append appends the URL to dst.
func (g GopherURL) Append(dst []byte) ([]byte, error) {
	if g.Type == '\t' || g.Type == '\r' || g.Type == '\n' {
		return dst, buildErr(KindGopher, "Type", string(g.Type), 0, "gtype", "a gopher type cannot be TAB, CR or LF (§3.4.1)")
	}
	for _, f := range [...]struct{ name, v, rule string }{{"Selector", g.Selector, "selector"}, {"Search", g.Search, "search"}} {
		if i := strings.IndexAny(f.v, "\t\r\n\x00"); i >= 0 {
			msg := "a " + f.rule + " cannot hold a TAB: %09 would end it (§3.4.1)"
			if f.v[i] != '\t' {
				msg = "a " + f.rule + " cannot hold CR, LF or NUL: they would break the gopher request line (§6)"
			}
			return dst, buildErr(KindGopher, f.name, f.v, i, f.rule, msg)
		}
	}
	dst, err := appendLogin(dst, KindGopher, "", "", false, false, g.Host, g.Port)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	hasPlus := g.HasPlus || g.Plus != ""
	hasSearch := g.HasSearch || g.Search != "" || hasPlus
	typ := g.Type
	if typ == 0 {
		if g.Selector == "" && !hasSearch {
			return dst, nil // §3.4.1: an empty gopher-path is type 1
		}
		typ = '1'
	}
	// §3.4.1: "no characters are reserved": the parts are xchar, and an
	// encoded TAB (%09) separates them.
	var t [1]byte
	t[0] = typ
	dst = AppendEscape(dst, string(t[:]), GopherPart)
	dst = AppendEscape(dst, g.Selector, GopherPart)
	if hasSearch {
		dst = append(dst, "%09"...)
		dst = AppendEscape(dst, g.Search, GopherPart)
	}
	if hasPlus {
		dst = append(dst, "%09"...)
		dst = AppendEscape(dst, g.Plus, GopherPart)
	}
	return dst, nil
}

// URL returns the built URL.
func (g GopherURL) URL() (URL, error) { return parseBuilt(g.Append(make([]byte, 0, 96))) }

// MailtoURL builds a mailto URL (§3.5).
type MailtoURL struct {
	// Address is the decoded RFC 822 address. §3.5: there are no reserved
	// characters; "%" and the unsafe characters are encoded.
	Address string
}

// Append appends the URL to dst.
func (m MailtoURL) Append(dst []byte) ([]byte, error) {
	if m.Address == "" {
		return dst, buildErr(KindMailto, "Address", "", 0, "encoded822addr", "a mailto URL needs an address (§3.5)")
	}
	dst = append(dst, "mailto:"...)
	return AppendEscape(dst, m.Address, Address), nil
}

// URL returns the built URL.
func (m MailtoURL) URL() (URL, error) { return parseBuilt(m.Append(make([]byte, 0, 96))) }

// NewsURL builds a news URL (§3.6) from either a newsgroup name (or "*"
// for all groups) or a message-id.
type NewsURL struct {
	// Group is a newsgroup name (§5 group: letters, digits, "-", ".", "+",
	// "_", starting with a letter), or "*". Group names are never encoded.
	Group string
	// MessageID is a message-id, with or without its "<" and ">". The part
	// before its last "@" is encoded as §5 article allows; the part after
	// it must be a §5 host.
	MessageID string
}

// Append appends the URL to dst.
func (n NewsURL) Append(dst []byte) ([]byte, error) {
	switch {
	case (n.Group == "") == (n.MessageID == ""):
		return dst, buildErr(KindNews, "Group", n.Group, 0, "grouppart", "a news URL names either a group or a message-id (§3.6)")
	case n.Group == "*":
		return append(dst, "news:*"...), nil
	case n.Group != "":
		if err := checkGroup(KindNews, n.Group); err != nil {
			return dst, err
		}
		dst = append(dst, "news:"...)
		return append(dst, n.Group...), nil
	}
	id := n.MessageID
	if len(id) >= 2 && id[0] == '<' && id[len(id)-1] == '>' {
		id = id[1 : len(id)-1]
	}
	at := strings.LastIndexByte(id, '@')
	if at <= 0 {
		return dst, buildErr(KindNews, "MessageID", n.MessageID, max(at, 0), "article", "a message-id is unique-part@host (§3.6)")
	}
	p := parser{s: id}
	if !p.host(at+1, len(id)) {
		return dst, &BuildError{Kind: KindNews, Field: "MessageID", Value: id, Diagnostic: p.diagnostic()}
	}
	dst = append(dst, "news:"...)
	dst = AppendEscape(dst, id[:at], ArticlePart) // "@" is not in article: encoded
	dst = append(dst, id[at:]...)
	return dst, nil
}

// URL returns the built URL.
func (n NewsURL) URL() (URL, error) { return parseBuilt(n.Append(make([]byte, 0, 96))) }

func checkGroup(k Kind, g string) error {
	p := parser{s: g}
	if p.group(0, len(g)) {
		return nil
	}
	return &BuildError{Kind: k, Field: "Group", Value: g, Diagnostic: p.diagnostic()}
}

// NNTPURL builds an nntp URL (§3.7).
type NNTPURL struct {
	Host  string
	Port  int    // 0 leaves the port out: the default, 119
	Group string // a §5 group, never encoded
	// Article is the article number's digits, or "" for the whole group.
	Article string
}

// Append appends the URL to dst.
func (n NNTPURL) Append(dst []byte) ([]byte, error) {
	if err := checkGroup(KindNNTP, n.Group); err != nil {
		return dst, err
	}
	for i := 0; i < len(n.Article); i++ {
		if classes[n.Article[i]]&classDigit == 0 {
			return dst, buildErr(KindNNTP, "Article", n.Article, i, "digits", "an article number has only digits (§3.7)")
		}
	}
	dst, err := appendLogin(dst, KindNNTP, "", "", false, false, n.Host, n.Port)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	dst = append(dst, n.Group...)
	if n.Article != "" {
		dst = append(dst, '/')
		dst = append(dst, n.Article...)
	}
	return dst, nil
}

// URL returns the built URL.
func (n NNTPURL) URL() (URL, error) { return parseBuilt(n.Append(make([]byte, 0, 96))) }

// TelnetURL builds a telnet URL (§3.8): "telnet://user:password@host:port/".
type TelnetURL struct {
	Host string
	Port int // 0 leaves the port out: the default, 23
	// User and Password are decoded advice to the user (§3.8); written as
	// in FTPURL.
	User, Password       string
	HasUser, HasPassword bool
}

// Append appends the URL to dst.
func (t TelnetURL) Append(dst []byte) ([]byte, error) {
	dst, err := appendLogin(dst, KindTelnet, t.User, t.Password, t.HasUser, t.HasPassword, t.Host, t.Port)
	if err != nil {
		return dst, err
	}
	return append(dst, '/'), nil
}

// URL returns the built URL.
func (t TelnetURL) URL() (URL, error) { return parseBuilt(t.Append(make([]byte, 0, 96))) }

// WAISURL builds a wais URL (§3.9): a database, a search of it (HasSearch
// or a non-empty Search), or a document (IsDocument, with Type and Path).
type WAISURL struct {
	Host     string
	Port     int    // 0 leaves the port out: the default, 210
	Database string // decoded; §5 uchar, so every reserved character is encoded
	// Search is decoded; written like HTTPURL.Search.
	Search    string
	HasSearch bool
	// Type and Path are the decoded wtype and wpath of a document.
	Type, Path string
	IsDocument bool
}

// Append appends the URL to dst.
func (w WAISURL) Append(dst []byte) ([]byte, error) {
	hasSearch := w.HasSearch || w.Search != ""
	if hasSearch && (w.IsDocument || w.Type != "" || w.Path != "") {
		return dst, buildErr(KindWAIS, "Search", w.Search, 0, "waisurl", "a wais URL is a search or a document, not both (§3.9)")
	}
	dst, err := appendLogin(dst, KindWAIS, "", "", false, false, w.Host, w.Port)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	dst = AppendEscape(dst, w.Database, UChar)
	switch {
	case hasSearch:
		dst = append(dst, '?')
		dst = appendEscapeData(dst, w.Search, Search, ";")
	case w.IsDocument || w.Type != "" || w.Path != "":
		dst = append(dst, '/')
		dst = AppendEscape(dst, w.Type, UChar)
		dst = append(dst, '/')
		dst = AppendEscape(dst, w.Path, UChar)
	}
	return dst, nil
}

// URL returns the built URL.
func (w WAISURL) URL() (URL, error) { return parseBuilt(w.Append(make([]byte, 0, 96))) }

// FileURL builds a file URL (§3.10).
type FileURL struct {
	// Host is "" or "localhost" for this machine, else a §5 host name.
	Host string
	// Segments are the decoded path segments; "/" and ";" in them are
	// encoded. No segments give "file://host/".
	Segments []string
}

// FileURLFromPath returns the FileURL of an absolute path of this
// operating system, with an empty host (this machine, §3.10). Each path
// element becomes one segment, so a name with spaces or in another script
// is encoded (UTF-8 "東京" becomes %E6%9D%B1%E4%BA%AC). On Windows the
// volume "C:" is the first segment.
func FileURLFromPath(path string) (FileURL, error) {
	if !filepath.IsAbs(path) {
		return FileURL{}, buildErr(KindFile, "Path", path, 0, "fpath", "a file URL is built from an absolute path (§3.10)")
	}
	if i := strings.IndexByte(path, 0); i >= 0 {
		return FileURL{}, buildErr(KindFile, "Path", path, i, "fpath", "a path holds no NUL")
	}
	path = filepath.Clean(path)
	vol := filepath.VolumeName(path)
	rest := filepath.ToSlash(path[len(vol):])
	rest = strings.TrimPrefix(rest, "/")
	var segs []string
	if vol != "" {
		if runtime.GOOS == "windows" && strings.HasPrefix(vol, `\\`) {
			return FileURL{}, buildErr(KindFile, "Path", path, 0, "fpath", "a UNC path names another host; build the FileURL with Host")
		}
		segs = append(segs, vol)
	}
	if rest != "" {
		segs = append(segs, strings.Split(rest, "/")...)
	}
	return FileURL{Segments: segs}, nil
}

// Append appends the URL to dst.
func (f FileURL) Append(dst []byte) ([]byte, error) {
	dst, err := appendLogin(dst, KindFile, "", "", false, false, f.Host, 0)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	for i, s := range f.Segments {
		if i > 0 {
			dst = append(dst, '/')
		}
		dst = AppendEscape(dst, s, FSegment)
	}
	return dst, nil
}

// URL returns the built URL.
func (f FileURL) URL() (URL, error) { return parseBuilt(f.Append(make([]byte, 0, 96))) }

// ProsperoURL builds a prospero URL (§3.11).
type ProsperoURL struct {
	Host string
	Port int // 0 leaves the port out: the default, 1525
	// Hsoname is the decoded host-specific object name. Its "/" are
	// written as they are (§3.11: "/" has no meaning a client may assume,
	// and the view reads %2F and "/" alike); ";" is encoded.
	Hsoname string
	// Fields are written as ";name=value", decoded; ";" and "=" in them
	// are encoded.
	Fields []Field
}

// Append appends the URL to dst.
func (p ProsperoURL) Append(dst []byte) ([]byte, error) {
	dst, err := appendLogin(dst, KindProspero, "", "", false, false, p.Host, p.Port)
	if err != nil {
		return dst, err
	}
	dst = append(dst, '/')
	name := p.Hsoname
	for {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			break
		}
		dst = AppendEscape(dst, name[:i], FSegment)
		dst = append(dst, '/')
		name = name[i+1:]
	}
	dst = AppendEscape(dst, name, FSegment)
	for _, f := range p.Fields {
		dst = append(dst, ';')
		dst = AppendEscape(dst, f.Name, FieldPart)
		dst = append(dst, '=')
		dst = AppendEscape(dst, f.Value, FieldPart)
	}
	return dst, nil
}

// URL returns the built URL.
func (p ProsperoURL) URL() (URL, error) { return parseBuilt(p.Append(make([]byte, 0, 96))) }
