package rfc1738

import "strings"

// Prospero is the view of a prospero URL (§3.11).
type Prospero struct {
	// Hsoname is the decoded host-specific object name. Slashes carry no
	// meaning the client may assume; prospero://host.dom//pros/name has
	// the hsoname "/pros/name".
	Hsoname string
	// Fields are the decoded ;field=value pairs, in order.
	Fields []Field
}

// A Field is one prospero field=value pair (§3.11).
type Field struct{ Name, Value string }

// Prospero returns the prospero view of u, and false when u is not a
// prospero URL.
func (u URL) Prospero() (Prospero, bool) {
	if u.kind != KindProspero {
		return Prospero{}, false
	}
	path, _ := u.Path()
	parts := strings.Split(path, ";")
	pr := Prospero{Hsoname: unescape(parts[0])}
	for _, f := range parts[1:] {
		name, value, _ := strings.Cut(f, "=")
		pr.Fields = append(pr.Fields, Field{Name: unescape(name), Value: unescape(value)})
	}
	return pr, true
}
