#!/bin/sh
# get-many.sh: many small files from one https host on loopback, rfc1738
# get beside curl and wget. Makes N files of 0.5-20 kB (fixed seed),
# serves them from one https server (benchmarks/getmany: HTTP/1.1, its
# own certificate made at start, counting the connections it accepts),
# and runs, in an order rotated each round:
#   curl-Z       curl -Z --parallel-max 50, all URLs in one process
#   wget         wget -i LIST (one at a time)
#   curl         curl with all URLs in one process, one at a time
#   rfc1738-p50  rfc1738 get --parallel 50 -i LIST
#   rfc1738      rfc1738 get -i LIST (one at a time)
# each into an empty folder, after a sync (not timed). Prints each one's
# wall time (median of the rounds), the connections the server saw, and
# rfc1738's ratios to curl -Z and to curl; checks every file is
# byte-identical to the served one (exit status 1 when one differs).
#
#   sh benchmarks/get-many.sh              # R=5 N=2000
#   R=1 N=500 sh benchmarks/get-many.sh
#   GETFLAGS=--no-fsync sh benchmarks/get-many.sh   # rfc1738 without its syncs
#   BASE=DIR sh benchmarks/get-many.sh   # also another checkout's build (base-p50, base)
#
# Needs go, curl and wget (apt-get install curl wget).
set -eu

R=${R:-5}
N=${N:-2000}
PAR=${PAR:-50}
here=$(cd "$(dirname "$0")/.." && pwd)
for t in go curl wget; do
	command -v $t >/dev/null || { echo "get-many.sh: $t is not installed" >&2; exit 2; }
done

work=$(mktemp -d /tmp/get-many.XXXXXX)
srv_pid=
cleanup() {
	[ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

bin=$work/rfc1738
(cd "$here" && go build -o "$bin" ./cmd/rfc1738)
if [ -n "${BASE:-}" ]; then
	(cd "$BASE" && go build -o "$work/base" ./cmd/rfc1738)
fi
(cd "$here/benchmarks/getmany" && go build -o "$work/getmany" .)
"$work/getmany" -make "$work/files" -n "$N" -seed 1
"$work/getmany" -serve "$work/files" -ready "$work/ports" &
srv_pid=$!
i=0
while [ ! -s "$work/ports" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { echo "get-many.sh: the server did not start" >&2; exit 2; }
	sleep 0.1
done
read -r port ctl <"$work/ports"
ca=$work/ca.pem
base=https://127.0.0.1:$port
ls "$work/files" | sed "s|^|$base/|" >"$work/list"
sed 's|^|url = "|; s|$|"|' "$work/list" >"$work/curl.cfg"
conns() { curl -s "http://127.0.0.1:$ctl/conns"; }

run_tool() { # tool outdir
	case $1 in
	curl-Z) curl -s -S --no-progress-meter --cacert "$ca" -Z --parallel-max "$PAR" --remote-name-all --output-dir "$2" -K "$work/curl.cfg" ;;
	wget) wget -q --ca-certificate="$ca" -P "$2" -i "$work/list" ;;
	curl) curl -s -S --no-progress-meter --cacert "$ca" --remote-name-all --output-dir "$2" -K "$work/curl.cfg" ;;
	rfc1738-p50) "$bin" get -q ${GETFLAGS:-} --cacert "$ca" --parallel "$PAR" --output-dir "$2" -i "$work/list" ;;
	rfc1738) "$bin" get -q ${GETFLAGS:-} --cacert "$ca" --output-dir "$2" -i "$work/list" ;;
	base-p50) "$work/base" get -q ${GETFLAGS:-} --cacert "$ca" --parallel "$PAR" --output-dir "$2" -i "$work/list" ;;
	base) "$work/base" get -q ${GETFLAGS:-} --cacert "$ca" --output-dir "$2" -i "$work/list" ;;
	esac
}

tools="curl-Z wget curl rfc1738-p50 rfc1738"
[ -z "${BASE:-}" ] || tools="$tools base-p50 base"
bad=0
: >"$work/times"
r=0
while [ $r -lt "$R" ]; do
	# This round's order: the list rotated by r.
	order=$(echo $tools | awk -v r=$r '{ for (i = 0; i < NF; i++) printf "%s ", $(((i + r) % NF) + 1) }')
	for t in $order; do
		out=$work/out-$t
		rm -rf "$out"
		mkdir -p "$out"
		sync
		conns >/dev/null
		t0=$(date +%s.%N)
		run_tool "$t" "$out" || echo "get-many.sh: $t failed (status $?)" >&2
		t1=$(date +%s.%N)
		c=$(conns)
		echo "$t $(echo "$t1 - $t0" | bc) $c" >>"$work/times"
		if ! diff -r -q "$work/files" "$out" >/dev/null; then
			echo "get-many.sh: $t: the files differ from the served ones" >&2
			diff -r -q "$work/files" "$out" | head -5 >&2
			bad=1
		fi
	done
	r=$((r + 1))
done

echo "# get-many: $N files of 0.5-20 kB from one https server (HTTP/1.1, loopback), $R round(s), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v tools="$tools" '
{ n[$1]++; w[$1, n[$1]] = $2; c[$1] = $3 }
function median(t,   k, i, j, tmp, a) {
	k = n[t]
	for (i = 1; i <= k; i++) a[i] = w[t, i]
	for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { tmp = a[i]; a[i] = a[j]; a[j] = tmp }
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
END {
	split(tools, T, " ")
	for (i = 1; i in T; i++) m[T[i]] = median(T[i])
	printf "%-13s %9s %12s %11s %9s\n", "tool", "wall (s)", "connections", "/ curl -Z", "/ curl"
	for (i = 1; i in T; i++) {
		t = T[i]
		printf "%-13s %9.3f %12d %10.2fx %8.2fx\n", t, m[t], c[t], m[t] / m["curl-Z"], m[t] / m["curl"]
	}
	printf "\nrfc1738 get --parallel 50 / curl -Z: %.2fx (target 1.2x)\n", m["rfc1738-p50"] / m["curl-Z"]
	printf "rfc1738 get -i (sequential) / curl:   %.2fx (target 1.3x)\n", m["rfc1738"] / m["curl"]
	if ("base" in m)
		printf "this build / BASE: %.2fx in parallel, %.2fx sequential\n", m["rfc1738-p50"] / m["base-p50"], m["rfc1738"] / m["base"]
}' "$work/times"
exit $bad
