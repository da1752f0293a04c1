// Package linkcheck checks whether the URLs of a document set still name
// something, each by its scheme's own access method (RFC 1738 §3), with
// the lightest exchange that proves the object is there:
//
//   - ftp (§3.2): one login per host and user, shared by all its URLs
//     (ftp.Pool); the §3.2.2 CWD sequence, then SIZE (or MDTM, or a RETR
//     aborted after its 150 reply) for a file and CWD for a directory;
//     back to the login directory between URLs.
//   - http (§3.3) and https (RFC 2818): HEAD, GET when HEAD is refused;
//     redirects followed with the §6 port guard; connections kept per
//     host, HTTP/2 where a server offers it over TLS; the TLS policy of
//     the access Client (its roots, or none checked).
//   - gopher (§3.4): the selector sent and the first bytes read; an error
//     item (type 3) or an empty menu is broken, an empty document is ok;
//     a type-7 search is sent without a query.
//   - news (§3.6): STAT <message-id> or GROUP on the configured server;
//     nntp (§3.7): GROUP, then STAT n.
//   - wais (§3.9): the Z39.50 init and a search whose first record is
//     presented.
//   - telnet (§3.8): the TCP connection is accepted; no login is tried.
//   - file (§3.10): a local stat, never a remote host; a file URL found in
//     a document retrieved from elsewhere is skipped, nothing opened.
//   - mailto (§3.5): the address syntax only, skipped unless an SMTP relay
//     is set to verify it with RCPT TO (no DATA).
//   - prospero and others: through a configured gateway (§4), or skipped.
//
// Each distinct URL (by §2.2 normalization) is checked once, through a
// crawl.Frontier that limits the visits per host. A Result is ok, broken
// (the server or the network said no), invalid (not an RFC 1738 URL) or
// skipped (no way to check), with a one-line detail; transient failures
// (ftp 4xx, nntp 400, http 429 and 503, timeouts) are retried with
// back-off.
//
// Inputs are gathered from URLs, files (the URLs extract finds, and the
// href and src attributes of HTML) and directories; Reports are written as
// text, JSON Lines, CSV, JUnit XML, Markdown, GitHub workflow commands or
// SARIF 2.1.0.
//
// A Tree checks documentation as written: local HTML (every URL
// attribute, CSS url() and @import), Markdown (goldmark: links, images,
// autolinks, raw HTML; nothing in code) and text, read in parallel.
// Links to the tree's own files are checked in it (the file, a folder's
// index, the #fragment among ids, <a name>s and heading slugs), each at
// its file, line and column; the network ones are given to a Run.
//
// A recursive Run checks a site as LinkChecker does: the links of each
// page on a site of the input (scheme, host and port) are read, relative
// ones resolved as browsers resolve them (RFC 3986 §5.2, <base href>),
// and checked; links to other sites are checked, not followed; each
// site's robots.txt (RFC 9309) is obeyed unless Run.NoRobots.
package linkcheck
