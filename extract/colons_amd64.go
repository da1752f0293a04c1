//go:build !purego

package extract

import "golang.org/x/sys/cpu"

func init() {
	switch {
	case cpu.X86.HasAVX512BW:
		colonBlocks = colonsAVX512
	case cpu.X86.HasAVX2:
		colonBlocks = colonsAVX2
	}
}

// The kernels of colonBlocks, in colons_amd64.s.

//go:noescape
func colonsAVX2(b []byte, from int, out []int) (n, next int)

//go:noescape
func colonsAVX512(b []byte, from int, out []int) (n, next int)
