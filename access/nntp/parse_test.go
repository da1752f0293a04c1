package nntp

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseOverview: RFC 3977 §8.3.2 field order; empty :bytes/:lines
// allowed, extra fields ignored, a short or non-numeric line refused.
func TestParseOverview(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		want OverviewLine
	}{
		{"1\ts\tf\td\t<m@h>\tr\t10\t2", true, OverviewLine{Number: 1, Subject: "s", From: "f", Date: "d", MessageID: "<m@h>", References: "r", Bytes: 10, Lines: 2}},
		{"1\ts\tf\td\t<m@h>\tr\t10\t2\tXref: h g:1\textra", true, OverviewLine{Number: 1, Subject: "s", From: "f", Date: "d", MessageID: "<m@h>", References: "r", Bytes: 10, Lines: 2}},
		{"0000000007\t\t\t\t\t\t\t", true, OverviewLine{Number: 7}},
		{"1\ts\tf\td\t<m@h>\tr\t10", false, OverviewLine{}},
		{"x\ts\tf\td\t<m@h>\tr\t10\t2", false, OverviewLine{}},
		{"1\ts\tf\td\t<m@h>\tr\tten\t2", false, OverviewLine{}},
		{"-1\ts\tf\td\t<m@h>\tr\t1\t2", false, OverviewLine{}},
		{"99999999999999999999\ts\tf\td\t<m@h>\tr\t1\t2", false, OverviewLine{}},
		{"", false, OverviewLine{}},
	} {
		got, ok := parseOverview(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseOverview(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// TestParseOverviewNoAllocs: the fields are slices of the line.
func TestParseOverviewNoAllocs(t *testing.T) {
	line := "12\tSubject\tFrom <f@h>\tSat, 21 Nov 2026 04:00:00 +0000\t<m@h>\t<r@h>\t1234\t56\tXref: h g:12"
	if n := testing.AllocsPerRun(100, func() { parseOverview(line) }); n != 0 {
		t.Errorf("parseOverview allocates %v times", n)
	}
}

// FuzzParseOverview: never panics; what it accepts has eight fields and
// a number that prints back to the first field (leading zeros aside).
func FuzzParseOverview(f *testing.F) {
	f.Add("1\ts\tf\td\t<m@h>\tr\t10\t2")
	f.Add("0000000007\t\t\t\t\t\t\t\tXref: x")
	f.Add("1\t\t")
	f.Fuzz(func(t *testing.T, line string) {
		ov, ok := parseOverview(line)
		if !ok {
			return
		}
		if strings.Count(line, "\t") < 7 {
			t.Fatalf("accepted %q with fewer than eight fields", line)
		}
		first, _, _ := strings.Cut(line, "\t")
		if got := strings.TrimLeft(first, "0"); got != strings.TrimLeft(fmt.Sprint(ov.Number), "0") {
			t.Fatalf("number %d from %q", ov.Number, first)
		}
	})
}

func ExampleNewsURL() {
	fmt.Println(NewsURL("<first.1@inn-ci.internal>"))
	fmt.Println(NewsURL("<a b%c@host.example>"))
	// Output:
	// news:first.1@inn-ci.internal
	// news:a%20b%25c@host.example
}

func ExampleNNTPURL() {
	fmt.Println(NNTPURL("news.example.com", 119, "comp.infosystems.www.misc", 42))
	fmt.Println(NNTPURL("127.0.0.1", 1190, "local.test", 2))
	// Output:
	// nntp://news.example.com/comp.infosystems.www.misc/42
	// nntp://127.0.0.1:1190/local.test/2
}
