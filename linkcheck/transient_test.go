package linkcheck_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/linkcheck"
)

// TestFTPTransientCodes: RFC 959 §4.2: a 4yz reply is a transient
// negative completion, tried again; a 5yz is permanent, tried once. The
// retried range is 420 to 459 (421's closing reply included), where the
// servers' "try later" replies live.
func TestFTPTransientCodes(t *testing.T) {
	var mu sync.Mutex
	sizes := map[string]int{}
	f := ftpFake(t, func(s *testserver.FTPSession, line string) bool {
		if len(line) == len("SIZE 000.txt") && line[:5] == "SIZE " {
			mu.Lock()
			sizes[line[5:8]]++
			mu.Unlock()
			s.Reply(line[5:8] + " Not now.")
			return true
		}
		return false
	})
	k := newChecker(t)
	k.Retries, k.Backoff = 2, time.Millisecond
	for code, tries := range map[int]int{419: 1, 420: 3, 450: 3, 459: 3, 460: 1, 550: 1} {
		c := strconv.Itoa(code)
		st, detail := k.Check(testCtx(t), "ftp://"+f.Addr+"/"+c+".txt")
		mu.Lock()
		n := sizes[c]
		mu.Unlock()
		if st != linkcheck.Broken || n != tries {
			t.Errorf("SIZE answered %d: %s, %q, asked %d times; want broken, asked %d times", code, st, detail, n, tries)
		}
	}
}

// TestMailtoTransient: RFC 5321 §4.2.1: a relay's 4yz to RCPT TO is
// transient, tried again; its 5yz is permanent, tried once.
func TestMailtoTransient(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	rcpts := map[string]int{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				r := bufio.NewReader(c)
				io.WriteString(c, "220 relay ESMTP\r\n")
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					cmd := strings.ToUpper(strings.TrimSpace(line))
					switch {
					case strings.HasPrefix(cmd, "RCPT TO:<"):
						addr := strings.TrimSuffix(strings.TrimPrefix(cmd, "RCPT TO:<"), ">")
						mu.Lock()
						rcpts[addr]++
						mu.Unlock()
						code := addr[:3]
						io.WriteString(c, code+" "+code[:1]+".0.0 as asked\r\n")
					case cmd == "QUIT":
						io.WriteString(c, "221 bye\r\n")
						return
					default:
						io.WriteString(c, "250 ok\r\n")
					}
				}
			}()
		}
	}()
	k := newChecker(t)
	k.SMTPRelay = ln.Addr().String()
	k.Retries, k.Backoff = 2, time.Millisecond
	for code, tries := range map[string]int{"450": 3, "421": 3, "550": 1} {
		st, detail := k.Check(testCtx(t), "mailto:"+code+"@example.org")
		mu.Lock()
		n := rcpts[code+"@EXAMPLE.ORG"]
		mu.Unlock()
		if st != linkcheck.Broken || n != tries {
			t.Errorf("RCPT TO answered %s: %s, %q, asked %d times; want broken, %d times", code, st, detail, n, tries)
		}
	}
}

// TestGatewayBody: §4: a gateway's answer is ok when its first byte
// comes, or when it is empty; an answer cut before its first byte is
// broken.
func TestGatewayBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.Contains(r.URL.RawQuery, "empty"):
			w.WriteHeader(http.StatusOK)
		case strings.Contains(r.URL.RawQuery, "cut"):
			c, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
			c.Close()
		default:
			w.Write([]byte("found"))
		}
	}))
	defer srv.Close()
	k := newChecker(t)
	k.Client.Gateways = map[string]string{"prospero": srv.URL + "/fetch?url={url}"}
	checkAll(t, k, []verdict{
		{"prospero://host.dom//pros/empty", linkcheck.OK, "through the prospero gateway"},
		{"prospero://host.dom//pros/cut", linkcheck.Broken, "EOF"},
	})
}
