#!/bin/sh
# ada.sh: rfc1738's Check, Valid and Parse beside ada's can_parse and
# parse (https://github.com/ada-url/ada, the WHATWG parser of Node.js),
# over the same URL lists, by each process's CPU clock, interleaved.
# ada stays out of the repository: it is built here from a checkout.
#
#   ADA=/path/to/ada sh benchmarks/ada.sh      # an ada checkout
#   sh benchmarks/ada.sh                        # clones it (needs the network)
#   ROUNDS=9 ...                                # rounds (default 7)
#
# Each round runs both programs, in turn, the first of them alternating;
# each program warms up once, then times passes of at least 500,000 URLs
# (benchmarks/ada/main.go, benchmarks/ada/cpp/can_parse.cpp). The table
# gives each function's median ns per URL and the ratios of the medians.
# Run it alone: another job on the machine moves the figures. Needs g++
# and ../shared/bench/urls beside the checkout.
set -eu
ROUNDS=${ROUNDS:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
data=${URLS:-$here/../shared/bench/urls}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "${ADA:-}" ]; then
	ADA=$work/ada
	git clone -q --depth 1 https://github.com/ada-url/ada "$ADA"
fi
if [ ! -f "$ADA/singleheader/ada.cpp" ]; then
	(cd "$ADA/singleheader" && python3 amalgamate.py >/dev/null)
fi
g++ -O3 -DNDEBUG -std=c++20 -I "$ADA/singleheader" -o "$work/ada" \
	"$here/benchmarks/ada/cpp/can_parse.cpp" "$ADA/singleheader/ada.cpp"
(cd "$here/benchmarks/ada" && go build -o "$work/go" .)
files="$data/kasztp.txt $data/node_files.txt $data/isaacs_files.txt"

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
	"$(nproc) cores, $(go version | cut -d' ' -f3), $(g++ --version | head -1)," \
	"ada $(git -C "$ADA" log -1 --format=%h 2>/dev/null || echo '?'), load $(cut -d' ' -f1 /proc/loadavg) at the start, $ROUNDS rounds"
echo
r=1
while [ "$r" -le "$ROUNDS" ]; do
	if [ $((r % 2)) -eq 1 ]; then
		"$work/ada" 1 $files; "$work/go" -rounds 1 $files
	else
		"$work/go" -rounds 1 $files; "$work/ada" 1 $files
	fi
	r=$((r + 1))
done >"$work/out"

# Lines: TOOL FUNC FILE NS ACCEPTED. Medians per FUNC and FILE.
awk '
{ key = $2 SUBSEP $3; v[key, ++n[key]] = $4; acc[key] = $5; files[$3] = 1 }
function median(key,   i, j, t, m) {
	m = n[key]
	for (i = 1; i <= m; i++) a[i] = v[key, i]
	for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
	return m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2
}
END {
	print "| list | ada `can_parse` ns | `Valid` ns | `Check` ns | `Check` ÷ `can_parse` | `Valid` ÷ `can_parse` | ada `parse` ns | `Parse` ns | `Parse` ÷ ada `parse` | accepted: ada / rfc1738 |"
	print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	for (f in files) {
		cp = median("can_parse" SUBSEP f); va = median("Valid" SUBSEP f); ch = median("Check" SUBSEP f)
		ap = median("parse" SUBSEP f); pa = median("Parse" SUBSEP f)
		printf "| %s | %.1f | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.2f | %d / %d |\n", f, cp, va, ch, ch / cp, va / cp, ap, pa, pa / ap, acc["can_parse" SUBSEP f], acc["Valid" SUBSEP f]
	}
}' "$work/out"
