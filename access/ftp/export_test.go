package ftp

// ZeroCopyFromStart makes every transfer body's WriteTo go zero-copy from
// its first byte, chunk bytes at a time, until the test ends.
func ZeroCopyFromStart(t interface{ Cleanup(func()) }, chunk int64) {
	after, size := spliceAfter, spliceChunk
	spliceAfter, spliceChunk = 0, chunk
	t.Cleanup(func() { spliceAfter, spliceChunk = after, size })
}
