package gopher

import (
	"fmt"
	"strings"

	"github.com/rfc1738/rfc1738"
)

// TypeNote says, for a plan or a trace, how a reply of item type t is
// read (RFC 1436; see KindOf).
func TypeNote(t byte) string {
	label := strings.Trim(TypeName(t), "()")
	switch KindOf(t) {
	case Menu:
		if t == '7' {
			return "item type 7 (search): the results are a menu, listed as the URLs of its items"
		}
		return fmt.Sprintf("item type %c (%s): a menu, listed as the URLs of its items", t, label)
	case Text:
		return fmt.Sprintf("item type %c (%s): text, read up to a lone \".\" line or the close", t, label)
	}
	return fmt.Sprintf("item type %c (%s): binary, read raw to the close", t, label)
}

// PlusNote says what a Gopher+ string of kind k (plus as the URL has it)
// asks for (RFC 1738 §3.4.3–§3.4.9).
func PlusNote(k rfc1738.PlusKind, plus string) string {
	switch k {
	case rfc1738.PlusDefaultView:
		return "Gopher+ default view (§3.4.4)"
	case rfc1738.PlusItemAttributes:
		return "Gopher+ attributes of the item (§3.4.6, §3.4.7)"
	case rfc1738.PlusDirectoryAttributes:
		return "Gopher+ attributes of every item of the directory (§3.4.6, §3.4.7)"
	case rfc1738.PlusAlternateView:
		return fmt.Sprintf("Gopher+ alternate view %q (§3.4.8)", plus[1:])
	case rfc1738.PlusForm:
		return "a filled-out Gopher+ form, sent as written (§3.4.9)"
	}
	return "a Gopher+ string §3.4 does not name, sent as written (§3.4.3)"
}
