package main

import (
	"flag"
	"fmt"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, tlsAccessFlags)
}

// tlsAccessFlags configure TLS (https, RFC 2818; ftp, RFC 4217) as curl's
// flags do: --cacert replaces the system's roots with a PEM bundle,
// -k/--insecure turns verification off, --ssl and --ssl-reqd ask ftp for
// AUTH TLS. Without them the system's roots are used, and SSL_CERT_FILE
// and SSL_CERT_DIR choose them as crypto/x509 reads them.
func tlsAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	cacert := fs.String("cacert", "", "trust only the certificate authorities of this PEM `FILE` (https, ftp over TLS), as curl --cacert")
	insecure := fs.Bool("insecure", false, "do not verify the server's certificate (https, ftp over TLS): anyone on the path can read and change the transfer")
	fs.BoolVar(insecure, "k", false, "as --insecure")
	try := fs.Bool("ssl", false, "ftp: ask for TLS (AUTH TLS, PBSZ 0, PROT P; RFC 4217); go on in clear, with a warning, only when the server refuses")
	required := fs.Bool("ssl-reqd", false, "ftp: require TLS for the control and data connections, and fail (before USER and PASS) without it")
	return func(e *env, c *access.Client) error {
		if *cacert != "" {
			roots, err := access.LoadRoots(*cacert)
			if err != nil {
				return fmt.Errorf("--cacert: %v", err)
			}
			c.TLS.Roots, c.TLS.RootsFrom = roots, *cacert
		}
		c.TLS.Insecure = *insecure
		switch {
		case *required:
			c.TLS.FTP = access.FTPRequireTLS
		case *try:
			c.TLS.FTP = access.FTPTryTLS
		}
		return nil
	}
}
