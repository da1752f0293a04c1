#!/bin/sh
# mirror-memory.sh: the memory rfc1738 mirror needs as the tree grows.
# For each size in SIZES it serves a tree of that many files of a few
# bytes (PER_DIR to a folder) from one loopback vsftpd and reports the
# maximum resident set (GNU time's "Maximum resident set size") of a
# first run, which fetches every file, and of a second, which loads the
# manifest and fetches nothing; with --delete on both, its bookkeeping
# included.
#
#   sudo sh benchmarks/mirror-memory.sh                 # SIZES="10000 100000"
#   sudo SIZES="1000 10000" sh benchmarks/mirror-memory.sh
#
# Needs root (vsftpd chroots), vsftpd and /usr/bin/time.
set -eu

SIZES=${SIZES:-10000 100000}
PER_DIR=${PER_DIR:-1000}
here=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" = 0 ] || { echo "mirror-memory.sh: run as root (vsftpd needs it)" >&2; exit 2; }
[ -x /usr/sbin/vsftpd ] || { echo "mirror-memory.sh: vsftpd is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "mirror-memory.sh: /usr/bin/time is not installed (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d /tmp/mirror-memory.XXXXXX)
chmod 755 "$work"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

bin=$work/rfc1738
(cd "$here" && go build -o "$bin" ./cmd/rfc1738)
. "$(dirname "$0")/vsftpd.sh"

# rss LOG: the maximum resident set GNU time wrote, in KiB.
rss() { sed -n 's/.*Maximum resident set size (kbytes): //p' "$1"; }

for n in $SIZES; do
	root=$work/tree$n
	/usr/bin/python3 - "$root" "$n" "$PER_DIR" <<'PY'
import os, sys
root, n, per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for i in range(n):
    d = os.path.join(root, "d%04d" % (i // per))
    if i % per == 0:
        os.makedirs(d, mode=0o755, exist_ok=True)
    with open(os.path.join(d, "file-with-a-longish-name-%07d.txt" % i), "w") as f:
        f.write("file %d\n" % i)
PY
	chmod -R a+rX "$root"
	start_vsftpd "$root" "$work"
	url=ftp://127.0.0.1:$port/
	out=$work/out$n
	/usr/bin/time -v "$bin" mirror -q --delete --email bench@example.org "$url" "$out" 2>"$work/first.log" || { cat "$work/first.log" >&2; exit 1; }
	/usr/bin/time -v "$bin" mirror -q --delete --email bench@example.org "$url" "$out" 2>"$work/second.log" || { cat "$work/second.log" >&2; exit 1; }
	got=$(find "$out" -type f ! -name .rfc1738-mirror.jsonl | wc -l)
	printf '%7d files: first run %6d KiB max RSS (%s s), second run %6d KiB (%s s); %d files copied\n' \
		"$n" "$(rss "$work/first.log")" "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/first.log")" \
		"$(rss "$work/second.log")" "$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/second.log")" "$got"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=
	rm -rf "$root" "$out"
done
