// Package telnet is a telnet client (RFC 854, RFC 855) for the interactive
// sessions that RFC 1738 §3.8 names with telnet://user:password@host:port/.
//
// RFC 1738 §3.8: the user name and password of a telnet URL are advice only;
// this package never sends them. The caller shows them to the person at the
// terminal and then runs Session, which connects that terminal to the remote
// login.
//
// Option negotiation follows the Q method of RFC 1143 so that two peers can
// never loop. The client agrees to only what an interactive session needs:
//
//   - ECHO (RFC 857): the server may echo (we answer WILL ECHO with DO ECHO);
//     we never echo ourselves.
//   - SUPPRESS-GO-AHEAD (RFC 858), both ways.
//   - NAWS (RFC 1073): we send the window size and resend it on resize.
//   - TERMINAL-TYPE (RFC 1091), only when Config.TerminalType is set.
//
// Every other option (AUTHENTICATION, ENCRYPT, TSPEED, XDISPLOC, NEW-ENVIRON,
// LINEMODE, BINARY, TIMING-MARK…) is refused with DONT or WONT. The stream
// therefore stays in NVT mode: CR is always followed by LF or NUL on the wire
// (RFC 854, "The NVT printer and keyboard") and a data byte 255 is sent as
// IAC IAC.
package telnet
