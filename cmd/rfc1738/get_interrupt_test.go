package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/rfc1738/rfc1738/internal/testserver"
	"github.com/rfc1738/rfc1738/mirror"
)

// interruptBody is the file the interrupt tests fetch.
var interruptBody = func() []byte {
	b := make([]byte, 200000)
	for i := range b {
		b[i] = byte(i * 7)
	}
	return b
}()

// interruptServer serves interruptBody: with stall set, the first half
// and then nothing until the client goes; a Range request from byte n
// (RFC 9110 §14.2) the rest, whole.
func interruptServer(t *testing.T, stall *atomic.Bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rng, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok {
			from, err := strconv.Atoi(strings.TrimSuffix(rng, "-"))
			if err != nil || from >= len(interruptBody) {
				http.Error(w, "bad range", http.StatusRequestedRangeNotSatisfiable)
				return
			}
			w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(interruptBody)-1, len(interruptBody)))
			w.Header().Set("Content-Length", strconv.Itoa(len(interruptBody)-from))
			w.WriteHeader(http.StatusPartialContent)
			w.Write(interruptBody[from:])
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(interruptBody)))
		if !stall.Load() {
			w.Write(interruptBody)
			return
		}
		w.Write(interruptBody[:len(interruptBody)/2])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv
}

// interruptGet runs get with args in dir, sends sig once the hidden
// partial holds bytes, and returns the exit status and stderr.
func interruptGet(t *testing.T, dir string, sig syscall.Signal, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"get"}, args...)...)
	cmd.Dir = dir
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, ".out.bin.part")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if fi, err := os.Stat(part); err == nil && fi.Size() == int64(len(interruptBody)/2) {
			break
		}
	}
	cmd.Process.Signal(sig)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("get ended with %v, want a signal's status; stderr:\n%s", err, errOut.String())
	}
	return ee.ExitCode(), errOut.String()
}

// TestGetInterruptKeepsPartial: through the built binary, a get stopped
// by SIGINT or SIGTERM mid-body keeps its hidden partial whether -C was
// given or not (curl and wget keep partial data); get -C - resumes it
// into the whole file; a later run without -C starts over and replaces
// it.
func TestGetInterruptKeepsPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	var stall atomic.Bool
	srv := interruptServer(t, &stall)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			stall.Store(true)
			status, stderr := interruptGet(t, dir, sig, "-o", "out.bin", srv.URL+"/f")
			if status != 128+int(sig) || !strings.Contains(stderr, "kept .out.bin.part for -C to resume") {
				t.Errorf("status %d, want %d; stderr:\n%s", status, 128+int(sig), stderr)
			}
			got, err := os.ReadFile(filepath.Join(dir, ".out.bin.part"))
			if err != nil || !bytes.Equal(got, interruptBody[:len(got)]) || len(got) == 0 {
				t.Fatalf("the partial: %d bytes, %v; want a prefix of the file", len(got), err)
			}
			if _, err := os.Stat(filepath.Join(dir, "out.bin")); err == nil {
				t.Errorf("out.bin exists after the interrupt")
			}
			// -C - resumes from the partial's end.
			stall.Store(false)
			cmd := exec.Command(binary(t), "get", "-q", "-C", "-", "-o", "out.bin", srv.URL+"/f")
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("get -C -: %v\n%s", err, out)
			}
			if got, err := os.ReadFile(filepath.Join(dir, "out.bin")); err != nil || !bytes.Equal(got, interruptBody) {
				t.Errorf("after -C -: %d bytes, %v; want the %d of the file", len(got), err, len(interruptBody))
			}
			if names := dirNames(t, dir); len(names) != 1 {
				t.Errorf("the folder holds %q, want out.bin alone", names)
			}
		})
	}
	t.Run("without -C starts over", func(t *testing.T) {
		dir := t.TempDir()
		stall.Store(true)
		interruptGet(t, dir, syscall.SIGINT, "-o", "out.bin", srv.URL+"/f")
		// A partial that is no prefix of the file: only a run that
		// starts over (no Range) makes the file whole.
		part := filepath.Join(dir, ".out.bin.part")
		if err := os.WriteFile(part, bytes.Repeat([]byte("x"), 1000), 0o600); err != nil {
			t.Fatal(err)
		}
		stall.Store(false)
		cmd := exec.Command(binary(t), "get", "-o", "out.bin", srv.URL+"/f")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "was left by an earlier run; starting over") {
			t.Fatalf("get: %v\n%s", err, out)
		}
		if got, err := os.ReadFile(filepath.Join(dir, "out.bin")); err != nil || !bytes.Equal(got, interruptBody) {
			t.Errorf("out.bin: %d bytes, %v; want the file", len(got), err)
		}
		if _, err := os.Stat(part); err == nil {
			t.Errorf("the partial is still there")
		}
	})
}

// TestMirrorInterruptManifest: a gopher mirror stopped by SIGINT while one
// document stalls mid-body leaves a manifest that parses, whose every
// line names a file complete on disk (size and SHA-256), and that has no
// line, and no file under its name, for the document cut short.
func TestMirrorInterruptManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	g := testserver.NewGopherRouter(t, func(addr string, req []byte) testserver.GopherReply {
		host, port, _ := net.SplitHostPort(addr)
		switch {
		case strings.HasPrefix(string(req), "/slow"):
			return testserver.GopherReply{Reply: []byte("first half\r\n"), Hold: true}
		case strings.HasPrefix(string(req), "/done"):
			return testserver.GopherReply{Reply: []byte("done\r\n")}
		}
		return testserver.GopherReply{Reply: []byte("0Done\t/done\t" + host + "\t" + port + "\r\n0Slow\t/slow\t" + host + "\t" + port + "\r\n.\r\n")}
	})
	dir := t.TempDir()
	cmd := exec.Command(binary(t), "mirror", "--parallel", "1", "gopher://"+g.Addr+"/1", dir)
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if rs := g.Requests(); len(rs) >= 3 && strings.HasPrefix(string(rs[len(rs)-1]), "/slow") {
			break
		}
	}
	time.Sleep(100 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("mirror: %v, want exit status 130; stderr:\n%s", err, errOut.String())
	}
	f, err := os.Open(filepath.Join(dir, mirror.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	paths := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec mirror.Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("manifest line %q: %v", sc.Text(), err)
		}
		paths[rec.Path] = true
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rec.Path)))
		sum := sha256.Sum256(b)
		if err != nil || int64(len(b)) != rec.Size || hex.EncodeToString(sum[:]) != rec.SHA256 {
			t.Errorf("%s: %d bytes, %v; the manifest says %d bytes, %s", rec.Path, len(b), err, rec.Size, rec.SHA256)
		}
	}
	if !paths["done"] || paths["slow"] {
		t.Errorf("the manifest names %v; want done and not slow", paths)
	}
	if _, err := os.Stat(filepath.Join(dir, "slow")); err == nil {
		t.Errorf("slow, cut short, is under its real name")
	}
}
