#!/bin/bash
# Start INN (innd + nnrpd) on 127.0.0.1:$PORT as a *reader* server.
# This is shared/reference/loopback-servers.md §3a "start-inn2.sh", without
# its sample posts (the Go helper posts fresh articles). Run as root.
set -euo pipefail
PORT=${PORT:-1190}
C=/etc/news/inn.conf
grep -q '^domain:' $C || sed -i 's/^#domain:.*/domain:                      inn-ci.internal/' $C
sed -i -e "s/^port:.*/port:                        $PORT/" \
       -e 's/^#bindaddress:.*/bindaddress:                 127.0.0.1/' $C
# A loaded machine (a -race run on two cores) must not make nnrpd refuse
# readers ("400 load at 22.69, try later") or innwatch throttle innd: no load
# limits for a test server.
sed -i -e 's/^nnrpdloadlimit:.*/nnrpdloadlimit:              0/' \
       -e 's/^doinnwatch:.*/doinnwatch:                  false/' $C
# make 127.0.0.1 a *reader* (nnrpd) instead of a feeding peer ("transit mode", 401 MODE-READER)
sed -i 's/^\(\s*hostname:\s*\)"localhost, 127.0.0.1, ::1"/\1"::1"/' /etc/news/incoming.conf
install -d -o news -g news /run/news /var/log/news           # what systemd would create
su news -s /bin/sh -c /usr/lib/news/bin/rc.news                # forks innd + innwatch, returns
for i in $(seq 1 50); do (exec 3<>/dev/tcp/127.0.0.1/$PORT) 2>/dev/null && break; sleep 0.1; done
ctlinnd -s newgroup local.test y ci || true                    # Debian's default active already has local.test
echo "innd pid $(cat /run/news/innd.pid), innwatch pid $(cat /run/news/innwatch.pid 2>/dev/null || echo -)"
