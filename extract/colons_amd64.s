//go:build !purego

#include "textflag.h"

// The kernels of colonBlocks (colons.go), one 64-octet block a step:
//
//	func colonsAVX2(b []byte, from int, out []int) (n int, next int)
//	func colonsAVX512(b []byte, from int, out []int) (n int, next int)
//
// The first block starts at the start of from's cache line, where blocks
// are read fastest (each is then one aligned load), or at from when that
// is before b[64]; none starts when from is before b[64] (the 64 octets
// before the first block are read for their '<', 'l', 's' and 'o').
//
// Registers: SI b, DX the last block's start, BX the block's start k, DI
// out, R8 the count past which out has no room for a block, R9 n. A block
// yields four masks, bit t for b[k+t]: CX every colon, R11 every '<', AX
// every '/', R12 every 'l', 's' or 'o' in either case. AFTER turns them
// into AX the colons with '/' after them (taken) and R12 the colons with
// 'l', 's' or 'o' before them, with the octet after the block and R15, the
// 'l', 's' and 'o' of the block before; R10 holds the '<' of the block
// before.
//
// Besides those with '/' after them, the candidates are the colons after
// "url", "ews" or "lto" in any case (the ends of "url", "news" and
// "mailto": §3.5, §3.6, Appendix) before no space or control, and those
// with a '<' among the 8 octets before them, or among the 40 before them
// and no space or control among the 8 before them (Appendix: the '<' of a
// wrapper stands at most maxScheme+2 octets before its ':', right before
// its scheme). Few blocks hold a colon after 'l', 's' or 'o' before no
// space or control, or after a '<' of the block: in the AVX2 kernel LESS
// tells them, and NAMES2 (the word test, through NAMED) and PRECISE sort
// their colons out of line; the AVX-512 kernel finds them in a first pass
// and sorts them in a second (below). Neither reaches into
// the block before for more than one fact: whether a '<' stands among its
// last 8 (or 40) octets, which then counts for each of the first 8 (or
// 40) octets of the block (more candidates, never fewer), while its spaces
// do not count (the same).

// SETUP loads the arguments and finds the first block (see above); it
// jumps to done when there is none.
#define SETUP(done) \
	MOVQ b_base+0(FP), SI; \
	MOVQ b_len+8(FP), DX; \
	MOVQ from+24(FP), BX; \
	MOVQ out_base+32(FP), DI; \
	MOVQ out_len+40(FP), R8; \
	XORQ R9, R9; \
	SUBQ $65, DX; \
	SUBQ $64, R8; \
	CMPQ BX, $64; \
	JLT done; \
	LEAQ (SI)(BX*1), AX; \
	ANDQ $63, AX; \
	MOVQ BX, R13; \
	SUBQ AX, R13; \
	CMPQ R13, $64; \
	CMOVQGE R13, BX

// AFTER: AX and R12 from their octets to the colons after them, R12 only
// those not followed by a space or control (R14: the block's; the octet
// after the block is not looked at, which leaves more colons, never fewer).
#define AFTER \
	XORL R13, R13; \
	CMPB 64(SI)(BX*1), $0x2f; \
	SETEQ R13; \
	SHLQ $63, R13; \
	SHRQ $1, AX; \
	ORQ R13, AX; \
	ANDQ CX, AX; \
	MOVQ R12, R13; \
	SHLQ $1, R12; \
	SHRQ $63, R15; \
	ORQ R15, R12; \
	MOVQ R13, R15; \
	ANDQ CX, R12; \
	SHRQ $1, R14; \
	NOTQ R14; \
	ANDQ R14, R12

// NAMED adds to AX the colons of R12 (those "url", "ews" or "lto" end) that
// no space or control follows (R14: the block's octets up to ' '), and
// leaves the latter in R12 for PRECISE.
#define NAMED \
	ANDQ CX, R12; \
	MOVQ R14, R13; \
	SHRQ $1, R13; \
	NOTQ R13; \
	ANDQ R13, R12; \
	XORL R13, R13; \
	CMPB 64(SI)(BX*1), $0x20; \
	SETLS R13; \
	SHLQ $63, R13; \
	NOTQ R13; \
	ANDQ R13, R12; \
	ORQ R12, AX; \
	MOVQ R14, R12

// LESS jumps to precise when a colon that AX does not hold comes after
// 'l', 's' or 'o' (R12), or after a '<' of the block, or among the first
// 40 octets when one of the last 40 of the block before is a '<'.
#define LESS(precise) \
	MOVQ R11, R13; NEGQ R13; ANDQ R11, R13; NEGQ R13; \
	MOVQ R10, R14; SHRQ $24, R14; NEGQ R14; SBBQ R14, R14; SHRQ $24, R14; ORQ R14, R13; \
	ANDQ CX, R13; \
	ORQ R12, R13; \
	MOVQ AX, R14; NOTQ R14; ANDQ R14, R13; \
	JNZ precise

// PRECISE adds to AX the colons with a '<' among the 8 octets before, or
// among the 40 before and no octet up to ' ' (R12) among the 8 before:
// each mask bit spread over the bits above it.
#define PRECISE \
	MOVQ R12, R13; SHLQ $1, R13; ORQ R13, R12; \
	MOVQ R12, R13; SHLQ $2, R13; ORQ R13, R12; \
	MOVQ R12, R13; SHLQ $4, R13; ORQ R13, R12; \
	SHLQ $1, R12; \
	NOTQ R12; \
	MOVQ R11, R13; SHLQ $1, R13; ORQ R11, R13; \
	MOVQ R13, R14; SHLQ $2, R14; ORQ R14, R13; \
	MOVQ R13, R14; SHLQ $4, R14; ORQ R14, R13; \
	MOVQ R13, R14; SHLQ $1, R14; ANDQ CX, R14; ORQ R14, AX; \
	MOVQ R10, R14; SHRQ $56, R14; NEGQ R14; SBBQ R14, R14; SHRQ $56, R14; ANDQ CX, R14; ORQ R14, AX; \
	MOVQ R13, R14; SHLQ $8, R14; ORQ R14, R13; \
	MOVQ R13, R14; SHLQ $16, R14; ORQ R14, R13; \
	MOVQ R13, R14; SHLQ $8, R14; ORQ R14, R13; \
	SHLQ $1, R13; \
	MOVQ R10, R14; SHRQ $24, R14; NEGQ R14; SBBQ R14, R14; SHRQ $24, R14; ORQ R14, R13; \
	ANDQ R12, R13; ANDQ CX, R13; ORQ R13, AX

// EMIT writes each set bit of AX, as an index of b, to out, and steps to
// the next block.
#define EMIT(emit, next) \
	MOVQ R11, R10; \
	EMITS(emit, next)

// EMITS is EMIT without keeping the block's '<' for the next.
#define EMITS(emit, next) \
emit: \
	TESTQ AX, AX; \
	JZ next; \
	BSFQ AX, R12; \
	ADDQ BX, R12; \
	MOVQ R12, (DI)(R9*8); \
	INCQ R9; \
	LEAQ -1(AX), R12; \
	ANDQ R12, AX; \
	JMP emit; \
next: \
	ADDQ $64, BX

#define DONE \
	VZEROUPPER; \
	MOVQ R9, n+56(FP); \
	MOVQ BX, next+64(FP); \
	RET

// HALF2 computes the masks of the 32 octets at k+off (AVX2): the colons
// in Y2, the '<' in Y3, the '/' in Y4, the 'l', 's' and 'o' in Y6, the
// octets up to ' ' in Y8.
#define HALF2(off) \
	VMOVDQU off(SI)(BX*1), Y0; \
	VPCMPEQB Y10, Y0, Y2; \
	VPCMPEQB Y11, Y0, Y3; \
	VPCMPEQB Y12, Y0, Y4; \
	VPMINUB Y13, Y0, Y8; \
	VPCMPEQB Y8, Y0, Y8; \
	LSO2

// LSO2 puts the 'l', 's' and 'o' (either case) of the octets in Y0 in Y6
// (AVX2).
#define LSO2 \
	VPOR Y13, Y0, Y5; \
	VPCMPEQB Y14, Y5, Y6; \
	VPCMPEQB Y15, Y5, Y7; \
	VPOR Y7, Y6, Y6; \
	VPCMPEQB Y9, Y5, Y7; \
	VPOR Y7, Y6, Y6

// BYTE2 broadcasts the octet c to Y (AVX2), through R13.
#define BYTE2(c, X, Y) \
	MOVQ c, R13; \
	MOVQ R13, X; \
	VPBROADCASTB X, Y

// NAMES2 puts the octets of the 32 at k+off that "url", "ews" or "lto"
// end (folded to lower case) in Y3 (AVX2), from the octets 1, 2 and 3
// before them at b1, b2, b3; Y14, Y15, Y9 hold l, s, o, Y13 the case bit.
#define NAMES2(b1, b2, b3) \
	VMOVDQU b1(SI)(BX*1), Y0; \
	VPOR Y13, Y0, Y0; \
	VMOVDQU b2(SI)(BX*1), Y1; \
	VPOR Y13, Y1, Y1; \
	VMOVDQU b3(SI)(BX*1), Y2; \
	VPOR Y13, Y2, Y2; \
	VPXOR Y3, Y3, Y3; \
	WORD2(Y14, $0x72, $0x75); \
	WORD2(Y15, $0x77, $0x65); \
	WORD2(Y9, $0x74, $0x6c)

// WORD2 adds to Y3 the octets after a word whose last letter is in last
// (compared with Y0), the one before it c2 (Y1) and the one before that c3
// (Y2).
#define WORD2(last, c2, c3) \
	VPCMPEQB last, Y0, Y5; \
	BYTE2(c2, X4, Y4); \
	VPCMPEQB Y4, Y1, Y4; \
	VPAND Y5, Y4, Y4; \
	BYTE2(c3, X5, Y5); \
	VPCMPEQB Y5, Y2, Y5; \
	VPAND Y5, Y4, Y4; \
	VPOR Y4, Y3, Y3

// CTL2 puts the octets up to ' ' of the 32 at k+off in Y3 (AVX2).
#define CTL2(off) \
	VMOVDQU off(SI)(BX*1), Y0; \
	VPMINUB Y13, Y0, Y3; \
	VPCMPEQB Y3, Y0, Y3

TEXT ·colonsAVX2(SB), NOSPLIT, $0-72
	SETUP(done2)
	BYTE2($0x3a, X10, Y10) // ':'
	BYTE2($0x3c, X11, Y11) // '<'
	BYTE2($0x2f, X12, Y12) // '/'
	BYTE2($0x20, X13, Y13) // ' ', and the bit that folds case
	BYTE2($0x6c, X14, Y14) // 'l'
	BYTE2($0x73, X15, Y15) // 's'
	BYTE2($0x6f, X9, Y9) // 'o'

	VMOVDQU -64(SI)(BX*1), Y0
	VPCMPEQB Y11, Y0, Y0
	VPMOVMSKB Y0, R10
	VMOVDQU -32(SI)(BX*1), Y0
	VPCMPEQB Y11, Y0, Y0
	VPMOVMSKB Y0, AX
	SHLQ $32, AX
	ORQ AX, R10
	VMOVDQU -32(SI)(BX*1), Y0
	LSO2
	VPMOVMSKB Y6, R15
	SHLQ $32, R15

loop2:
	CMPQ BX, DX
	JGT done2
	CMPQ R9, R8
	JGT done2
	HALF2(0)
	VPMOVMSKB Y2, CX
	VPMOVMSKB Y3, R11
	VPMOVMSKB Y4, AX
	VPMOVMSKB Y6, R12
	VPMOVMSKB Y8, R14
	HALF2(32)
	VPMOVMSKB Y8, R13
	SHLQ $32, R13
	ORQ R13, R14
	VPMOVMSKB Y2, R13
	SHLQ $32, R13
	ORQ R13, CX
	VPMOVMSKB Y3, R13
	SHLQ $32, R13
	ORQ R13, R11
	VPMOVMSKB Y4, R13
	SHLQ $32, R13
	ORQ R13, AX
	VPMOVMSKB Y6, R13
	SHLQ $32, R13
	ORQ R13, R12
	AFTER
	LESS(precise2)
back2:
	EMIT(emit2, next2)
	JMP loop2

precise2:
	NAMES2(-1, -2, -3)
	VPMOVMSKB Y3, R12
	NAMES2(31, 30, 29)
	VPMOVMSKB Y3, R13
	SHLQ $32, R13
	ORQ R13, R12
	CTL2(0)
	VPMOVMSKB Y3, R14
	CTL2(32)
	VPMOVMSKB Y3, R13
	SHLQ $32, R13
	ORQ R13, R14
	NAMED
	PRECISE
	JMP back2

done2:
	DONE

// BYTE512 broadcasts the octet c to Z (AVX-512), through AX.
#define BYTE512(c, Z) \
	MOVQ c, AX; \
	VPBROADCASTB AX, Z

// WORD512 adds to K7 the colons of K4 after a word whose last letter is in
// last (compared with Z2, the octets before, folded), the one before it
// in c2 (Z3) and the one before that in c3 (Z4): each compare is masked
// by the colons still in the running (K6).
#define WORD512(last, c2, c3) \
	VPCMPEQB last, Z2, K4, K6; \
	VPCMPEQB c2, Z3, K6, K6; \
	VPCMPEQB c3, Z4, K6, K6; \
	KORQ K7, K6, K7

// The AVX-512 kernel takes up to 256 blocks (16 KiB) at a time in two
// passes, so that no branch waits on an octet still on its way from
// memory: a mispredicted branch that does stops the loads after it, and
// a kernel with a branch per block (the AVX2 one) reads about 10 GB/s from
// memory where bytes.IndexByte reads 30 to 40. The first pass has no
// branch but its loop's: it reads each block (and, with two more loads
// of lines the cache holds, the octets before and after each) and
// writes to the frame a mask per block of the colons that may be
// candidates: those before '/'; those after 'l', 's' or 'o' before no
// space or control; those after the block's first '<'; and the first 40
// when a '<' is among the last 40 octets of the block before. It asks
// for the octets 4 KiB ahead (PREFETCHT0, which never faults), so that
// they are in the cache when it reads them. The second pass takes each
// block whose mask is not empty (about one in twelve of a text's) and
// finds its candidates exactly from octets now in the cache: the word
// test, and PRECISE with the masks of the AVX2 kernel.
TEXT ·colonsAVX512(SB), $2064-72
	SETUP(done512)
	BYTE512($0x3a, Z10) // ':'
	BYTE512($0x3c, Z11) // '<'
	BYTE512($0x2f, Z12) // '/'
	BYTE512($0x20, Z13) // ' ', and the bit that folds case
	BYTE512($0x6c, Z14) // 'l'
	BYTE512($0x73, Z16) // 's'
	BYTE512($0x6f, Z17) // 'o'
	BYTE512($0x72, Z18) // 'r'
	BYTE512($0x75, Z19) // 'u'
	BYTE512($0x77, Z20) // 'w'
	BYTE512($0x65, Z21) // 'e'
	BYTE512($0x74, Z22) // 't'

chunk512:
	CMPQ BX, DX
	JGT done512
	CMPQ R9, R8
	JGT done512
	// The '<' of the block before (R10).
	VMOVDQU64 -64(SI)(BX*1), Z0
	VPCMPEQB Z11, Z0, K1
	KMOVQ K1, R10
	MOVQ R9, 2048(SP)
	MOVQ BX, 2056(SP)
	MOVQ BX, R8
	ADDQ $(255*64), R8
	CMPQ R8, DX
	CMOVQGT DX, R8
	MOVQ SP, DI

pass512:
	CMPQ BX, R8
	JGT second512
	PREFETCHT0 4096(SI)(BX*1)
	VMOVDQU64 (SI)(BX*1), Z0
	VMOVDQU64 1(SI)(BX*1), Z1
	VMOVDQU64 -1(SI)(BX*1), Z2
	VPCMPEQB Z10, Z0, K1 // ':'
	VPCMPEQB Z12, Z1, K1, K2 // before '/'
	VPCMPUB $6, Z13, Z1, K1, K3 // before no space or control
	VPORQ Z13, Z2, Z2
	VPCMPEQB Z14, Z2, K3, K4
	VPCMPEQB Z16, Z2, K3, K5
	KORQ K4, K5, K4
	VPCMPEQB Z17, Z2, K3, K5
	KORQ K4, K5, K4 // and after 'l', 's' or 'o'
	KORQ K2, K4, K2
	VPCMPEQB Z11, Z0, K5 // '<'
	KMOVQ K1, CX
	KMOVQ K5, R11
	KMOVQ K2, AX
	// After the block's first '<', or among the first 40 after a '<' of
	// the last 40 before.
	MOVQ R11, R13
	NEGQ R13
	ORQ R11, R13
	MOVQ R10, R14
	SHRQ $24, R14
	NEGQ R14
	SBBQ R14, R14
	SHRQ $24, R14
	ORQ R14, R13
	MOVQ R11, R10
	ANDQ CX, R13
	ORQ R13, AX
	MOVQ AX, (DI)
	ADDQ $8, DI
	ADDQ $64, BX
	JMP pass512

second512:
	MOVQ BX, DX
	MOVQ 2056(SP), BX
	MOVQ 2048(SP), R9
	MOVQ out_base+32(FP), DI
	MOVQ out_len+40(FP), R8
	SUBQ $64, R8
	MOVQ SP, R15

blocks512:
	CMPQ BX, DX
	JGE chunkdone512
	CMPQ R9, R8
	JGT done512
	MOVQ (R15), AX
	ADDQ $8, R15
	TESTQ AX, AX
	JNZ block512
	ADDQ $64, BX
	JMP blocks512

chunkdone512:
	MOVQ b_len+8(FP), DX
	SUBQ $65, DX
	JMP chunk512

block512:
	VMOVDQU64 (SI)(BX*1), Z0
	VPCMPEQB Z10, Z0, K1 // ':'
	VMOVDQU64 1(SI)(BX*1), Z1  // the octet after each
	VMOVDQU64 -1(SI)(BX*1), Z2 // the octet before each
	VPCMPEQB Z12, Z1, K1, K2   // colons before '/'
	VPCMPUB $6, Z13, Z1, K1, K3 // colons before no space or control
	VPORQ Z13, Z2, Z2
	VPCMPEQB Z14, Z2, K3, K4
	VPCMPEQB Z16, Z2, K3, K5
	KORQ K4, K5, K4
	VPCMPEQB Z17, Z2, K3, K5
	KORQ K4, K5, K4 // and after 'l', 's' or 'o'
	VMOVDQU64 -40(SI)(BX*1), Z3
	VPCMPEQB Z11, Z3, K5
	VPCMPEQB Z11, Z0, K6
	KORQ K5, K6, K5 // '<' among b[k-40:k+64]
	KMOVQ K1, CX
	KMOVQ K2, AX
	KORTESTQ K4, K4
	JZ less512
	// "url", "ews" or "lto" before, and no space or control after.
	VMOVDQU64 -2(SI)(BX*1), Z3
	VPORQ Z13, Z3, Z3
	VMOVDQU64 -3(SI)(BX*1), Z4
	VPORQ Z13, Z4, Z4
	KXORQ K7, K7, K7
	WORD512(Z14, Z18, Z19) // "url"
	WORD512(Z16, Z20, Z21) // "ews"
	WORD512(Z17, Z22, Z14) // "lto"
	KMOVQ K7, R12
	ORQ R12, AX

less512:
	KORTESTQ K5, K5
	JZ emit512
	VPCMPEQB Z11, Z0, K6
	KMOVQ K6, R11
	VMOVDQU64 -64(SI)(BX*1), Z3
	VPCMPEQB Z11, Z3, K6
	KMOVQ K6, R10
	VPCMPUB $2, Z13, Z0, K6 // up to ' '
	KMOVQ K6, R12
	PRECISE
	EMITS(emit512, next512)
	JMP blocks512

done512:
	DONE
