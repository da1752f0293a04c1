package testserver

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// VSFTPDUser and VSFTPDPassword are the local account VSFTPD makes for
// user/password logins. Its login folder is /home/ftptest, which holds
// files/local.txt ("local user file\n").
const (
	VSFTPDUser     = "ftptest"
	VSFTPDPassword = "ftppass"
)

// VSFTPDFiles is the anonymous tree VSFTPD writes (shared/reference/
// loopback-servers.md §1), path → content; pub/binary.bin, 100 000
// random bytes, is made apart.
var VSFTPDFiles = map[string]string{
	"hello.txt":                  "hello from ftp root\n",
	"pub/nested/inner.txt":       "nested file\n",
	"pub/nested/deeper/deep.txt": "deeper file\n",
	"pub/odd name;type=a.txt":    "name with space and semicolon\n",
	"pub/a b;c.txt":              "weird; name\n",
	"etc/motd":                   "fake motd inside anon root\n", // for ftp://host/%2Fetc/motd
	"pub/crlf.txt":               "line1\r\nline2\r\n",
	"pub/lf.txt":                 "line1\nline2\n", // TYPE A turns it into CRLF
}

// VSFTPD starts vsftpd on 127.0.0.1 with the reference configuration:
// anonymous logins rooted at a fresh copy of the test tree, local logins
// for VSFTPDUser (created with useradd/chpasswd if missing), passive mode
// only on loopback, ascii_download_enable=YES and the protocol logged. It
// returns the control address and the anonymous root, where a test may
// add files. The daemon is stopped by the test's cleanup.
//
// It needs root and /usr/sbin/vsftpd; without them the test is
// Unavailable.
func VSFTPD(t testing.TB) (addr, root string) {
	t.Helper()
	return vsftpd(t, nil)
}

// VSFTPDTLS starts VSFTPD's server with explicit FTP over TLS (RFC 4217)
// besides: ssl_enable=YES with a certificate for 127.0.0.1 that ca, made
// for the test, signs; anonymous sessions may use TLS (allow_anon_ssl) and
// need not; every data connection must resume its control connection's
// TLS session (require_ssl_reuse=YES, vsftpd's default, said explicitly).
// Clients trust ca.PEM (curl --cacert).
func VSFTPDTLS(t testing.TB) (addr, root string, ca *CA) {
	t.Helper()
	ca = NewCA(t)
	dir := t.TempDir()
	cert, key := ca.IssueFiles(t, dir, "127.0.0.1", "localhost")
	addr, root = vsftpd(t, []string{
		"ssl_enable=YES",
		"rsa_cert_file=" + cert,
		"rsa_private_key_file=" + key,
		"allow_anon_ssl=YES",
		"force_anon_logins_ssl=NO",
		"force_anon_data_ssl=NO",
		"force_local_logins_ssl=NO",
		"force_local_data_ssl=NO",
		"require_ssl_reuse=YES",
		// Debian's vsftpd 3.0.3 allows ECDHE-RSA-AES256-GCM-SHA384 alone
		// (upstream: DES-CBC3-SHA), which the ECDSA certificate cannot
		// serve under TLS 1.2.
		"ssl_ciphers=HIGH",
	})
	return addr, root, ca
}

// VSFTPD6 starts VSFTPD's server on the IPv6 loopback ::1 alone
// (listen_ipv6=YES, listen_address6=::1) and returns its control address,
// "[::1]:port", and the anonymous root. Data connections are passive on
// ::1: EPSV (RFC 2428 §3), since PASV has no IPv6 form.
func VSFTPD6(t testing.TB) (addr, root string) {
	t.Helper()
	return vsftpdOn(t, true, nil)
}

// vsftpd starts the reference vsftpd with extra configuration lines.
func vsftpd(t testing.TB, extra []string) (addr, root string) {
	t.Helper()
	return vsftpdOn(t, false, extra)
}

// vsftpdOn starts the reference vsftpd on 127.0.0.1, or on ::1 alone.
func vsftpdOn(t testing.TB, ipv6 bool, extra []string) (addr, root string) {
	t.Helper()
	NeedRoot(t)
	bin := Need(t, "vsftpd")
	if bin == nil {
		return "", ""
	}
	state := t.TempDir()
	// The anonymous root must be readable by user ftp and not writable by
	// it; vsftpd chroots into it.
	root = filepath.Join(state, "ftproot")
	for rel, content := range VSFTPDFiles {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), []byte(content))
	}
	bin100k := make([]byte, 100000)
	rand.Read(bin100k)
	writeFile(t, filepath.Join(root, "pub", "binary.bin"), bin100k)
	if err := filepath.Walk(state, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if info.IsDir() {
			mode = 0o755
		}
		return os.Chmod(p, mode)
	}); err != nil {
		t.Fatal(err)
	}
	// t.TempDir's parent is private to root; vsftpd chroots as root, so
	// the anonymous session never needs to walk it.
	vsftpdLocalUser(t)

	port := FreePort(t)
	// A passive range of its own, below the kernel's ephemeral ports
	// (32768-60999), chosen from the control port so that two instances
	// rarely share it; vsftpd retries another port when one is taken.
	pasvMin := 20000 + (port%100)*100
	addr = fmt.Sprintf("127.0.0.1:%d", port)
	conf := filepath.Join(state, "vsftpd.conf")
	logFile := filepath.Join(state, "vsftpd.log")
	listen := []string{"listen=YES", "listen_ipv6=NO", "listen_address=127.0.0.1", "pasv_address=127.0.0.1"}
	if ipv6 {
		addr = fmt.Sprintf("[::1]:%d", port)
		listen = []string{"listen=NO", "listen_ipv6=YES", "listen_address6=::1"}
	}
	settings := append(listen,
		fmt.Sprintf("listen_port=%d", port),
		"background=NO",
		"anonymous_enable=YES",
		"anon_root="+root,
		"no_anon_password=NO",
		"local_enable=YES",
		"pam_service_name=vsftpd",
		"write_enable=NO",
		"pasv_enable=YES",
		fmt.Sprintf("pasv_min_port=%d", pasvMin),
		fmt.Sprintf("pasv_max_port=%d", pasvMin+99),
		"port_enable=YES",
		"connect_from_port_20=NO",
		"secure_chroot_dir=/var/run/vsftpd/empty",
		"xferlog_enable=YES",
		"vsftpd_log_file="+logFile,
		"log_ftp_protocol=YES",
		"dual_log_enable=NO",
		"ascii_download_enable=YES",
		// Fail a wrong password at once rather than after 1 s.
		"delay_failed_login=0",
	)
	settings = append(settings, extra...)
	// A bad line makes vsftpd exit with status 2 and print nothing
	// (loopback-servers.md §1), so the file is written plainly.
	writeFile(t, conf, []byte(strings.Join(settings, "\n")+"\n"))
	os.Chmod(conf, 0o600) // vsftpd refuses a config file others can write
	if err := os.MkdirAll("/var/run/vsftpd/empty", 0o755); err != nil {
		t.Fatal(err)
	}
	d := Start(t, "vsftpd", exec.Command(bin[0], conf), addr)
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(logFile); err == nil {
				t.Logf("vsftpd log (%s):\n%s", d.Log, tailBytes(b, 4000))
			}
		}
	})
	return addr, root
}

// VSFTPDLog returns the protocol log of the vsftpd whose anonymous root
// is root (log_ftp_protocol=YES: every command and reply).
func VSFTPDLog(root string) string {
	b, _ := os.ReadFile(filepath.Join(filepath.Dir(root), "vsftpd.log"))
	return string(b)
}

// vsftpdLocalUser makes sure VSFTPDUser exists with VSFTPDPassword and
// its login folder holds files/local.txt and an empty files/sub.
func vsftpdLocalUser(t testing.TB) {
	t.Helper()
	EnsureLocalUser(t, VSFTPDUser, VSFTPDPassword)
	home := "/home/" + VSFTPDUser
	writeFile(t, filepath.Join(home, "files", "local.txt"), []byte("local user file\n"))
	if err := os.MkdirAll(filepath.Join(home, "files", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chown", "-R", VSFTPDUser+":", home).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v: %s", err, out)
	}
}

func writeFile(t testing.TB, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func tailBytes(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}
