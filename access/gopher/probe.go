package gopher

import (
	"context"
	"errors"
	"io"
	"strings"
)

// ProbeBytes is how many bytes of a reply Probe reads: enough to see a
// menu's first item or the start of a document.
const ProbeBytes = 512

// A Probe is what Client.Probe read of an item.
type Probe struct {
	Kind  Kind
	Bytes int // the bytes read, at most ProbeBytes
}

// A ProbeError is a reply that Probe found to name nothing, though no
// error item said so: an empty reply, a menu that is not one, a server's
// one-line "Error: " text.
type ProbeError struct {
	Reason string // "empty reply", "not a menu: …", "error reply: …"
}

func (e *ProbeError) Error() string { return e.Reason }

// Probe sends req and reads the first bytes of the reply, the lightest
// proof that the selector names an item: an error item (type 3, RFC
// 1436) or a Gopher+ error status is a *ServerError, an empty menu, a
// menu whose first line is no item and a one-line "Error: " text (what
// gophernicus sends for a missing selector of any type) are a
// *ProbeError. The connection is closed after.
func (c *Client) Probe(ctx context.Context, addr string, req Request) (Probe, error) {
	resp, err := c.Fetch(ctx, addr, req)
	if err != nil {
		return Probe{}, err
	}
	defer resp.Body.Close()
	var buf [ProbeBytes]byte
	n := 0
	for n == 0 {
		m, err := resp.Body.Read(buf[:])
		n += m
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return Probe{}, err
		}
	}
	if n == 0 {
		if resp.Kind != Menu {
			// An empty file is a document all the same (RFC 1436 puts
			// no floor on a document's length): the server sent it
			// whole, which is what a missing one never gets.
			return Probe{Kind: resp.Kind}, nil
		}
		return Probe{}, &ProbeError{Reason: "empty reply"}
	}
	first, _, _ := strings.Cut(string(buf[:n]), "\n")
	first = strings.TrimSuffix(first, "\r")
	if resp.Kind == Menu {
		// RFC 1436: a menu is item lines; one that is not (a server's
		// plain "Error: …" text) says the selector named nothing.
		if _, err := ParseItem(first); err != nil && !strings.Contains(first, "\t") {
			return Probe{}, &ProbeError{Reason: "not a menu: " + first}
		}
	} else if n < ProbeBytes && strings.HasPrefix(first, "Error: ") && len(first)+2 >= n {
		return Probe{}, &ProbeError{Reason: "error reply: " + first}
	}
	return Probe{Kind: resp.Kind, Bytes: n}, nil
}
