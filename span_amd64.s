//go:build !purego

#include "textflag.h"

// SPLAT repeats the 4 octets of the constant c in each dword of Y,
// through the general register R and X, Y's low half. VMOVD, not MOVD:
// a legacy SSE instruction after the Y registers were written costs a
// state transition on some processors (blocks64 writes Y0 and Y8 first;
// on the AMD EPYC virtual machine this project is measured on, Parse
// took 385 ns a URL with MOVD here and 55 with VMOVD). See asm_test.go.
#define SPLAT(c, R, X, Y) \
	MOVL c, R; \
	VMOVD R, X; \
	VPBROADCASTD X, Y

// HIGH sets Y4 and Y12 to the high nibbles of the octets of Y0 and Y8
// (Y3 holds 0x0f in each octet).
#define HIGH \
	VPSRLW $4, Y0, Y4; \
	VPAND Y3, Y4, Y4; \
	VPSRLW $4, Y8, Y12; \
	VPAND Y3, Y12, Y12

// CLASSIFY sets R10 to the mask of the octets of Y0 whose nibble tables'
// bytes (Y0 through T1, high nibbles H through T2) share no bit, R11 to
// the same of Y8 (high nibbles in H8).
#define CLASSIFY(T1, T2, H, H8) \
	VPSHUFB Y0, T1, Y6; \
	VPSHUFB H, T2, Y7; \
	VPAND Y6, Y7, Y6; \
	VPCMPEQB Y5, Y6, Y6; \
	VPMOVMSKB Y6, R10; \
	VPSHUFB Y8, T1, Y6; \
	VPSHUFB H8, T2, Y7; \
	VPAND Y6, Y7, Y6; \
	VPCMPEQB Y5, Y6, Y6; \
	VPMOVMSKB Y6, R11

// EQUAL sets R10 and R11 to the masks of the octets of Y0 and Y8 equal to
// each byte of Y.
#define EQUAL(Y) \
	VPCMPEQB Y0, Y, Y6; \
	VPMOVMSKB Y6, R10; \
	VPCMPEQB Y8, Y, Y6; \
	VPMOVMSKB Y6, R11

// JOIN stores R10 | R11<<CX at out.
#define JOIN(out) \
	SHLQ CX, R11; \
	ORQ R11, R10; \
	MOVQ R10, out

// func spanBlocks(s string, i, j int, t *[32]byte) int
//
// spanBlocks returns the index of the first octet of s[i:j] that is not in
// the set whose nibble tables t holds (see blocks64), or j, 64 octets a
// step, read as blocks64 reads them (see masks64): s[a:a+32] and s[b:b+32]
// with a = min(i, max(len(s)-64, 0)), b = min(a+32, len(s)-32). len(s) ≥ 32.
TEXT ·spanBlocks(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), AX
	MOVQ s_len+8(FP), DX
	MOVQ i+16(FP), SI
	MOVQ j+24(FP), DI
	MOVQ t+32(FP), BX
	VBROADCASTI128 (BX), Y1
	VBROADCASTI128 16(BX), Y2
	SPLAT($0x0f0f0f0f, CX, X3, Y3)
	VPXOR Y5, Y5, Y5
	MOVQ DX, R12
	SUBQ $64, R12
	XORQ R13, R13
	CMPQ R12, R13
	CMOVQLT R13, R12 // max(len(s)-64, 0)
	MOVQ DX, R13
	SUBQ $32, R13 // len(s)-32

block:
	CMPQ SI, DI
	JGE end
	MOVQ SI, R8
	CMPQ R8, R12
	CMOVQGT R12, R8 // a
	LEAQ 32(R8), R9
	CMPQ R9, R13
	CMOVQGT R13, R9 // b
	VMOVDQU (AX)(R8*1), Y0
	VMOVDQU (AX)(R9*1), Y8
	HIGH
	CLASSIFY(Y1, Y2, Y4, Y12)
	MOVQ R9, CX
	SUBQ R8, CX
	SHLQ CX, R11
	ORQ R11, R10 // the stops of s[a:a+64] (of s when it is shorter)
	MOVQ DX, CX
	SUBQ R8, CX // len(s)-a
	MOVQ $-1, R11
	SHLQ CX, R11 // the octets past the end of s
	XORQ R14, R14
	CMPQ CX, $64
	CMOVQGE R14, R11 // (none within 64 octets)
	ORQ R11, R10
	MOVQ SI, CX
	SUBQ R8, CX // i-a, below 64: i < j ≤ len(s)
	SHRQ CX, R10
	MOVQ $-1, R11
	SHRQ CX, R11
	NOTQ R11
	ORQ R11, R10 // the octets shifted in are past the end of s
	TESTQ R10, R10
	JNE found
	ADDQ $64, SI
	JMP block

found:
	BSFQ R10, R10
	ADDQ R10, SI
	CMPQ SI, DI
	JGE end
	MOVQ SI, ret+40(FP)
	VZEROUPPER
	RET

end:
	MOVQ DI, ret+40(FP)
	VZEROUPPER
	RET

// func blocks64(s string, a, b, k int, host, xchar *[32]byte) (stop, dot, dash, xstop uint64)
//
// blocks64 reads s[a:a+32] and s[b:b+32] and returns four masks, bit t
// for s[a+t] and bit k+t for s[b+t] (k ≤ 32; the two may overlap, where
// they agree): stop, the octets that are not in the set of host's nibble
// tables (see below); dot and dash, the '.' and '-' octets; xstop, the
// octets not in xchar's set. masks64 chooses a, b and k.
//
// A set's nibble tables (octets.nibbles): t[lo] has bit h set when the
// octet h<<4|lo is in the set, t[16+h] is 1<<h, for h < 8. An octet is in
// the set when the bytes VPSHUFB looks up for its two nibbles share a bit
// (VPSHUFB gives 0 for an index with its high bit set, and no octet ≥ 0x80
// is in a set).
TEXT ·blocks64(SB), NOSPLIT, $0-88
	MOVQ s_base+0(FP), AX
	MOVQ a+16(FP), DX
	MOVQ b+24(FP), R8
	MOVQ k+32(FP), CX
	MOVQ host+40(FP), BX
	MOVQ xchar+48(FP), R9
	VMOVDQU (AX)(DX*1), Y0
	VMOVDQU (AX)(R8*1), Y8
	VBROADCASTI128 (BX), Y1
	VBROADCASTI128 16(BX), Y2
	VBROADCASTI128 (R9), Y9
	VBROADCASTI128 16(R9), Y10
	SPLAT($0x0f0f0f0f, R12, X3, Y3)
	VPXOR Y5, Y5, Y5
	HIGH
	CLASSIFY(Y1, Y2, Y4, Y12)
	JOIN(stop+56(FP))
	CLASSIFY(Y9, Y10, Y4, Y12)
	JOIN(xstop+80(FP))
	SPLAT($0x2e2e2e2e, R12, X13, Y13) // '.'
	EQUAL(Y13)
	JOIN(dot+64(FP))
	SPLAT($0x2d2d2d2d, R12, X13, Y13) // '-'
	EQUAL(Y13)
	JOIN(dash+72(FP))
	VZEROUPPER
	RET
