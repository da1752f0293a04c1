package rfc1738

import "testing"

// TestCheckAllocsPerInvalid: Check of a rejected URL allocates once, for
// the list of its errors, room for four made at once (the sentences of
// unsafe octets are made beforehand), over the real datasets' rejected
// lines and a URL with three errors.
func TestCheckAllocsPerInvalid(t *testing.T) {
	for _, name := range datasets {
		var rejected []string
		for _, u := range loadDataset(t, name) {
			if r := Check(u); !r.Valid() && len(r.Warnings) == 0 {
				rejected = append(rejected, u)
			}
		}
		if len(rejected) == 0 {
			continue
		}
		a := testing.AllocsPerRun(3, func() {
			for _, u := range rejected {
				Check(u)
			}
		})
		t.Logf("%s: %.3f allocations per rejected URL (%d)", name, a/float64(len(rejected)), len(rejected))
		// A reserved octet's sentence names its rule, made when reported:
		// a second allocation, for a few lines in a thousand.
		if per := a / float64(len(rejected)); per > 1.01 {
			t.Errorf("%s: Check allocates %.3f times per rejected URL, want 1", name, per)
		}
	}
	const three = "http://h.org/~a b\x7f"
	if n := len(Check(three).Errors); n != 3 {
		t.Fatalf("%q: %d errors, want 3", three, n)
	}
	if a := testing.AllocsPerRun(10, func() { Check(three) }); a != 1 {
		t.Errorf("%q: Check allocates %v times, want 1", three, a)
	}
}
