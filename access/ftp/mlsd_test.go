package ftp

import (
	"testing"
	"time"
)

// RFC 3659 §7.7.3's examples, and lines of pyftpdlib and proftpd.
var mlsxTests = []struct {
	line string
	want MLSxEntry
	ok   bool
}{
	{"Type=cdir;Modify=19981107085215;Perm=el; tmp", MLSxEntry{Name: "tmp", Type: "cdir", Size: -1, Modify: time.Date(1998, 11, 7, 8, 52, 15, 0, time.UTC)}, true},
	{"Type=file;Size=25730;Modify=19940728095854;Perm=; capmux.tar.z", MLSxEntry{Name: "capmux.tar.z", Type: "file", Size: 25730, Modify: time.Date(1994, 7, 28, 9, 58, 54, 0, time.UTC)}, true},
	{"type=file;size=6;modify=20261124020000.123;unix.mode=0644; with space; and semi", MLSxEntry{Name: "with space; and semi", Type: "file", Size: 6, Modify: time.Date(2026, 11, 24, 2, 0, 0, 123e6, time.UTC)}, true},
	{"type=dir;perm=flcdmpe; 東京", MLSxEntry{Name: "東京", Type: "dir", Size: -1}, true},
	{"nospace", MLSxEntry{}, false},
	{"type=file;size=x; bad size", MLSxEntry{}, false},
	{"type=file; ", MLSxEntry{}, false},
	{"type=file;size=1 missing-semicolon", MLSxEntry{}, false},
}

func TestParseMLSxEntry(t *testing.T) {
	for _, tt := range mlsxTests {
		got, ok := ParseMLSxEntry(tt.line)
		if ok != tt.ok || (ok && (got.Name != tt.want.Name || got.Type != tt.want.Type || got.Size != tt.want.Size || !got.Modify.Equal(tt.want.Modify))) {
			t.Errorf("ParseMLSxEntry(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestHasFeature(t *testing.T) {
	feats := []string{"EPRT", "MLST type*;size*;modify*;", "UTF8"}
	if !HasFeature(feats, "mlst") || HasFeature(feats, "MLS") || HasFeature(nil, "MLST") {
		t.Error("HasFeature")
	}
}
