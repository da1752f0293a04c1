//go:build linux && !purego

package extract

import (
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
)

// TestColonBlocksStayInside runs each kernel on texts placed right after
// and right before a page that may not be read (an octet read before the
// start or past the end of b faults, and the test dies), and gives it an
// out whose len is its cap with sentinels past it in the same array: a
// write past out[len(out)-1] changes a sentinel. The kernels read 64
// octets a step from the start of a cache line and the octet after the
// last block, so every length from 0 to four blocks and every start is
// tried at both ends of the readable page.
func TestColonBlocksStayInside(t *testing.T) {
	ks := kernels()
	if len(ks) == 0 {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nothing reads in blocks")
	}
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(mem[2*page:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	middle := mem[page : 2*page]
	const sentinel = -7
	store, want := make([]int, 256+8), make([]int, 256)
	r := rand.New(rand.NewPCG(41, 15))
	for n := 0; n <= 4*64+1; n++ {
		// Dense in the words the kernels keep, so that out fills.
		text := make([]byte, 0, n+16)
		for len(text) < n {
			text = append(text, kernelWords[r.IntN(len(kernelWords))]...)
		}
		text = text[:n]
		for _, at := range []int{0, page - n} { // after the first guard, before the last
			copy(middle[at:], text)
			b := middle[at : at+n : at+n]
			for from := 0; from <= n; from += 1 + r.IntN(7) {
				for _, room := range []int{64, 65, 100, 127, 128, 200} {
					out := store[:room:room]
					for k := range store[room:] {
						store[room+k] = sentinel
					}
					for name, kernel := range ks {
						kn, next := kernel(b, from, out)
						wn, wnext := colonsRef(b, from, want[:room])
						if kn != wn || next != wnext || !slices.Equal(out[:kn], want[:wn]) {
							t.Fatalf("%s(len %d, from %d, room %d) = %v, %d; want %v, %d", name, n, from, room, out[:kn], next, want[:wn], wnext)
						}
						for k, v := range store[room:] {
							if v != sentinel {
								t.Fatalf("%s(len %d, from %d, room %d) wrote %d at out[%d], past its cap", name, n, from, room, v, room+k)
							}
						}
					}
				}
			}
		}
	}
}
