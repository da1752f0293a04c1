//go:build !purego

package cpuid

// features reads CPUID and XCR0: cpuid_amd64.s.
func features() (avx2, avx512bw bool)
