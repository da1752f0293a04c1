// Package ftp is an FTP client (RFC 959) that sends exactly the commands
// an ftp URL calls for (RFC 1738 §3.2) and nothing else.
//
// RFC 1738 §3.2.2 turns ftp://user@host/<cwd1>/…/<cwdN>/<name>;type=X
// into: connect (port 21), USER/PASS (§3.2.1), one CWD per decoded <cwd>
// segment in order (an empty segment is a CWD with a null argument), then
// NLST <name> for ;type=d, or TYPE A|I and RETR <name>. Each step is one
// method here:
//
//	c, err := ftp.Dial(ctx, "host.dom:21", ftp.Config{})
//	_, err = c.Login(ctx, ftp.Credentials{User: "myname", AskPassword: prompt})
//	_, err = c.Cwd(ctx, "/etc")            // "CWD /etc" from %2Fetc
//	_, err = c.Type(ctx, "I")              // "TYPE I"
//	body, size, err := c.Retr(ctx, "motd") // "EPSV", "RETR motd"
//	_, err = io.Copy(dst, body)            // reads the final 226 at the end
//	err = body.Close()
//	err = c.Quit(ctx)
//
// Data connections are passive: EPSV (RFC 2428) first, PASV if the server
// does not know EPSV, remembered for the connection. The address in a PASV
// reply is never followed: the data connection always goes to the control
// connection's peer, with the port from the reply, and a different address
// is shown to Config.Trace as a '!' note (as curl does since CVE-2020-8284).
//
// Copying a body with io.Copy goes through its WriteTo: a 256 KiB buffer
// (CopyBufferSize), and, once the first MiB came fast, into a destination
// that is an io.ReaderFrom, the data connection itself in 64 KiB chunks,
// so that an *os.File splices the socket into a file or pipe with no copy
// through user space (splice(2) on Linux). A chunk slower than 250 ms
// sends the rest back through the buffer.
//
// Errors: a server's refusal (4xx/5xx) is a *CommandError, which names the
// command and unwraps to the *textproto.Error with the code and text
// (errors.As), as in "ftp: RETR motd: 550 Failed to open file."; a peer
// that breaks the reply syntax is a *ProtocolError; an argument holding
// CR, LF or NUL is refused before anything is sent with an *ArgumentError
// (errors.Is ErrUnsafeArgument, RFC 1738 §6). Every read is bounded
// (Config.MaxLineLength, Config.MaxReplyLines) and every call honours its
// context's deadline and cancellation.
package ftp
