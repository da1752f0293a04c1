#!/bin/sh
# linkcheck-docs.sh: rfc1738 linkcheck beside LinkChecker, linkinator and
# markdown-link-check on documentation trees checked as local files, in
# one run:
#
#   (a) Debian's python3-doc HTML tree (Sphinx, about 530 pages), copied,
#       with 50 broken links (missing-N.html) and 30 broken fragments
#       (page.html#no-such-N) injected into pages picked by a fixed rule;
#   (b) a generated Markdown tree of 200 files with 90 injected faults
#       (30 missing files, 30 missing heading anchors, 30 missing images)
#       and, in code spans and blocks, links that must not be reported.
#
# Each tool runs once on the pristine tree and once on the faulted one.
# Printed per tool: wall time, peak memory (RSS), the injected faults it
# found (its report names the fault's unique token), what else it
# reported on the faulted tree beyond the pristine run, and the ratios of
# times. The table, with the date, the machine and its load, goes to
# docs/linkcheck-docs.md and to stdout.
#
#   sudo sh benchmarks/linkcheck-docs.sh
#   PEERS=none TREE=/some/html OUT=/tmp/t.md sh benchmarks/linkcheck-docs.sh  # rfc1738 alone
#
# Installs with apt-get: linkchecker, python3-doc (and nodejs, npm when
# missing); with npm, into a scratch folder: linkinator and
# markdown-link-check. Every tool checks local files only: rfc1738 with
# --offline, LinkChecker without --check-extern, linkinator with --skip
# for http(s), markdown-link-check with an ignore pattern for http(s).
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
PEERS=${PEERS:-all}
out_doc=${OUT:-$here/docs/linkcheck-docs.md}

need() { command -v "$1" >/dev/null 2>&1; }
if [ "$PEERS" != none ]; then
	need linkchecker || apt-get install -y linkchecker >/dev/null
	need npm || apt-get install -y nodejs npm >/dev/null
fi
if [ -z "${TREE:-}" ]; then
	[ -d /usr/share/doc/python3-doc/html ] || apt-get install -y python3-doc >/dev/null
	TREE=$(readlink -f /usr/share/doc/python3-doc/html)
fi
need python3 || { echo "linkcheck-docs.sh: python3 is not installed" >&2; exit 2; }

work=$(mktemp -d /tmp/linkcheck-docs.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM
if [ -n "${RFC1738_BIN:-}" ]; then
	cp "$RFC1738_BIN" "$work/rfc1738"
else
	(cd "$here" && go build -o "$work/rfc1738" ./cmd/rfc1738)
fi
if [ "$PEERS" != none ]; then
	(cd "$work" && npm install --silent --no-audit --no-fund linkinator markdown-link-check >/dev/null 2>&1)
fi
PATH=$work/node_modules/.bin:$PATH
lfrag=
if [ "$PEERS" != none ] && linkinator --help 2>&1 | grep -q -- --check-fragments; then
	lfrag=--check-fragments # newer linkinator releases only
fi

# (a) The HTML tree, pristine and faulted; faults.txt lists the tokens.
cp -rL "$TREE" "$work/html-pristine"
cp -rL "$TREE" "$work/html"
python3 - "$work/html" >"$work/html-faults.txt" <<'PY'
import os, sys
root = sys.argv[1]
pages = sorted(os.path.relpath(os.path.join(d, f), root)
               for d, _, fs in os.walk(root) for f in fs if f.endswith(".html"))
def inject(page, html):
    p = os.path.join(root, page)
    with open(p, encoding="utf-8", errors="surrogateescape") as f:
        s = f.read()
    i = s.rfind("</body>")
    s = s[:i] + html + "\n" + s[i:] if i >= 0 else s + html
    with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(s)
step = max(1, len(pages) // 80)
for n in range(50):
    page = pages[(n * step) % len(pages)]
    inject(page, f'<a href="missing-{n}.html">broken {n}</a>')
    print(f"missing-{n}.html")
for n in range(30):
    page = pages[(n * step + 7) % len(pages)]
    target = pages[(n * step + 11) % len(pages)]
    rel = os.path.relpath(target, os.path.dirname(page) or ".")
    inject(page, f'<a href="{rel}#no-such-{n}">fragment {n}</a>')
    print(f"no-such-{n}")
PY

# (b) The Markdown tree.
python3 - "$work/md" >"$work/md-faults.txt" <<'PY'
import os, sys
root = sys.argv[1]
n = 200
os.makedirs(f"{root}/img")
open(f"{root}/img/logo.png", "wb").write(b"\x89PNG\r\n\x1a\n")
for i in range(n):
    d = f"{root}/part{i // 20}"
    os.makedirs(d, exist_ok=True)
    nxt = (i + 1) % n
    lines = [f"# Page {i}", "", "## Install", "", "## Install", "",
             f"See [next](../part{nxt // 20}/p{nxt}.md#install-1), [home](../README.md#top-level) "
             f"and ![logo](../img/logo.png).", "",
             "`[code](not-a-fault.md)`", "", "```", "[block](not-a-fault-either.md)", "```", ""]
    if i % 20 == 3:
        k = i // 20 * 3
        for j in range(3):
            lines.append(f"[gone](missing-{k + j}.md) [bad anchor](#no-such-{k + j}) ![img](../img/gone-{k + j}.png)")
            print(f"missing-{k + j}.md"); print(f"no-such-{k + j}"); print(f"gone-{k + j}.png")
    open(f"{d}/p{i}.md", "w").write("\n".join(lines) + "\n")
open(f"{root}/README.md", "w").write("# Top level\n\n" + "".join(
    f"- [page {i}](part{i // 20}/p{i}.md)\n" for i in range(n)))
PY
cp -r "$work/md" "$work/md-pristine"
# The injected lines only (the pristine Markdown tree has none).
sed -i '/missing-\|no-such-\|gone-/d' "$work"/md-pristine/part*/p*.md

timed() { # timed NAME OUTFILE CMD...: runs CMD, records "seconds KB" in NAME.time
	name=$1 outf=$2
	shift 2
	/usr/bin/time -f "%e %M" -o "$work/$name.time" "$@" >"$outf" 2>&1 || true
}
found() { # found FAULTS OUTFILE: how many fault tokens the report names
	n=0
	while read -r tok; do grep -qF -- "$tok" "$2" && n=$((n + 1)); done <"$1"
	echo "$n"
}
lines_beyond() { # lines_beyond FAULTS OUT PRISTINE TREE: findings of the faulted run that are neither faults nor in the pristine run
	sed "s#$work/$4-pristine#$work/$4#g" "$3" >"$3.same"
	grep -vF -f "$1" "$2" | grep -vxF -f "$3.same" | grep -v '^[0-9]* URLs: ' | grep -ci 'broken\|error\|not found\|fail\|\[✖\]' || true
}

rc=$work/linkcheckerrc
printf '[checking]\nthreads=10\n[AnchorCheck]\n' >"$rc"

run_html() { # tool tree tag
	case $1 in
	rfc1738) timed "$1-$3" "$work/$1-$3.out" "$work/rfc1738" linkcheck -q --offline "$2" ;;
	linkchecker) timed "$1-$3" "$work/$1-$3.out" linkchecker -f "$rc" --no-status -o text "$2/index.html" ;;
	linkinator) timed "$1-$3" "$work/$1-$3.out" linkinator "$2" --recurse $lfrag --skip '^https?://(?!127\.0\.0\.1|localhost)' --format csv ;;
	esac
}
run_md() {
	case $1 in
	rfc1738) timed "$1-$3" "$work/$1-$3.out" "$work/rfc1738" linkcheck -q --offline "$2" ;;
	linkchecker) timed "$1-$3" "$work/$1-$3.out" linkchecker -f "$rc" --no-status -o text "$2/README.md" ;;
	linkinator) timed "$1-$3" "$work/$1-$3.out" linkinator "$2" --recurse --markdown $lfrag --skip '^https?://(?!127\.0\.0\.1|localhost)' --format csv ;;
	markdown-link-check) timed "$1-$3" "$work/$1-$3.out" sh -c "cd '$2' && find . -name '*.md' | sort | xargs -n 50 markdown-link-check -q" ;;
	esac
}

tools_html="rfc1738"
tools_md="rfc1738"
if [ "$PEERS" != none ]; then
	tools_html="rfc1738 linkchecker linkinator"
	tools_md="rfc1738 linkchecker linkinator markdown-link-check"
fi
mb=$(du -sm "$work/html" | cut -f1)
htmlmb=$(find "$work/html" -name '*.html' -printf '%s\n' | awk '{s += $1} END {printf "%.1f", s / 1e6}')
table=$work/table.md
{
	echo "# linkcheck on documentation trees"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(uname -srm); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "Printed by benchmarks/linkcheck-docs.sh. (a) $(basename "$TREE") HTML, $mb MB ($htmlmb MB of it HTML), $(find "$work/html" -name '*.html' | wc -l) pages, $(wc -l <"$work/html-faults.txt") faults injected; (b) generated Markdown, 200 files, $(wc -l <"$work/md-faults.txt") faults."
	echo
	echo "| tree | tool | time | memory | faults found | other findings | time ÷ rfc1738's |"
	echo "|---|---|---|---|---|---|---|"
} >"$table"
for tree in html md; do
	[ "$tree" = html ] && tools=$tools_html || tools=$tools_md
	faults=$work/$tree-faults.txt
	ours=
	for t in $tools; do
		if [ "$tree" = html ]; then
			run_html "$t" "$work/html-pristine" "$tree-pristine"
			run_html "$t" "$work/html" "$tree"
		else
			run_md "$t" "$work/md-pristine" "$tree-pristine"
			run_md "$t" "$work/md" "$tree"
		fi
		read -r secs kb <<EOF
$(tail -n1 "$work/$t-$tree.time")
EOF
		[ -z "$ours" ] && ours=$secs
		f=$(found "$faults" "$work/$t-$tree.out")
		extra=$(lines_beyond "$faults" "$work/$t-$tree.out" "$work/$t-$tree-pristine.out" "$tree")
		ratio=$(python3 -c "print(f'{$secs / max($ours, 0.001):.1f}')")
		echo "| $tree | $t | ${secs} s | $((kb / 1024)) MB | $f/$(wc -l <"$faults") | $extra | $ratio |" >>"$table"
	done
done
secs=$(tail -n1 "$work/rfc1738-html.time" | cut -d" " -f1)
echo >>"$table"
echo "rfc1738 on the HTML tree: $(python3 -c "print(f'{$htmlmb / max($secs, 0.001):.0f}')") MB/s of HTML ($(python3 -c "print(f'{$mb / max($secs, 0.001):.0f}')") MB/s of the whole tree), fragments checked, as a process (start, walk, report); load after: $(cut -d' ' -f1-3 /proc/loadavg)." >>"$table"
mkdir -p "$(dirname "$out_doc")"
cp "$table" "$out_doc"
cat "$table"
