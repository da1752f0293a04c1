//go:build !purego

package rfc1738

// The AVX2 kernels of span_amd64.s; they run only where vector is true.

//go:noescape
func spanBlocks(s string, i, j int, t *[32]byte) int

//go:noescape
func blocks64(s string, a, b, k int, host, xchar *[32]byte) (stop, dot, dash, xstop uint64)
