package ftp

import (
	"testing"
	"time"
)

var listNow = time.Date(2026, 11, 24, 3, 0, 0, 0, time.UTC)

var listTests = []struct {
	line      string
	want      DirEntry
	skip, bad bool
}{
	// vsftpd, a recent file: the time, no year.
	{line: "-rw-r--r--    1 1000     1000           12 Nov 24 02:00 a b.txt",
		want: DirEntry{Name: "a b.txt", Size: 12, Time: time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC), Precision: time.Minute}},
	// An older file: the year; a name with two spaces in a row.
	{line: "-rw-r--r--    1 0        0         1048576 Jan 01  2024 two  spaces",
		want: DirEntry{Name: "two  spaces", Size: 1048576, Time: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}},
	// A date later in the year than now is last year's.
	{line: "-rw-r--r--    1 ftp      ftp             3 Dec 31 23:59 semi;colon",
		want: DirEntry{Name: "semi;colon", Size: 3, Time: time.Date(2025, 12, 31, 23, 59, 0, 0, time.UTC)}},
	// No group column (some servers).
	{line: "drwxr-xr-x    2 ftp          4096 Mar  3  2020 dir",
		want: DirEntry{Name: "dir", Dir: true, Size: -1, Time: time.Date(2020, 3, 3, 0, 0, 0, 0, time.UTC)}},
	// A symbolic link is an entry of its own, its target apart (issue:
	// links vanished from the listing unreported); dot entries name
	// nothing to fetch.
	{line: "lrwxrwxrwx    1 0        0               4 Jan 01  2024 link -> dest",
		want: DirEntry{Name: "link", IsLink: true, Link: "dest", Size: -1, Time: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), Precision: 24 * time.Hour}},
	{line: "drwxr-xr-x    2 0        0            4096 Jan 01  2024 ..", skip: true},
	{line: "total 24", skip: true},
	// DOS / IIS.
	{line: "01-02-20  03:04PM       <DIR>          Program Files",
		want: DirEntry{Name: "Program Files", Dir: true, Size: -1, Time: time.Date(2020, 1, 2, 15, 4, 0, 0, time.UTC)}},
	{line: "11-24-2026  02:00            1234 report #1.doc",
		want: DirEntry{Name: "report #1.doc", Size: 1234, Time: time.Date(2026, 11, 24, 2, 0, 0, 0, time.UTC)}},
	// Neither.
	{line: "this line is no listing", bad: true},
	{line: "-rw-r--r--    1 0        0      twelve Jan 01  2024 x", bad: true},
	{line: "-rw-r--r--    1 0        0              1 Jan 01  2024", bad: true},
}

func TestParseListLine(t *testing.T) {
	for _, tt := range listTests {
		e, skip, ok := ParseListLine(tt.line, listNow)
		if ok == tt.bad {
			t.Errorf("%q: ok = %v, want %v", tt.line, ok, !tt.bad)
			continue
		}
		if skip != tt.skip {
			t.Errorf("%q: skip = %v, want %v", tt.line, skip, tt.skip)
			continue
		}
		if ok && !skip && (e.Name != tt.want.Name || e.Dir != tt.want.Dir || e.Size != tt.want.Size || !e.Time.Equal(tt.want.Time) ||
			e.IsLink != tt.want.IsLink || e.Link != tt.want.Link || (tt.want.Precision != 0 && e.Precision != tt.want.Precision)) {
			t.Errorf("%q:\n got %+v\nwant %+v", tt.line, e, tt.want)
		}
	}
}
