//go:build !amd64 || purego

package cpuid

func features() (avx2, avx512bw bool) { return false, false }
