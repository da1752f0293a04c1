//go:build !unix

package testserver

import "testing"

// lockAccounts has nothing to lock where there is no useradd.
func lockAccounts(testing.TB) (unlock func()) { return func() {} }
