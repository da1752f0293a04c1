//go:build !purego

package extract

import (
	"testing"

	"github.com/rfc1738/rfc1738/internal/cpuid"
)

// kernels returns the colonBlocks kernels this CPU runs, by name.
func kernels() map[string]func([]byte, int, []int) (int, int) {
	k := map[string]func([]byte, int, []int) (int, int){}
	if cpuid.AVX2 {
		k["AVX2"] = colonsAVX2
	}
	if cpuid.AVX512BW {
		k["AVX512"] = colonsAVX512
	}
	return k
}

// TestColonBlocksChosen checks that nextColon uses the widest kernel the
// CPU runs.
func TestColonBlocksChosen(t *testing.T) {
	var want func([]byte, int, []int) (int, int)
	switch {
	case cpuid.AVX512BW:
		want = colonsAVX512
	case cpuid.AVX2:
		want = colonsAVX2
	default:
		if colonBlocks != nil {
			t.Fatal("colonBlocks is set on a CPU without AVX2")
		}
		t.Skip("this CPU has neither AVX2 nor AVX-512: nextColon searches colon by colon")
	}
	if funcName(colonBlocks) != funcName(want) {
		t.Fatalf("colonBlocks is %s, want %s", funcName(colonBlocks), funcName(want))
	}
}
