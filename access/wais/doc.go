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
// Retrieve sends the document id in the query alternative Z39.50 v2/v3
// keep for queries agreed between the two ends: type-0 (Query ::= CHOICE {
// type-0 [0] ANY, … }). (Version 3's type-104, an EXTERNAL, would need a
// registered OID for a WAIS query, and there is none.) Its contents are
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
// Why not a type-1 query with the Bib-1 Use attribute 1032 (Doc-id), or
// the docid as a type-2/100/102 octet string? A target that ignores what
// it cannot use answers those with hits: yaz-ztest does, for all four, and
// presenting the "hit" would hand back an unrelated record as if it were
// the document. A wrong document is worse than a clear refusal.
//
// # Errors
//
// A target's "no" is a *Diagnostic (Bib-1 code and addinfo, e.g. 109
// "Database unavailable" for an unknown database), an *InitRefusedError,
// or a *ClosedError when it ends the association instead of answering; a
// peer that breaks the protocol gives a *ProtocolError. Arguments holding
// CR, LF or NUL are refused with an *ArgError before anything is sent
// (RFC 1738 §6).
package wais
