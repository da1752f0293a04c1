//go:build !purego

package extract

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// kernels returns the colonBlocks kernels this CPU runs, by name.
func kernels() map[string]func([]byte, int, []int) (int, int) {
	k := map[string]func([]byte, int, []int) (int, int){}
	avx2, avx512bw := features()
	if avx2 {
		k["AVX2"] = colonsAVX2
	}
	if avx512bw {
		k["AVX512"] = colonsAVX512
	}
	return k
}

// TestFeatures checks what features reads of the CPU against the flags
// Linux reports for it, which it clears for state the OS does not keep.
func TestFeatures(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the CPU's flags are read from Linux's /proc/cpuinfo")
	}
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	for line := range strings.Lines(string(info)) {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	if len(flags) == 0 {
		t.Fatal("no flags line in /proc/cpuinfo")
	}
	avx2, avx512bw := features()
	if want := slices.Contains(flags, "avx2"); avx2 != want {
		t.Errorf("features: AVX2 %v, /proc/cpuinfo %v", avx2, want)
	}
	if want := slices.Contains(flags, "avx512bw") && slices.Contains(flags, "avx512f"); avx512bw != want {
		t.Errorf("features: AVX-512 BW %v, /proc/cpuinfo %v", avx512bw, want)
	}
}

// TestColonBlocksChosen checks that nextColon uses the widest kernel the
// CPU runs.
func TestColonBlocksChosen(t *testing.T) {
	var want func([]byte, int, []int) (int, int)
	switch avx2, avx512bw := features(); {
	case avx512bw:
		want = colonsAVX512
	case avx2:
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
