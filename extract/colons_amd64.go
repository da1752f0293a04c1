//go:build !purego

package extract

import "github.com/rfc1738/rfc1738/internal/cpuid"

func init() {
	switch {
	case cpuid.AVX512BW:
		colonBlocks = colonsAVX512
	case cpuid.AVX2:
		colonBlocks = colonsAVX2
	}
}

// The kernels of colonBlocks: colons_amd64.s.

//go:noescape
func colonsAVX2(b []byte, from int, out []int) (n, next int)

//go:noescape
func colonsAVX512(b []byte, from int, out []int) (n, next int)
