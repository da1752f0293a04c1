package main

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "100": 100, "10K": 10 << 10, "5M": 5 << 20, "1G": 1 << 30, "2GiB": 2 << 30, "3kb": 3 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "x", "1Q", "99999999999T"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) succeeded", in)
		}
	}
}

func TestPlanAndGetWithoutHandler(t *testing.T) {
	_, errOut, status := runCLI(t, "", "plan", "x-none://u:secret@h/x")
	if status != exitUsage || !strings.Contains(errOut, "no access method") || strings.Contains(errOut, "secret") {
		t.Errorf("plan of an unknown scheme: %d %q", status, errOut)
	}
	_, errOut, status = runCLI(t, "", "get", "telnet://u:secret@h/x")
	if status != exitUsage || !strings.Contains(errOut, "not a valid") || strings.Contains(errOut, "secret") {
		t.Errorf("get of an invalid URL: %d %q", status, errOut)
	}
	if _, _, status := runCLI(t, "", "get", "--max-size", "lots", "ftp://h/x"); status != exitUsage {
		t.Errorf("bad --max-size: %d", status)
	}
}
