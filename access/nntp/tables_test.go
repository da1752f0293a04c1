package nntp

import (
	"errors"
	"strings"
	"testing"
)

// TestGroupNameTable: every character RFC 3977 §4.1 makes a wildmat
// operator, every control and the space are refused at their offset;
// 497 bytes is the longest name a 512-octet GROUP line holds (§3.1).
func TestGroupNameTable(t *testing.T) {
	for _, c := range []byte("!*,?[\\] \t\r\n\x00\x01\x1f\x7f") {
		name := "comp." + string(c) + "x"
		err := checkGroupName(name)
		var ae *ArgumentError
		if !errors.As(err, &ae) || ae.Offset != 5 {
			t.Errorf("checkGroupName(%q) = %v, want a refusal at offset 5", name, err)
		}
	}
	for _, name := range []string{"comp.lang.go", "alt.2600", "a+b-c_d", "x.y.z@q", strings.Repeat("g", 497)} {
		if err := checkGroupName(name); err != nil {
			t.Errorf("checkGroupName(%.20q…) = %v", name, err)
		}
	}
	if checkGroupName(strings.Repeat("g", 498)) == nil || checkGroupName("") == nil {
		t.Error("a 498-byte or an empty group name was accepted")
	}
}

// TestParseOverviewBadCounts: a :bytes or :lines field that is not a
// decimal count makes the overview line unreadable (RFC 3977 §8.3.2).
func TestParseOverviewBadCounts(t *testing.T) {
	const head = "1\ts\tf\td\t<m@h>\tr\t"
	for _, tail := range []string{"10\tx", "10\t-1", "10\t2x", "10\t 2", "x\t2", "1e3\t2", "10\t99999999999999999999"} {
		if ov, ok := parseOverview(head + tail); ok {
			t.Errorf("parseOverview(%q) = %+v, accepted", head+tail, ov)
		}
	}
	if ov, ok := parseOverview(head + "10\t"); !ok || ov.Lines != 0 || ov.Bytes != 10 {
		t.Errorf("an empty :lines field: %+v, %v", ov, ok)
	}
}
