#!/bin/sh
# extract-vs-rg.sh: "rfc1738 extract" against ripgrep on this machine's
# documentation, as issue 46 measures it.
#
#   sh benchmarks/extract-vs-rg.sh             # 7 rounds
#   ROUNDS=9 sh benchmarks/extract-vs-rg.sh
#   BASE=/tmp/old/rfc1738 sh benchmarks/extract-vs-rg.sh   # another build beside
#   SCALE=6 sh benchmarks/extract-vs-rg.sh     # a third table: the corpus 6 times over
#
# A machine whose documentation is small (30 MB here, where the issue's
# had 200 MB) makes every run short, and each tool's start-up, fixed,
# weighs in the ratios: SCALE repeats the corpus to the size it asks
# about (the same text again: the figures are of throughput, not of a
# larger vocabulary). The last table is that start-up alone: "rfc1738
# version" and "rg --version", STARTS times each (default 200), and the
# costliest of rfc1738's package initialisers (GODEBUG=inittrace=1).
# The corpus is a fixed, sorted list of text files under /usr/share/doc,
# concatenated into one file (and its first 20 MB as a slice), read from
# the page cache. Each round runs every command once, the order rotated
# from round to round; /usr/bin/time gives user+sys CPU and wall. The
# figures are the medians over the rounds, each the mean of REPEAT runs
# (default 5) timed at once. ripgrep:
#
#   rg -o --no-filename 'https?://[^[:space:]<>"')]+' FILE
#
# Ours: "rfc1738 extract FILE", "rfc1738 extract < FILE", "--json", and
# the same binary built with -tags purego (no vector kernels): on a
# virtual machine the AVX2 paths sometimes slow down many times while
# other processes run, and the purego row tells that apart. Run it alone.
set -eu
ROUNDS=${ROUNDS:-7}
REPEAT=${REPEAT:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK:-$(mktemp -d)}
keep=${WORK:+yes}
cleanup() { [ -n "$keep" ] || rm -rf "$work"; }
trap cleanup EXIT

if ! command -v rg >/dev/null 2>&1; then
	echo "installing ripgrep" >&2
	if [ "$(id -u)" = 0 ]; then apt-get install -y ripgrep >&2; else sudo apt-get install -y ripgrep >&2; fi
fi
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: time)" >&2; exit 2; }

cd "$here"
go build -o "$work/rfc1738" ./cmd/rfc1738
go build -tags purego -o "$work/rfc1738-purego" ./cmd/rfc1738

corpus=$work/doc.txt
slice=$work/doc-20M.txt
if [ ! -s "$corpus" ]; then
	find /usr/share/doc -type f \( -name '*.txt' -o -name 'README*' -o -name 'changelog*' \
		-o -name 'NEWS*' -o -name '*.md' -o -name copyright \) ! -name '*.gz' | LC_ALL=C sort >"$work/files"
	tr '\n' '\0' <"$work/files" | xargs -0 cat >"$corpus"
	head -c 20000000 "$corpus" >"$slice"
fi
SCALE=${SCALE:-1}
scaled=$work/doc-x$SCALE.txt
if [ "$SCALE" -gt 1 ] && [ ! -s "$scaled" ]; then
	i=0
	while [ $i -lt "$SCALE" ]; do cat "$corpus"; i=$((i + 1)); done >"$scaled"
fi
cat "$corpus" "$slice" >/dev/null # the page cache
[ "$SCALE" -le 1 ] || cat "$scaled" >/dev/null

echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')," \
	"$(nproc) cores, $(go version | cut -d' ' -f3), $(rg --version | sed -n 1p), load $(cut -d' ' -f1 /proc/loadavg) at the start," \
	"$ROUNDS rounds, medians"

# One command line per tool; %F stands for the input file.
set -- \
	"rg|rg -o --no-filename 'https?://[^[:space:]<>\"'\"'\"')]+' %F" \
	"extract|$work/rfc1738 extract %F" \
	"extract <|$work/rfc1738 extract < %F" \
	"extract --json|$work/rfc1738 extract --json %F" \
	"extract purego|$work/rfc1738-purego extract %F" \
	"extract --jobs 1|$work/rfc1738 extract --jobs 1 %F"
# BASE=path/to/another/rfc1738 adds its rows, plain and purego (BASE_PUREGO), to compare builds.
[ -z "${BASE:-}" ] || set -- "$@" "base|$BASE extract %F"
[ -z "${BASE_PUREGO:-}" ] || set -- "$@" "base purego|$BASE_PUREGO extract %F"

measure() { # file name cmd -> appends "name cpu wall lines" to $work/times
	f=$1 name=$2 cmd=$3
	c=$(printf '%s' "$cmd" | sed "s|%F|$f|g")
	# REPEAT runs in one timing: /usr/bin/time counts in hundredths.
	/usr/bin/time -f '%U %S %e' -o "$work/t" sh -c "i=0; while [ \$i -lt $REPEAT ]; do $c >$work/out; i=\$((i+1)); done" 2>/dev/null || true
	set -- $(cat "$work/t")
	printf '%s\t%s\t%s\t%s\n' "$name" "$(awk "BEGIN{print ($1 + $2) / $REPEAT}")" "$(awk "BEGIN{print $3 / $REPEAT}")" \
		"$(wc -l <"$work/out")" >>"$work/times"
}

table() { # file label tools...
	f=$1 label=$2
	shift 2
	: >"$work/times"
	r=0
	count=$#
	while [ "$r" -lt "$ROUNDS" ]; do
		i=0
		while [ "$i" -lt "$count" ]; do
			k=$(((i + r) % count + 1))
			eval "t=\${$k}"
			measure "$f" "${t%%|*}" "${t#*|}"
			i=$((i + 1))
		done
		r=$((r + 1))
	done
	echo
	echo "$label: $(wc -c <"$f" | awk '{printf "%.1f MB", $1/1e6}')"
	echo
	echo "| command | CPU s | wall s | URLs | CPU/rg | wall/rg |"
	echo "|---|---:|---:|---:|---:|---:|"
	awk -F '\t' '
	function median(name, col,   n, i, j, v, a, t) {
		n = 0
		for (i = 1; i <= rows; i++) if (nm[i] == name) a[++n] = val[i, col]
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
		return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	{ rows++; nm[rows] = $1; val[rows, 2] = $2; val[rows, 3] = $3; val[rows, 4] = $4
	  if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
	END {
		rc = median("rg", 2); rw = median("rg", 3)
		for (i = 1; i <= k; i++) { n = order[i]; c = median(n, 2); w = median(n, 3)
			printf "| %s | %.3f | %.3f | %d | %.2f | %.2f |\n", n, c, w, median(n, 4), c / rc, w / rw }
		jc = median("extract --json", 2); pc = median("extract", 2)
		if (pc > 0) printf "\n--json / plain: CPU %.2f, wall %.2f\n", jc / pc, median("extract --json", 3) / median("extract", 3)
	}' "$work/times"
}

table "$corpus" "corpus ($(wc -l <"$work/files") files)" "$@"
table "$slice" "20 MB slice" "$@"
[ "$SCALE" -le 1 ] || table "$scaled" "corpus $SCALE times over" "$@"

# The start-up each run pays before reading a byte: a command that does
# nothing else, STARTS times in one timing (/usr/bin/time's clock is 10 ms).
STARTS=${STARTS:-200}
startup() { # name cmd -> CPU and wall in ms per run
	/usr/bin/time -f '%U %S %e' -o "$work/t" sh -c "i=0; while [ \$i -lt $STARTS ]; do $2 >/dev/null; i=\$((i+1)); done" 2>/dev/null || true
	set -- "$1" $(cat "$work/t")
	printf '| %s | %.2f | %.2f |\n' "$1" "$(awk "BEGIN{print ($2 + $3) * 1000 / $STARTS}")" "$(awk "BEGIN{print $4 * 1000 / $STARTS}")"
}
echo
echo "start-up, $STARTS runs each:"
echo
echo "| command | CPU ms | wall ms |"
echo "|---|---:|---:|"
startup "rfc1738 version" "$work/rfc1738 version"
startup "rg --version" "rg --version"
echo
echo "rfc1738's package initialisers (GODEBUG=inittrace=1, medians of 9 starts): the costliest, ms of clock"
i=0
while [ $i -lt 9 ]; do
	GODEBUG=inittrace=1 "$work/rfc1738" version 2>&1 >/dev/null | awk -v run=$i '/^init / { t += $5; print run, $2, $5 } END { print run, "(all)", t }'
	i=$((i + 1))
done | awk '
{ v[$2, ++n[$2]] = $3 }
END {
	for (p in n) {
		m = n[p]
		for (i = 1; i <= m; i++) a[i] = v[p, i]
		for (i = 2; i <= m; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j+1] = a[j]; a[j+1] = t }
		print (m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2), p
	}
}' | sort -g -r | sed -n 1,8p
