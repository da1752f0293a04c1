package extract

import "testing"

func BenchmarkTmpKernel(b *testing.B) {
	files := loadDocTree(b)
	var text []byte
	for _, f := range files { if len(text) < 40<<20 { text = append(text, f.data...) } }
	out := make([]int, 128)
	k := colonsAVX512
	for _, size := range []int{256 << 10, len(text)} {
		b.Run(map[bool]string{true: "hot", false: "mem"}[size < 1<<20], func(b *testing.B) {
			t := text[:size]
			b.SetBytes(int64(len(t)))
			for b.Loop() {
				for i := 64; ; {
					_, next := k(t[:min(len(t), i+16<<10+65)], i, out)
					if next <= i {
						break
					}
					i = next
				}
			}
		})
	}
}
