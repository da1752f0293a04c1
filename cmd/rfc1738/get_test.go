package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

type closer struct{ err error }

func (c closer) Close() error { return c.err }

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := writeAtomic(path, strings.NewReader("hello"), closer{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Fatalf("file = %q", b)
	}
	// A body that fails mid-way, and a transfer whose end the protocol
	// reports as failed, leave the old file alone and no temporary file.
	bad := io.MultiReader(strings.NewReader("partial"), iotest.ErrReader(errors.New("connection dropped")))
	if err := writeAtomic(path, bad, closer{}); err == nil {
		t.Fatal("a failed body must fail")
	}
	if err := writeAtomic(path, strings.NewReader("all of it"), closer{errors.New("426 transfer aborted")}); err == nil {
		t.Fatal("a failed close must fail")
	}
	if b, _ := os.ReadFile(path); string(b) != "hello" {
		t.Errorf("the complete file was replaced by %q", b)
	}
	newPath := filepath.Join(dir, "new.bin")
	writeAtomic(newPath, iotest.ErrReader(errors.New("boom")), closer{})
	if _, err := os.Stat(newPath); !os.IsNotExist(err) {
		t.Errorf("a failed download left %s", newPath)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %v, want only out.txt", entries)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "100": 100, "10K": 10 << 10, "5M": 5 << 20, "1G": 1 << 30, "2GiB": 2 << 30, "3kb": 3 << 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "x", "1Q", "99999999999T"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) succeeded", in)
		}
	}
}

func TestLimitedReader(t *testing.T) {
	var out strings.Builder
	_, err := io.Copy(&out, &limitedReader{r: strings.NewReader("0123456789"), left: 4})
	if !errors.Is(err, errTooLarge) || out.String() != "0123" {
		t.Errorf("over the limit: %q, %v", out.String(), err)
	}
	out.Reset()
	_, err = io.Copy(&out, &limitedReader{r: strings.NewReader("0123"), left: 4})
	if err != nil || out.String() != "0123" {
		t.Errorf("at the limit: %q, %v", out.String(), err)
	}
}

func TestWatchdogCancelsWhenIdle(t *testing.T) {
	ctx, w := newWatchdog(context.Background(), 100*time.Millisecond)
	defer w.stop()
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the watchdog did not fire")
	}
	if err := explain(ctx, ctx.Err()); !strings.Contains(err.Error(), "--idle-timeout") {
		t.Errorf("explain = %v", err)
	}
	// Progress keeps it quiet.
	ctx, w = newWatchdog(context.Background(), 200*time.Millisecond)
	defer w.stop()
	for i := 0; i < 10; i++ {
		time.Sleep(40 * time.Millisecond)
		w.touch()
	}
	if ctx.Err() != nil {
		t.Error("the watchdog fired although data kept arriving")
	}
}

func TestPlanAndGetWithoutHandler(t *testing.T) {
	_, errOut, status := runCLI(t, "", "plan", "x-none://u:secret@h/x")
	if status != exitUsage || !strings.Contains(errOut, "no access method") || strings.Contains(errOut, "secret") {
		t.Errorf("plan of an unknown scheme: %d %q", status, errOut)
	}
	_, errOut, status = runCLI(t, "", "get", "telnet://u:secret@h/x")
	if status != exitNegative || !strings.Contains(errOut, "not a valid") || strings.Contains(errOut, "secret") {
		t.Errorf("get of an invalid URL: %d %q", status, errOut)
	}
	if _, _, status := runCLI(t, "", "get", "--max-size", "lots", "ftp://h/x"); status != exitUsage {
		t.Errorf("bad --max-size: %d", status)
	}
}
