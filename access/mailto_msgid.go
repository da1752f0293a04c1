package access

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// messageID returns a Message-ID field value (RFC 5322 §3.6.4,
// "<" id-left "@" id-right ">"): a time stamp and 96 random bits on the
// left, unique without any state, and on the right the domain of the
// sender's address, as RFC 5322 §3.6.4 suggests.
func messageID(from string, now time.Time) string {
	domain := "localhost"
	if i := strings.LastIndexByte(from, '@'); i >= 0 && i+1 < len(from) {
		domain = strings.TrimRight(from[i+1:], ">")
	}
	var r [12]byte
	rand.Read(r[:])
	return "<" + strconv.FormatInt(now.UnixNano(), 36) + "." + hex.EncodeToString(r[:]) + "@" + domain + ">"
}

// hasField reports whether fields hold one named name (case-insensitive).
func hasField(fields []HeaderField, name string) bool {
	for _, f := range fields {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}
