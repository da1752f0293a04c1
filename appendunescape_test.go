package rfc1738

import (
	"testing"
	"time"
)

// TestAppendUnescape: §2.2, an escape "%" hex hex decodes to its octet,
// appended to dst; a '%' without two octets after it (no part of a valid
// URL, but AppendUnescape is exported) is copied as it is, and nothing is
// read past the end.
//
// (This file is named to run first: a mutant that makes the decoding loop
// run for ever fails here, within the deadline, rather than hanging a
// later test that decodes as a side effect.)
func TestAppendUnescape(t *testing.T) {
	tests := []struct{ dst, in, want string }{
		{"", "", ""},
		{"", "%41", "A"},
		{"x", "a%2Fb", "xa/b"},
		{"", "%25%32", "%2"},
		{"", "%7e%7E", "~~"},
		{"", "a%", "a%"},
		{"", "a%4", "a%4"},
		{"", "%", "%"},
		{"", "%4", "%4"},
	}
	for _, tt := range tests {
		done := make(chan string, 1)
		go func() { done <- string(AppendUnescape([]byte(tt.dst), tt.in)) }()
		select {
		case got := <-done:
			if got != tt.want {
				t.Errorf("AppendUnescape(%q, %q) = %q, want %q", tt.dst, tt.in, got, tt.want)
			}
		case <-time.After(500 * time.Millisecond):
			t.Fatalf("AppendUnescape(%q, %q) never returned", tt.dst, tt.in)
		}
	}
}
