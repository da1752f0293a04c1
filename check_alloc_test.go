package rfc1738

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestCheckAllocsPerInvalid: the lists of errors of rejected URLs share
// slabs, an allocation for some sixty URLs (the sentences of unsafe octets
// are made beforehand), over the real datasets' rejected lines and a URL
// with three errors.
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
		// an allocation, for a few lines in a thousand.
		// (Under the race detector the pool drops slabs: at most one
		// allocation a URL, then.)
		if per := a / float64(len(rejected)); per > 0.05 && !(raceEnabled && per <= 1.01) {
			t.Errorf("%s: Check allocates %.3f times per rejected URL, want a slab's share", name, per)
		}
	}
	const three = "http://h.org/~a b\x7f"
	if n := len(Check(three).Errors); n != 3 {
		t.Fatalf("%q: %d errors, want 3", three, n)
	}
	if a := testing.AllocsPerRun(10, func() { Check(three) }); a != 0 && !(raceEnabled && a <= 1) {
		t.Errorf("%q: Check allocates %v times per call, want less than once", three, a)
	}
}

// TestCheckListsStayApart: the lists that share a slab are windows that
// a later Check never writes, and an append to one goes elsewhere; from
// many goroutines at once (run with -race).
func TestCheckListsStayApart(t *testing.T) {
	a := Check("http://h.org/~a")
	b := Check("http://h.org/a b\x7f")
	keep := slices.Clone(a.Errors)
	a.Errors = append(a.Errors, Diagnostic{Offset: 99, Rule: "test"})
	if len(b.Errors) != 2 || b.Errors[0].Offset != 14 || b.Errors[1].Offset != 16 {
		t.Fatalf("an append to one list changed the next: %v", b.Errors)
	}
	for range 200 {
		Check("ftp://h.org/%zz;type=q")
	}
	if !slices.Equal(a.Errors[:1], keep) {
		t.Fatalf("later Checks wrote into a report's list: %v, want %v", a.Errors[:1], keep)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			s := "http://h.org/" + strings.Repeat("~", g+1)
			for range 500 {
				r := Check(s)
				if len(r.Errors) != g+1 {
					t.Errorf("%q: %d errors, want %d", s, len(r.Errors), g+1)
					return
				}
				for i, d := range r.Errors {
					if d.Offset != 13+i || d.Rule != "hsegment" {
						t.Errorf("%q: %v", s, r.Errors)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
