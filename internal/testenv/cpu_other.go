//go:build !unix

package testenv

import "testing"

// CPUThroughput reports nothing where the process's CPU time is not known.
func CPUThroughput(b *testing.B, bytesPerOp int64) (stop func()) { return func() {} }
