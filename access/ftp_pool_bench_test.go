package access

import (
	"context"
	"io"
	"testing"

	"github.com/rfc1738/rfc1738/access/ftp"
	"github.com/rfc1738/rfc1738/internal/testserver"
)

// BenchmarkFTPManyFiles fetches small files of one vsftpd login, one
// after another: each on its own login (the plan's QUIT), against the
// idle connection kept by an ftp.Pool (back in the login directory after
// each transfer: no connect, USER or PASS for the next plan).
func BenchmarkFTPManyFiles(b *testing.B) {
	addr, _ := testserver.VSFTPD(b)
	urls := []string{"/hello.txt", "/pub/nested/inner.txt", "/pub/nested/deeper/deep.txt", "/pub/lf.txt"}
	for _, bc := range []struct {
		name string
		idle int
	}{{"login-each", 0}, {"reuse", 1}} {
		b.Run(bc.name, func(b *testing.B) {
			c := NewClient()
			if bc.idle > 0 {
				pool := &ftp.Pool{MaxIdlePerLogin: bc.idle}
				c.RegisterProtocol("ftp", FTP{Pool: pool})
				defer pool.Close()
			}
			ctx := context.Background()
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				u := mustParse(b, "ftp://"+addr+urls[i%len(urls)])
				resp, err := c.Get(ctx, u)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				if err := resp.Body.Close(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
