package main

import (
	"flag"
	"fmt"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, tlsAccessFlags)
}

// tlsAccessFlags configure TLS (https, RFC 2818) as curl's flags do:
// --cacert replaces the system's roots with a PEM bundle, -k/--insecure
// turns verification off. Without them the system's roots are used, and
// SSL_CERT_FILE and SSL_CERT_DIR choose them as crypto/x509 reads them.
func tlsAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	cacert := fs.String("cacert", "", "trust only the certificate authorities of this PEM `FILE` (https), as curl --cacert")
	insecure := fs.Bool("insecure", false, "do not verify the server's certificate (https): anyone on the path can read and change the transfer")
	fs.BoolVar(insecure, "k", false, "as --insecure")
	return func(e *env, c *access.Client) error {
		if *cacert != "" {
			roots, err := access.LoadRoots(*cacert)
			if err != nil {
				return fmt.Errorf("--cacert: %v", err)
			}
			c.TLS.Roots, c.TLS.RootsFrom = roots, *cacert
		}
		c.TLS.Insecure = *insecure
		return nil
	}
}
