package watchdog

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestCancelsWhenIdle(t *testing.T) {
	ctx, w := New(context.Background(), 100*time.Millisecond, nil)
	defer w.Stop()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not fire")
	}
	if err := Explain(ctx, ctx.Err()); !strings.Contains(err.Error(), "nothing arrived for 100ms") {
		t.Errorf("Explain = %v", err)
	}
	// Progress keeps it quiet: 2 s of touches 100 ms apart against a 1 s
	// limit. A watchdog that ignored them would fire within 1.25 s; a
	// loaded machine under -race would have to stretch one 100 ms sleep
	// tenfold to make a working one fire.
	ctx, w = New(context.Background(), time.Second, nil)
	defer w.Stop()
	for i := 0; i < 20; i++ {
		time.Sleep(100 * time.Millisecond)
		w.Touch()
	}
	if ctx.Err() != nil {
		t.Error("the watchdog fired although data kept arriving")
	}
}

// TestReaderTouches: every way a copy reads through Reader (Read, and
// WriteTo onto the source's own WriteTo) counts as progress.
func TestReaderTouches(t *testing.T) {
	for name, src := range map[string]func() io.Reader{
		"Read":    func() io.Reader { return strings.NewReader("0123456789") },
		"WriteTo": func() io.Reader { return bufio.NewReader(strings.NewReader("0123456789")) },
	} {
		_, w := New(context.Background(), 0, nil)
		w.last.Store(0)
		var out strings.Builder
		if _, err := io.Copy(&out, w.Reader(src())); err != nil || out.String() != "0123456789" {
			t.Errorf("%s: copied %q, %v", name, out.String(), err)
		}
		if w.last.Load() == 0 {
			t.Errorf("%s: the watchdog was never touched", name)
		}
		w.Stop()
	}
}

func TestExplain(t *testing.T) {
	base := errors.New("read: i/o timeout")
	ctx, cancel := context.WithCancel(context.Background())
	if err := Explain(ctx, base); err != base {
		t.Errorf("a live context changed the error: %v", err)
	}
	cancel()
	if err := Explain(ctx, base); err.Error() != "interrupted: read: i/o timeout" || !errors.Is(err, base) {
		t.Errorf("Explain after cancel = %v", err)
	}
}
