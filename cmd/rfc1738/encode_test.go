package main

import (
	"strings"
	"testing"
)

func TestEncodeSchemes(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		// §3.2.2, the example.
		{[]string{"ftp", "--host", "host", "--cwd", "/etc", "--name", "motd", "--type", "a"}, "ftp://host/%2Fetc/motd;type=a"},
		{[]string{"ftp", "--host", "host.dom", "--user", "myname", "--cwd", "", "--cwd", "etc", "--name", "motd"}, "ftp://myname@host.dom//etc/motd"},
		{[]string{"ftp", "--host", "h", "--user", ""}, "ftp://@h/"}, // §3.1: an empty user
		{[]string{"http", "--host", "x.org", "--port", "8080", "--path", "/~joe/a b", "--search", "q=1"}, "http://x.org:8080/%7Ejoe/a%20b?q=1"},
		{[]string{"gopher", "--host", "h", "--type", "7", "--selector", "/cgi", "--search", "hello world"}, "gopher://h/7/cgi%09hello%20world"},
		// §3.4.9: the form string, given with Go escapes.
		{[]string{"gopher", "--host", "h", "--type", "0", "--selector", "sel", "--plus", `+\t1\r\n+-1\r\nyes\r\n.\r\n`}, "gopher://h/0sel%09%09+%091%0D%0A+-1%0D%0Ayes%0D%0A.%0D%0A"},
		{[]string{"mailto", "--address", "a%b@x.org"}, "mailto:a%25b@x.org"},
		{[]string{"news", "--group", "*"}, "news:*"},
		{[]string{"news", "--message-id", "<1234@x.org>"}, "news:1234@x.org"},
		{[]string{"nntp", "--host", "h", "--group", "comp.lang.c", "--article", "42"}, "nntp://h/comp.lang.c/42"},
		{[]string{"telnet", "--host", "h", "--user", "guest", "--port", "2323"}, "telnet://guest@h:2323/"},
		{[]string{"wais", "--host", "h", "--database", "db", "--search", "a b"}, "wais://h/db?a%20b"},
		{[]string{"wais", "--host", "h", "--database", "db", "--wtype", "TEXT", "--wpath", "0 1"}, "wais://h/db/TEXT/0%201"},
		// §3.10, the VMS file; and a local path.
		{[]string{"file", "--host", "vms.host.edu", "--segment", "disk$user", "--segment", "my", "--segment", "notes", "--segment", "note12345.txt"}, "file://vms.host.edu/disk$user/my/notes/note12345.txt"},
		{[]string{"file", "--path", "/tmp/東京 x"}, "file:///tmp/%E6%9D%B1%E4%BA%AC%20x"},
		// §3.11.
		{[]string{"prospero", "--host", "host.dom", "--hsoname", "/pros/name", "--field", "a=b;c"}, "prospero://host.dom//pros/name;a=b%3Bc"},
		{[]string{"FTP", "--host", "h"}, "ftp://h/"},
	}
	for _, tt := range tests {
		out, errOut, status := runCLI(t, "", append([]string{"encode"}, tt.args...)...)
		if status != exitOK || out != tt.want+"\n" {
			t.Errorf("encode %q: status %d, out %q, stderr %q; want %q", tt.args, status, out, errOut, tt.want)
		}
	}
}

func TestEncodeComponent(t *testing.T) {
	out, _, status := runCLI(t, "", "encode", "--component", "fsegment", "a b;c", "/etc")
	if status != exitOK || out != "a%20b%3Bc\n%2Fetc\n" {
		t.Errorf("fsegment: %d %q", status, out)
	}
	out, _, _ = runCLI(t, "東京\na/b?c\n", "encode", "--component", "hsegment")
	if out != "%E6%9D%B1%E4%BA%AC\na%2Fb%3Fc\n" {
		t.Errorf("stdin: %q", out)
	}
	out, _, _ = runCLI(t, "", "encode", "--component", "selector", "a\tb c")
	if out != "a%09b%20c\n" {
		t.Errorf("selector: %q", out)
	}
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		msg    string
	}{
		{[]string{"gopher", "--host", "h", "--selector", "a\tb"}, exitNegative, "a selector cannot hold a TAB"},
		{[]string{"http", "--host", "a_b"}, exitNegative, `Host "a_b"`},
		{[]string{"http", "--host", "h", "--name", "x"}, exitUsage, "http takes no --name"},
		{[]string{"https", "--host", "h"}, exitUsage, "no scheme"},
		{[]string{}, exitUsage, "name one scheme"},
		{[]string{"--component", "nope", "x"}, exitUsage, `invalid value "nope" for flag --component: want address`},
		{[]string{"ftp", "--host", "h", "--port", "x"}, exitUsage, "not a number"},
		{[]string{"ftp", "--host", "h", "--type", "ab"}, exitUsage, "one character"},
		{[]string{"prospero", "--host", "h", "--field", "x"}, exitUsage, "not name=value"},
		{[]string{"file", "--path", "rel"}, exitNegative, "absolute path"},
	}
	for _, tt := range tests {
		_, errOut, status := runCLI(t, "", append([]string{"encode"}, tt.args...)...)
		if status != tt.status || !strings.Contains(errOut, tt.msg) {
			t.Errorf("encode %q: status %d, stderr %q; want %d and %q", tt.args, status, errOut, tt.status, tt.msg)
		}
	}
}
