package tlsca

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// Credentials are a TLS directory's CA and one role's certificate.
type Credentials struct {
	Role  Role
	Name  string // the certificate's common name
	cert  tls.Certificate
	roots *x509.CertPool
}

// Load reads dir's ca.crt and role's certificate and key. The key must not
// be readable by other users (ErrKeyExposed).
func Load(dir string, role Role) (*Credentials, error) {
	if _, err := ParseRole(string(role)); err != nil {
		return nil, err
	}
	ca, err := readCert(filepath.Join(dir, CACertFile))
	if err != nil {
		return nil, fmt.Errorf("load the CA certificate: %w", err)
	}
	keyPEM, err := readKeyFile(filepath.Join(dir, KeyFile(role)))
	if err != nil {
		return nil, fmt.Errorf("load the %s key: %w", role, err)
	}
	certPath := filepath.Join(dir, CertFile(role))
	leaf, err := readCert(certPath)
	if err != nil {
		return nil, fmt.Errorf("load the %s certificate: %w", role, err)
	}
	pair, err := tls.X509KeyPair(pemOf(leaf), keyPEM)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", certPath, err)
	}
	got, err := RoleOf(leaf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", certPath, err)
	}
	if got != role {
		return nil, fmt.Errorf("%w: %s is a %s certificate, not a %s one", ErrBadRole, certPath, got, role)
	}
	if err := checkValidity(certPath, leaf, time.Now()); err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}); err != nil {
		return nil, fmt.Errorf("%s is not signed by %s: %w", certPath, filepath.Join(dir, CACertFile), err)
	}
	return &Credentials{Role: role, Name: leaf.Subject.CommonName, cert: pair, roots: roots}, nil
}

// ServerConfig is the config of a TLS 1.3 server that requires a client
// certificate of the CA carrying one of the roles peers.
func (c *Credentials) ServerConfig(peers ...Role) *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{c.cert},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: c.roots,
		VerifyPeerCertificate: peerRoles(peers)}
}

// ClientConfig is the config of a TLS 1.3 dialer presenting c's
// certificate and accepting a server certificate of the CA carrying one
// of the roles peers. The chain is checked here, not the host name.
func (c *Credentials) ClientConfig(peers ...Role) *tls.Config {
	check := peerRoles(peers)
	return &tls.Config{MinVersion: tls.VersionTLS13, Certificates: []tls.Certificate{c.cert},
		InsecureSkipVerify: true, // the chain and the role are verified below, without a host name
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			certs := make([]*x509.Certificate, len(raw))
			for i, r := range raw {
				cert, err := x509.ParseCertificate(r)
				if err != nil {
					return fmt.Errorf("peer certificate: %w", err)
				}
				certs[i] = cert
			}
			if len(certs) == 0 {
				return errors.New("the peer sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, cert := range certs[1:] {
				inter.AddCert(cert)
			}
			chains, err := certs[0].Verify(x509.VerifyOptions{Roots: c.roots, Intermediates: inter,
				KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}})
			if err != nil {
				return fmt.Errorf("peer certificate: %w", err)
			}
			return check(nil, chains)
		}}
}

// peerRoles checks that a verified peer certificate carries one of roles.
func peerRoles(roles []Role) func([][]byte, [][]*x509.Certificate) error {
	return func(_ [][]byte, chains [][]*x509.Certificate) error {
		if len(chains) == 0 || len(chains[0]) == 0 {
			return errors.New("the peer's certificate is not verified")
		}
		r, err := RoleOf(chains[0][0])
		if err != nil {
			return err
		}
		if !slices.Contains(roles, r) {
			return fmt.Errorf("%w: a %s certificate is not accepted here", ErrBadRole, r)
		}
		return nil
	}
}

func pemOf(cert *x509.Certificate) []byte {
	return pemEncode("CERTIFICATE", cert.Raw)
}

// checkValidity refuses leaf, read from path, outside its validity at now.
func checkValidity(path string, leaf *x509.Certificate, now time.Time) error {
	const day = "2006-01-02 15:04 MST"
	switch {
	case now.After(leaf.NotAfter):
		return fmt.Errorf("%w: %s expired at %s: issue a new one (holon-actors ca issue)", ErrOutOfValidity, path, leaf.NotAfter.UTC().Format(day))
	case now.Before(leaf.NotBefore):
		return fmt.Errorf("%w: %s is not valid before %s: check this machine's clock, or issue a new one (holon-actors ca issue)",
			ErrOutOfValidity, path, leaf.NotBefore.UTC().Format(day))
	}
	return nil
}
