//go:build !purego

#include "textflag.h"

// The kernels of colonBlocks (colons.go), 64-octet blocks at a time:
//
//	func colonsAVX2(b []byte, from int, out []int) (n int, next int)
//	func colonsAVX512(b []byte, from int, out []int) (n int, next int)
//
// The first block starts at the start of from's cache line, where blocks
// are read fastest (each is then one aligned load), or at from when that
// is before b[64]; none starts when from is before b[64] (the 64 octets
// before the first block are read for their '<' and the octets before).
//
// Besides those with '/' after them, the candidates are the colons after
// "url", "ews" or "lto" in any case (the ends of "url", "news" and
// "mailto": §3.5, §3.6, Appendix) before no space or control, and those
// with a '<' among the 34 octets before them and only scheme octets (§5)
// between (Appendix: the '<' of a wrapper stands right before its scheme,
// which wrapperBefore reads back over at most maxScheme+1 octets). No
// rule reaches into the block before for more than one fact: whether a
// '<' stands among its last 34 octets, which then counts for the block's
// first colon after only scheme octets, at most 33 (more candidates,
// never fewer), whatever stands after that '<'.
//
// Both kernels take up to 128 blocks (8 KiB) at a time in three passes,
// so that no branch waits on an octet still on its way from memory (a
// mispredicted branch that does stops the loads after it: a kernel with a
// branch per block read about 10 GB/s from memory where bytes.IndexByte
// reads 30 to 40) and the work per block is a few instructions:
//
//  1. Each block is read once (and, with two more loads of lines the
//     cache holds, the octets before and after each), with no branch but
//     the loop's, and four masks of it go to the frame, bit t for b[k+t]:
//     its colons (C); those before no space or control and before '/' or
//     after 'l', 's' or 'o' (N: one compare, through VPSHUFB and the
//     table lso); its '<' (L, after the '<' of the block before); and its
//     octets no scheme holds (X: VPSHUFB looks each nibble up in the
//     tables schemeLow and schemeHigh). It asks for the octets 4 KiB ahead
//     (PREFETCHT0, which never faults), so that they are in the cache
//     when it reads them.
//  2. The '<' rule, 4 (AVX2) or 8 (AVX-512) blocks at a time in the
//     64-bit lanes of a vector register, gives each block's candidates
//     after a '<' (E).
//  3. The blocks with a candidate or a colon of N, in order: the colons
//     of N before '/' or after "url", "ews" or "lto" join E, and E goes
//     to out.
//
// Registers: SI b, DX the last block's start, BX a block's start k, DI
// out, R8 the count past which out has no room for a block, R9 n, R15
// the first block of the 128.
//
// Frame: C at 0, N at 1024, X at 2048, E at 3072 (a quadword per block),
// L at 4096 (the block before the first, then one per block); the
// AVX-512 kernel's bitmap of the blocks of pass 3 at 5136 (two quadwords,
// written two octets at a time: the second is written over by the next
// group's, or lies past the last block).
#define C_ 0
#define N_ 1024
#define X_ 2048
#define E_ 3072
#define L_ 4096
#define MAP_ 5136

// lso: the octet of 'l', 's' and 'o' at its low nibble (3, 0xc, 0xf), 0
// elsewhere, for VPSHUFB: an octet ORed with 0x20 is one of them when
// the table gives it back.
DATA lso<>+0(SB)/8, $0x0000000073000000
DATA lso<>+8(SB)/8, $0x6f00006c00000000
GLOBL lso<>(SB), RODATA|NOPTR, $16

// scheme: the nibble tables of the octets a scheme holds (§5: letters,
// digits, '+', '-', '.'), for VPSHUFB: an octet is one when the entries
// of its low and of its high nibble share a bit (bit 0: '+', '-', '.';
// bit 1: digits; bit 2: 'A' to 'O' and 'a' to 'o'; bit 3: 'P' to 'Z' and
// 'p' to 'z'). nibble: 0x0f in each octet.
DATA schemeLow<>+0(SB)/8, $0x0e0e0e0e0e0e0e0a
DATA schemeLow<>+8(SB)/8, $0x04050504050c0e0e
GLOBL schemeLow<>(SB), RODATA|NOPTR, $16
DATA schemeHigh<>+0(SB)/8, $0x0804080402010000
DATA schemeHigh<>+8(SB)/8, $0
GLOBL schemeHigh<>(SB), RODATA|NOPTR, $16
DATA nibble<>+0(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+8(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+16(SB)/8, $0x0f0f0f0f0f0f0f0f
DATA nibble<>+24(SB)/8, $0x0f0f0f0f0f0f0f0f
GLOBL nibble<>(SB), RODATA|NOPTR, $32

// The '<' rule's masks for AVX2's lanes, as memory operands (the AVX-512
// kernel keeps them in registers): the last 34 octets of a block and its
// first 34, four times each.
DATA last34<>+0(SB)/8, $0xffffffffc0000000
DATA last34<>+8(SB)/8, $0xffffffffc0000000
DATA last34<>+16(SB)/8, $0xffffffffc0000000
DATA last34<>+24(SB)/8, $0xffffffffc0000000
GLOBL last34<>(SB), RODATA|NOPTR, $32
DATA first34<>+0(SB)/8, $0x3ffffffff
DATA first34<>+8(SB)/8, $0x3ffffffff
DATA first34<>+16(SB)/8, $0x3ffffffff
DATA first34<>+24(SB)/8, $0x3ffffffff
GLOBL first34<>(SB), RODATA|NOPTR, $32

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

// LAST sets R8 to the start of the last block of the 128 from BX, R15 to
// BX and R11 to 0.
#define LAST \
	MOVQ BX, R15; \
	MOVQ BX, R8; \
	ADDQ $(127*64), R8; \
	CMPQ R8, DX; \
	CMOVQGT DX, R8; \
	XORQ R11, R11

// STORE writes a block's masks C, N, X and L to the frame with MOV and
// steps to the next block.
#define STORE(MOV, C, N, X, L) \
	MOV C, C_(SP)(R11*1); \
	MOV N, N_(SP)(R11*1); \
	MOV X, X_(SP)(R11*1); \
	MOV L, (L_+8)(SP)(R11*1); \
	ADDQ $8, R11; \
	ADDQ $64, BX

// PASS2 sets R8 back to out's room (pass 1 used it for the last block),
// DX to the size of the masks written, R11 of them, and CX to 0.
#define PASS2 \
	MOVQ out_len+40(FP), R8; \
	SUBQ $64, R8; \
	MOVQ R11, DX; \
	XORQ CX, CX

// NEXT128 steps BX past the DX blocks from R15 and goes on with the next
// 128 at chunk.
#define NEXT128(chunk) \
	MOVQ DX, BX; \
	SHLQ $6, BX; \
	ADDQ R15, BX; \
	MOVQ b_len+8(FP), DX; \
	SUBQ $65, DX; \
	JMP chunk

// EMITS writes each set bit of AX, as an index of b, to out, and steps BX
// to the next block.
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

// The '<' rule of pass 2, on the masks of 4 (AVX2) or 8 (AVX-512) blocks
// in the 64-bit lanes of vector registers, its instructions given as
// arguments: a colon may end the scheme of a wrapper when a '<' stands
// among the 34 octets before it with only scheme octets between
// (wrapperBefore), which the colons of "Makefile.in:" 40 octets after
// the '<' of "<a@b.org>" and a line break do not.

// REACH takes F from the octets that a '<' reaches over at most s octets
// of a scheme to those it reaches over at most 2s, and H from the octets
// with an octet no scheme holds among the s before them to those with
// one among the 2s before them (through T).
#define REACH(OR, ANDN, F, H, T, s) \
	VPSLLQ $s, F, T; ANDN T, H, T; OR T, F, F; \
	VPSLLQ $s, H, T; OR T, H, H

// LANES loads the masks of the blocks from the CX/8th (C in A0, L in A1,
// the L of the blocks before in A2, the octets no scheme holds in A3)
// and puts in A5 the octets that a '<' of the block reaches over at most
// 33 octets of a scheme (through A4, A6, T).
#define LANES(MOV, OR, ANDN, A0, A1, A2, A3, A4, A5, A6, T) \
	MOV C_(SP)(CX*1), A0; \
	MOV (L_+8)(SP)(CX*1), A1; \
	MOV L_(SP)(CX*1), A2; \
	MOV X_(SP)(CX*1), A3; \
	VPSLLQ $1, A1, A5; \
	VPSLLQ $1, A3, A4; \
	REACH(OR, ANDN, A5, A4, T, 1); \
	VPSLLQ $32, A5, A6; \
	REACH(OR, ANDN, A5, A4, T, 2); \
	REACH(OR, ANDN, A5, A4, T, 4); \
	REACH(OR, ANDN, A5, A4, T, 8); \
	REACH(OR, ANDN, A5, A4, T, 16); \
	ANDN A6, A4, A6; \
	OR A6, A5, A5

// FIRST puts in T the block's first octet no scheme holds, when it is
// among its first 34 (from A3, through ZERO).
#define FIRST(SUB, AND, A3, ZERO, FIRST34, T) \
	SUB A3, ZERO, T; \
	AND A3, T, T; \
	AND FIRST34, T, T

// BYTE2 broadcasts the octet c to Y (AVX2), through R13. VMOVQ, not
// MOVQ: a legacy SSE instruction once the upper halves of the Y
// registers hold data makes some processors switch state, each time
// (Intel's "AVX-SSE transition"; on the AMD EPYC virtual machine this
// project is measured on, pass 3 ran at 0.2 GB/s with MOVQ here and at
// 6 GB/s with VMOVQ). Every instruction of these kernels is VEX or EVEX
// encoded (asm_test.go in the root package checks it).
#define BYTE2(c, X, Y) \
	MOVQ c, R13; \
	VMOVQ R13, X; \
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

// MASKS2 computes the masks of pass 1 for the 32 octets at k+off (AVX2):
// C in Y3, N in Y5, L in Y6, X in Y7. Y8 and Y9 hold the tables
// schemeLow and schemeHigh, Y10 ':', Y11 '<', Y12 '/', Y13 ' ', Y14 the
// table lso, Y15 zero.
#define MASKS2(off) \
	VMOVDQU off(SI)(BX*1), Y0; \
	VMOVDQU off+1(SI)(BX*1), Y1; \
	VMOVDQU off-1(SI)(BX*1), Y2; \
	VPCMPEQB Y10, Y0, Y3; \
	VPMINUB Y13, Y1, Y4; \
	VPCMPEQB Y4, Y1, Y4; \
	VPOR Y13, Y2, Y2; \
	VPSHUFB Y2, Y14, Y5; \
	VPXOR Y2, Y5, Y5; \
	VPXOR Y12, Y1, Y6; \
	VPMINUB Y6, Y5, Y5; \
	VPCMPEQB Y15, Y5, Y5; \
	VPANDN Y5, Y4, Y5; \
	VPAND Y3, Y5, Y5; \
	VPCMPEQB Y11, Y0, Y6; \
	VPSRLW $4, Y0, Y7; \
	VPAND nibble<>(SB), Y7, Y7; \
	VPSHUFB Y7, Y9, Y7; \
	VPAND nibble<>(SB), Y0, Y2; \
	VPSHUFB Y2, Y8, Y2; \
	VPAND Y2, Y7, Y7; \
	VPCMPEQB Y15, Y7, Y7

// JOIN2 sets R to the mask of Y for the 64 octets at k, from its first
// half in R and its second in Y, through R13.
#define JOIN2(Y, R) \
	VPMOVMSKB Y, R13; \
	SHLQ $32, R13; \
	ORQ R13, R

TEXT ·colonsAVX2(SB), $5136-72
	SETUP(done2)
	BYTE2($0x3a, X10, Y10) // ':'
	BYTE2($0x3c, X11, Y11) // '<'
	BYTE2($0x2f, X12, Y12) // '/'
	BYTE2($0x20, X13, Y13) // ' ', and the bit that folds case

chunk2:
	CMPQ BX, DX
	JGT done2
	CMPQ R9, R8
	JGT done2
	VBROADCASTI128 lso<>(SB), Y14
	VPXOR Y15, Y15, Y15
	VBROADCASTI128 schemeLow<>(SB), Y8
	VBROADCASTI128 schemeHigh<>(SB), Y9
	VMOVDQU -64(SI)(BX*1), Y0
	VPCMPEQB Y11, Y0, Y0
	VPMOVMSKB Y0, AX
	VMOVDQU -32(SI)(BX*1), Y0
	VPCMPEQB Y11, Y0, Y0
	VPMOVMSKB Y0, R13
	SHLQ $32, R13
	ORQ R13, AX
	MOVQ AX, L_(SP)
	LAST

	// 1: the masks of each block.
pass2:
	CMPQ BX, R8
	JGT precise2
	PREFETCHT0 4096(SI)(BX*1)
	MASKS2(0)
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y5, CX
	VPMOVMSKB Y6, R12
	VPMOVMSKB Y7, R14
	MASKS2(32)
	JOIN2(Y3, AX)
	JOIN2(Y5, CX)
	JOIN2(Y6, R12)
	JOIN2(Y7, R14)
	STORE(MOVQ, AX, CX, R14, R12)
	JMP pass2

	// 2: the '<' rule, 4 blocks a step (CX the first one's, times 8).
precise2:
	PASS2

lanes2:
	CMPQ CX, DX
	JGE blocks2
	LANES(VMOVDQU, VPOR, VPANDN, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	// And the block's first octet no scheme holds, when a '<' is among
	// the last 34 octets of the block before.
	FIRST(VPSUBQ, VPAND, Y3, Y15, first34<>(SB), Y7)
	VPAND last34<>(SB), Y2, Y6
	VPCMPEQQ Y15, Y6, Y6
	VPANDN Y7, Y6, Y7
	VPOR Y7, Y5, Y5
	VPAND Y0, Y5, Y5
	VMOVDQU Y5, E_(SP)(CX*1)
	ADDQ $32, CX
	JMP lanes2

	// 3: the blocks with a candidate or a colon of N (R10 the block),
	// DX of them.
blocks2:
	SHRQ $3, DX
	XORQ R10, R10
	BYTE2($0x6c, X14, Y14) // 'l'
	BYTE2($0x73, X15, Y15) // 's'
	BYTE2($0x6f, X9, Y9) // 'o'

block2:
	CMPQ R10, DX
	JGE chunkdone2
	MOVQ E_(SP)(R10*8), AX
	MOVQ N_(SP)(R10*8), R14
	MOVQ AX, R12
	ORQ R14, R12
	JNZ found2
	INCQ R10
	JMP block2

found2:
	MOVQ R10, BX
	SHLQ $6, BX
	ADDQ R15, BX
	INCQ R10
	TESTQ R14, R14
	JZ emit2
	// Those of N before '/', and those after "url", "ews" or "lto".
	VMOVDQU 1(SI)(BX*1), Y0
	VPCMPEQB Y12, Y0, Y0
	VPMOVMSKB Y0, CX
	VMOVDQU 33(SI)(BX*1), Y0
	VPCMPEQB Y12, Y0, Y0
	VPMOVMSKB Y0, R13
	SHLQ $32, R13
	ORQ R13, CX
	NAMES2(-1, -2, -3)
	VPMOVMSKB Y3, R12
	ORQ R12, CX
	NAMES2(31, 30, 29)
	VPMOVMSKB Y3, R13
	SHLQ $32, R13
	ORQ R13, CX
	ANDQ R14, CX
	ORQ CX, AX
	EMITS(emit2, next2)
	// Out has room for the next block's candidates, or the call stops
	// before it.
	CMPQ R9, R8
	JGT done2
	JMP block2

chunkdone2:
	NEXT128(chunk2)

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
	MOVQ $0xffffffffc0000000, AX
	VPBROADCASTQ AX, Z24 // the last 34 octets of a block
	MOVQ $0x3ffffffff, AX
	VPBROADCASTQ AX, Z25 // its first 34
	VPXORQ Z15, Z15, Z15
	VBROADCASTI32X4 schemeLow<>(SB), Z30
	VBROADCASTI32X4 schemeHigh<>(SB), Z31
	VBROADCASTI32X4 nibble<>(SB), Z29
	VBROADCASTI32X4 lso<>(SB), Z28

chunk512:
	CMPQ BX, DX
	JGT done512
	CMPQ R9, R8
	JGT done512
	VMOVDQU64 -64(SI)(BX*1), Z0
	VPCMPEQB Z11, Z0, K1
	KMOVQ K1, L_(SP)
	LAST

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
	VPSRLW $4, Z0, Z7 // the octets no scheme holds
	VPANDQ Z29, Z7, Z7
	VPSHUFB Z7, Z31, Z7
	VPANDQ Z29, Z0, Z8
	VPSHUFB Z8, Z30, Z8
	VPTESTNMB Z7, Z8, K6
	STORE(KMOVQ, K1, K4, K6, K5)
	JMP pass512

	// 2: the '<' rule, 8 blocks a step (CX the first one's, times 8).
precise512:
	PASS2

lanes512:
	CMPQ CX, DX
	JGE blocks512
	LANES(VMOVDQU64, VPORQ, VPANDNQ, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7)
	// And the block's first octet no scheme holds, when a '<' is among
	// the last 34 octets of the block before.
	FIRST(VPSUBQ, VPANDQ, Z3, Z15, Z25, Z7)
	VPTESTMQ Z24, Z2, K1
	VPORQ Z7, Z5, K1, Z5
	VPANDQ Z0, Z5, Z5
	VMOVDQU64 Z5, E_(SP)(CX*1)
	// The bitmap: the blocks with a candidate or a colon of N.
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
	NEXT128(chunk512)

done512:
	DONE
