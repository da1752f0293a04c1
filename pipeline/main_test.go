package main

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestUsage: --help leads with the census's own flags, each with its
// words, and lists Beam's after them.
func TestUsage(t *testing.T) {
	var buf bytes.Buffer
	out := flag.CommandLine.Output()
	flag.CommandLine.SetOutput(&buf)
	defer flag.CommandLine.SetOutput(out)
	usage()
	text := buf.String()
	if !strings.HasPrefix(text, usageLine+"\n\nThe census:\n  --input ") {
		t.Fatalf("--help does not start with the usage line and the census's flags:\n%.400s", text)
	}
	beam := strings.Index(text, "\nApache Beam")
	if beam < 0 {
		t.Fatalf("no section of Beam's flags:\n%s", text)
	}
	at := 0
	for _, name := range ownFlags {
		i := strings.Index(text, "\n  --"+name+" ")
		if j := strings.Index(text, "\n  --"+name+"\n"); i < 0 {
			i = j // a switch has no argument
		}
		if i < at || i > beam {
			t.Errorf("--%s at %d: not in order in the census's section (which ends at %d)", name, i, beam)
		}
		at = i
		if use := flag.Lookup(name).Usage; !strings.Contains(text[i:beam], strings.SplitN(use, "\n", 2)[0]) {
			t.Errorf("--%s without its words %q", name, use)
		}
	}
	for _, name := range []string{"runner", "endpoint", "environment_type"} {
		if i := strings.Index(text, "\n  --"+name+" "); i < beam {
			t.Errorf("Beam's --%s at %d, not after the census's flags (%d)", name, i, beam)
		}
	}
	if strings.Count(text, "\n  --input ") != 1 {
		t.Error("--input listed twice")
	}
}
