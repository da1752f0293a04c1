// Package crawl visits many URLs at once: a frontier of URLs to visit,
// each visited once, with per-host manners and bounded memory. It is the
// layer between the access methods (package access and its protocol
// clients, which speak to one server about one URL) and the commands that
// work on whole document sets (rfc1738 linkcheck, and mirroring).
//
//	text → Parse → access (one URL, one protocol) → crawl (many URLs) → cmd
//
// What it offers its users:
//
//   - A Frontier: URLs are added as they are found (in files, in menus,
//     in listings); a URL equivalent to one already seen under RFC 1738
//     §2.2 (rfc1738.Normalize: "%68ello" is "hello", the host's case and a
//     default port do not matter) is not visited again, and Add says so,
//     so the caller can record one more place where it occurs.
//   - Per-host concurrency and politeness: at most PerHost visits run
//     against one host:port at a time (the ftp check keeps that many
//     logins open and reuses them for every URL of the host), at most
//     Jobs in all, and an optional Delay between two visits of one host.
//   - Bounded memory: the frontier holds the normalized key and a small
//     record per distinct URL, never a document; work waits in per-host
//     queues and a fixed number of goroutines drain them.
//   - Depth: each URL carries the depth at which it was found, so a
//     recursive visit (links found in what was retrieved) can stop at a
//     limit and stay on its first hosts.
//
// The visit itself is a function the caller gives (Visitor): linkcheck
// checks the URL with the lightest exchange of its scheme, a mirror would
// fetch it. A visit may add the URLs it found to the same frontier.
package crawl
