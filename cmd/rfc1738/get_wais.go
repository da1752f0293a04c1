package main

import (
	"flag"
	"fmt"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, waisAccessFlags)
}

// waisAccessFlags adds the flags of the wais access method (RFC 1738
// §3.9): how many records a search presents, and in which syntax.
func waisAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	records := fs.Int("wais-records", access.DefaultWAISRecords, "how many records a wais search presents (§3.9)")
	syntax := choice(fs, "wais-syntax", "sutrs", "record syntax of wais records: sutrs (USMARC when the target cannot), usmarc, or default (the target's)", "sutrs", "usmarc", "default")
	return func(e *env, c *access.Client) error {
		if *records < 1 {
			return fmt.Errorf("--wais-records %d: want at least 1", *records)
		}
		c.RegisterProtocol("wais", access.WAIS{Records: *records, Syntax: *syntax})
		return nil
	}
}
