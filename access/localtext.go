package access

import (
	"io"
	"runtime"
)

// localLineEnd reports whether text must be converted from the network's
// CRLF to the local end of line: LF everywhere but Windows, whose own line
// end is CRLF.
var localLineEnd = runtime.GOOS != "windows"

// newLocalText returns r with the network's line ends (CRLF: RFC 959's
// NVT-ASCII for ftp TYPE A, RFC 1436's text lines for gopher) turned into
// the local one, as curl does on Unix. Only CR LF pairs change: a CR that
// no LF follows is data (NVT-ASCII would send it as CR NUL) and is kept,
// so no byte but a line end's CR is ever dropped. It streams, holding back
// at most one CR between reads.
func newLocalText(r io.Reader) io.Reader {
	if !localLineEnd {
		return r
	}
	return &localText{r: r, buf: make([]byte, 32<<10)}
}

type localText struct {
	r    io.Reader
	buf  []byte
	i, n int  // buf[i:n] is read and not yet converted
	cr   bool // the last byte converted was a CR, not yet written
	err  error
}

func (t *localText) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		if t.i == t.n {
			switch {
			case t.err != nil && t.cr:
				// The data ended on a CR: it was no line end.
				p[w] = '\r'
				w++
				t.cr = false
				continue
			case t.err != nil && w == 0:
				return 0, t.err
			case w > 0:
				return w, nil // do not block with data in hand
			}
			t.n, t.err = t.r.Read(t.buf)
			t.i = 0
			continue
		}
		c := t.buf[t.i]
		t.i++
		if t.cr {
			t.cr = false
			if c == '\n' {
				p[w] = '\n'
				w++
				continue
			}
			p[w] = '\r'
			w++
			if w == len(p) {
				t.i-- // c goes out with the next Read
				break
			}
		}
		if c == '\r' {
			t.cr = true
			continue
		}
		p[w] = c
		w++
	}
	return w, nil
}
