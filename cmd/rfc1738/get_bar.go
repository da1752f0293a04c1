package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/rfc1738/rfc1738/access"
	"github.com/rfc1738/rfc1738/download"
	"github.com/rfc1738/rfc1738/internal/safetext"
)

// drawBar moves the progress bar of a transfer: one transfer at a time,
// on a terminal, and not under -q, -v or a body drawn on the terminal.
func (g *getter) drawBar(ev download.Event) {
	o := g.o
	toTerminal := g.jobList[ev.Job].path == "" && isTerminal(g.e.stdout)
	if o.quiet || o.verbose || toTerminal || o.parallel != 1 || !isTerminal(g.e.stderr) {
		return
	}
	// One transfer at a time: the bars are drawn by one goroutine.
	switch ev.Kind {
	case download.Started:
		g.drawn[ev.Job] = g.newBar(ev.Response)
	case download.Progress:
		if b := g.drawn[ev.Job]; b != nil {
			b.bar.Add64(ev.N)
		}
	case download.Stopped:
		if b := g.drawn[ev.Job]; b != nil {
			delete(g.drawn, ev.Job)
			g.endBar(b, ev.Err == nil)
		}
	}
}

// clearBars erases every bar still on the screen and stops it for good.
func (g *getter) clearBars() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for b := range g.bars {
		b.stopLocked(true)
		delete(g.bars, b)
	}
}

// barGate is a progress bar whose writes pass a gate: once stopped, the
// bar can never draw again (its spinner has a timer of its own).
type barGate struct {
	g       *getter
	bar     *progressbar.ProgressBar
	stopped bool
	drawn   bool
}

func (b *barGate) Write(p []byte) (int, error) {
	b.g.mu.Lock()
	defer b.g.mu.Unlock()
	if b.stopped {
		return len(p), nil
	}
	b.drawn = true
	return b.g.e.stderr.Write(p)
}

// clearLocked erases the bar's line; the bar redraws on its next update.
func (b *barGate) clearLocked() {
	if b.drawn && !b.stopped {
		io.WriteString(b.g.e.stderr, "\r\033[2K")
		b.drawn = false
	}
}

// stopLocked stops the bar: clear erases its line; else the line is
// ended, and the bar stays as the record of the transfer.
func (b *barGate) stopLocked(clear bool) {
	if b.stopped {
		return
	}
	if clear {
		b.clearLocked()
	} else if b.drawn {
		io.WriteString(b.g.e.stderr, "\n")
	}
	b.stopped = true
}

func (g *getter) newBar(resp *access.Response) *barGate {
	b := &barGate{g: g}
	total := resp.Size
	if total >= 0 {
		total += resp.Offset
	}
	b.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(b),
		progressbar.OptionSetDescription(safetext.Escape(filepath.Base(resp.URL))),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(resp.Size > 0),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionFullWidth(),
		progressbar.OptionUseANSICodes(true),
	)
	if resp.Offset > 0 {
		b.bar.Set64(resp.Offset)
	}
	g.mu.Lock()
	g.bars[b] = true
	g.mu.Unlock()
	return b
}

// endBar ends a transfer's bar: completed, it is drawn full and its line
// ended; failed or interrupted, its line is erased, so that the error has
// a line of its own and the bar never comes back.
func (g *getter) endBar(b *barGate, ok bool) {
	if ok {
		b.bar.Finish()
	}
	g.mu.Lock()
	b.stopLocked(!ok)
	delete(g.bars, b)
	g.mu.Unlock()
	if !ok {
		b.bar.Finish() // stops its spinner; the gate drops the drawing
	}
}

// formatBytes writes a byte count for people: 1.5 MiB.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// errBinaryTerminal is the error of a body that holds a NUL byte on its
// way to a terminal: curl's refusal, in its words.
var errBinaryTerminal = errors.New(`Binary output can mess up your terminal. Use "-o -" to write it to your terminal anyway, or "-o FILE" to save it to a file`)

// binaryGuard writes to a terminal until a write holds a NUL byte, the
// sign of binary data (curl's test), and then fails: what a terminal
// would take for control sequences is never written. The failure is the
// output's (exit status 3; curl's 23 is its write error).
type binaryGuard struct{ w io.Writer }

func (b *binaryGuard) Write(p []byte) (int, error) {
	if bytes.IndexByte(p, 0) >= 0 {
		return 0, &fs.PathError{Op: "write", Path: "the terminal", Err: errBinaryTerminal}
	}
	return b.w.Write(p)
}
