#!/usr/bin/env bash
# The census's --check on a simulated internet of loopback hosts
# (127.0.1.1, …: Linux routes all of 127.0.0.0/8 to the loopback
# interface), on the embedded Prism runner. Two runs, each beside the same
# census without --check (start-up and counting), wall time, CPU and the
# largest resident set of the process:
#
#   polite       10,000 distinct URLs over 100 hosts (the busiest with 200),
#                --per-host 1 --host-delay 50ms: politeness alone needs
#                201 requests x 50 ms (robots.txt and 200 pages) = 10.05 s
#                at the busiest host; the check stage's time against that.
#   unreachable  1,000,000 distinct URLs over 10,000 hosts whose port is
#                closed: the per-host failure budget stops each host after
#                its robots.txt is refused (and, with --no-robots, after 3
#                refusals): connections, not URLs, set the cost.
#
#   pipeline/bench-check.sh [polite|unreachable|all]   (default all)
#
# The corpora are made at run time under $BENCH_DIR (default a temporary
# folder). Needs /usr/bin/time (Debian's "time").
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-all}
work=${BENCH_DIR:-$(mktemp -d)}
mkdir -p "$work/bin"
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
echo "== building the census and the hosts"
go build -o "$work/bin/pipeline" .
go build -o "$work/bin/benchhosts" ./benchhosts
echo "== $(date -u +%Y-%m-%dT%H:%M:%SZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# run NAME ARGS...: the census with ARGS; prints its wall, CPU and RSS.
run() {
  local name=$1; shift
  rm -rf "$work/out-$name"
  /usr/bin/time -f "%e %U %S %M" -o "$work/time-$name" "$work/bin/pipeline" "$@" --output "$work/out-$name" \
    >"$work/log-$name" 2>"$work/err-$name" || { tail -20 "$work/err-$name"; exit 1; }
  read -r wall user sys rss <"$work/time-$name"
  printf '%-34s wall %7.2f s  cpu %7.2f s  rss %5d MB\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" $((rss / 1024))
  grep '^check:' "$work/log-$name" || true
}

wall() { cut -d' ' -f1 "$work/time-$1"; }

polite() {
  local in=$work/polite.txt
  echo "== polite: 10,000 URLs over 100 hosts, the busiest with 200"
  awk 'BEGIN { for (h = 0; h < 100; h++) { n = h == 0 ? 200 : (h < 99 ? 99 : 98);
    for (i = 0; i < n; i++) printf "http://127.0.1.%d:18080/page/%d\n", h + 1, i } }' >"$in"
  "$work/bin/benchhosts" -hosts 100 -port 18080 -short 45ms >"$work/hosts.log" &
  local hosts=$!
  until grep -q ready "$work/hosts.log" 2>/dev/null; do sleep 0.1; done
  run "census (no check)" --input "$in"
  run "census --check" --input "$in" --check --per-host 1 --host-delay 50ms
  kill -INT $hosts; wait $hosts || true
  echo "hosts: $(tail -1 "$work/hosts.log")"
  local stage
  stage=$(echo "$(wall "census --check") - $(wall "census (no check)")" | bc)
  printf 'check stage %.2f s against the 10.05 s politeness needs: %.2fx (target 1.3x)\n' "$stage" "$(echo "$stage / 10.05" | bc -l)"
  grep -q 'check: 10000 URLs (10000 checked, 0 reused): 10000 ok, 0 broken' "$work/log-census --check" &&
    echo "every verdict right: 10000 ok" || echo "VERDICTS WRONG"
}

unreachable() {
  local in=$work/unreachable.txt
  echo "== unreachable: 1,000,000 URLs over 10,000 hosts, every port closed"
  if (exec 3<>/dev/tcp/127.0.1.1/18081) 2>/dev/null; then echo "port 18081 is open on 127.0.1.1" >&2; exit 1; fi
  awk 'BEGIN { for (h = 0; h < 10000; h++) for (i = 0; i < 100; i++)
    printf "http://127.%d.%d.%d:18081/p/%d\n", int(h / (254 * 256)) % 256, 1 + int(h / 254) % 256, 1 + h % 254, i }' >"$in"
  run "1M census (no check)" --input "$in"
  run "1M census --check" --input "$in" --check
  run "1M census --check --no-robots" --input "$in" --check --no-robots
  for name in "1M census --check" "1M census --check --no-robots"; do
    grep -q 'check: 1000000 URLs (1000000 checked, 0 reused): 0 ok, 1000000 broken' "$work/log-$name" &&
      echo "$name: every verdict broken, as it must be" || echo "$name: VERDICTS WRONG"
  done
  echo "targets: at most 600 s and 500 MB"
}

case $what in
polite) polite ;;
unreachable) unreachable ;;
all) polite; unreachable ;;
*) echo "usage: bench-check.sh [polite|unreachable|all]" >&2; exit 2 ;;
esac
