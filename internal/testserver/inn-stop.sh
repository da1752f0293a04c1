#!/bin/bash
# Stop INN: shared/reference/loopback-servers.md §3a "stop-inn2.sh".
# SIGTERM does not stop innd; ctlinnd shutdown does. The port closes before
# the process has gone, so wait for the PID.
gone() { [ ! -e /proc/$1 ] || grep -q '^State:.*Z' /proc/$1/status 2>/dev/null; }
I=$(cat /run/news/innd.pid 2>/dev/null || true)
W=$(cat /run/news/innwatch.pid 2>/dev/null || true)
[ -n "$W" ] && kill "$W" 2>/dev/null || true
[ -n "$I" ] || exit 0
ctlinnd -t 20 shutdown 'ci done' >/dev/null || kill "$I" 2>/dev/null || true
for i in $(seq 1 100); do gone "$I" && break; sleep 0.1; done
gone "$I" || kill -9 "$I"
rm -f /run/news/innwatch.pid /run/news/LOCK.innwatch
