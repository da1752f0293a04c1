package telnet

import "fmt"

// maxSub bounds the parameters of one subnegotiation (IAC SB … IAC SE). The
// only one we act on, TERMINAL-TYPE SEND, is two bytes; a longer one is
// dropped as a whole once it passes the bound, so a peer cannot make the
// client buffer without limit.
const maxSub = 512

// parseState is where the reader stands in the command grammar of RFC 854
// ("TELNET COMMAND STRUCTURE") and RFC 855 (subnegotiation).
type parseState uint8

const (
	stData  parseState = iota // plain data
	stIAC                     // after IAC
	stVerb                    // after IAC WILL/WONT/DO/DONT: the option code comes next
	stSB                      // inside IAC SB … parameters
	stSBIAC                   // inside the parameters, after IAC
)

// negotiator is the client's side of the protocol as a pure state machine:
// process turns received bytes into data and queues the answers in out. It
// does no I/O, so the byte vectors of the tests and the fuzz target drive it
// directly. Conn guards it with a mutex.
type negotiator struct {
	state  parseState
	verb   byte   // the WILL/WONT/DO/DONT awaiting its option code
	cr     bool   // the last data byte was CR (RFC 854: CR NUL stands for a bare CR)
	sb     []byte // subnegotiation parameters, IAC IAC undone; at most maxSub
	sbLost int    // parameter bytes dropped past maxSub

	opts  [256]option
	ttype string // RFC 1091 terminal type; "" refuses TERMINAL-TYPE

	width, height uint16
	sizeKnown     bool

	out   []byte // answers not yet sent
	trace func(dir byte, line string)
}

func (n *negotiator) tracef(dir byte, format string, args ...any) {
	if n.trace != nil {
		n.trace(dir, fmt.Sprintf(format, args...))
	}
}

// process consumes received bytes, moves the data bytes among them to the
// front of buf and returns their count. Commands are removed, IAC IAC
// becomes one 255 and CR NUL becomes CR (RFC 854). State carries over
// between calls, so a command may be split across reads anywhere.
func (n *negotiator) process(buf []byte) int {
	w := 0
	for _, b := range buf {
		switch n.state {
		case stData:
			if b == cmdIAC {
				n.state = stIAC
				continue
			}
			// RFC 854: "CR NUL" is a carriage return alone; the NUL is
			// transmission padding, not data.
			if n.cr && b == 0 {
				n.cr = false
				continue
			}
			n.cr = b == '\r'
			buf[w] = b
			w++
		case stIAC:
			if n.command(b) {
				n.cr = false
				buf[w] = cmdIAC
				w++
			}
		case stVerb:
			n.state = stData
			n.negotiate(n.verb, b)
		case stSB:
			if b == cmdIAC {
				n.state = stSBIAC
			} else {
				n.sbByte(b)
			}
		case stSBIAC:
			switch b {
			case cmdIAC: // RFC 855: IAC IAC is a 255 among the parameters
				n.sbByte(cmdIAC)
				n.state = stSB
			case cmdSE:
				n.state = stData
				n.subnegotiation()
			default:
				// RFC 855 allows only IAC IAC and IAC SE here. Like the BSD
				// client, end the broken subnegotiation without acting on
				// it and read IAC b as the command it is.
				n.tracef('<', "SB %s without IAC SE (ignored)", n.sbOption())
				if n.command(b) {
					n.cr = false
					buf[w] = cmdIAC
					w++
				}
			}
		}
	}
	return w
}

// command handles the byte after IAC; it reports whether that pair was an
// escaped data byte 255.
func (n *negotiator) command(b byte) bool {
	n.state = stData
	switch b {
	case cmdIAC:
		return true
	case cmdWILL, cmdWONT, cmdDO, cmdDONT:
		n.verb = b
		n.state = stVerb
	case cmdSB:
		n.sb = n.sb[:0]
		n.sbLost = 0
		n.state = stSB
	default:
		// NOP, GA, DM and the other RFC 854 functions have no effect on a
		// client that shows the data as it comes. DM ends a Synch, whose TCP
		// urgent mark Go cannot see; the data is shown instead of flushed.
		n.tracef('<', "%s", cmdName(b))
	}
	return false
}

func (n *negotiator) sbByte(b byte) {
	if len(n.sb) >= maxSub {
		n.sbLost++
		return
	}
	n.sb = append(n.sb, b)
}

func (n *negotiator) sbOption() string {
	if len(n.sb) == 0 {
		return "(empty)"
	}
	return optName(n.sb[0])
}

// acceptHim says which options the server may enable on its side.
func (n *negotiator) acceptHim(opt byte) bool {
	// RFC 857: the server echoes; RFC 858: no go-aheads from the server.
	return opt == optEcho || opt == optSGA
}

// acceptUs says which options we enable on our side when asked.
func (n *negotiator) acceptUs(opt byte) bool {
	switch opt {
	case optSGA, optNAWS: // RFC 858, RFC 1073
		return true
	case optTTYPE: // RFC 1091, only with a name to send
		return n.ttype != ""
	}
	return false
}

func (n *negotiator) send(verb, opt byte) {
	n.out = append(n.out, cmdIAC, verb, opt)
	n.tracef('>', "%s %s", cmdName(verb), optName(opt))
}

// negotiate answers one received WILL/WONT/DO/DONT with the Q method of
// RFC 1143 §7, which answers a request only when it changes the state and
// so cannot loop.
func (n *negotiator) negotiate(verb, opt byte) {
	n.tracef('<', "%s %s", cmdName(verb), optName(opt))
	o := &n.opts[opt]
	switch verb {
	case cmdWILL:
		n.recvEnable(&o.him, &o.himq, n.acceptHim(opt), cmdDO, cmdDONT, opt)
	case cmdWONT:
		n.recvDisable(&o.him, &o.himq, cmdDO, cmdDONT, opt)
	case cmdDO:
		if n.recvEnable(&o.us, &o.usq, n.acceptUs(opt), cmdWILL, cmdWONT, opt) && opt == optNAWS {
			// RFC 1073: once WILL NAWS is agreed, the client sends the size.
			n.sendNAWS()
		}
	case cmdDONT:
		n.recvDisable(&o.us, &o.usq, cmdWILL, cmdWONT, opt)
	}
}

// recvEnable is RFC 1143 "Upon receipt of WILL" (him) or "of DO" (us); yes
// and no are the verbs that agree and refuse. It reports whether the option
// has just become enabled.
func (n *negotiator) recvEnable(s *qstate, q *bool, accept bool, yes, no, opt byte) bool {
	switch *s {
	case qNo:
		if accept {
			*s = qYes
			n.send(yes, opt)
			return true
		}
		n.send(no, opt)
	case qYes:
		// Already enabled: no answer, or the two sides would loop.
	case qWantNo:
		if *q {
			*s, *q = qYes, false
			return true
		}
		// Our refusal was answered by an agreement: the peer is wrong, the
		// option stays off (RFC 1143: "Error: DONT answered by WILL").
		*s = qNo
	case qWantYes:
		if *q {
			*s, *q = qWantNo, false
			n.send(no, opt)
			return false
		}
		*s = qYes
		return true
	}
	return false
}

// recvDisable is RFC 1143 "Upon receipt of WONT" (him) or "of DONT" (us).
func (n *negotiator) recvDisable(s *qstate, q *bool, yes, no, opt byte) {
	switch *s {
	case qNo:
		// Already disabled: no answer.
	case qYes:
		*s = qNo
		n.send(no, opt)
	case qWantNo:
		if *q {
			*s, *q = qWantYes, false
			n.send(yes, opt)
			return
		}
		*s = qNo
	case qWantYes:
		*s, *q = qNo, false
	}
}

// ask is RFC 1143 "If we decide to ask him/us to enable (disable)": it
// starts a negotiation or, while one is under way, queues the change of
// mind in the OPPOSITE bit instead of sending a second request.
func (n *negotiator) ask(s *qstate, q *bool, enable bool, yes, no, opt byte) {
	want, other := qWantYes, qWantNo
	if !enable {
		want, other = qWantNo, qWantYes
	}
	switch {
	case *s == qNo && enable, *s == qYes && !enable:
		*s = want
		if enable {
			n.send(yes, opt)
		} else {
			n.send(no, opt)
		}
	case *s == other:
		*q = true // reverse once the pending answer arrives
	case *s == want:
		*q = false // cancel a queued reversal
	}
}

// setWindowSize records the terminal size and sends it (RFC 1073), offering
// WILL NAWS first if the server has not asked for it yet. The offer is made
// once: after a refusal the client waits for the server to send DO NAWS.
func (n *negotiator) setWindowSize(width, height uint16) {
	n.width, n.height, n.sizeKnown = width, height, true
	o := &n.opts[optNAWS]
	switch {
	case o.us == qYes:
		n.sendNAWS()
	case o.us == qNo && !o.offered:
		o.offered = true
		n.ask(&o.us, &o.usq, true, cmdWILL, cmdWONT, optNAWS)
	}
}

// sendNAWS queues IAC SB NAWS width height IAC SE when NAWS is enabled and
// a size is known. RFC 1073: each size is two bytes, high byte first; a 255
// among them is doubled like any IAC in a subnegotiation.
func (n *negotiator) sendNAWS() {
	if n.opts[optNAWS].us != qYes || !n.sizeKnown {
		return
	}
	n.appendSB(optNAWS, []byte{
		byte(n.width >> 8), byte(n.width), byte(n.height >> 8), byte(n.height),
	})
	n.tracef('>', "SB NAWS %d %d", n.width, n.height)
}

// subnegotiation acts on a complete IAC SB … IAC SE.
func (n *negotiator) subnegotiation() {
	switch {
	case n.sbLost > 0:
		n.tracef('<', "SB %s of %d bytes, over the %d-byte limit (ignored)", n.sbOption(), len(n.sb)+n.sbLost, maxSub)
	case len(n.sb) == 2 && n.sb[0] == optTTYPE && n.sb[1] == ttypeSEND:
		n.tracef('<', "SB TTYPE SEND")
		// RFC 1091: answer SEND with IS and the name, while the option is
		// enabled. Sending the same name again tells the server it is the
		// only one we have.
		if n.opts[optTTYPE].us == qYes {
			n.appendSB(optTTYPE, append([]byte{ttypeIS}, n.ttype...))
			n.tracef('>', "SB TTYPE IS %s", n.ttype)
		}
	default:
		n.tracef('<', "SB %s, %d bytes (ignored)", n.sbOption(), len(n.sb))
	}
}

// appendSB queues IAC SB opt params IAC SE, doubling IAC in params (RFC 855).
func (n *negotiator) appendSB(opt byte, params []byte) {
	n.out = append(n.out, cmdIAC, cmdSB, opt)
	n.out = appendEscaped(n.out, params)
	n.out = append(n.out, cmdIAC, cmdSE)
}

// appendEscaped appends p with every 255 doubled (RFC 854: IAC IAC is the
// data byte 255).
func appendEscaped(dst, p []byte) []byte {
	for _, b := range p {
		if b == cmdIAC {
			dst = append(dst, cmdIAC)
		}
		dst = append(dst, b)
	}
	return dst
}

// appendData appends user data in NVT form: 255 as IAC IAC, and a CR that is
// not followed by LF in p as CR NUL (RFC 854: "CR … must be followed by
// either LF or NUL"). A CR at the very end of p is sent as CR NUL at once,
// since an interactive Enter key must not wait for the next key.
func appendData(dst, p []byte) []byte {
	for i, b := range p {
		switch b {
		case cmdIAC:
			dst = append(dst, cmdIAC, cmdIAC)
		case '\r':
			dst = append(dst, '\r')
			if i+1 == len(p) || p[i+1] != '\n' {
				dst = append(dst, 0)
			}
		default:
			dst = append(dst, b)
		}
	}
	return dst
}
