// Package termquiet keeps the terminal UI library from asking the
// terminal anything while the program starts.
//
// Bubble Tea v1 asks the terminal for its background colour from a
// package init (bubbletea's tea_init.go, "removed in v2"): an escape
// sequence written to the terminal, then a wait of up to five seconds for
// the answer. A terminal that does not answer (script(1), expect, some CI
// and editor terminals) made every command, "rfc1738 version" included,
// stall for those five seconds before main ran.
//
// This package hides TERM from that init: termenv skips its query when
// TERM is "dumb". Imported (directly or not) by every package that imports
// bubbletea, it is initialised first: the language initialises the first
// package, in import-path order, whose imports are all initialised
// (Go 1.21 spec, "Package initialization"), and this one imports syscall
// alone, so it comes before os and before everything that writes to a
// terminal. Restore puts TERM back; the one program that draws a terminal
// UI asks the terminal itself, when it starts (see browse.Run).
package termquiet

import "syscall"

var (
	term    string
	hadTerm bool
	hidden  bool
)

func init() {
	term, hadTerm = syscall.Getenv("TERM")
	hidden = syscall.Setenv("TERM", "dumb") == nil
}

// Restore puts TERM back as the program found it. It is safe to call more
// than once.
func Restore() {
	if !hidden {
		return
	}
	hidden = false
	if hadTerm {
		syscall.Setenv("TERM", term)
	} else {
		syscall.Unsetenv("TERM")
	}
}
