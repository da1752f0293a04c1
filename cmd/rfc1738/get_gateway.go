package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rfc1738/rfc1738/access"
)

func init() {
	accessFlagHooks = append(accessFlagHooks, gatewayAccessFlags)
}

// gatewayList is the repeatable --gateway scheme=template flag.
type gatewayList map[string]string

func (g gatewayList) String() string { return fmt.Sprint(map[string]string(g)) }

func (g gatewayList) Set(s string) error {
	scheme, tmpl, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q: want scheme=template", s)
	}
	scheme = strings.ToLower(scheme)
	if err := access.CheckGateway(scheme, tmpl); err != nil {
		return err
	}
	g[scheme] = tmpl
	return nil
}

// gatewayAccessFlags configures the gateway locators of RFC 1738 §4: for
// each scheme without a native handler (prospero among them), a URL
// template whose "{url}" takes the URL. They come from, later ones
// winning: the file gateways in the user's config folder
// ($XDG_CONFIG_HOME/rfc1738/gateways, else ~/.config/rfc1738/gateways on
// Unix), the variables RFC1738_GATEWAY_<SCHEME>, and --gateway.
func gatewayAccessFlags(fs *flag.FlagSet) func(*env, *access.Client) error {
	flags := gatewayList{}
	fs.Var(flags, "gateway", "fetch `scheme=template` through a gateway (§4): the template's {url} takes the URL, e.g. prospero=http://gw.example/fetch?url={url}; repeatable; also RFC1738_GATEWAY_<SCHEME> and the file rfc1738/gateways in the user's config folder")
	return func(e *env, c *access.Client) error {
		gw := map[string]string{}
		if dir, err := configDir(e); err == nil {
			path := filepath.Join(dir, "rfc1738", "gateways")
			f, err := os.Open(path)
			switch {
			case err == nil:
				m, perr := access.ParseGateways(f)
				f.Close()
				if perr != nil {
					return fmt.Errorf("%s: %w", path, perr)
				}
				for k, v := range m {
					gw[k] = v
				}
			case !errors.Is(err, os.ErrNotExist):
				return err
			}
		}
		for _, kv := range os.Environ() {
			name, _, _ := strings.Cut(kv, "=")
			scheme, ok := access.GatewayEnvScheme(name)
			if !ok {
				continue
			}
			// The value through e, so that a command run in-process sees
			// its own environment.
			v := e.Getenv(name)
			if v == "" {
				continue
			}
			if err := access.CheckGateway(scheme, v); err != nil {
				return fmt.Errorf("$%s: %w", name, err)
			}
			gw[scheme] = v
		}
		for k, v := range flags {
			gw[k] = v
		}
		if len(gw) > 0 {
			c.Gateways = gw
		}
		return nil
	}
}

// configDir is the user's config folder: os.UserConfigDir for the real
// process; for a command run in-process with its own environment, the
// Unix rule ($XDG_CONFIG_HOME, else $HOME/.config) read from it.
func configDir(e *env) (string, error) {
	if e.getenv == nil {
		return os.UserConfigDir()
	}
	if d := e.Getenv("XDG_CONFIG_HOME"); d != "" {
		return d, nil
	}
	if h := e.Getenv("HOME"); h != "" {
		return filepath.Join(h, ".config"), nil
	}
	return "", errors.New("neither $XDG_CONFIG_HOME nor $HOME is defined")
}
