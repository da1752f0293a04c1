package linkcheck

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// DefaultMaxRetryWait is the longest Retry-After a Checker waits when
// Checker.MaxRetryWait is zero.
const DefaultMaxRetryWait = 30 * time.Second

// Codes is a set of http status codes, as ranges.
type Codes [][2]int

// ParseCodes reads a list like "200..299,403,429": codes and inclusive
// ranges, separated by commas.
func ParseCodes(s string) (Codes, error) {
	var c Codes
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "..")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		// RFC 9110 §15: a status code is three digits, 100 to 599.
		if err1 != nil || err2 != nil || a < 100 || b > 599 || a > b {
			return nil, fmt.Errorf("%q is not a status code or a range of them (100..599)", part)
		}
		c = append(c, [2]int{a, b})
	}
	return c, nil
}

// Has reports whether code is in the set.
func (c Codes) Has(code int) bool {
	for _, r := range c {
		if code >= r[0] && code <= r[1] {
			return true
		}
	}
	return false
}

// accepts reports whether an http answer with code is ok: Accept when
// set, else any 2xx (RFC 9110 §15.3).
func (k *Checker) accepts(code int) bool {
	if k.Accept != nil {
		return k.Accept.Has(code)
	}
	return code/100 == 2
}

// retryAfter reads the Retry-After of a 429 or 503 answer (RFC 9110
// §10.2.3: seconds, or an HTTP-date); zero when there is none.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseUint(v, 10, 31); err == nil {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// retryWait is the wait before attempt+1: the back-off, or the server's
// Retry-After when longer, at most MaxRetryWait.
func (k *Checker) retryWait(backoff time.Duration, attempt int, asked time.Duration) time.Duration {
	return max(backoff<<attempt, min(asked, k.maxRetryWait()))
}

// maxRetryWait is MaxRetryWait, or its default.
func (k *Checker) maxRetryWait() time.Duration {
	if k.MaxRetryWait > 0 {
		return k.MaxRetryWait
	}
	return DefaultMaxRetryWait
}
