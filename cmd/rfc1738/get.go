package main

import (
	"fmt"
	"strconv"
	"strings"
)

func init() {
	register(&command{
		name:  "get",
		short: "fetch what a URL names with its scheme's protocol",
		args:  "[flags] URL... [-i FILE] [-o FILE | -O [--output-dir DIR]]",
		summary: "Fetch what each URL names with its scheme's protocol (§3), guarded as §6 says. Streams to stdout, or writes each file atomically " +
			"(a hidden .NAME.part renamed when complete), resumes it (-C -), retries transient failures (--retry N), and sums up a run of several URLs.",
		run:     runGet,
		fetches: true,
	})
}

// parseSize reads a byte count with an optional K, M, G or T suffix
// (powers of 1024; "KB", "MiB" and the like are read the same).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:n-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size", s)
	}
	return n * mult, nil
}
