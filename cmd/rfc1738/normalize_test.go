package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestNormalizeCommand(t *testing.T) {
	out, errOut, status := runCLI(t, "", "normalize", "HTTP://WWW.X.ORG:80/%7ejoe/%41", "gopher://h/1", "file://localhost/etc/motd")
	if status != exitOK || errOut != "" {
		t.Fatalf("status %d, stderr %q", status, errOut)
	}
	if want := "http://www.x.org/%7Ejoe/A\ngopher://h/\nfile:///etc/motd\n"; out != want {
		t.Errorf("normalize =\n%s\nwant\n%s", out, want)
	}
}

func TestNormalizeStdinInvalidAndLenient(t *testing.T) {
	in := "http://x.org/~a b\r\nftp://h/%2fetc\nhttp://a_b/\n"
	out, errOut, status := runCLI(t, in, "normalize")
	// One output line per input line: an empty one for an invalid input.
	if status != exitNegative || out != "\nftp://h/%2Fetc\n\n" {
		t.Errorf("strict: status %d, out %q", status, out)
	}
	if !strings.Contains(errOut, `"http://x.org/~a b": offset 13: hsegment:`) || !strings.Contains(errOut, `"http://a_b/": offset 8: toplabel:`) {
		t.Errorf("strict stderr %q", errOut)
	}
	out, errOut, status = runCLI(t, in, "normalize", "--lenient")
	if status != exitNegative || out != "http://x.org/%7Ea%20b\nftp://h/%2Fetc\n\n" {
		t.Errorf("lenient: status %d, out %q", status, out)
	}
	if !strings.Contains(errOut, `repaired: offset 13: hsegment: '~' is unsafe`) {
		t.Errorf("lenient stderr %q", errOut)
	}
}

func TestNormalizeJSON(t *testing.T) {
	out, _, status := runCLI(t, "http://x.org/~a\nhttp://x.org/\nhttp://a_b/\n", "normalize", "--json", "--lenient")
	if status != exitNegative {
		t.Errorf("status %d", status)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want one object per input:\n%s", out)
	}
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	if got[0]["valid"] != false || got[0]["repaired"] != "http://x.org/%7Ea" || got[0]["normalized"] != "http://x.org/%7Ea" ||
		got[0]["changed"] != true || len(got[0]["deviations"].([]any)) != 1 || got[0]["error"] != nil {
		t.Errorf("repaired line: %s", lines[0])
	}
	if got[1]["valid"] != true || got[1]["repaired"] != nil || got[1]["changed"] != false || got[1]["normalized"] != "http://x.org/" {
		t.Errorf("normal line: %s", lines[1])
	}
	e, _ := got[2]["error"].(map[string]any)
	if got[2]["normalized"] != nil || e == nil || e["rule"] != "toplabel" || e["offset"] != 8.0 {
		t.Errorf("invalid line: %s", lines[2])
	}
}
