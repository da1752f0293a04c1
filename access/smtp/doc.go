// Package smtp is the SMTP client of mailto URLs (RFC 1738 §3.5): one
// conversation with a relay that takes a message for a mailbox.
//
// It follows RFC 5321 (the session: greeting, EHLO with HELO as the
// fall-back of §3.2, MAIL, RCPT, DATA, QUIT, and the reply codes of §4.2),
// RFC 3207 (STARTTLS, and EHLO again afterwards, §4.2), RFC 4954 (AUTH with
// an initial response) and RFC 4616 (the PLAIN mechanism).
//
// A higher layer decides the envelope and the steps (the access package's
// mailto plan); [Dial] opens the session and reads the greeting, and the
// [Client]'s methods send exactly one command each: [Client.Hello],
// [Client.StartTLS], [Client.AuthPlain], [Client.Cmd] for MAIL, RCPT and
// DATA, [Client.Data] for the message, [Client.Quit].
//
// A relay's refusal is a [*RefusalError], which holds the *textproto.Error
// with its code and text and prints the text escaped; a relay
// that breaks the protocol is a [*ProtocolError]. Everything read from the
// relay in one session is bounded by [MaxRead], and every read and write
// honours the context given to Dial.
//
// Safety (RFC 1738 §6, RFC 5321 §2.3.8): the message goes out dot-stuffed
// (§4.5.2) with every line ending in CRLF: a lone CR or a lone LF becomes
// CRLF, so a relay that reads a bare CR or LF as the end of a line cannot be
// made to see a "." line, and an end of data, that the client did not send
// (SMTP smuggling); a NUL is refused with its offset (RFC 5322 §3.5's text
// excludes it, and relays treat it differently). The trace sits above TLS,
// so it shows the conversation in clear text; the password of AUTH PLAIN
// and the message itself are never traced.
//
// The standard library's net/smtp is not used: its StartTLS wraps the
// connection it was given, so a trace under it would see ciphertext; it
// drops bytes a relay sends after "220" to STARTTLS without a word (RFC 3207
// §6); its reads are unbounded; and its Data passes a bare CR through.
package smtp
