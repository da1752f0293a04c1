package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rfc1738/rfc1738/internal/testserver"
)

// TestGetMaxSizeAnnounced: a server that announces the size in its 150
// reply ("(N bytes)") is refused before any data is read when N is more
// than --max-size, and served whole when N is exactly the limit. The
// message names the announced size, which tells the refusal up front from
// the cap that trips during the copy ("more data than --max-size allows").
func TestGetMaxSizeAnnounced(t *testing.T) {
	const body = "the whole file, 31 bytes long.\n"
	n := len(body)
	fake := testserver.NewFTPFake(t, testserver.FTPFakeOptions{Files: map[string]string{"/pub/f.txt": body}})
	url := "ftp://" + fake.Addr + "/pub/f.txt"
	for _, tc := range []struct {
		limit int
		ok    bool
	}{
		{n + 1, true},
		{n, true}, // exactly the limit: allowed
		{n - 1, false},
		{0, false},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "f.txt")
		_, stderr, status := runCLI(t, "", "get", "--max-size", strconv.Itoa(tc.limit), "-o", out, url)
		got, _ := os.ReadFile(out)
		if tc.ok {
			if status != 0 || string(got) != body {
				t.Errorf("--max-size %d of %d bytes: status %d, wrote %q, stderr %q; want the whole file", tc.limit, n, status, got, stderr)
			}
			continue
		}
		want := strconv.Itoa(n) + " bytes is more than --max-size " + strconv.Itoa(tc.limit)
		if status != exitNegative || !strings.Contains(stderr, want) {
			t.Errorf("--max-size %d of %d bytes: status %d, stderr %q; want %d and %q", tc.limit, n, status, stderr, exitNegative, want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("--max-size %d: the folder holds %v after a refusal", tc.limit, entries)
		}
	}
}
