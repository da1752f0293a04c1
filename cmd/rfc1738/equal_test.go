package main

import (
	"strings"
	"testing"
)

func TestEqualCommand(t *testing.T) {
	tests := []struct {
		a, b   string
		flags  []string
		status int
		out    string
	}{
		{"HTTP://X.ORG:80", "http://x.org/", nil, exitOK, "equal: http://x.org/\n"},
		{"gopher://h", "gopher://h:70/1", nil, exitOK, "equal: gopher://h/\n"},
		{"ftp://h/%2Fetc/motd", "ftp://h//etc/motd", nil, exitNegative, "not equal: the paths differ: \"%2Fetc/motd\" and \"/etc/motd\" (§2.2: an encoded reserved character is not the character itself)\n"},
		{"ftp://@h/", "ftp://h/", nil, exitNegative, "not equal: one URL has a user and the other has none (§3.1: an empty user is not an absent one)\n"},
		{"http://x.org/~a", "http://x.org/%7ea", []string{"--lenient"}, exitOK, "equal: http://x.org/%7Ea\n"},
		{"http://x.org/a", "http://x.org/b", []string{"-q"}, exitNegative, ""},
	}
	for _, tt := range tests {
		args := append([]string{"equal", tt.a, tt.b}, tt.flags...)
		out, errOut, status := runCLI(t, "", args...)
		if status != tt.status || out != tt.out {
			t.Errorf("equal %q %q %v: status %d out %q (stderr %q), want %d %q", tt.a, tt.b, tt.flags, status, out, errOut, tt.status, tt.out)
		}
	}
	if _, errOut, status := runCLI(t, "", "equal", "http://x.org/~a", "http://x.org/"); status != exitUsage || !strings.Contains(errOut, "hsegment") {
		t.Errorf("invalid URL: status %d, %q", status, errOut)
	}
	if _, errOut, status := runCLI(t, "", "equal", "http://x.org/"); status != exitUsage || !strings.Contains(errOut, "want two URLs") {
		t.Errorf("one URL: status %d, %q", status, errOut)
	}
}
