package rfc1738

// Telnet is the view of a telnet URL (§3.8). It names an interactive
// service, not a data object; its user and password are advice only.
type Telnet struct {
	User, Password       string // decoded
	HasUser, HasPassword bool
}

// Telnet returns the telnet view of u, and false when u is not a telnet URL.
func (u URL) Telnet() (Telnet, bool) {
	if u.kind != KindTelnet {
		return Telnet{}, false
	}
	var t Telnet
	t.User, t.HasUser = u.User()
	t.Password, t.HasPassword = u.Password()
	return t, true
}

// Advice returns what §3.8 says a client does with a telnet URL's user and
// password: it merely advises the user of them. The password is shown only
// when showPassword is true (§6: passwords in URLs are unwise).
func (t Telnet) Advice(showPassword bool) string {
	if !t.HasUser {
		return "no user name is suggested"
	}
	s := "log in as user " + quoteAdvice(t.User)
	if t.HasPassword {
		if showPassword {
			s += " with password " + quoteAdvice(t.Password)
		} else {
			s += " (the URL suggests a password)"
		}
	}
	return s
}

func quoteAdvice(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] == 0x7f || s[i] == '"' {
			return "\"" + Escape(s, UserComponent) + "\""
		}
	}
	return "\"" + s + "\""
}
