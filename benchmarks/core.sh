#!/bin/sh
# core.sh: the grammar core's and extract's figures, as docs/performance.md
# shows them, printed with the date, the machine and its load.
#
#   sh benchmarks/core.sh               # 3 rounds
#   ROUNDS=5 sh benchmarks/core.sh
#
# Parse, Valid and Check against net/url.Parse (BenchmarkRatio: the same
# 1,024 lines of a dataset for each in turn, timed by the thread's CPU
# clock), and extract's scan against bytes.IndexByte over the same bytes
# (BenchmarkScanVsIndexByte). Run it alone: another job on the machine
# moves the figures. Needs ../shared/bench/urls beside the checkout and
# text under /usr/share/doc.
set -eu
ROUNDS=${ROUNDS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
	"$(nproc) cores, $(go version | cut -d' ' -f3), load $(cut -d' ' -f1 /proc/loadavg) at the start;" \
	"features: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx2|avx512bw|avx512vbmi)$' | tr '\n' ' ')"
echo
echo "    go test -run XXX -bench BenchmarkRatio -benchtime 10x -count $ROUNDS ."
echo
go test -run XXX -bench BenchmarkRatio -benchtime 10x -count "$ROUNDS" . >"$out"
echo "| dataset | \`net/url.Parse\` ns | \`Parse\` ns (share) | \`Valid\` ns (share) | \`Check\` ns (share) |"
echo "|---|---:|---:|---:|---:|"
# Each line: name N ns/op then value-unit pairs; ranges over the rounds.
awk '
/^BenchmarkRatio\// {
	split($1, a, "/"); name = a[2]; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i += 2) { v = $i; u = $(i+1); key = name SUBSEP u
		if (!(key in lo) || v < lo[key]) lo[key] = v
		if (!(key in hi) || v > hi[key]) hi[key] = v }
	if (!(name in seen)) { seen[name] = 1; order[++n] = name }
}
function r(name, u, fmt) { l = sprintf(fmt, lo[name SUBSEP u]); h = sprintf(fmt, hi[name SUBSEP u]); return l == h ? l : l "–" h }
END {
	for (k = 1; k <= n; k++) { d = order[k]
		printf "| %s | %s | %s (%s) | %s (%s) | %s (%s) |\n", d, r(d, "net-url-ns/url", "%.0f"),
			r(d, "Parse-ns/url", "%.0f"), r(d, "Parse/net-url", "%.3f"),
			r(d, "Valid-ns/url", "%.0f"), r(d, "Valid/net-url", "%.3f"),
			r(d, "Check-ns/url", "%.0f"), r(d, "Check/net-url", "%.3f") }
}' "$out"
echo
echo "    go test -run XXX -bench ScanVsIndexByte -benchtime 20x -count $ROUNDS -cpu 1 ./extract/"
echo
go test -run XXX -bench ScanVsIndexByte -benchtime 20x -count "$ROUNDS" -cpu 1 ./extract/ >"$out"
echo "| kernel | \`bytes.IndexByte\` GB/cpu-s | extract GB/cpu-s | scan/IndexByte |"
echo "|---|---:|---:|---:|"
awk '
/^BenchmarkScanVsIndexByte/ {
	split($1, a, "kernel="); k = a[2]; sub(/-[0-9]+$/, "", k)
	for (i = 3; i < NF; i += 2) { v = $i; u = $(i+1); if (u ~ /MB\/cpu-s$/) v = v / 1000; key = k SUBSEP u
		if (!(key in lo) || v < lo[key]) lo[key] = v
		if (!(key in hi) || v > hi[key]) hi[key] = v }
	if (!(k in seen)) { seen[k] = 1; order[++n] = k }
}
function r(k, u, fmt) { l = sprintf(fmt, lo[k SUBSEP u]); h = sprintf(fmt, hi[k SUBSEP u]); return l == h ? l : l "–" h }
END { for (j = 1; j <= n; j++) { k = order[j]
	printf "| %s | %s | %s | %s |\n", k, r(k, "IndexByte-MB/cpu-s", "%.1f"), r(k, "scan-MB/cpu-s", "%.2f"), r(k, "scan/IndexByte", "%.3f") } }
' "$out"
