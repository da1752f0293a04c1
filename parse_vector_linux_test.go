//go:build linux

package rfc1738

import (
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// TestKernelsStayInside runs the kernels, and the parser with both
// readings, on texts placed right after and right before a page that may
// not be read: an octet read before the start or past the end of the
// input faults, and the test dies. (The kernels read 32 octets at a time,
// near the ends of the input from its first or its last 32.)
func TestKernelsStayInside(t *testing.T) {
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
	r := rand.New(rand.NewPCG(4096, 32))
	texts := []string{}
	for n := 32; n <= 160; n++ {
		texts = append(texts, kernelText(r, n), "https://"+strings.Repeat("ab.c-", n)[:n-8], "file://"+strings.Repeat("/abc", n)[:n-7])
	}
	for _, text := range texts {
		n := len(text)
		for _, at := range []int{0, page - n} { // after the first guard, before the last
			copy(middle[at:], text)
			s := unsafe.String(&middle[at], n)
			for i := 0; i <= n; i++ {
				masks64(s, i)
				for _, j := range []int{i, min(i+40, n), n} {
					spanBlocks(s, i, j, xcharOctets.nibbles())
				}
			}
			for _, v := range []bool{false, true} {
				withReading(v, func() bool {
					Parse(s)
					Check(s)
					return Valid(s)
				})
			}
		}
	}
}
