# vsftpd.sh, sourced by the benchmark scripts: start_vsftpd ROOT WORK starts
# vsftpd in the background on a free 127.0.0.1 port, serving ROOT to
# anonymous logins with passive mode on loopback and no client limits, its
# configuration in WORK. It sets $port and $pid and returns once the port
# answers. (The tests start theirs through internal/testserver.)
start_vsftpd() {
	port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	pasv=$((20000 + (port % 100) * 100))
	cat >"$2/vsftpd.conf" <<CONF
listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=$port
background=NO
anonymous_enable=YES
anon_root=$1
no_anon_password=NO
local_enable=NO
write_enable=NO
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=$pasv
pasv_max_port=$((pasv + 99))
secure_chroot_dir=/var/run/vsftpd/empty
max_clients=0
max_per_ip=0
xferlog_enable=NO
CONF
	chmod 600 "$2/vsftpd.conf"
	mkdir -p /var/run/vsftpd/empty
	/usr/sbin/vsftpd "$2/vsftpd.conf" &
	pid=$!
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1',$port),1)" 2>/dev/null && break
		sleep 0.2
	done
}
