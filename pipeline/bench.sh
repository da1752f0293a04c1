#!/usr/bin/env bash
# Throughput of the census pipeline (embedded Prism runner) beside the
# single-process "rfc1738 extract" on the same corpus and the same cores.
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

# best SECONDS of $runs runs of the command
best() {
  local b="" t s e
  for _ in $(seq "$runs"); do
    s=$(date +%s.%N)
    "$@" >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc)
    if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
  done
  echo "$b"
}

echo "== rfc1738 extract (--jobs $procs), $runs runs"
cli=$(best "$work/bin/rfc1738" extract --jobs "$procs" "$corpus"/*.txt)
echo "== pipeline on Prism (GOMAXPROCS=$procs), $runs runs"
pipe=$(best "$work/bin/pipeline" --input "$corpus/*.txt" --output "$work/out")

mbs() { echo "scale=1; $bytes / 1048576 / $1" | bc; }
printf '%-34s %8s s %8s MB/s\n' "rfc1738 extract" "$cli" "$(mbs "$cli")"
printf '%-34s %8s s %8s MB/s\n' "pipeline (Prism, in process)" "$pipe" "$(mbs "$pipe")"
echo "pipeline / CLI time: $(echo "scale=2; $pipe / $cli" | bc)x (cores: $procs)"
grep -E '"(files|documents|urls|distinct|valid|invalid)"' "$work/out/summary.json" | head -8
