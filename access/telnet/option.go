package telnet

import "strconv"

// RFC 854, "TELNET COMMAND STRUCTURE": the command codes that follow IAC.
const (
	cmdSE   = 240 // end of subnegotiation parameters (RFC 855)
	cmdNOP  = 241
	cmdDM   = 242 // data mark, the data stream part of a Synch
	cmdBRK  = 243
	cmdIP   = 244
	cmdAO   = 245
	cmdAYT  = 246
	cmdEC   = 247
	cmdEL   = 248
	cmdGA   = 249
	cmdSB   = 250 // begin subnegotiation (RFC 855)
	cmdWILL = 251
	cmdWONT = 252
	cmdDO   = 253
	cmdDONT = 254
	cmdIAC  = 255
)

// Option codes, from the RFC that defines each option (the registry is
// "Telnet Options" at IANA).
const (
	optBinary     = 0  // RFC 856
	optEcho       = 1  // RFC 857
	optSGA        = 3  // RFC 858
	optStatus     = 5  // RFC 859
	optTimingMark = 6  // RFC 860
	optTTYPE      = 24 // RFC 1091
	optNAWS       = 31 // RFC 1073
	optTSpeed     = 32 // RFC 1079
	optLFlow      = 33 // RFC 1372
	optLinemode   = 34 // RFC 1184
	optXDispLoc   = 35 // RFC 1096
	optOldEnviron = 36 // RFC 1408
	optAuth       = 37 // RFC 2941
	optEncrypt    = 38 // RFC 2946
	optNewEnviron = 39 // RFC 1572
)

// RFC 1091: the subnegotiation codes of TERMINAL-TYPE.
const (
	ttypeIS   = 0
	ttypeSEND = 1
)

var optNames = [256]string{
	optBinary:     "BINARY",
	optEcho:       "ECHO",
	optSGA:        "SGA",
	optStatus:     "STATUS",
	optTimingMark: "TIMING-MARK",
	optTTYPE:      "TTYPE",
	optNAWS:       "NAWS",
	optTSpeed:     "TSPEED",
	optLFlow:      "LFLOW",
	optLinemode:   "LINEMODE",
	optXDispLoc:   "XDISPLOC",
	optOldEnviron: "OLD-ENVIRON",
	optAuth:       "AUTHENTICATION",
	optEncrypt:    "ENCRYPT",
	optNewEnviron: "NEW-ENVIRON",
}

func optName(o byte) string {
	if n := optNames[o]; n != "" {
		return n
	}
	return "OPT-" + strconv.Itoa(int(o))
}

var cmdNames = [256]string{
	cmdSE: "SE", cmdNOP: "NOP", cmdDM: "DM", cmdBRK: "BRK", cmdIP: "IP",
	cmdAO: "AO", cmdAYT: "AYT", cmdEC: "EC", cmdEL: "EL", cmdGA: "GA",
	cmdSB: "SB", cmdWILL: "WILL", cmdWONT: "WONT", cmdDO: "DO",
	cmdDONT: "DONT", cmdIAC: "IAC",
}

func cmdName(c byte) string {
	if n := cmdNames[c]; n != "" {
		return n
	}
	return "CMD-" + strconv.Itoa(int(c))
}

// qstate is one side of one option in the Q method of RFC 1143 §7: the
// state proper and the one-slot queue of a pending change of mind.
type qstate uint8

const (
	qNo      qstate = iota // disabled
	qYes                   // enabled
	qWantNo                // we sent DONT/WONT and await the answer
	qWantYes               // we sent DO/WILL and await the answer
)

// option is the RFC 1143 record of one option: "us" is our side (WILL/WONT
// sent, DO/DONT received), "him" the peer's side (DO/DONT sent, WILL/WONT
// received).
type option struct {
	us, him   qstate
	usq, himq bool // RFC 1143 "OPPOSITE" queue bit; false is "EMPTY"
	offered   bool // we asked once (NAWS); never ask again after a refusal
}
