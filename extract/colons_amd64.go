//go:build !purego

package extract

func init() {
	switch avx2, avx512bw := features(); {
	case avx512bw:
		colonBlocks = colonsAVX512
	case avx2:
		colonBlocks = colonsAVX2
	}
}

// The kernels of colonBlocks, and what the CPU runs: colons_amd64.s.

//go:noescape
func colonsAVX2(b []byte, from int, out []int) (n, next int)

//go:noescape
func colonsAVX512(b []byte, from int, out []int) (n, next int)

func features() (avx2, avx512bw bool)
