package telnet

import (
	"bytes"
	"testing"
)

// refData is an independent, whole-buffer reading of RFC 854/855: remove
// the commands (IAC IAC is data 255; IAC WILL/WONT/DO/DONT take one option
// byte; IAC SB runs to IAC SE, where an IAC other than IAC or SE ends it and
// starts a command), then read CR NUL as CR.
func refData(in []byte) []byte {
	var data []byte
	for i := 0; i < len(in); {
		if in[i] != IAC {
			data = append(data, in[i])
			i++
			continue
		}
		if i+1 >= len(in) {
			break
		}
		switch c := in[i+1]; {
		case c == IAC:
			data = append(data, IAC)
			i += 2
		case c >= WILL: // WILL WONT DO DONT
			i += 3
		case c == SB:
			j := i + 2
			for {
				if j >= len(in) {
					i = len(in)
					break
				}
				if in[j] != IAC {
					j++
					continue
				}
				if j+1 < len(in) && in[j+1] == IAC {
					j += 2
					continue
				}
				if j+1 < len(in) && in[j+1] == SE {
					i = j + 2
				} else {
					i = j // read IAC x again as a command
				}
				break
			}
		default:
			i += 2
		}
	}
	var out []byte
	cr := false
	for _, b := range data {
		if cr && b == 0 {
			cr = false
			continue
		}
		cr = b == '\r'
		out = append(out, b)
	}
	return out
}

// FuzzNegotiation feeds random bytes through the reader state machine in
// random pieces and checks: no panic; the data is exactly what refData
// keeps, whatever the split; the subnegotiation buffer stays bounded; the
// answers are bounded and well formed, and agree only to the options the
// client supports.
func FuzzNegotiation(f *testing.F) {
	f.Add(byte(7), telnetdOpening)
	f.Add(byte(1), telnetdSecond)
	f.Add(byte(3), telnetdThird)
	f.Add(byte(2), cat(IAC, DO, optTTYPE, IAC, SB, optTTYPE, ttypeSEND, IAC, SE, "hi\r\x00\r\n"))
	f.Add(byte(5), cat("a", IAC, IAC, "b", IAC, SB, 1, IAC, IAC, IAC, WILL, 1, "c", IAC, SB))
	f.Add(byte(0), cat(IAC, DO, optNAWS, IAC, DONT, optNAWS, IAC, DO, optNAWS, "\r", IAC, cmdNOP, 0))
	f.Fuzz(func(t *testing.T, split byte, in []byte) {
		n := negotiator{ttype: "xterm"}
		n.setWindowSize(0xffff, 0xff)
		n.out = n.out[:0]
		var data []byte
		step := int(split)%17 + 1
		for i := 0; i < len(in); i += step {
			buf := bytes.Clone(in[i:min(i+step, len(in))])
			data = append(data, buf[:n.process(buf)]...)
			if len(n.sb) > maxSub {
				t.Fatalf("subnegotiation buffer %d > %d", len(n.sb), maxSub)
			}
		}
		if want := refData(in); !bytes.Equal(data, want) {
			t.Fatalf("data\n%q\nwant\n%q", data, want)
		}
		// The largest answer per input byte: DO NAWS (3 bytes) answered by
		// WILL NAWS and a fully escaped size, 16 bytes.
		if len(n.out) > 6*len(in) {
			t.Fatalf("%d bytes of answers to %d bytes", len(n.out), len(in))
		}
		checkAnswers(t, n.out)
	})
}

// checkAnswers parses what the client sent: only IAC WILL/WONT/DO/DONT and
// IAC SB … IAC SE, agreeing only to SGA, NAWS, TTYPE (ours) and ECHO, SGA
// (his).
func checkAnswers(t *testing.T, out []byte) {
	t.Helper()
	for i := 0; i < len(out); {
		if out[i] != IAC || i+2 >= len(out) {
			t.Fatalf("answer at %d is not a command: % x", i, out)
		}
		verb, opt := out[i+1], out[i+2]
		switch verb {
		case WILL:
			if opt != optSGA && opt != optNAWS && opt != optTTYPE {
				t.Fatalf("sent WILL %s", optName(opt))
			}
		case DO:
			if opt != optEcho && opt != optSGA {
				t.Fatalf("sent DO %s", optName(opt))
			}
		case WONT, DONT:
		case SB:
			if opt != optNAWS && opt != optTTYPE {
				t.Fatalf("sent SB %s", optName(opt))
			}
			j := i + 3
			for ; j+1 < len(out); j++ {
				if out[j] == IAC {
					if out[j+1] == SE {
						break
					}
					if out[j+1] != IAC {
						t.Fatalf("bare IAC in SB at %d: % x", j, out)
					}
					j++
				}
			}
			if j+1 >= len(out) {
				t.Fatalf("SB without IAC SE: % x", out[i:])
			}
			i = j + 2
			continue
		default:
			t.Fatalf("sent %s", cmdName(verb))
		}
		i += 3
	}
}
