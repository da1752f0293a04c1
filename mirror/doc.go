// Package mirror keeps a local copy of an ftp tree or a gopher hole: the
// tree under one URL is walked through package access (the handlers'
// List and Fetch, so ftp over TLS and every listing format come with
// them), each file is written to a temporary name and renamed only when
// its transfer was read whole and verified, and a manifest in the folder
// records exactly the files that are complete.
//
//	ftp   §3.2.2's sequence (one CWD per <cwd>, %2F kept inside its
//	      element), MLSD where FEAT lists MLST (RFC 3659), else LIST in
//	      Unix or DOS form, else NLST; files as TYPE I, resumed with REST
//	      where the server honours it.
//	gopher  menus (type 1) followed on the URL's host and port, documents
//	      saved under their selector's path, each menu as "%gophermap",
//	      Gopher+ attributes beside their item (§3.4).
//
// A second run over the first run's folder fetches only what changed
// (size and time, to the second where the server tells it) and, with
// Options.Delete, removes what the server no longer lists, but only on a
// listing that was read to its end: a listing cut short, a refused
// directory or a failed login deletes nothing. Every remote name passes
// one mapping to a local name (nothing leaves the folder, no remote name
// can pose as a temporary or the manifest), every host and port a menu or
// a PASV reply names passes the §6 port guard, and Options.MaxSize and
// Options.MaxTotal bound what is written.
//
// Mirror is the entry point; the rfc1738 mirror command is a thin layer
// over it.
package mirror
