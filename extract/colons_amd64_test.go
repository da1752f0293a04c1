//go:build !purego

package extract

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// kernels returns the colonBlocks kernels this CPU runs, by name.
func kernels() map[string]func([]byte, int, []int) (int, int) {
	k := map[string]func([]byte, int, []int) (int, int){}
	if cpu.X86.HasAVX2 {
		k["AVX2"] = colonsAVX2
	}
	if cpu.X86.HasAVX512BW {
		k["AVX512"] = colonsAVX512
	}
	return k
}

// TestColonBlocksChosen checks that nextColon uses the widest kernel the
// CPU runs.
func TestColonBlocksChosen(t *testing.T) {
	var want func([]byte, int, []int) (int, int)
	switch {
	case cpu.X86.HasAVX512BW:
		want = colonsAVX512
	case cpu.X86.HasAVX2:
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
