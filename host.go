package rfc1738

// The login of §3.1 and §5: user, password, host and port.

import (
	"math"
	"strings"
)

// login parses §5 login = [ user [ ":" password ] "@" ] hostport from i, up
// to the first "/" or end. It returns the index of that "/" (or end).
func (p *parser) login(i, end int, allowUser, needHost bool, urlRule string) int {
	p.u.flags |= flagAuthority
	if stop, ok := p.hostport(i, end, needHost); ok {
		return stop
	}
	s := p.s
	// One pass finds the end of the login and its "@": logins are short,
	// and a loop beats three IndexByte calls on them.
	stop, at := end, end
	for j := i; j < end; j++ {
		if c := s[j]; c == '/' {
			stop = j
			break
		} else if c == '@' && at == end {
			at = j
		}
	}
	at = min(at, stop)
	hs := i
	if at < stop {
		if !allowUser {
			if p.failKind(i, urlRule, msgNoUser) {
				return stop
			}
		}
		// §3.1: within user and password, ":", "@" and "/" are encoded, so
		// the first ":" ends the user and the first "@" ends the password.
		p.u.flags |= flagUser
		c := indexByte(s, i, at, ':')
		p.u.userEnd = int32(c)
		if !p.scan(i, c, userOctets, "user") {
			return stop
		}
		if c < at {
			p.u.flags |= flagPassword
			if !p.scan(c+1, at, userOctets, "password") {
				return stop
			}
		}
		hs = at + 1
	}
	p.u.hostStart = int32(hs)
	he := indexByte(s, hs, stop, ':')
	p.u.hostEnd = int32(he)
	p.u.portEnd = int32(stop)
	if he == hs && needHost {
		if p.fail(hs, "host", "the host name is missing (§3.1)") {
			return stop
		}
	} else if he > hs && !p.host(hs, he) {
		return stop
	}
	if he < stop {
		// §5: hostport = host [ ":" port ]; port = digits
		if p.u.kind == KindFile {
			p.fail(he, "fileurl", "a file URL has no port (§3.10)")
			return stop
		}
		if he+1 == stop {
			p.u.flags |= flagPort
			p.fail(stop, "port", "the port after ':' is missing; omit the ':' too (§3.1)")
			return stop
		}
		if j := p.port(he+1, stop); j != stop { // port stops at stop at the latest
			for ; j < stop; j++ {
				if classes[s[j]]&classDigit == 0 && p.fail(j, "port", "a port has only decimal digits (§3.1)") {
					return stop
				}
			}
		}
	}
	return stop
}

// hostport is the fast path of login: a hostname, maybe empty when
// !needHost, then maybe ":" port, then "/" or end, read in one pass. It
// reports false, having set nothing that login does not set again, when
// the login is anything else (a user, a hostnumber, a violation); login
// then reads it again rule by rule.
func (p *parser) hostport(i, end int, needHost bool) (int, bool) {
	s := p.s
	j := hostnameEnd(s, i, end)
	if j == -1 || j == i && needHost {
		return 0, false
	}
	hostEnd := j
	if j < end && s[j] == ':' {
		if p.u.kind == KindFile || j+1 == end {
			return 0, false
		}
		if j = p.port(j+1, end); j == hostEnd+1 || j < end && s[j] != '/' {
			p.u.flags &^= flagPort | flagBigPort
			p.u.port = 0
			return 0, false
		}
	} else if j < end && s[j] != '/' {
		return 0, false
	}
	p.u.hostStart, p.u.hostEnd, p.u.portEnd = int32(i), int32(hostEnd), int32(j)
	return j, true
}

// port reads the §5 port = digits from i: it sets flagPort and the port's
// value, and returns the index of the first byte that is not a digit. A
// value beyond math.MaxInt32 is not kept (flagBigPort): the digits are
// read with a test that comes before the multiplication, so nothing can
// wrap round (a port must never become a different port).
func (p *parser) port(i, end int) int {
	s := p.s
	p.u.flags |= flagPort
	n := int32(0)
	j := i
	for ; j < end; j++ {
		d := s[j] - '0'
		if d > 9 {
			break
		}
		if n > (math.MaxInt32-int32(d))/10 {
			p.u.flags |= flagBigPort
			n = 0
			for j++; j < end && s[j]-'0' <= 9; j++ {
			}
			break
		}
		n = n*10 + int32(d)
	}
	p.u.port = n
	return j
}

// host checks §5 host = hostname | hostnumber:
//
//	hostname    = *[ domainlabel "." ] toplabel
//	domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
//	toplabel    = alpha | alpha *[ alphadigit | "-" ] alphadigit
//	hostnumber  = digits "." digits "." digits "." digits
//
// §3.1: the rightmost label of a domain name never starts with a digit,
// which tells hostnames from hostnumbers.
func (p *parser) host(i, end int) bool {
	s := p.s
	if validHostname(s[i:end]) {
		return true
	}
	if i == end {
		return !p.fail(i, "host", "the host name is missing (§3.1)")
	}
	last := strings.LastIndexByte(s[i:end], '.') + i + 1 // start of the last label
	if last < end && classes[s[last]]&classDigit != 0 && !digitsAndDots(s[i:end]) {
		return !p.fail(last, "toplabel", "the last label of a host name starts with a letter; a host number has only digits and dots (§3.1)")
	}
	if last < end && classes[s[last]]&classDigit != 0 {
		// A hostnumber: exactly four groups of digits.
		groups := 0
		start := i
		for j := i; j <= end; j++ {
			if j < end && s[j] != '.' {
				if classes[s[j]]&classDigit == 0 && p.fail(j, "hostnumber", "a host number has four groups of digits separated by '.' (§3.1)") {
					return false
				}
				continue
			}
			groups++
			if j == start && p.fail(j, "hostnumber", "a group of digits is missing in the host number (§3.1)") {
				return false
			}
			start = j + 1
		}
		if groups != 4 {
			return !p.fail(i, "hostnumber", "a host number has exactly four groups of digits (§3.1); a host name's last label starts with a letter")
		}
		return true
	}
	start := i
	for j := i; j <= end; j++ {
		if j < end && s[j] != '.' {
			continue
		}
		rule := "domainlabel"
		if j == end {
			rule = "toplabel"
		}
		if !p.label(start, j, rule) {
			return false
		}
		start = j + 1
	}
	return true
}

// label checks one domainlabel or toplabel s[i:j].
func (p *parser) label(i, j int, rule string) bool {
	s := p.s
	if i == j {
		msg := "a host name has an empty label (§3.1)"
		if rule == "toplabel" {
			msg = "a host name may not end with '.' (§3.1)"
		}
		return !p.fail(i, rule, msg)
	}
	first := classAlphadigit
	if rule == "toplabel" {
		first = classAlpha
	}
	k := i + 1
	if classes[s[i]]&first == 0 {
		msg := "a label of a host name starts with a letter or a digit (§3.1)"
		if rule == "toplabel" {
			msg = "the last label of a host name starts with a letter (§3.1)"
		}
		if p.fail(i, rule, msg) {
			return false
		}
		k = charEnd(s, i, j)
	}
	for k < j {
		c := s[k]
		if classes[c]&classAlphadigit != 0 || (c == '-' && k < j-1) {
			k++
			continue
		}
		msg := "a host name has only letters, digits, '-' and '.' (§3.1)"
		if c == '-' {
			msg = "a label of a host name may not end with '-' (§3.1)"
		}
		if p.fail(k, rule, msg) {
			return false
		}
		k = charEnd(s, k, j)
	}
	return true
}
