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

// The AVX-512 kernel takes up to 128 blocks (8 KiB) at a time in three
// passes, so that no branch waits on an octet still on its way from
// memory (a mispredicted branch that does stops the loads after it: the
// AVX2 kernel, with a branch per block, reads about 10 GB/s from memory
// where bytes.IndexByte reads 30 to 40) and the work per block is a few
// instructions:
//
//  1. Each block is read once (and, with two more loads of lines the
//     cache holds, the octets before and after each), with no branch but
//     the loop's, and four masks of it go to the frame: its colons (C),
//     those before no space or control and before '/' or after 'l', 's'
//     or 'o' (N: one compare, through VPSHUFB and the table lso), its '<'
//     (L, after the '<' of the block before) and its octets up to ' '
//     (T). It asks for the octets 4 KiB ahead (PREFETCHT0, which never
//     faults), so that they are in the cache when it reads them.
//  2. PRECISE's rule, 8 blocks at a time in the lanes of a Z register,
//     gives each block's candidates after a '<' (E), and a bitmap of the
//     blocks with a candidate or a colon of N.
//  3. The blocks of the bitmap, in order: the colons of N before '/' or
//     after "url", "ews" or "lto" join E, and E goes to out.
//
// Frame: C at 0, N at 1024, T at 2048, E at 3072 (a quadword per block),
// L at 4096 (the block before the first, then one per block), the bitmap
// at 5136 (two quadwords, written two octets at a time: the second is
// written over by the next group's, or lies past the last block).
#define C_ 0
#define N_ 1024
#define T_ 2048
#define E_ 3072
#define L_ 4096
#define MAP_ 5136

// lso: the octet of 'l', 's' and 'o' at its low nibble (3, 0xc, 0xf), 0
// elsewhere, for VPSHUFB: an octet ORed with 0x20 is one of them when
// the table gives it back.
DATA lso<>+0(SB)/8, $0x0000000073000000
DATA lso<>+8(SB)/8, $0x6f00006c00000000
GLOBL lso<>(SB), RODATA|NOPTR, $16

// SPREAD ors Z into itself shifted left by 1, 2 and 4 bits (through Z4):
// each bit then also stands for the 7 bits above it.
#define SPREAD(Z) \
	VPSLLQ $1, Z, Z4; VPORQ Z4, Z, Z; \
	VPSLLQ $2, Z, Z4; VPORQ Z4, Z, Z; \
	VPSLLQ $4, Z, Z4; VPORQ Z4, Z, Z

TEXT ·colonsAVX512(SB), $5160-72
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
	MOVQ $0xff00000000000000, AX
	VPBROADCASTQ AX, Z24 // the last 8 octets of a block
	MOVQ $0xff, AX
	VPBROADCASTQ AX, Z25 // its first 8
	MOVQ $0xffffffffff000000, AX
	VPBROADCASTQ AX, Z26 // its last 40
	MOVQ $0xffffffffff, AX
	VPBROADCASTQ AX, Z27 // its first 40
	VBROADCASTI32X4 lso<>(SB), Z28

chunk512:
	CMPQ BX, DX
	JGT done512
	CMPQ R9, R8
	JGT done512
	MOVQ BX, R15 // the chunk's first block
	VMOVDQU64 -64(SI)(BX*1), Z0
	VPCMPEQB Z11, Z0, K1
	KMOVQ K1, L_(SP)
	MOVQ BX, R8
	ADDQ $(127*64), R8
	CMPQ R8, DX
	CMOVQGT DX, R8 // its last
	XORQ R11, R11

	// 1: the masks of each block.
pass512:
	CMPQ BX, R8
	JGT precise512
	PREFETCHT0 4096(SI)(BX*1)
	VMOVDQU64 (SI)(BX*1), Z0
	VMOVDQU64 1(SI)(BX*1), Z1  // the octet after each
	VMOVDQU64 -1(SI)(BX*1), Z2 // the octet before each
	VPCMPEQB Z10, Z0, K1 // ':'
	VPCMPUB $6, Z13, Z1, K1, K3 // before no space or control
	VPORQ Z13, Z2, Z2
	VPSHUFB Z2, Z28, Z5
	VPXORQ Z2, Z5, Z5 // zero after 'l', 's' or 'o'
	VPXORQ Z12, Z1, Z6 // zero before '/'
	VPMINUB Z6, Z5, Z5
	VPTESTNMB Z5, Z5, K3, K4 // N
	VPCMPEQB Z11, Z0, K5 // '<'
	VPCMPUB $2, Z13, Z0, K6 // up to ' '
	KMOVQ K1, C_(SP)(R11*1)
	KMOVQ K4, N_(SP)(R11*1)
	KMOVQ K6, T_(SP)(R11*1)
	KMOVQ K5, (L_+8)(SP)(R11*1)
	ADDQ $8, R11
	ADDQ $64, BX
	JMP pass512

	// 2: PRECISE, 8 blocks a step (CX the first one's, times 8).
precise512:
	MOVQ out_len+40(FP), R8
	SUBQ $64, R8
	MOVQ R11, DX
	XORQ CX, CX

lanes512:
	CMPQ CX, DX
	JGE blocks512
	VMOVDQU64 C_(SP)(CX*1), Z0
	VMOVDQU64 (L_+8)(SP)(CX*1), Z1
	VMOVDQU64 L_(SP)(CX*1), Z2 // the '<' of the block before
	VMOVDQU64 T_(SP)(CX*1), Z3
	// Z3: a space or control among the 8 octets before.
	SPREAD(Z3)
	VPSLLQ $1, Z3, Z3
	// Z5: the colons with a '<' among the 8 octets before, in the
	// block or among the last 8 of the block before.
	SPREAD(Z1)
	VPSLLQ $1, Z1, Z5
	VPANDQ Z0, Z5, Z5
	VPTESTMQ Z24, Z2, K1
	VPANDQ Z25, Z0, Z6
	VPORQ Z6, Z5, K1, Z5
	// Z1: a '<' among the 40 octets before, in the block or among the
	// last 40 of the block before.
	VPSLLQ $8, Z1, Z4
	VPORQ Z4, Z1, Z1
	VPSLLQ $16, Z1, Z4
	VPORQ Z4, Z1, Z1
	VPSLLQ $8, Z1, Z4
	VPORQ Z4, Z1, Z1
	VPSLLQ $1, Z1, Z1
	VPTESTMQ Z26, Z2, K2
	VPORQ Z27, Z1, K2, Z1
	// E: those, the colons of Z1 with no space or control among the 8
	// octets before, and S.
	VPANDNQ Z1, Z3, Z6
	VPANDQ Z0, Z6, Z6
	VPORQ Z6, Z5, Z5
	VMOVDQU64 Z5, E_(SP)(CX*1)
	VMOVDQU64 N_(SP)(CX*1), Z6
	VPORQ Z6, Z5, Z6
	VPTESTMQ Z6, Z6, K3
	MOVQ CX, R13
	SHRQ $6, R13
	KMOVW K3, MAP_(SP)(R13*1)
	ADDQ $64, CX
	JMP lanes512

	// 3: the blocks of the bitmap (R10, from block R11), DX of them.
blocks512:
	SHRQ $3, DX
	XORQ R11, R11

word512:
	CMPQ R11, DX
	JGE chunkdone512
	MOVQ R11, R13
	SHRQ $3, R13
	MOVQ MAP_(SP)(R13*1), R10

bit512:
	TESTQ R10, R10
	JZ nextword512
	BSFQ R10, R13
	ADDQ R11, R13
	CMPQ R13, DX
	JGE chunkdone512
	LEAQ -1(R10), R14
	ANDQ R14, R10
	MOVQ R13, BX
	SHLQ $6, BX
	ADDQ R15, BX
	MOVQ E_(SP)(R13*8), AX
	MOVQ N_(SP)(R13*8), R12
	TESTQ R12, R12
	JZ emit512
	// Those of N before '/', and those after "url", "ews" or "lto".
	KMOVQ R12, K4
	VMOVDQU64 1(SI)(BX*1), Z1
	VPCMPEQB Z12, Z1, K4, K5
	KMOVQ K5, R13
	ORQ R13, AX
	VMOVDQU64 -1(SI)(BX*1), Z2
	VPORQ Z13, Z2, Z2
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
	EMITS(emit512, next512)
	// Out has room for the next block's candidates, or the call stops
	// before it.
	CMPQ R9, R8
	JGT done512
	JMP bit512

nextword512:
	ADDQ $64, R11
	JMP word512

chunkdone512:
	MOVQ DX, BX
	SHLQ $6, BX
	ADDQ R15, BX
	MOVQ b_len+8(FP), DX
	SUBQ $65, DX
	JMP chunk512

done512:
	DONE
