package zerocopy

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// clock is the test's time: it stands still unless a slow Direct call
// moves it, so a chunk is slow exactly when the test says so, however
// loaded the machine.
var clock = time.Unix(0, 0)

func init() { now = func() time.Time { return clock } }

// fakeBody serves data; Direct takes chunks through rf and records how
// it was called; slow makes the Direct calls listed take longer than Slow.
type fakeBody struct {
	r       *strings.Reader
	n       int64
	directs []int64 // Received() at each Direct call
	slow    map[int]bool
}

func (b *fakeBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

func (b *fakeBody) Received() int64 { return b.n }

func (b *fakeBody) Direct(rf io.ReaderFrom, n int64) (int64, bool, bool, error) {
	if b.slow[len(b.directs)] {
		clock = clock.Add(Slow + time.Millisecond)
	}
	b.directs = append(b.directs, b.n)
	lr := &io.LimitedReader{R: b.r, N: n}
	m, err := rf.ReadFrom(lr)
	b.n += m
	return m, err == nil && lr.N > 0, true, err
}

// TestWriteToPolicy: the buffer until After bytes, then chunks into a
// ReaderFrom, back to the buffer for good after a slow chunk, and never
// direct into a plain Writer.
func TestWriteToPolicy(t *testing.T) {
	defer func(a, c int64) { After, Chunk = a, c }(After, Chunk)
	After, Chunk = 100, 50
	data := strings.Repeat("0123456789", 50) // 500 bytes
	buf := make([]byte, 40)

	b := &fakeBody{r: strings.NewReader(data)}
	var out bytes.Buffer // an io.ReaderFrom
	if n, err := writeTo(b, &out, buf); err != nil || n != 500 || out.String() != data {
		t.Fatalf("copied %d, %v", n, err)
	}
	// 40+40+40 = 120 through the buffer, then 50-byte chunks; the chunk
	// that finds no more data is the end.
	if want := []int64{120, 170, 220, 270, 320, 370, 420, 470}; !slices.Equal(b.directs, want) {
		t.Errorf("Direct at %v, want %v", b.directs, want)
	}

	b = &fakeBody{r: strings.NewReader(data), slow: map[int]bool{1: true}}
	out.Reset()
	if n, err := writeTo(b, &out, buf); err != nil || n != 500 || out.String() != data {
		t.Fatalf("copied %d, %v", n, err)
	}
	if want := []int64{120, 170}; !slices.Equal(b.directs, want) {
		t.Errorf("with a slow second chunk: Direct at %v, want %v", b.directs, want)
	}

	b = &fakeBody{r: strings.NewReader(data)}
	var sb strings.Builder // not an io.ReaderFrom
	if n, err := writeTo(b, &sb, buf); err != nil || n != 500 || sb.String() != data || len(b.directs) != 0 {
		t.Errorf("into a plain Writer: %d, %v, Direct at %v", n, err, b.directs)
	}
}
