package mirror

import (
	"testing"
	"time"
)

var listNow = time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)

var listTests = []struct {
	line      string
	want      entry
	skip, bad bool
}{
	// vsftpd, a recent file: the time, no year.
	{line: "-rw-r--r--    1 1000     1000           12 Nov 24 02:00 a b.txt",
		want: entry{name: "a b.txt", size: 12, mtime: time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)}},
	// An older file: the year; a name with two spaces in a row.
	{line: "-rw-r--r--    1 0        0         1048576 Jan 01  2024 two  spaces",
		want: entry{name: "two  spaces", size: 1048576, mtime: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}},
	// A date later in the year than now is last year's.
	{line: "-rw-r--r--    1 ftp      ftp             3 Dec 31 23:59 semi;colon",
		want: entry{name: "semi;colon", size: 3, mtime: time.Date(2025, 12, 31, 23, 59, 0, 0, time.UTC)}},
	// No group column (some servers).
	{line: "drwxr-xr-x    2 ftp          4096 Mar  3  2020 dir",
		want: entry{name: "dir", dir: true, size: -1, mtime: time.Date(2020, 3, 3, 0, 0, 0, 0, time.UTC)}},
	// Symbolic links and dot entries name nothing to fetch.
	{line: "lrwxrwxrwx    1 0        0               4 Jan 01  2024 link -> dest", skip: true},
	{line: "drwxr-xr-x    2 0        0            4096 Jan 01  2024 ..", skip: true},
	{line: "total 24", skip: true},
	// DOS / IIS.
	{line: "01-02-20  03:04PM       <DIR>          Program Files",
		want: entry{name: "Program Files", dir: true, size: -1, mtime: time.Date(2020, 1, 2, 15, 4, 0, 0, time.UTC)}},
	{line: "11-24-2026  02:00            1234 report #1.doc",
		want: entry{name: "report #1.doc", size: 1234, mtime: time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)}},
	// Neither.
	{line: "this line is no listing", bad: true},
	{line: "-rw-r--r--    1 0        0      twelve Jan 01  2024 x", bad: true},
	{line: "-rw-r--r--    1 0        0              1 Jan 01  2024", bad: true},
}

func TestParseListLine(t *testing.T) {
	for _, tt := range listTests {
		e, skip, ok := parseListLine(tt.line, listNow)
		if ok == tt.bad {
			t.Errorf("%q: ok = %v, want %v", tt.line, ok, !tt.bad)
			continue
		}
		if skip != tt.skip {
			t.Errorf("%q: skip = %v, want %v", tt.line, skip, tt.skip)
			continue
		}
		if ok && !skip && (e.name != tt.want.name || e.dir != tt.want.dir || e.size != tt.want.size || !e.mtime.Equal(tt.want.mtime)) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.line, e, tt.want)
		}
	}
}

func TestSafeName(t *testing.T) {
	for _, name := range []string{"", ".", "..", "a/b", "/etc", "nul\x00byte"} {
		if safeName(name, false) == nil {
			t.Errorf("safeName(%q) accepted", name)
		}
	}
	if safeName(ManifestName, true) == nil {
		t.Errorf("the manifest's name accepted at the top")
	}
	for _, name := range []string{"a b", "semi;colon", "100%", "#1", "東京", "..x", ManifestName} {
		if err := safeName(name, false); err != nil {
			t.Errorf("safeName(%q) = %v", name, err)
		}
	}
}
