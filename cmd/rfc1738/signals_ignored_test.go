package main

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// heldServer serves interruptBody in two halves: the second only once
// the test releases the request it holds. arrived is told when a request
// is held (after the first half for GET, before the answer for HEAD).
type heldServer struct {
	*httptest.Server
	mu      sync.Mutex
	release chan struct{}
	arrived chan struct{}
}

func newHeldServer(t *testing.T) *heldServer {
	h := &heldServer{}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		release, arrived := h.release, h.arrived
		h.mu.Unlock()
		w.Header().Set("Content-Length", strconv.Itoa(len(interruptBody)))
		if r.Method == http.MethodHead {
			arrived <- struct{}{}
			<-release
			return
		}
		w.Write(interruptBody[:len(interruptBody)/2])
		w.(http.Flusher).Flush()
		arrived <- struct{}{}
		select {
		case <-release:
			w.Write(interruptBody[len(interruptBody)/2:])
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(h.Close)
	return h
}

// hold makes the next request wait; the returned function lets it go.
func (h *heldServer) hold() (arrived <-chan struct{}, release func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.release, h.arrived = make(chan struct{}), make(chan struct{}, 1)
	var once sync.Once
	rel := h.release
	return h.arrived, func() { once.Do(func() { close(rel) }) }
}

// TestIgnoredSignalsStayIgnored: a command started with SIGINT or SIGHUP
// ignored (a script's background job, nohup) keeps it ignored: the built
// binary, started by sh with the signal trapped to nothing, get and
// linkcheck are still running after the signal and end with their normal
// status once the server answers. Not ignored, SIGINT still ends get with 130, and
// SIGHUP with 129.
func TestIgnoredSignalsStayIgnored(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to start the binary with a signal ignored")
	}
	bin := binary(t)
	srv := newHeldServer(t)
	// start runs the binary with args in dir, through sh with sig
	// ignored when trap is set, and waits until the server holds its
	// request.
	start := func(t *testing.T, dir, trap string, args ...string) (*exec.Cmd, *bytes.Buffer, <-chan error, func()) {
		t.Helper()
		arrived, release := srv.hold()
		t.Cleanup(release)
		script := `exec "$0" "$@"`
		if trap != "" {
			script = "trap '' " + trap + "; " + script
		}
		cmd := exec.Command("sh", append([]string{"-c", script, bin}, args...)...)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-arrived:
		case err := <-done:
			t.Fatalf("%v ended before the server held its request: %v\n%s", args, err, &stderr)
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: the server saw no request", args)
		}
		return cmd, &stderr, done, release
	}
	status := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			return -1
		}
		return 0
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGHUP} {
		name := map[syscall.Signal]string{syscall.SIGINT: "INT", syscall.SIGHUP: "HUP"}[sig]
		for _, tool := range []string{"get", "linkcheck"} {
			t.Run(tool+" ignores SIG"+name, func(t *testing.T) {
				dir := t.TempDir()
				args := []string{"get", "-q", "-o", "out.bin", srv.URL + "/f"}
				if tool == "linkcheck" {
					args = []string{"linkcheck", "-q", srv.URL + "/f"}
				}
				cmd, stderr, done, release := start(t, dir, name, args...)
				cmd.Process.Signal(sig)
				select {
				case err := <-done:
					t.Fatalf("ended by an ignored SIG%s: status %d\n%s", name, status(err), stderr)
				case <-time.After(500 * time.Millisecond):
				}
				release()
				if err := <-done; err != nil {
					t.Fatalf("status %d after the server answered, want 0\n%s", status(err), stderr)
				}
				if tool == "get" {
					if b, err := os.ReadFile(filepath.Join(dir, "out.bin")); err != nil || !bytes.Equal(b, interruptBody) {
						t.Errorf("out.bin: %d bytes, %v; want the whole file", len(b), err)
					}
				}
			})
		}
		t.Run("get stops on SIG"+name, func(t *testing.T) {
			if signal.Ignored(sig) {
				// The tests themselves run with it ignored (nohup), and
				// a child inherits that: a handler of ours here makes
				// the child's disposition the default again.
				ch := make(chan os.Signal, 1)
				signal.Notify(ch, sig)
				defer signal.Stop(ch)
			}
			cmd, stderr, done, _ := start(t, t.TempDir(), "", "get", "-q", "-o", "out.bin", srv.URL+"/f")
			cmd.Process.Signal(sig)
			select {
			case err := <-done:
				if got := status(err); got != 128+int(sig) {
					t.Errorf("status %d after SIG%s, want %d\n%s", got, name, 128+int(sig), stderr)
				}
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 10 s after SIG%s", name)
			}
		})
	}
}
