package access

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's run when a goroutine outlives its tests
// (an ftp pool's session, a gopher or nntp reader, a telnet relay), but
// for an http transport's idle keep-alive connection, which lives until
// its idle timeout by design.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"))
}
