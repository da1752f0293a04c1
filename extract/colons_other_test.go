//go:build !amd64 || purego

package extract

// kernels returns the colonBlocks kernels this build has: none.
func kernels() map[string]func([]byte, int, []int) (int, int) { return nil }
