// Package gopher is a Gopher (RFC 1436) and Gopher+ client: the access
// method behind RFC 1738 §3.4 gopher URLs.
//
// A higher layer parses a gopher URL into a [Request] (item type, selector,
// search, Gopher+ string, all already %-decoded); [Client.Fetch] sends the
// request line that §3.4.1–§3.4.3 and §3.4.9 prescribe and returns a
// [Response] whose Body streams the item according to its type:
//
//   - text items (types 0, 4, 6, h, M) are read to the close, and never
//     lose a byte: RFC 1436 ends text with a lone "." line and dot-stuffs
//     lines starting ".", but most servers (gophernicus, geomyidae) send
//     files as stored, which may hold such lines. So a lone "." line is
//     taken as the terminator, and removed, only when the connection closes
//     right after it, and ".." lines are kept unless [Client.Unstuff] asks;
//     [Response.Terminated] tells the two ends apart, and the trace says
//     which reading was used. [Client.Raw] keeps the bytes as sent;
//   - menus (type 1, and search results of type 7) are read the same way and
//     parsed into [Item] values by [NewMenuReader] or [ParseMenu];
//   - every other type (9, g, I, 5, s, ;, d, …) is read raw to EOF; copied
//     with io.Copy into an io.ReaderFrom such as an *os.File, such a body
//     (and a Gopher+ "+-2" one) hands over the connection itself once the
//     first MiB came fast, so the kernel splices it into the file;
//   - a type-3 error line in place of an item surfaces as a [*ServerError].
//
// With a Gopher+ string the reply starts with a status line ("+N", "+-1",
// "+-2", or "-…" for an error block); [Response.Size] reports N when the
// server announces it. Gopher+ attribute replies ("!" and "$") are parsed by
// [ParseAttributes]; +ASK forms (§3.4.5) are parsed by [Block.Questions] and
// answered with [FillForm], which builds the §3.4.9 Gopher+ string.
//
// Safety (RFC 1738 §6): a selector or search containing TAB, CR, LF or NUL is
// refused before anything is sent, and so is a Gopher+ string with CR, LF or
// TAB outside the §3.4.9 form layout. Every line read from a server is
// bounded, menus are bounded in items, and every read honours the context.
package gopher
