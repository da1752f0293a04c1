package browse

import (
	"bytes"
	"os"
	"testing"
)

// TestTermRestored: TERM is hidden from Bubble Tea's init only; once the
// packages are initialised it is again what the process started with
// (/proc/self/environ holds the environment as exec gave it).
func TestTermRestored(t *testing.T) {
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Skipf("no /proc/self/environ: %v", err)
	}
	want, had := "", false
	for _, kv := range bytes.Split(b, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte("TERM=")); ok {
			want, had = string(v), true
		}
	}
	got, ok := os.LookupEnv("TERM")
	if got != want || ok != had {
		t.Errorf("TERM = %q (set %v), the process started with %q (set %v)", got, ok, want, had)
	}
}
