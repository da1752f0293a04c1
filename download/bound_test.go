package download

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// The meter's edges, one Read at a time. (Before the Fetcher's tests, and
// bounded: a meter that reads nothing forever fails here instead of
// hanging a test below.)

// TestMeterReadEdges: a Read reads one byte past what is left, no more,
// and returns what fits with ErrTooLarge.
func TestMeterReadEdges(t *testing.T) {
	within(t, "the meter's Reads", func() {
		r := strings.NewReader("0123456789")
		var reported int64
		m := &meter{r: r, watch: new(touches), limited: true, left: 4, progress: func(n int64) { reported += n }}
		n, err := m.Read(make([]byte, 10))
		if n != 4 || !errors.Is(err, ErrTooLarge) {
			t.Errorf("Read over the limit: %d, %v; want 4, ErrTooLarge", n, err)
		}
		if r.Len() != 5 || reported != 5 {
			t.Errorf("read %d bytes, reported %d; want 5, 5", 10-r.Len(), reported)
		}

		// A buffer as long as what is left reads it all, nothing more.
		r = strings.NewReader("0123456789")
		m = &meter{r: r, watch: new(touches), limited: true, left: 4}
		if n, err := m.Read(make([]byte, 4)); n != 4 || err != nil || r.Len() != 6 {
			t.Errorf("Read of 4 with 4 left: %d, %v, %d unread; want 4, nil, 6", n, err, r.Len())
		}
		// And a shorter one what it holds.
		if n, err := m.Read(make([]byte, 0, 1)); n != 0 || err != nil || r.Len() != 6 {
			t.Errorf("Read of 0 bytes: %d, %v, %d unread", n, err, r.Len())
		}

		// Nothing left and nothing more: the end, no error.
		w := new(touches)
		m = &meter{r: strings.NewReader(""), watch: w, limited: true, left: 0, progress: func(int64) { t.Error("progress of nothing") }}
		if n, err := m.Read(make([]byte, 8)); n != 0 || err != io.EOF {
			t.Errorf("an empty body with 0 left: %d, %v; want 0, EOF", n, err)
		}
		if *w != 0 {
			t.Errorf("nothing arrived, the watchdog was touched %d times", *w)
		}
	})
}

// TestMeterReadFromExactFit: when what is left runs out with the copy,
// one more byte tells an exact fit from too much.
func TestMeterReadFromExactFit(t *testing.T) {
	within(t, "the meter's ReadFrom", func() {
		for _, tc := range []struct {
			data string
			want error
		}{{"01234", nil}, {"012345", ErrTooLarge}} {
			m := &meter{watch: new(touches), limited: true, left: 5}
			var out strings.Builder
			n, err := meterWriter{m: m, w: &out}.ReadFrom(&io.LimitedReader{R: strings.NewReader(tc.data), N: 64})
			if n != 5 || out.String() != "01234" || !errors.Is(err, tc.want) || tc.want == nil && err != nil {
				t.Errorf("%q with 5 left: %d, %q, %v; want 5, 01234, %v", tc.data, n, out.String(), err, tc.want)
			}
		}
		// A read error after the fit is the copy's.
		m := &meter{watch: new(touches), limited: true, left: 2}
		broken := errors.New("broken")
		_, err := meterWriter{m: m, w: io.Discard}.ReadFrom(io.MultiReader(strings.NewReader("01"), failing{broken}))
		if !errors.Is(err, broken) {
			t.Errorf("an error after the fit: %v", err)
		}
	})
}

// TestTooLargeError: a counted body (size -1) and an announced size,
// even 0, say so.
func TestTooLargeError(t *testing.T) {
	if got := (tooLarge{name: "--max-size", size: -1}).Error(); got != "more data than --max-size allows" {
		t.Errorf("counted: %q", got)
	}
	if got := (tooLarge{name: "--max-size", url: "u", size: 0, limit: 0}).Error(); got != "u: 0 bytes is more than --max-size 0" {
		t.Errorf("announced: %q", got)
	}
}
