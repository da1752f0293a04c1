#!/bin/sh
# linkcheck-site.sh: rfc1738 linkcheck --recursive beside LinkChecker -r on
# one generated web site served on 127.0.0.1, in one run. The site has N
# pages in folders of PER_DIR, linked with relative references of every
# form a page uses ("p2.html", "./p2.html", "../d01/p2.html", "/d01/p2.html",
# "?q" and "#part" tails, a <base href> in each folder's index), and known
# broken ones: a missing page in one page of 7, a missing folder in one of
# 11, a missing image in one of 13. Prints each tool's time, the ratio,
# and whether both report the same set of broken URLs as the one the site
# was made with (exit status 1 when they do not).
#
#   sh benchmarks/linkcheck-site.sh               # N=300, depth 4
#   N=40 R=4 sh benchmarks/linkcheck-site.sh      # a smoke run
#
# Needs python3 (its http.server serves the site) and linkchecker, which
# it installs with apt-get when missing (Debian: LinkChecker 10). Both
# tools run with their defaults otherwise: rfc1738 keeps 2 connections
# per host, LinkChecker its own request rate per host.
set -eu

N=${N:-300}
R=${R:-4}
PER_DIR=${PER_DIR:-20}
here=$(cd "$(dirname "$0")/.." && pwd)

command -v python3 >/dev/null || { echo "linkcheck-site.sh: python3 is not installed" >&2; exit 2; }
if ! command -v linkchecker >/dev/null; then
	apt-get install -y linkchecker >/dev/null
fi

work=$(mktemp -d /tmp/linkcheck-site.XXXXXX)
chmod 755 "$work"
pid=
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
site=$work/site
base=http://127.0.0.1:$port

# The site, and the list of the broken URLs it holds (known.txt).
python3 - "$site" "$N" "$PER_DIR" "$base" >"$work/known.txt" <<'PY'
import os, sys
site, n, per_dir, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
dirs = (n + per_dir - 1) // per_dir
broken = set()
os.makedirs(f"{site}/img")
open(f"{site}/img/logo.png", "wb").write(b"\x89PNG\r\n\x1a\n")
def page(path, title, body):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"<!doctype html>\n<html><head><title>{title}</title>\n")
        f.write(body)
        f.write("</body></html>\n")
index = "</head><body>\n" + "".join(f'<p><a href="d{d:02d}/">folder {d}</a>\n' for d in range(dirs))
page(f"{site}/index.html", "home", index)
for d in range(dirs):
    pages = range(d * per_dir, min(n, (d + 1) * per_dir))
    # Each folder's index: a <base href> of its own folder; the links
    # below it are relative to it.
    body = f'<base href="/d{d:02d}/"></head><body>\n'
    body += "".join(f'<a href="p{i}.html">page {i}</a><br>\n' for i in pages)
    page(f"{site}/d{d:02d}/index.html", f"folder {d}", body)
    for i in pages:
        nxt, prv = (i + 1) % n, (i - 1) % n
        body = "</head><body>\n"
        body += '<img src="../img/logo.png" alt="">\n'
        body += f'<p><a href="../d{nxt // per_dir:02d}/p{nxt}.html">next</a>\n'
        body += f'<a href="/d{prv // per_dir:02d}/p{prv}.html#top">previous</a>\n'
        body += f'<a href="./p{i}.html?view=print">print</a>\n'
        body += '<a href="../">home</a> <a href="#top">top</a>\n'
        if i % 7 == 3:
            body += f'<a href="missing-{i}.html">missing page</a>\n'
            broken.add(f"{base}/d{d:02d}/missing-{i}.html")
        if i % 11 == 5:
            body += f'<a href="../gone{i}/x.html">missing folder</a>\n'
            broken.add(f"{base}/gone{i}/x.html")
        if i % 13 == 6:
            body += f'<img src="img/logo{i}.png" alt="">\n'
            broken.add(f"{base}/d{d:02d}/img/logo{i}.png")
        page(f"{site}/d{d:02d}/p{i}.html", f"page {i}", body)
for u in sorted(broken):
    print(u)
PY
chmod -R a+rX "$site"

python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >"$work/server.log" 2>&1 &
pid=$!
i=0
until python3 -c "import urllib.request; urllib.request.urlopen('$base/')" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "linkcheck-site.sh: the site does not answer" >&2; exit 2; }
	sleep 0.1
done

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

echo "a site of $N pages ($(wc -l <"$work/known.txt") broken links) at $base/, depth $R"

t0=$(now)
"$bin" linkcheck --json -q --recursive="$R" "$base/" >"$work/ours.jsonl" || true
t1=$(now)
tb=$t1
if [ -n "$bin_base" ]; then
	"$bin_base" linkcheck --json -q --recursive="$R" "$base/" >"$work/base.jsonl" || true
	tb=$(now)
fi
linkchecker -r "$R" --no-status -o csv "$base/" >"$work/theirs.csv" 2>"$work/theirs.err" || true
t2=$(now)
[ -z "$bin_base" ] || echo "rfc1738 at BASE ($BASE): $(echo "$tb - $t1" | bc) s; the work tree: $(echo "$t1 - $t0" | bc) s; ratio $(echo "scale=3; ($tb - $t1) / ($t1 - $t0)" | bc) (above 1: BASE slower)"
# LinkChecker started when the BASE run ended: its time is t2 - tb.
t2=$(echo "$t2 - $tb + $t1" | bc)

python3 - "$work/ours.jsonl" "$work/theirs.csv" "$work/known.txt" "$t0" "$t1" "$t2" <<'PY'
import csv, json, sys
ours_f, theirs_f, known_f, t0, t1, t2 = sys.argv[1:]
t0, t1, t2 = float(t0), float(t1), float(t2)
known = set(l.strip() for l in open(known_f) if l.strip())
ours, ours_n = set(), 0
for line in open(ours_f):
    o = json.loads(line)
    ours_n += 1
    if o["result"] in ("broken", "invalid"):
        ours.add(o["url"])
theirs, theirs_n = set(), 0
rows = [l for l in open(theirs_f) if not l.startswith("#")]
for r in csv.DictReader(rows, delimiter=";"):
    if r.get("url"):
        theirs_n += 1
        if r["valid"] != "True":
            theirs.add(r["url"].split("#")[0])
ours_t, theirs_t = t1 - t0, t2 - t1
print(f"rfc1738 linkcheck: {ours_t:7.2f} s  {ours_n} URLs, {len(ours)} broken")
print(f"LinkChecker:       {theirs_t:7.2f} s  {theirs_n} rows reported (errors and warnings), {len(theirs)} broken")
print(f"ratio:             {ours_t / theirs_t:7.3f} of LinkChecker's time ({theirs_t / ours_t:.1f}x faster)")
same = ours == theirs == known
print(f"broken URLs:       {'the same set, as made' if same else 'DIFFER'}")
if not same:
    for name, s in (("rfc1738", ours), ("LinkChecker", theirs)):
        for u in sorted(s - known):
            print(f"  {name} reports {u}, which is not broken")
        for u in sorted(known - s):
            print(f"  {name} misses {u}")
sys.exit(0 if same else 1)
PY
