// Command getmany is the server of benchmarks/get-many.sh: it makes the
// files (-make), or serves a folder over https on loopback, HTTP/1.1
// only, with a certificate of its own made at start, and counts the
// connections it accepts.
//
//	getmany -make DIR [-n 2000] [-seed 1]
//	getmany -serve DIR -ready FILE
//
// Serving, it writes its CA certificate to DIR/../ca.pem and, once it
// listens, "HTTPS_PORT CONTROL_PORT" to FILE. GET /conns on the control
// port (plain http, not counted) answers the connections accepted since
// the last such request, and starts the count over.
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"log"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

func main() {
	mk := flag.String("make", "", "make the files in `DIR`")
	n := flag.Int("n", 2000, "how many files")
	seed := flag.Uint64("seed", 1, "the seed of their sizes and bytes")
	serve := flag.String("serve", "", "serve `DIR`")
	ready := flag.String("ready", "", "write the ports to `FILE` once listening")
	flag.Parse()
	switch {
	case *mk != "":
		makeFiles(*mk, *n, *seed)
	case *serve != "":
		serveDir(*serve, *ready)
	default:
		flag.Usage()
		os.Exit(2)
	}
}

// makeFiles writes n files of 0.5 to 20 kB of random bytes, the same for
// the same seed.
func makeFiles(dir string, n int, seed uint64) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	r := mrand.New(mrand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for i := range n {
		b := make([]byte, 500+r.IntN(19501))
		for j := range b {
			b[j] = byte(r.Uint32())
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.bin", i)), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

func serveDir(dir, ready string) {
	cert, caPEM := selfSigned()
	if err := os.WriteFile(filepath.Join(filepath.Dir(filepath.Clean(dir)), "ca.pem"), caPEM, 0o644); err != nil {
		log.Fatal(err)
	}
	var conns atomic.Int64
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{
		Handler:   http.FileServer(http.Dir(dir)),
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}},
		// An empty map: HTTP/1.1 only, as the benchmark compares.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		ErrorLog:     log.New(os.Stderr, "getmany: ", 0),
	}
	ctl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	go http.Serve(ctl, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, conns.Swap(0))
	}))
	ports := fmt.Sprintf("%d %d\n", ln.Addr().(*net.TCPAddr).Port, ctl.Addr().(*net.TCPAddr).Port)
	if err := os.WriteFile(ready, []byte(ports), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Fatal(srv.ServeTLS(countingListener{ln, &conns}, "", ""))
}

// selfSigned makes a certificate for 127.0.0.1 that is its own CA.
func selfSigned() (tls.Certificate, []byte) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		log.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		log.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
