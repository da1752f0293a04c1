//go:build !unix

package main

import "os"

// mapFile maps nothing here: every file is read as a stream.
func mapFile(*os.File) ([]byte, func()) { return nil, nil }
