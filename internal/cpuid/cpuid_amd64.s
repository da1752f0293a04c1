//go:build !purego

#include "textflag.h"

// func features() (avx2, avx512bw bool)
//
// Whether the CPU runs each kernel, and the OS keeps its registers (the
// XSAVE state enabled in XCR0), as Intel's manual (vol. 1, 14.3 and
// 15.2) and internal/cpu read them.
TEXT ·features(SB), NOSPLIT, $0-2
	MOVB $0, avx2+0(FP)
	MOVB $0, avx512bw+1(FP)
	XORL AX, AX
	XORL CX, CX
	CPUID
	CMPL AX, $7 // the highest leaf
	JLT none
	MOVL $1, AX
	XORL CX, CX
	CPUID
	ANDL $0x18000000, CX // OSXSAVE (27) and AVX (28)
	CMPL CX, $0x18000000
	JNE none
	XORL CX, CX
	XGETBV // XCR0 in DX:AX
	MOVL AX, R8
	MOVL $7, AX
	XORL CX, CX
	CPUID // leaf 7: BX
	MOVL R8, R9
	ANDL $6, R9 // SSE and AVX state
	CMPL R9, $6
	JNE none
	BTL $5, BX // AVX2
	JCC none
	MOVB $1, avx2+0(FP)
	ANDL $0xe0, R8 // opmask, ZMM_Hi256 and Hi16_ZMM state
	CMPL R8, $0xe0
	JNE none
	ANDL $0x40010000, BX // AVX512F (16) and AVX512BW (30)
	CMPL BX, $0x40010000
	JNE none
	MOVB $1, avx512bw+1(FP)

none:
	RET
