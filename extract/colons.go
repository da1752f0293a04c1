package extract

// colonBlocks, where the CPU has the vector instructions for it, finds the
// colons nextColon may return 64 octets a step (colons_amd64.s). It reads
// the blocks b[k:k+64] from the start of from's cache line (from from
// itself when that line starts before b[64]; none when from is before
// b[64]) and writes to out, in order, every ':' b[j] of them that
//
//   - has '/' after it (a bare URL's "scheme:/", §5),
//   - has "url", "ews" or "lto" in any case before it (the ends of "url",
//     "news" and "mailto", which a bare URL or the prefix URL: may end
//     with: §3.5, §3.6, Appendix) and no space or control octet after it
//     (the prefix needs a scheme right after its ':', a bare news or
//     mailto URL at least one octet of its own, §5; a wrapper's colon
//     is taken by the next rule), or
//   - has a '<' among the 34 octets before it with only scheme octets
//     (§5) between (a wrapper's '<', right before its scheme of at most
//     maxScheme+1 octets: Appendix, wrapperBefore), where for the first
//     colon of a block after only scheme octets, at most 33, a '<' among
//     the last 34 octets before the block counts, whatever stands
//     between,
//
// which holds every colon at or after from that endsScheme takes and a
// match may end its scheme at (endsScheme then decides each). It reads
// the octet after the last block, stops before a block whose 64
// candidates out would have no room for, and returns how many it wrote
// and where it stopped: the end of the last block read, or where it would
// have started when it read none. Nil elsewhere: nextColon then searches
// colon by colon.
var colonBlocks func(b []byte, from int, out []int) (n, next int)

// colonQueue holds what colonBlocks found ahead of the scan.
type colonQueue struct {
	at   [128]int
	k, n int // at[k:n] are left, in order
	to   int // at[k:n] holds every ':' of buf[:to] after those already passed that colonBlocks keeps
}

// blockSpan bounds what one call of colonBlocks covers, so that the line
// count, taken before each call, reads octets still in the cache.
const blockSpan = 16 << 10
