package browse

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access"
)

// Dump fetches raw and writes its page as the screen renders it, then,
// when it has links, a numbered list of their URLs under "References",
// as lynx -dump does. Nobody is asked anything: a search, a form or a
// password the URL does not hold is an error naming what is missing. A
// page that ended early is written, and its error returned.
func Dump(ctx context.Context, raw string, opts Options, w io.Writer) error {
	u, _, err := rfc1738.Read(raw) // as browsers read it (RFC 3986 updates RFC 1738)
	if err != nil {
		return fmt.Errorf("%s is not a URL anything reads: %w", access.Redact(raw), err)
	}
	switch u.Scheme() {
	case "telnet":
		return errors.New("a telnet URL is a session, not a page (§3.8): browse it in the screen")
	case "mailto":
		return errors.New("a mailbox, not a page (§3.5): send to it with rfc1738 mail")
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	m := &Model{opts: opts} // no screen: only the fetch
	o := newOperation(ctx, 1, access.Redact(raw), opts.Timeout)
	defer o.cancel()
	o.noAsk = true
	p, err := m.fetchPage(o, u)
	if err != nil {
		return err
	}
	if !p.Document && len(p.Links) == 0 && p.Title == binaryTitle {
		return fmt.Errorf("%s is not text: fetch it with rfc1738 get", access.Redact(raw))
	}
	bw := bufio.NewWriter(w)
	writeDump(bw, p)
	if err := bw.Flush(); err != nil {
		return err
	}
	return p.Err
}

// writeDump writes p as lynx -dump lays a page out.
func writeDump(w io.Writer, p *Page) {
	for _, l := range p.Lines {
		fmt.Fprintln(w, l.Text)
	}
	if len(p.Links) == 0 {
		return
	}
	fmt.Fprint(w, "\nReferences\n\n")
	for i, l := range p.Links {
		fmt.Fprintf(w, "%4d. %s\n", i+1, linkTarget(l))
	}
}
