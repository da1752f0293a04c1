//go:build linux

package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkGetGopherVsCurl fetches one large binary item (type 9, read raw
// to the close) of RFC1738_BENCH_BYTES (256 MiB by default) from a loopback
// gophernicus with "rfc1738 get" and with curl, in the same run. The goal
// (issue 5): throughput at least curl's, and flat memory whatever the size.
func BenchmarkGetGopherVsCurl(b *testing.B) {
	srv := testserver.Gophernicus(b)
	size := benchBytes(b)
	benchWriteFile(b, filepath.Join(srv.Root, "big.bin"), size)
	b.Logf("item of %d bytes on gophernicus at %s", size, srv.Addr)
	url := fmt.Sprintf("gopher://%s/9/big.bin", srv.Addr)
	benchGetVsCurl(b, url, url)
}
