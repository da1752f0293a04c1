// Package xurls compares the extract package with mvdan.cc/xurls/v2 on the
// same inputs in the same run. It is a module of its own so that the main
// module stays free of dependencies; run it with
//
//	cd benchmarks/xurls && go test -bench . -cpu 1
package xurls
