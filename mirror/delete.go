package mirror

import "github.com/rfc1738/rfc1738/access"

// listedWhole is the one rule of --delete, for every scheme: a name
// missing from a listing is taken for gone only when the listing was read
// whole — to its end, every line understood, its transfer ended with a
// success reply (ftp's 226, RFC 959 §4.2), no error on the way (see
// access.Entries.Whole). Call it after Close. A listing that is not whole
// has its deletions skipped, and that is reported and counted.
func (r *run) listedWhole(ents *access.Entries, where string) bool {
	if ents.Whole() {
		return true
	}
	why := "it was cut short"
	if n := ents.Unreadable(); n > 0 {
		why = "unreadable lines"
	}
	r.logf("deletions skipped in %s: its listing was not read whole (%s)", where, why)
	r.count(func(st *Stats) { st.DeletesSkipped++ })
	return false
}
