package main

import (
	"fmt"
	"io"
	"strings"
)

func init() {
	register(&command{
		name:    "man",
		short:   "print the manual page (roff): rfc1738 man | man -l -",
		args:    "",
		summary: "Print the manual page of rfc1738 in roff, made from the same command table as the help and the completion scripts. Read it with: rfc1738 man | man -l -",
		run:     runMan,
	})
}

func runMan(e *env, args []string) int {
	fs := newFlags(e, commands["man"])
	operands, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(operands) > 0 {
		return usageError(e, "man", "takes no arguments, got %q", operands[0])
	}
	writeMan(e.stdout)
	return exitOK
}

// roff escapes text for a roff line: backslashes, hyphens (which would
// otherwise be typeset as hyphens, not minus signs), and a leading "."
// or "'" that would start a request.
func roff(s string) string {
	s = strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

func writeMan(w io.Writer) {
	fmt.Fprintln(w, `.\" -*- coding: utf-8 -*-`)
	fmt.Fprintln(w, `.TH RFC1738 1 "" "rfc1738" "User Commands"`)
	fmt.Fprintln(w, ".SH NAME")
	fmt.Fprintln(w, `rfc1738 \- parse, check, build, extract and fetch URLs exactly as RFC 1738 defines them`)
	fmt.Fprintln(w, ".SH SYNOPSIS")
	fmt.Fprintln(w, `.B rfc1738`)
	fmt.Fprintln(w, `.I command`)
	fmt.Fprintln(w, `[\fIflags\fR] [\fIarguments\fR]`)
	fmt.Fprintln(w, ".SH DESCRIPTION")
	fmt.Fprintln(w, roff("rfc1738 implements RFC 1738 (Uniform Resource Locators) exactly: the grammar of §5, the encoding of §2.2, "+
		"the schemes of §3 and their access methods (ftp, gopher, news, nntp, wais, telnet, file, prospero, mailto, http), "+
		"URLs in free text (the Appendix) and the security rules of §6."))
	fmt.Fprintln(w, ".PP")
	fmt.Fprintln(w, roff("Flags may come before or after the operands; a flag is written with one dash or two (-o, --retry); -- ends the flags."))
	fmt.Fprintln(w, ".SH COMMANDS")
	for _, name := range commandNames() {
		c := commands[name]
		fmt.Fprintln(w, ".SS "+roff(strings.TrimSpace("rfc1738 "+c.name+" "+c.args)))
		fmt.Fprintln(w, roff(c.summary))
		for _, f := range describeCommand(c) {
			fmt.Fprintln(w, ".TP")
			head := `\fB` + roff(f.dashed()) + `\fR`
			if f.arg != "" {
				head += ` \fI` + roff(f.arg) + `\fR`
			}
			fmt.Fprintln(w, head)
			usage := f.usage
			if f.def != "" {
				usage += " (default " + f.def + ")"
			}
			fmt.Fprintln(w, roff(usage))
		}
	}
	fmt.Fprintln(w, ".SH EXIT STATUS")
	fmt.Fprintln(w, roff("0 success; 1 a negative answer (an invalid URL, an error found, URLs not equal); 2 a usage error."))
	fmt.Fprintln(w, ".PP")
	fmt.Fprintln(w, roff("get, mirror, mail, plan and browse say what failed, as wget does:"))
	for _, s := range exitStatuses {
		fmt.Fprintln(w, ".TP")
		fmt.Fprintln(w, `\fB`+s.code+`\fR`)
		fmt.Fprintln(w, roff(s.meaning))
	}
	fmt.Fprintln(w, ".PP")
	fmt.Fprintln(w, roff(worstRule))
	fmt.Fprintln(w, ".SH ENVIRONMENT")
	for _, v := range [][2]string{
		{"EMAIL", "the anonymous FTP password (§3.2.1) and the sender of mail"},
		{"NNTPSERVER", "the news server of news: URLs"},
		{"NETRC", "the netrc file of get and linkcheck --netrc (default ~/.netrc)"},
		{"HTTP_PROXY, HTTPS_PROXY, NO_PROXY", "the proxy of http and https requests, and the hosts reached directly; the -x and --noproxy of get and linkcheck take their place"},
		{"RFC1738_SMTP", "the SMTP relay of mail"},
		{"RFC1738_GATEWAY_<SCHEME>", "a gateway URL template for a scheme without an access method (§4)"},
		{"SSL_CERT_FILE, SSL_CERT_DIR", "the certificate authorities https and ftp over TLS trust, unless --cacert is given"},
	} {
		fmt.Fprintln(w, ".TP")
		fmt.Fprintln(w, `\fB`+roff(v[0])+`\fR`)
		fmt.Fprintln(w, roff(v[1]))
	}
	fmt.Fprintln(w, ".SH FILES")
	fmt.Fprintln(w, ".TP")
	fmt.Fprintln(w, `\fI~/.netrc\fR`)
	fmt.Fprintln(w, roff("logins for get and linkcheck --netrc (machine, login, password, default), as ftp(1), curl and wget read it."))
	fmt.Fprintln(w, ".TP")
	fmt.Fprintln(w, `\fI~/.config/rfc1738/gateways\fR`)
	fmt.Fprintln(w, roff("lines \"scheme template\" naming gateways (§4)."))
	fmt.Fprintln(w, ".SH SEE ALSO")
	fmt.Fprintln(w, roff("RFC 1738; curl(1), wget(1), trurl(1)."))
}
