//go:build unix

package testserver

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"math/rand/v2"
	"net"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

//go:embed inn-start.sh
var innStartScript string

//go:embed inn-stop.sh
var innStopScript string

// INNLockFile is the lock that lets one test process at a time run INN:
// innd is a system-wide daemon (one /etc/news, one spool, one pid file), and
// `go test ./...` runs packages in parallel.
const INNLockFile = "/tmp/rfc1738-inn.lock"

// INNGroup is the group INN serves for tests (Debian's default active file
// has it; the start script creates it otherwise).
const INNGroup = "local.test"

// INNServer is INN 2.7 (innd + nnrpd) running on 127.0.0.1 for one test,
// with 127.0.0.1 configured as a reader (shared/reference/loopback-servers.md
// §3a).
type INNServer struct {
	Addr  string // 127.0.0.1:port
	Host  string // "127.0.0.1"
	Port  int
	Group string // INNGroup
	Log   string // output of the start and stop scripts
}

var innMu sync.Mutex // one INN per process; the flock covers other processes

// INN starts INN on a free port of 127.0.0.1 and stops it when the test
// ends. It holds INNLockFile meanwhile, so tests of several packages take
// turns. It edits /etc/news/inn.conf (port, bindaddress) and
// /etc/news/incoming.conf (127.0.0.1 is a reader, not a feed peer) as the
// reference recipe does, and leaves them so. Articles and history persist
// between runs: post with fresh ids ([FreshMessageID]) and do not assume
// article numbers.
//
// Call it once per test and run the INN cases as subtests: a start and
// stop take about 1.5 s.
func INN(t testing.TB) *INNServer {
	t.Helper()
	NeedRoot(t)
	Need(t, "bash", "su", "/usr/lib/news/bin/rc.news", "/usr/lib/news/bin/ctlinnd")

	innMu.Lock()
	t.Cleanup(innMu.Unlock)
	lock, err := os.OpenFile(INNLockFile, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("inn: %v", err)
	}
	t.Cleanup(func() { lock.Close() }) // closing the file releases the flock
	deadline := time.Now().Add(3 * time.Minute)
	for {
		err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if err != syscall.EWOULDBLOCK || time.Now().After(deadline) {
			t.Fatalf("inn: lock %s: %v", INNLockFile, err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	logPath := filepath.Join(t.TempDir(), "inn.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	run := func(name, script string, env ...string) error {
		fmt.Fprintf(logf, "== %s\n", name)
		cmd := exec.Command("bash", "-c", script, name)
		// The output goes to a file, not a pipe: rc.news leaves innd
		// holding it, and Wait would block on a pipe until innd exits.
		cmd.Stdout, cmd.Stderr = logf, logf
		cmd.Env = append(os.Environ(), "PATH="+os.Getenv("PATH")+":/usr/sbin:/sbin:/usr/lib/news/bin")
		cmd.Env = append(cmd.Env, env...)
		cmd.WaitDelay = 5 * time.Second
		return cmd.Run()
	}
	// An innd left by a test process that died holding the lock would keep
	// the pid file and the spool: stop it first.
	if err := run("inn-stop.sh", innStopScript); err != nil {
		t.Fatalf("inn: stopping a stale innd: %v: %s", err, tail(logPath))
	}
	port := FreePort(t)
	s := &INNServer{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Host: "127.0.0.1", Port: port, Group: INNGroup, Log: logPath}
	t.Cleanup(func() {
		if err := run("inn-stop.sh", innStopScript); err != nil {
			t.Errorf("inn: stop: %v: %s", err, tail(logPath))
		}
	})
	if err := run("inn-start.sh", innStartScript, "PORT="+strconv.Itoa(port)); err != nil {
		t.Fatalf("inn: start: %v: %s", err, tail(logPath))
	}
	if err := WaitPort(s.Addr, 10*time.Second); err != nil {
		t.Fatalf("inn: %v: %s", err, tail(logPath))
	}
	return s
}

// FreshMessageID returns a Message-ID with its angle brackets that INN's
// history has never seen (it refuses a repeated id with 435/441 Duplicate):
// tag, the time in nanoseconds and a random number.
func FreshMessageID(tag string) string {
	return fmt.Sprintf("<%s.%d.%d@inn-ci.internal>", tag, time.Now().UnixNano(), rand.Uint32())
}

// INNArticle is an article for Post.
type INNArticle struct {
	MessageID string // with brackets, e.g. from FreshMessageID
	Subject   string
	From      string // "Tester <tester@example.com>" when empty
	Body      string // lines end in "\n"; lines starting with "." are dot-stuffed on the wire
}

// Post posts the article to s.Group with the NNTP POST command (RFC 3977
// §6.3.1: 340, the article dot-stuffed, then 240), the way the reference
// recipe does; inews cannot post with this setup.
func (s *INNServer) Post(t testing.TB, a INNArticle) {
	t.Helper()
	if err := s.post(a); err != nil {
		t.Fatalf("inn: post %s: %v", a.MessageID, err)
	}
}

func (s *INNServer) post(a INNArticle) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", s.Addr)
	if err != nil {
		return err
	}
	defer nc.Close()
	dl, _ := ctx.Deadline()
	nc.SetDeadline(dl)
	c := textproto.NewConn(nc)
	if _, _, err := c.ReadCodeLine(200); err != nil {
		return fmt.Errorf("greeting: %w", err)
	}
	if err := c.PrintfLine("POST"); err != nil {
		return err
	}
	if _, _, err := c.ReadCodeLine(340); err != nil {
		return fmt.Errorf("POST: %w", err)
	}
	from := a.From
	if from == "" {
		from = "Tester <tester@example.com>"
	}
	w := c.DotWriter() // RFC 3977 §3.1.1 dot-stuffing
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "From: %s\nNewsgroups: %s\nSubject: %s\nMessage-ID: %s\n\n", from, s.Group, a.Subject, a.MessageID)
	bw.WriteString(a.Body)
	if !strings.HasSuffix(a.Body, "\n") {
		bw.WriteString("\n")
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	if _, _, err := c.ReadCodeLine(240); err != nil {
		return fmt.Errorf("article: %w", err)
	}
	c.PrintfLine("QUIT")
	c.ReadCodeLine(205)
	return nil
}
