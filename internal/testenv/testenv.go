// Package testenv is what every test of the project needs of its
// environment and nothing more: whether it runs under CI, the shared/
// folder beside the checkout (the RFC text, the URL lists) and the calling
// thread's CPU clock for benchmarks. It imports the standard library only,
// so that the tests of the grammar core depend on nothing that changes
// with the protocol tests (the mutation gate's digest covers what a
// package's tests import).
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// InCI reports whether the tests run under CI, where nothing may be skipped
// for want of a daemon or a shared file.
func InCI() bool { return os.Getenv("CI") == "true" }

// Unavailable skips the test with the reason, or fails it under CI.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if InCI() {
		t.Fatalf("CI=true and %s", msg)
	}
	t.Skip(msg)
}

// ModuleRoot returns the folder that holds go.mod, found by walking up from
// this source file.
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// SharedDir returns the shared/ folder beside the checkout (or the one named
// by RFC1738_SHARED). It holds the RFC text and the benchmark datasets, which
// the project reads but does not copy.
func SharedDir() string {
	if d := os.Getenv("RFC1738_SHARED"); d != "" {
		return d
	}
	return filepath.Join(filepath.Dir(ModuleRoot()), "shared")
}

// SharedFile returns the path of shared/rel, making the test Unavailable
// when it is not there.
func SharedFile(t testing.TB, rel string) string {
	t.Helper()
	p := filepath.Join(SharedDir(), filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		Unavailable(t, "shared file %s is missing (it lives beside the checkout, in ../shared)", p)
	}
	return p
}
