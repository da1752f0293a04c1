// Package wais is the access method for wais URLs (RFC 1738 §3.9): a
// Z39.50 client that speaks the APDUs WAIS is built on, in BER, over TCP.
//
// RFC 1738 §3.9 names three forms, port 210 by default:
//
//	wais://host:port/database              a database: Dial (Init) only
//	wais://host:port/database?search       a search: Search, then Present
//	wais://host:port/database/wtype/wpath  a document: Retrieve
//
// # What is spoken
//
// WAIS (RFC 1625) is a profile of Z39.50-1988: an InitializeRequest, a
// SearchRequest, a PresentRequest. This package sends those APDUs as
// Z39.50 version 2 and 3 define them (Z39.50-1995 §3.2.1 Init, §3.2.2
// Search, §3.2.3 Present, §3.2.11 Close), BER-encoded by the sibling
// package ber, so any standard Z39.50 target answers it; yaz-ztest is the
// one the tests run against.
//
// A search string (the <search> part, already %-decoded by the URL layer)
// becomes a type-1 (RPN) query with attribute set Bib-1
// (1.2.840.10003.3.1). WAIS took <search> as free-text "seed words"; this
// client splits it into words at '+' (the form-encoding of a space, which
// WAIS gateways used) and at spaces, and ANDs the words: "computer" is one
// term, "computer+water" is @and computer water. No attributes are sent
// with the terms, so the target applies its default access point, which is
// what a WAIS server did with seed words. (A WAIS server ranks documents by
// how many seed words they hold; a Boolean Z39.50 target cannot rank, and
// AND keeps the hits that a WAIS server would have ranked first.)
//
// Records come back as SUTRS (1.2.840.10003.5.101), plain text, or USMARC
// (1.2.840.10003.5.10), MARC octets; Record.Text renders either.
//
// # Document ids, and what a generic target can do with them
//
// In the third form, <wpath> is a WAIS document id, opaque to everyone but
// the server that issued it (RFC 1738 §3.9), and <wtype> is the document's
// WAIS type (TEXT, HTML, …). A WAIS server fetched a document by a search
// whose query was not an RPN query at all but a WAIS "text retrieval
// query": a list of document objects (document id, type, chunk range),
// under query type "1" of Z39.50-1988, in WAIS's own encoding (RFC 1625;
// freeWAIS's makeWAISTextQuery). Z39.50 version 2 and 3 have no such query:
// their type-1 is RPN, and the document id of a WAIS hit is not an access
// point a generic target knows. A generic Z39.50 target therefore has no
// way to fetch by WAIS document id.
//
// Retrieve sends the document id the only way Z39.50 v2/v3 leaves open for
// a query the standard does not define: as a type-0 query ("private",
// Query ::= CHOICE { type-0 [0] ANY, … }), whose contents are
//
//	WAISDocumentQuery ::= SEQUENCE {
//	  docid [1] IMPLICIT OCTET STRING,  -- <wpath>, %-decoded
//	  type  [2] IMPLICIT VisibleString  -- <wtype>
//	}
//
// A target that knows this query (a WAIS-to-Z39.50 gateway) answers with
// one hit, which Retrieve then presents. A generic target cannot: the best
// it can do is a diagnostic (Bib-1 107 "Query type not supported"), and a
// target built on YAZ, yaz-ztest included, cannot even decode a type-0
// query and closes the association with reason protocolError ("Malformed
// package"). Retrieve returns either as a *RetrieveError that says the
// target does not understand WAIS document ids, wrapping the *Diagnostic
// or the *ClosedError. After a Close the Conn is unusable; dial again.
//
// Why not a type-1 query with the Bib-1 Use attribute 1032 (Doc-id)? A
// target that ignores attributes, as yaz-ztest does, would then return
// some unrelated record as if it were the document; a wrong document is
// worse than a clear refusal.
//
// # Errors
//
// A target's "no" is a *Diagnostic (Bib-1 code and addinfo, e.g. 109
// "Database unavailable" for an unknown database); a peer that breaks the
// protocol gives a *ProtocolError. Arguments holding CR, LF or NUL are
// refused before anything is sent (RFC 1738 §6).
package wais
