package cpuid

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestFeatures checks what features reads of the CPU against the flags
// Linux reports for it, which it clears for state the OS does not keep.
func TestFeatures(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the CPU's flags are read from Linux's /proc/cpuinfo, on amd64")
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
	if purego {
		if avx2 || avx512bw {
			t.Fatalf("features with the purego tag: %v, %v; want neither", avx2, avx512bw)
		}
		return
	}
	if want := slices.Contains(flags, "avx2"); avx2 != want {
		t.Errorf("features: AVX2 %v, /proc/cpuinfo %v", avx2, want)
	}
	if want := slices.Contains(flags, "avx512bw") && slices.Contains(flags, "avx512f"); avx512bw != want {
		t.Errorf("features: AVX-512 BW %v, /proc/cpuinfo %v", avx512bw, want)
	}
	if AVX2 != avx2 || AVX512BW != avx512bw {
		t.Errorf("AVX2, AVX512BW = %v, %v; features %v, %v", AVX2, AVX512BW, avx2, avx512bw)
	}
}
