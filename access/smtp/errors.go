package smtp

// ProtocolError reports a relay that broke the SMTP protocol, as opposed
// to one that refused (a *textproto.Error with the relay's code and text).
type ProtocolError struct {
	Step    string // the command it answered, e.g. "STARTTLS"
	Problem string
}

// Error implements error.
func (e *ProtocolError) Error() string { return "after " + e.Step + ": " + e.Problem }
