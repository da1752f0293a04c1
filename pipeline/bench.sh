#!/usr/bin/env bash
# Throughput of the census pipeline (embedded Prism runner) beside the
# single-process "rfc1738 extract", and beside the census as the CLI gives
# it (extract | normalize | sort | uniq -c), on the same corpus and cores:
# wall and CPU time of each.
#
#   pipeline/bench.sh [CORPUS_MB]    (default 300)
#
# The corpus is made at run time from this machine's documentation
# (/usr/share/doc and the man pages, decompressed, NUL bytes dropped) in
# files of 32 MiB under $BENCH_DIR (default a temporary folder); it is never
# part of the repository. Each tool runs $RUNS times (default 3); the best
# time counts. PROCS=1 gives the figures of one core.
set -euo pipefail
cd "$(dirname "$0")"
mb=${1:-300}
runs=${RUNS:-3}
work=${BENCH_DIR:-$(mktemp -d)}
corpus=$work/corpus
mkdir -p "$corpus" "$work/bin"

if [ -z "$(ls "$corpus" 2>/dev/null)" ]; then
  echo "== making a ${mb} MB corpus from /usr/share/doc and /usr/share/man in $corpus"
  # Text only: binary formats by name, NUL bytes by tr.
  find /usr/share/doc /usr/share/man -type f \
    ! -iname '*.pdf' ! -iname '*.png' ! -iname '*.jpg' ! -iname '*.gif' ! -iname '*.ico' \
    ! -iname '*.svgz' ! -iname '*.woff*' ! -iname '*.ttf' ! -iname '*.zip' ! -iname '*.bz2' \
    ! -iname '*.xz' ! -iname '*.pyc' ! -iname '*.mo' -print0 |
    sort -z | xargs -0 zcat -f 2>/dev/null | tr -d '\000' | head -c $((mb << 20)) |
    split -b 32M -d -a 3 --additional-suffix=.txt - "$corpus/doc-" || true
fi
bytes=$(cat "$corpus"/*.txt | wc -c)
files=$(ls "$corpus"/*.txt | wc -l)
[ "$bytes" -gt 0 ] || { echo "empty corpus" >&2; exit 1; }
echo "== corpus: $files files, $bytes bytes"

echo "== building rfc1738 and the pipeline"
(cd .. && go build -o "$work/bin/rfc1738" ./cmd/rfc1738)
go build -o "$work/bin/pipeline" .
procs=${PROCS:-$(nproc)}
export GOMAXPROCS=$procs

# best RUN: the wall and CPU seconds (user + system, children included) of
# the run with the least wall time, of $runs runs of the command.
best() {
  local bw="" bc="" w c
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    read -r w u s <"$work/time"
    c=$(echo "$u + $s" | bc)
    if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w bc=$c; fi
  done
  echo "$bw $bc"
}

files_=("$corpus"/*.txt)
echo "== rfc1738 extract (--jobs $procs), $runs runs"
read -r cliw clic < <(best "$work/bin/rfc1738" extract --jobs "$procs" "${files_[@]}")
# The census as the CLI gives it: the same counts (TestCensusEqualsCLI).
echo "== rfc1738 extract | rfc1738 normalize | sort | uniq -c, $runs runs"
export RFC1738="$work/bin/rfc1738"
read -r cenw cenc < <(best sh -c '"$RFC1738" extract --jobs "$0" "$@" | { "$RFC1738" normalize || true; } | LC_ALL=C sort | uniq -c' "$procs" "${files_[@]}")
echo "== pipeline on Prism (GOMAXPROCS=$procs), $runs runs"
read -r pipew pipec < <(best "$work/bin/pipeline" --input "$corpus/*.txt" --output "$work/out")

mbs() { echo "scale=1; $bytes / 1048576 / $1" | bc; }
printf '%-40s %7s s wall %7s s CPU %8s MB/s\n' "rfc1738 extract" "$cliw" "$clic" "$(mbs "$cliw")"
printf '%-40s %7s s wall %7s s CPU %8s MB/s\n' "extract | normalize | sort | uniq -c" "$cenw" "$cenc" "$(mbs "$cenw")"
printf '%-40s %7s s wall %7s s CPU %8s MB/s\n' "pipeline (Prism, in process)" "$pipew" "$pipec" "$(mbs "$pipew")"
r() { echo "scale=2; $1 / $2" | bc; }
echo "pipeline / rfc1738 extract: $(r "$pipew" "$cliw")x wall, $(r "$pipec" "$clic")x CPU (cores: $procs)"
echo "pipeline / CLI census:      $(r "$pipew" "$cenw")x wall, $(r "$pipec" "$cenc")x CPU"
grep -E '"(files|documents|urls|distinct|valid|invalid)"' "$work/out/summary.json" | head -8
