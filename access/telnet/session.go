package telnet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/rfc1738/rfc1738/internal/signals"
)

// ErrNotTerminal is the error (wrapped) that Session returns when its
// standard input or output is not a terminal.
var ErrNotTerminal = errors.New("not a terminal")

// errStopped ends the keyboard reader when the session is over.
var errStopped = errors.New("telnet: input stopped")

// Session runs an interactive session over conn on the terminal that stdin
// and stdout are (normally os.Stdin and os.Stdout): it puts the terminal in
// raw mode, so that every key goes to the server at once and the server
// does the echoing, copies keys to the server and the server's output to
// the screen, and keeps the server told of the window size (RFC 1073, on
// start and on every SIGWINCH).
//
// Session returns nil when the server closes the connection, ctx.Err()
// (wrapped) when ctx ends, and an error naming the signal on SIGINT,
// SIGTERM, SIGHUP or SIGQUIT, which it catches while it runs (in raw mode
// the keys ^C and ^\ are not signals: they go to the server). Whatever
// happens, the terminal's attributes are restored and conn is closed before
// Session returns. Without a terminal the error wraps ErrNotTerminal; on
// systems other than Linux it wraps errors.ErrUnsupported.
func Session(ctx context.Context, conn *Conn, stdin, stdout *os.File) (err error) {
	defer conn.Close()
	sigs := make(chan os.Signal, 1)
	signals.Notify(sigs, stopSignals...) // not those the parent ignored (nohup)
	defer signal.Stop(sigs)

	restore, err := makeRaw(stdin, stdout)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := restore(); rerr != nil && err == nil {
			err = rerr
		}
	}()

	var winch chan os.Signal
	if len(resizeSignals) > 0 {
		winch = make(chan os.Signal, 1)
		signal.Notify(winch, resizeSignals...)
		defer signal.Stop(winch)
	}
	if err := sendWindowSize(conn, stdout); err != nil {
		return err
	}

	in, err := newInput(stdin)
	if err != nil {
		return err
	}
	defer in.close()

	outDone := make(chan error, 1)
	go func() {
		_, err := io.Copy(stdout, conn)
		outDone <- err
	}()
	inDone := make(chan error, 1)
	go func() { inDone <- copyInput(conn, in) }()

	inRunning := true
	var result error
loop:
	for {
		select {
		case err := <-outDone:
			outDone = nil
			if err != nil {
				result = fmt.Errorf("telnet: session: %w", err)
			}
			break loop
		case err := <-inDone:
			inRunning = false
			if !errors.Is(err, io.EOF) {
				result = fmt.Errorf("telnet: session: keyboard: %w", err)
				break loop
			}
			// End of input: keep showing the server's output until it
			// closes, as a telnet fed from a file does.
		case <-winch:
			if err := sendWindowSize(conn, stdout); err != nil {
				result = err
				break loop
			}
		case s := <-sigs:
			result = fmt.Errorf("telnet: session ended by signal %v", s)
			break loop
		case <-ctx.Done():
			result = fmt.Errorf("telnet: session: %w", ctx.Err())
			break loop
		}
	}
	// Unblock both copies and wait for them, so that nothing touches the
	// terminal after it is restored.
	conn.Close()
	in.stop()
	if outDone != nil {
		<-outDone
	}
	if inRunning {
		<-inDone
	}
	return result
}

// copyInput sends what the keyboard gives until it stops or fails.
func copyInput(conn *Conn, in *input) error {
	buf := make([]byte, 1024)
	for {
		n, err := in.Read(buf)
		if n > 0 {
			if _, werr := conn.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			return err
		}
	}
}

// sendWindowSize passes the terminal's size to the server (RFC 1073). A
// terminal that does not know its size (0x0) is not reported.
func sendWindowSize(conn *Conn, f *os.File) error {
	w, h, err := windowSize(f)
	if err != nil || w == 0 || h == 0 {
		return nil
	}
	return conn.SetWindowSize(w, h)
}
