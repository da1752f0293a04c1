package linkcheck

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/rfc1738/rfc1738"
	"github.com/rfc1738/rfc1738/access/gopher"
)

// gopherPeek is how many bytes of a gopher reply are read: enough to see
// a menu's first item or the start of a document.
const gopherPeek = 512

// checkGopher sends the selector (§3.4.1) and reads the first bytes of the
// reply. An error item (type 3) or an empty reply is broken. A type-7
// search without a search string is sent as its selector alone, without
// a query; a Gopher+ "?" item (§3.4.5) is asked for its attributes.
func (k *Checker) checkGopher(ctx context.Context, u rfc1738.URL) outcome {
	g, _ := u.Gopher()
	req := gopher.Request{Type: g.Type, Selector: g.Selector, Search: g.Search, HasSearch: g.HasSearch,
		Plus: g.Plus, HasPlus: g.HasPlus}
	if g.HasPlus && g.PlusKind == rfc1738.PlusAsk {
		req.Plus = "!"
	}
	gc := gopher.Client{Trace: k.Client.Trace}
	// Fetch reads the first line: an error item (type 3, RFC 1436) or a
	// Gopher+ error status is a *gopher.ServerError.
	resp, err := gc.Fetch(ctx, u.HostPort(), req)
	if err != nil {
		return broken(err)
	}
	defer resp.Body.Close()
	var buf [gopherPeek]byte
	n := 0
	for n == 0 {
		m, err := resp.Body.Read(buf[:])
		n += m
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return broken(err)
		}
	}
	if n == 0 {
		return outcome{status: Broken, detail: "empty reply"}
	}
	first, _, _ := strings.Cut(string(buf[:n]), "\n")
	first = strings.TrimSuffix(first, "\r")
	if resp.Kind == gopher.Menu {
		// RFC 1436: a menu is item lines; one that is not (a server's
		// plain "Error: …" text) says the selector named nothing.
		if _, err := gopher.ParseItem(first); err != nil && !strings.Contains(first, "\t") {
			return outcome{status: Broken, detail: "not a menu: " + first}
		}
	} else if n < gopherPeek && strings.HasPrefix(first, "Error: ") && len(first)+2 >= n {
		// The one-line error text some servers (gophernicus) send for a
		// missing selector of any type, instead of a type-3 item.
		return outcome{status: Broken, detail: "error reply: " + first}
	}
	what := "item"
	switch resp.Kind {
	case gopher.Menu:
		what = "menu"
	case gopher.Text:
		what = "text"
	}
	if g.Type == '7' && !g.HasSearch {
		what = "search (sent without a query)"
	}
	return okay("%s type %c, first %d bytes read", what, g.Type, n)
}
