package wais

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ISO 2709 / MARC 21 record structure: a 24-octet leader, a directory of
// 12-octet entries (tag, field length, starting position) ended by a field
// terminator, then the fields.
const (
	marcFieldTerminator    = 0x1e
	marcSubfieldDelimiter  = 0x1f
	marcRecordTerminator   = 0x1d
	marcLeaderLen          = 24
	marcDirectoryEntrySize = 12
)

// MARCText renders an ISO 2709 (USMARC) record as text, one line per
// field the way yaz-client shows it: the leader, then "001 value" for
// control fields and "245 10 $a Title $c Author" for data fields. It
// reports an error for octets that are not a well-formed MARC record.
func MARCText(rec []byte) (string, error) {
	if len(rec) < marcLeaderLen+1 {
		return "", errors.New("marc: record shorter than its leader")
	}
	base, err := strconv.Atoi(string(rec[12:17])) // base address of data, leader 12-16
	if err != nil || base <= marcLeaderLen || base > len(rec) {
		return "", fmt.Errorf("marc: bad base address %q", rec[12:17])
	}
	var b strings.Builder
	b.Write(rec[:marcLeaderLen])
	b.WriteByte('\n')
	dir := rec[marcLeaderLen : base-1] // the directory ends with a field terminator
	if rec[base-1] != marcFieldTerminator || len(dir)%marcDirectoryEntrySize != 0 {
		return "", errors.New("marc: directory is not a whole number of entries")
	}
	for i := 0; i < len(dir); i += marcDirectoryEntrySize {
		ent := dir[i : i+marcDirectoryEntrySize]
		tag := string(ent[:3])
		n, err1 := strconv.Atoi(string(ent[3:7]))
		at, err2 := strconv.Atoi(string(ent[7:12]))
		if err1 != nil || err2 != nil || n < 1 || at < 0 || base+at+n > len(rec) {
			return "", fmt.Errorf("marc: bad directory entry %q", ent)
		}
		field := rec[base+at : base+at+n]
		if field[len(field)-1] == marcFieldTerminator {
			field = field[:len(field)-1]
		}
		b.WriteString(tag)
		if strings.HasPrefix(tag, "00") || len(field) < 2 {
			// Control fields (00X) have no indicators or subfields.
			b.WriteByte(' ')
			b.Write(field)
			b.WriteByte('\n')
			continue
		}
		b.WriteByte(' ')
		b.Write(field[:2]) // indicators
		for _, sf := range strings.Split(string(field[2:]), string(rune(marcSubfieldDelimiter)))[1:] {
			if sf == "" {
				continue
			}
			b.WriteString(" $")
			b.WriteString(sf[:1])
			b.WriteByte(' ')
			b.WriteString(sf[1:])
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}
