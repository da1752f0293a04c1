#!/bin/sh
# mirror.sh: rfc1738 mirror beside lftp's mirror on one loopback vsftpd,
# in one run: SMALL small files in folders of PER_DIR and LARGE files of
# LARGE_MB MiB each. Runs lftp (its default, one transfer at a time),
# rfc1738 mirror (default --parallel 2) and rfc1738 mirror --parallel 4,
# each into an empty folder, checks that each copy equals the tree
# (diff -r), then times a second run of each that must fetch nothing:
# vsftpd has no MLSD and its LIST gives times to the minute (the day for
# old files), so both rfc1738 and lftp ask MDTM per file there: that
# second run is the cost of checking every file's time to the second.
# Prints each time and the ratios; exit status 1 when a copy differs.
#
#   sudo sh benchmarks/mirror.sh               # SMALL=2000 LARGE=4 LARGE_MB=32
#   sudo SMALL=200 sh benchmarks/mirror.sh
#
# Needs root (vsftpd chroots), vsftpd and lftp.
set -eu

SMALL=${SMALL:-2000}
PER_DIR=${PER_DIR:-50}
LARGE=${LARGE:-4}
LARGE_MB=${LARGE_MB:-32}
here=$(cd "$(dirname "$0")/.." && pwd)

[ "$(id -u)" = 0 ] || { echo "mirror.sh: run as root (vsftpd needs it)" >&2; exit 2; }
[ -x /usr/sbin/vsftpd ] || { echo "mirror.sh: vsftpd is not installed" >&2; exit 2; }
command -v lftp >/dev/null || { echo "mirror.sh: lftp is not installed (apt-get install lftp)" >&2; exit 2; }

work=$(mktemp -d /tmp/mirror-bench.XXXXXX)
chmod 755 "$work"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

root=$work/ftproot
i=0
while [ $i -lt "$SMALL" ]; do
	d=$(printf 'd%03d' $((i / PER_DIR)))
	mkdir -p "$root/$d"
	printf 'file %d\n' $i >"$root/$d/f$i.txt"
	i=$((i + 1))
done
mkdir -p "$root/large"
i=0
while [ $i -lt "$LARGE" ]; do
	head -c $((LARGE_MB * 1048576)) /dev/urandom >"$root/large/big$i.bin"
	i=$((i + 1))
done
chmod -R a+rX "$root"

. "$(dirname "$0")/vsftpd.sh"
start_vsftpd "$root" "$work"

bin=$work/rfc1738
(cd "$here" && go build -o "$bin" ./cmd/rfc1738)
url=ftp://127.0.0.1:$port/

now() { date +%s.%N; }
same() { diff -r "$root" "$1" >/dev/null || { echo "mirror.sh: $2's copy differs from the tree" >&2; status=1; }; }
status=0

echo "vsftpd 127.0.0.1:$port: $SMALL files of a few bytes in folders of $PER_DIR, $LARGE of $LARGE_MB MiB"

t0=$(now)
lftp -c "set net:max-retries 1; set ftp:use-feat on; open -u anonymous,bench@example.org $url; mirror / $work/lftp" >/dev/null
t1=$(now)
"$bin" mirror -q --email bench@example.org "$url" "$work/ours" >/dev/null
t2=$(now)
"$bin" mirror -q --email bench@example.org --parallel 4 "$url" "$work/ours4" >/dev/null
t3=$(now)
"$bin" mirror -q --email bench@example.org "$url" "$work/ours" >"$work/second.log"
t4=$(now)
lftp -c "set net:max-retries 1; open -u anonymous,bench@example.org $url; mirror --parallel=2 / $work/lftp2" >/dev/null
t5=$(now)
lftp -c "set net:max-retries 1; set ftp:use-feat on; open -u anonymous,bench@example.org $url; mirror / $work/lftp" >/dev/null
t6=$(now)

same "$work/lftp" lftp
same "$work/lftp2" "lftp --parallel=2"
# Our copies hold the manifest besides the tree.
rm "$work/ours/.rfc1738-mirror.jsonl" "$work/ours4/.rfc1738-mirror.jsonl"
same "$work/ours" "rfc1738 mirror"
same "$work/ours4" "rfc1738 mirror --parallel 4"

/usr/bin/python3 - "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" "$t6" <<'PY'
import sys
t0, t1, t2, t3, t4, t5, t6 = map(float, sys.argv[1:])
lftp, ours, ours4, again, lftp2, lftpagain = t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5
print(f"lftp -c mirror:                   {lftp:7.2f} s")
print(f"lftp -c 'mirror --parallel=2':    {lftp2:7.2f} s")
print(f"rfc1738 mirror (--parallel 2):    {ours:7.2f} s   {ours / lftp:5.2f} of lftp's time")
print(f"rfc1738 mirror --parallel 4:      {ours4:7.2f} s   {ours4 / lftp:5.2f} of lftp's time")
print(f"rfc1738 mirror again (no change): {again:7.2f} s   {again / lftpagain:5.2f} of lftp's time (MDTM per file)")
print(f"lftp -c mirror again (no change): {lftpagain:7.2f} s")
PY
exit $status
