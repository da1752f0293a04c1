package extract

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"
)

func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

// colonsRef is colonBlocks' contract read octet by octet: a kernel must
// write exactly these indexes and stop where it stops.
func colonsRef(b []byte, from int, out []int) (n, next int) {
	if from < 64 {
		return 0, from
	}
	k := from
	if a := from - int((uintptr(unsafe.Pointer(unsafe.SliceData(b)))+uintptr(from))&63); a >= 64 {
		k = a
	}
	has := func(lo, hi int, f func(byte) bool) bool { return slices.ContainsFunc(b[lo:hi], f) }
	less := func(c byte) bool { return c == '<' }
	for ; k+65 <= len(b) && n+64 <= len(out); k += 64 {
		for j := k; j < k+64; j++ {
			if b[j] != ':' {
				continue
			}
			named := (equalFold(b[j-3:j], "url") || equalFold(b[j-3:j], "ews") || equalFold(b[j-3:j], "lto")) && b[j+1] > ' '
			// A '<' of the block among the 34 octets before, with only
			// scheme octets between; or one among the last 34 of the
			// block before, when only scheme octets stand before the
			// ':' in its block, at most 33 of them.
			q := j - 1
			for q >= k && q >= j-34 && class[b[q]]&cScheme != 0 {
				q--
			}
			wrapped := q >= k && q >= j-34 && b[q] == '<' ||
				q < k && j-k <= 33 && has(k-34, k, less)
			if b[j+1] == '/' || named || wrapped {
				out[n] = j
				n++
			}
		}
	}
	return n, k
}

// TestColonBlocksRef runs each kernel the CPU has and the contract over
// text made of the octets they look at, placed at every offset from a
// cache line, from every start, with room for one block's candidates and
// more, and checks that they agree, and that what they find holds every
// ':' a match may end its scheme at (mayStart).
func TestColonBlocksRef(t *testing.T) {
	ks := kernels()
	if len(ks) == 0 {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nextColon searches colon by colon")
	}
	r := rand.New(rand.NewPCG(1, 2))
	got, want := make([]int, 200), make([]int, 200)
	mem := make([]byte, 1024)
	for round := range 4000 {
		// Text as dense in colons as fastAlphabet makes it; text of the
		// words the kernels look for; sparse text, so that blocks go by
		// with none; and a few words alone.
		text := randomText(r, 64+r.IntN(800))
		switch round % 5 {
		case 1:
			text = text[:0]
			for len(text) < 64+r.IntN(800) {
				text = append(text, kernelWords[r.IntN(len(kernelWords))]...)
			}
		case 2:
			for k := range text {
				if r.IntN(8) != 0 {
					text[k] = 'x'
				}
			}
		case 3:
			// A word alone in its blocks, where nothing else sends them
			// to the kernels' out-of-line path.
			for k := range text {
				text[k] = 'x'
			}
			for range 3 {
				w := kernelWords[r.IntN(len(kernelWords))]
				copy(text[r.IntN(len(text)):], w)
			}
		}
		b := mem[r.IntN(64):]
		b = b[:copy(b, text)]
		if round%5 == 4 {
			// Words whose ':' ends a block, before what starts the next:
			// the octet after the block decides.
			for k := range b {
				b[k] = 'x'
			}
			line := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) & 63)
			for j := 63 - line + 64; j+1 < len(b); j += 64 * (1 + r.IntN(3)) {
				w := kernelWords[r.IntN(len(kernelWords))]
				if k := strings.IndexByte(w, ':'); k >= 0 && j-k >= 0 {
					copy(b[j-k:], w[:k+1])
					b[j+1] = " \t\x00\x1f!x/<"[r.IntN(8)]
				}
			}
		}
		from := r.IntN(len(b) + 1)
		room := 64 + r.IntN(len(got)-63)
		wn, wnext := colonsRef(b, from, want[:room])
		for name, kernel := range ks {
			n, next := kernel(b, from, got[:room])
			if n != wn || next != wnext || !slices.Equal(got[:n], want[:wn]) {
				t.Fatalf("%s(%q, %d, room %d) = %v, %d; want %v, %d", name, b, from, room, got[:n], next, want[:wn], wnext)
			}
		}
		for j := from; j < wnext; j++ {
			if b[j] == ':' && mayStart(b, j) && !slices.Contains(want[:wn], j) {
				t.Fatalf("%q from %d: a match may end its scheme at the ':' at %d, colonBlocks passes it over", b, from, j)
			}
		}
	}
}

// TestColonBlocksOctets tells each octet apart as the kernels' tables
// do (a scheme's or not, §5; 'l', 's', 'o' or not) before a ':' after a
// '<', alone and inside a scheme, at every place in a block and across
// its start, against the contract.
func TestColonBlocksOctets(t *testing.T) {
	ks := kernels()
	if len(ks) == 0 {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nextColon searches colon by colon")
	}
	got, want := make([]int, 200), make([]int, 200)
	b := make([]byte, 64*6)
	for c := range 256 {
		for _, form := range []string{"<?:", "<a?b:", "<abcdefghijklmnopqrstuvwxyz01234?:", "url?:x", "?:/"} {
			for at := 64; at < 64*4; at += 7 {
				for k := range b {
					b[k] = ' '
				}
				copy(b[at:], bytes.ReplaceAll([]byte(form), []byte("?"), []byte{byte(c)}))
				wn, wnext := colonsRef(b, 64, want)
				for name, kernel := range ks {
					n, next := kernel(b, 64, got)
					if n != wn || next != wnext || !slices.Equal(got[:n], want[:wn]) {
						t.Fatalf("%s(%q at %d) = %v, %d; want %v, %d", name, b[at:at+40], at, got[:n], next, want[:wn], wnext)
					}
				}
			}
		}
	}
}

// TestColonBlocksLong runs the kernels over inputs of 200 to 456 blocks
// (they take 128 at a time), with few candidates, so that one call
// crosses from one group of 128 to the next, and with room for one
// block's candidates or more, so that a call also stops in the middle of
// a group; each call, from wherever the last one stopped, must agree
// with the contract.
func TestColonBlocksLong(t *testing.T) {
	ks := kernels()
	if len(ks) == 0 {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nextColon searches colon by colon")
	}
	r := rand.New(rand.NewPCG(3, 4))
	got, want := make([]int, 200), make([]int, 200)
	mem := make([]byte, 64+(456<<6))
	crossed, stopped := false, false
	for round := range 40 {
		b := mem[r.IntN(64):]
		b = b[:64*(200+r.IntN(257))+r.IntN(64)]
		// Prose of colons and '<' in the even rounds; in the odd ones,
		// colons without a '<', and one word the kernels take in about
		// 40 blocks.
		alphabet := "xxxxxxxxxxxxxx :<\n"
		if round%2 == 1 {
			alphabet = "xxxxxxxxxxxxxx :x\n"
		}
		for k := range b {
			b[k] = alphabet[r.IntN(len(alphabet))]
		}
		for range len(b) / (64 * (1 + 39*(round%2))) {
			w := kernelWords[r.IntN(len(kernelWords))]
			copy(b[r.IntN(len(b)):], w)
		}
		room := 64 + r.IntN(len(got)-63)
		calls := 0
		for from := 64 + r.IntN(200); ; calls++ {
			wn, wnext := colonsRef(b, from, want[:room])
			for name, kernel := range ks {
				n, next := kernel(b, from, got[:room])
				if n != wn || next != wnext || !slices.Equal(got[:n], want[:wn]) {
					t.Fatalf("round %d, %s(%d octets, from %d, room %d) = %v, %d; want %v, %d", round, name, len(b), from, room, got[:n], next, want[:wn], wnext)
				}
			}
			if wnext <= from {
				break
			}
			crossed = crossed || wnext-from > 128*64
			stopped = stopped || wnext < len(b)-64 && wn > room-64
			from = wnext
		}
		if calls == 0 {
			t.Fatalf("round %d: no call read a block", round)
		}
	}
	if !crossed || !stopped {
		t.Fatalf("no call crossed from one pass to the next (%v) or stopped for room (%v)", crossed, stopped)
	}
}

// mayStart reports whether a match may end its scheme at the ':' b[j]:
// endsScheme takes it, and a bare URL may start there ('/' after it, or
// a word before it, "url", "news" or "mailto", and no space or control
// after it: TestNamedBeforeSpace) or a wrapper may (wrapperBefore: a '<'
// right before a run of at most maxScheme+1 scheme octets).
func mayStart(b []byte, j int) bool {
	if !endsScheme(b, j) {
		return false
	}
	if j+1 == len(b) || b[j+1] == '/' {
		return true
	}
	if b[j+1] > ' ' && (equalFold(b[max(j-3, 0):j], "url") || equalFold(b[max(j-4, 0):j], "news") || equalFold(b[max(j-6, 0):j], "mailto")) {
		return true
	}
	s := &Scanner{buf: b, end: len(b)}
	return s.wrapperBefore(0, j) != -1
}

// TestNamedBeforeSpace: a ':' after "url", "news" or "mailto" with a
// space or control after it ends no scheme of a match, which is why
// colonBlocks passes it over when no '<' stands close enough before it:
// the prefix URL: needs a scheme right after it, a bare news or mailto URL
// at least one octet of its own (§5), and a wrapper's '<' is close.
func TestNamedBeforeSpace(t *testing.T) {
	n := 0
	withoutKernel(func() {
		for _, word := range []string{"url", "URL", "news", "NeWs", "mailto", "MAILTO"} {
			for _, lead := range []string{"", " ", "(", "*", "_", "x", "x-", "\n", "<x> ", "see "} {
				for after := byte(0); after <= ' '; after++ {
					for _, tail := range []string{"x", "//a.org/", "http://a.org/x", "x@y.org", "comp.x", "-\nx", ":x"} {
						in := lead + word + ":" + string(after) + tail
						colon := len(lead) + len(word)
						for _, m := range All(in) {
							if m.Start.Offset <= int64(colon) {
								t.Errorf("%q: %q starts at %d, at or before the ':' at %d", in, m.URL, m.Start.Offset, colon)
							}
						}
						n++
					}
				}
			}
		}
	})
	if n < 10000 {
		t.Fatalf("only %d inputs", n)
	}
}

// kernelWords are what the kernels look for, and look-alikes.
var kernelWords = []string{
	"url:", "URL:", "uRl:", "ews:", "EWS:", "lto:", "LtO:", "rl:", "ws:", "to:", "l:", "s:", "o:", "xrl:", "uxl:",
	"urx:", "xws:", "exs:", "ewx:", "xto:", "lxo:", "ltx:", ":/", "://", "<", "<x:", " :", ":", "\n", "\t", " ",
	"xx", "a", "/", "\x01", "!", "\xff", "news:", "mailto:",
}

// withoutKernel runs f with nextColon searching colon by colon.
func withoutKernel(f func()) {
	k := colonBlocks
	colonBlocks = nil
	defer func() { colonBlocks = k }()
	f()
}

// kernelTexts are long texts for the scanner with and without the kernel:
// the RFC's, prose and URLs in every form, and random text.
func kernelTexts(t *testing.T) map[string]string {
	r := rand.New(rand.NewPCG(3, 4))
	var mixed strings.Builder
	forms := []string{
		"see http://www.example.org/a/b.html for it. ", "<URL:ftp://ftp.is.co.za/rfc/rfc1808.txt> ",
		"Note: nothing here; at 10:30 a::b ", "<mailto:info@example.com>, ", "news:comp.infosystems.www ",
		"URL:gopher://spinaltap.micro.umn.edu/00/Weather ", "(http://a.org/x) [nntp://h/g/1] ",
		"<URL:http://www.acme.com/\n   foo/bar.html> ", "<\tURL:http://x.org/> ", "mailto: ", "Mailto:j@x.org ",
		"-- Maintainer <m@example.org>  Tue, 10 Jan 2012 10:00:00 +0100\n", "\n",
		"URL: http://a.org/ ", "news:\tcomp.x ", "MAILTO:\x01x ", "<URL: ftp://a.org/> ", "<news:\n comp.x> ",
	}
	for mixed.Len() < 300<<10 {
		mixed.WriteString(forms[r.IntN(len(forms))])
	}
	texts := map[string]string{
		"mixed":  mixed.String(),
		"random": string(randomText(r, 200<<10)),
	}
	if rfc := readRFC(t); rfc != "" {
		texts["rfc1738"] = rfc
	}
	return texts
}

// TestScanKernel checks that the scanner finds the same matches, at the
// same positions, with the kernel and colon by colon, in memory and
// streamed through a small buffer.
func TestScanKernel(t *testing.T) {
	if colonBlocks == nil {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nothing to compare")
	}
	for name, text := range kernelTexts(t) {
		// Every offset from a cache line, for the kernel's first block.
		for shift := range 3 {
			in := strings.Repeat("x", shift*21) + text
			// Streamed through the smallest buffer a 64-octet URL allows
			// (a refill every few blocks) and through one of 4 KiB.
			fast := All(in)
			stream, _ := scanAll(t, iotest.HalfReader(strings.NewReader(in)), 64, 0)
			stream4k, _ := scanAll(t, strings.NewReader(in), 64, 4096)
			var slow, slowStream, slowStream4k []Match
			withoutKernel(func() {
				slow = All(in)
				slowStream, _ = scanAll(t, iotest.HalfReader(strings.NewReader(in)), 64, 0)
				slowStream4k, _ = scanAll(t, strings.NewReader(in), 64, 4096)
			})
			if len(slow) == 0 {
				t.Fatalf("%s: no match at all", name)
			}
			for _, c := range []struct {
				what      string
				got, want []Match
			}{{"in memory", fast, slow}, {"streamed", stream, slowStream}, {"streamed, 4 KiB", stream4k, slowStream4k}} {
				if !slices.EqualFunc(c.got, c.want, equalMatch) {
					i := 0
					for i < min(len(c.got), len(c.want)) && equalMatch(c.got[i], c.want[i]) {
						i++
					}
					t.Fatalf("%s, shifted %d, %s: %d matches, want %d; first difference at %d:\n got %+v\nwant %+v",
						name, shift, c.what, len(c.got), len(c.want), i, c.got[i:min(i+1, len(c.got))], c.want[i:min(i+1, len(c.want))])
				}
			}
		}
	}
}

// TestScanKernelCovers checks that nextColon hands the kernel all of a
// long input but its ends and the matches, each call a blockSpan and the
// octets its last block reads.
func TestScanKernelCovers(t *testing.T) {
	if colonBlocks == nil {
		t.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nothing is handed to it")
	}
	kernel := colonBlocks
	type call struct{ from, end, next int }
	var calls []call
	colonBlocks = func(b []byte, from int, out []int) (int, int) {
		n, next := kernel(b, from, out)
		calls = append(calls, call{from, len(b), next})
		return n, next
	}
	defer func() { colonBlocks = kernel }()
	in := []byte(kernelTexts(t)["mixed"])
	s := NewScanner(nil)
	s.ResetBytes(in)
	var ms []Match
	for s.Scan() {
		ms = append(ms, s.Match())
	}
	covered := make([]bool, len(in))
	for _, c := range calls {
		if want := min(len(in), c.from+blockSpan+65); c.end != want {
			t.Fatalf("call from %d reads up to %d, want %d", c.from, c.end, want)
		}
		for p := c.from; p < c.next; p++ {
			covered[p] = true
		}
	}
	for _, m := range ms {
		// and the '>' of a wrapper, after its URL
		for p := m.Start.Offset; p <= m.End.Offset; p++ {
			covered[p] = true
		}
	}
	for p := 128; p < len(in)-129; p++ {
		if !covered[p] {
			t.Fatalf("%d calls: the octet at %d of %d went to neither the kernel nor a match", len(calls), p, len(in))
		}
	}
	if limit := len(in)/blockSpan + len(ms) + 2; len(calls) > limit {
		t.Fatalf("%d calls for %d octets and %d matches, want at most %d", len(calls), len(in), len(ms), limit)
	}
}

// FuzzColonBlocks checks each kernel the CPU has against the contract on
// any input, placed at any offset from a cache line.
func FuzzColonBlocks(f *testing.F) {
	ks := kernels()
	if len(ks) == 0 {
		f.Skip("this CPU has no colonBlocks kernel (AVX2 or AVX-512): nothing to fuzz")
	}
	f.Add([]byte(strings.Repeat("see <URL:news:x> and http://a.org/ url:x Note: 10:30 ", 8)), uint8(3), uint16(70), uint8(100))
	got, want := make([]int, 320), make([]int, 320)
	mem := make([]byte, 64+4096)
	f.Fuzz(func(t *testing.T, text []byte, off uint8, from uint16, room uint8) {
		b := mem[off%64:]
		b = b[:copy(b, text)]
		start := int(from) % (len(b) + 1)
		n := 64 + int(room)
		wn, wnext := colonsRef(b, start, want[:n])
		for name, kernel := range ks {
			gn, gnext := kernel(b, start, got[:n])
			if gn != wn || gnext != wnext || !slices.Equal(got[:gn], want[:wn]) {
				t.Fatalf("%s(%q, %d, room %d) = %v, %d; want %v, %d", name, b, start, n, got[:gn], gnext, want[:wn], wnext)
			}
		}
	})
}
