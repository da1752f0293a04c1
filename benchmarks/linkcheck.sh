#!/bin/sh
# linkcheck.sh: rfc1738 linkcheck beside LinkChecker on one loopback vsftpd,
# in one run: 2,000 ftp URLs (1,000 present, 1,000 missing), the same URL
# list on stdin for both. Prints each tool's time, the ratio, and whether
# the verdicts agree (exit status 1 when they do not).
#
#   sudo sh benchmarks/linkcheck.sh            # N=2000 by default
#   sudo N=200 sh benchmarks/linkcheck.sh
#
# Needs root (vsftpd chroots; LinkChecker, run as root, drops to user
# nobody, so its input must be world-readable), vsftpd, and linkchecker,
# which it installs with apt-get when missing (Debian 12: LinkChecker 10).
set -eu

N=${N:-2000}
PER_DIR=50
here=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" = 0 ] || { echo "linkcheck.sh: run as root (vsftpd needs it)" >&2; exit 2; }
command -v vsftpd >/dev/null || [ -x /usr/sbin/vsftpd ] || { echo "linkcheck.sh: vsftpd is not installed" >&2; exit 2; }
if ! command -v linkchecker >/dev/null; then
	apt-get install -y linkchecker >/dev/null
fi

work=$(mktemp -d /tmp/linkcheck-bench.XXXXXX)
chmod 755 "$work"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

# The tree: N/2 files present, in folders of PER_DIR; the other N/2 URLs
# name files that are not there, half in folders that exist, half in
# folders that do not.
root=$work/ftproot
half=$((N / 2))
i=0
while [ $i -lt $half ]; do
	d=$(printf 'd%03d' $((i / PER_DIR)))
	mkdir -p "$root/$d"
	printf 'file %d\n' $i >"$root/$d/f$i.txt"
	i=$((i + 1))
done
chmod -R a+rX "$root"

. "$(dirname "$0")/vsftpd.sh"
start_vsftpd "$root" "$work"

urls=$work/urls.txt
i=0
while [ $i -lt $half ]; do
	d=$(printf 'd%03d' $((i / PER_DIR)))
	echo "ftp://127.0.0.1:$port/$d/f$i.txt"
	if [ $((i % 2)) = 0 ]; then
		echo "ftp://127.0.0.1:$port/$d/missing$i.txt"
	else
		echo "ftp://127.0.0.1:$port/gone$(printf '%03d' $((i / PER_DIR)))/f$i.txt"
	fi
	i=$((i + 1))
done >"$urls"
chmod 644 "$urls"

bin=$work/rfc1738
(cd "$here" && go build -o "$bin" ./cmd/rfc1738)
# BASE=DIR: another checkout's build (the code before a change) runs
# beside, in the same run, between ours and LinkChecker.
bin_base=
if [ -n "${BASE:-}" ]; then
	bin_base=$work/rfc1738-base
	(cd "$BASE" && go build -o "$bin_base" ./cmd/rfc1738)
fi

now() { date +%s.%N; }

echo "$N ftp URLs ($half present, $half missing) on vsftpd 127.0.0.1:$port"

t0=$(now)
"$bin" linkcheck --json -q --email bench@example.org <"$urls" >"$work/ours.jsonl" || true
t1=$(now)
tb=$t1
if [ -n "$bin_base" ]; then
	"$bin_base" linkcheck --json -q --email bench@example.org <"$urls" >"$work/base.jsonl" || true
	tb=$(now)
fi
# LinkChecker: the same URLs on stdin, CSV out; --no-robots because an ftp
# server has no robots.txt to honour, as our check reads none.
linkchecker --stdin --no-status --no-robots --check-extern -o csv <"$urls" >"$work/theirs.csv" 2>"$work/theirs.err" || true
t2=$(now)
[ -z "$bin_base" ] || echo "rfc1738 at BASE ($BASE): $(echo "$tb - $t1" | bc) s; the work tree: $(echo "$t1 - $t0" | bc) s; ratio $(echo "scale=3; ($tb - $t1) / ($t1 - $t0)" | bc) (above 1: BASE slower)"
# LinkChecker started when the BASE run ended: its time is t2 - tb.
t2=$(echo "$t2 - $tb + $t1" | bc)

/usr/bin/python3 - "$work/ours.jsonl" "$work/theirs.csv" "$t0" "$t1" "$t2" "$N" <<'PY'
import csv, json, sys
ours_f, theirs_f, t0, t1, t2, n = sys.argv[1:]
t0, t1, t2 = float(t0), float(t1), float(t2)
ours = {}
for line in open(ours_f):
    o = json.loads(line)
    ours[o["url"]] = o["result"] == "ok"
theirs = {}
rows = [l for l in open(theirs_f) if not l.startswith("#")]
for r in csv.DictReader(rows, delimiter=";"):
    if r.get("urlname"):
        theirs[r["urlname"]] = r["valid"] == "True"
agree = sum(1 for u in ours if u in theirs and ours[u] == theirs[u])
ours_t, theirs_t = t1 - t0, t2 - t1
print(f"rfc1738 linkcheck: {ours_t:7.2f} s  {sum(ours.values())} ok, {len(ours) - sum(ours.values())} broken")
print(f"LinkChecker:       {theirs_t:7.2f} s  {sum(theirs.values())} ok, {len(theirs) - sum(theirs.values())} broken")
print(f"ratio:             {theirs_t / ours_t:7.1f}x faster")
print(f"verdicts agree:    {agree} of {n}")
sys.exit(0 if agree == int(n) and len(ours) == int(n) else 1)
PY
