package access

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// (http_body.go: how the http handler reads a body: a resumed range, a
// gzip one under --compressed, a 206 bounded by its Content-Range.)

// httpResumed reads the answer to a Range request (RFC 9110 §14.2, §15.3.7,
// §15.5.17): a 206 must start at offset (its Content-Range says so); a
// 416 whose Content-Range gives the size as offset means nothing is left
// (done, an empty body); a 200 is the whole resource (Offset 0, the
// caller starts over). Any other status is left to the caller.
func httpResumed(out *Response, resp *http.Response, offset int64) (done bool, err error) {
	cr := resp.Header.Get("Content-Range")
	switch resp.StatusCode {
	case http.StatusPartialContent:
		var first, last int64
		var total string
		if n, _ := fmt.Sscanf(cr, "bytes %d-%d/%s", &first, &last, &total); n != 3 || first != offset || last < first {
			resp.Body.Close()
			return true, fmt.Errorf("%s: asked for bytes from %d, the server sent Content-Range %q: %w", out.URL, offset, cr, ErrNoResume)
		}
		// RFC 9110 §14.4: the body is the range, first-last inclusive;
		// a byte past it is not the resource's, and is never read (as
		// wget stops there).
		n := last - first + 1
		out.Offset, out.Size = offset, n
		out.Body = &rangeBody{r: resp.Body, left: n}
	case http.StatusRequestedRangeNotSatisfiable:
		var size int64
		if n, _ := fmt.Sscanf(cr, "bytes */%d", &size); n == 1 && size == offset {
			resp.Body.Close()
			out.Body, out.Size, out.Offset = http.NoBody, 0, offset
			return true, nil
		}
		resp.Body.Close()
		return true, fmt.Errorf("%s: %s %s to a range from byte %d (Content-Range %q): %w", out.URL, resp.Proto, resp.Status, offset, cr, ErrNoResume)
	}
	return false, nil
}

// httpGzipped reports whether a response's Content-Encoding is gzip alone
// (RFC 9110 §8.4.1.3: "x-gzip" is the same); a body under other or
// several codings is kept as sent.
func httpGzipped(h http.Header) bool {
	ce := h.Values("Content-Encoding")
	if len(ce) != 1 {
		return false
	}
	v := strings.ToLower(strings.TrimSpace(ce[0]))
	return v == "gzip" || v == "x-gzip"
}

// gzipBody decodes a gzip body as it is read; the decoder is made at the
// first Read, so that Get does not wait on the body's first bytes.
type gzipBody struct {
	raw io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (b *gzipBody) Read(p []byte) (int, error) {
	if b.zr == nil && b.err == nil {
		b.zr, b.err = gzip.NewReader(b.raw)
		if b.err != nil {
			b.err = fmt.Errorf("the gzip body (Content-Encoding: gzip) cannot be decoded: %w", b.err)
		}
	}
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.zr.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("the gzip body (Content-Encoding: gzip) cannot be decoded: %w", err)
	}
	return n, err
}

func (b *gzipBody) Close() error { return b.raw.Close() }

// rangeBody is the body of a 206: the bytes of its Content-Range and no
// more; a body that ends before them is cut short.
type rangeBody struct {
	r    io.ReadCloser
	left int64
}

func (b *rangeBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if err == io.EOF && b.left > 0 {
		err = io.ErrUnexpectedEOF
	}
	if err == nil && b.left == 0 {
		err = io.EOF
	}
	return n, err
}

func (b *rangeBody) Close() error { return b.r.Close() }
