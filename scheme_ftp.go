package rfc1738

import "strings"

// FTP is the view of an ftp URL (§3.2): its login and its url-path taken
// apart as §3.2.2 says, each part decoded on its own.
type FTP struct {
	User, Password       string // decoded (§3.2.1)
	HasUser, HasPassword bool   // empty and absent differ (§3.1)
	// Cwd holds the <cwd1>…<cwdN> elements, decoded one by one: each is the
	// argument of its own CWD command. An encoded "/" (%2F) stays inside
	// its element, so ftp://h/%2Fetc/motd has Cwd ["/etc"]; an empty
	// element is a CWD with a null argument (§3.2.2).
	Cwd []string
	// Name is the decoded <name>, possibly empty.
	Name string
	// Type is the typecode exactly as written, one of "aidAID", or 0 when
	// the URL has no ";type=" (§3.2.3: the client must then guess).
	Type byte
}

// FTP returns the ftp view of u, and false when u is not an ftp URL.
func (u URL) FTP() (FTP, bool) {
	if u.kind != KindFTP {
		return FTP{}, false
	}
	var f FTP
	f.User, f.HasUser = u.User()
	f.Password, f.HasPassword = u.Password()
	path, ok := u.Path()
	if !ok {
		return f, true
	}
	// §3.2.2: <cwd1>/<cwd2>/.../<cwdN>/<name>;type=<typecode>
	if i := strings.LastIndex(path, ";type="); i >= 0 {
		f.Type = path[i+len(";type=")]
		path = path[:i]
	}
	for {
		i := strings.IndexByte(path, '/')
		if i < 0 {
			break
		}
		f.Cwd = append(f.Cwd, unescape(path[:i]))
		path = path[i+1:]
	}
	f.Name = unescape(path)
	return f, true
}

// AnonymousUser is the user name of anonymous FTP (§3.2.1).
const AnonymousUser = "anonymous"

// Login returns the USER and PASS arguments §3.2.1 prescribes. With no user
// in the URL it is anonymous FTP: user "anonymous" and the end user's
// e-mail address as the password. A URL that names the anonymous user
// itself ("anonymous" or its common alias "ftp", any case) without a
// password is the same login, with that name sent as written. With another
// user but no password, ask is true: if the server asks for a password,
// the program must ask the user.
func (f FTP) Login(email string) (user, password string, ask bool) {
	if !f.HasUser {
		return AnonymousUser, email, false
	}
	if !f.HasPassword && f.IsAnonymous() {
		return f.User, email, false
	}
	if !f.HasPassword {
		return f.User, "", true
	}
	return f.User, f.Password, false
}

// IsAnonymous reports whether the login is anonymous FTP (§3.2.1): no
// user in the URL, or the user "anonymous" or "ftp" (the alias servers
// accept for it, RFC 1635) without a password.
func (f FTP) IsAnonymous() bool {
	if !f.HasUser {
		return true
	}
	return !f.HasPassword && (strings.EqualFold(f.User, AnonymousUser) || strings.EqualFold(f.User, "ftp"))
}

// IsDirectory reports whether the URL asks for a directory listing
// (";type=d", §3.2.2), which is an NLST of the name.
func (f FTP) IsDirectory() bool { return f.Type == 'd' || f.Type == 'D' }
