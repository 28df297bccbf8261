package tlsca

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// The files of a TLS directory.
const (
	CACertFile = "ca.crt"
	CAKeyFile  = "ca.key"
)

// CertFile and KeyFile are the names of a role's certificate and key in a
// TLS directory: member.crt, client.key.
func CertFile(r Role) string { return string(r) + ".crt" }

// KeyFile is the name of role r's private key in a TLS directory.
func KeyFile(r Role) string { return string(r) + ".key" }

// caValidity is how long a CA certificate is valid.
const caValidity = 10 * 365 * 24 * time.Hour

// DefaultValidity is how long an issued certificate is valid by default.
const DefaultValidity = 365 * 24 * time.Hour

// Init creates a CA in dir (made 0700 if missing): ca.key (0600) and
// ca.crt. It refuses, with ErrExists, to replace an existing CA.
func Init(dir string, now time.Time) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	for _, f := range []string{CAKeyFile, CACertFile} {
		if err := absent(filepath.Join(dir, f)); err != nil {
			return err
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate the CA key: %w", err)
	}
	tmpl := &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: "holon-actors CA"},
		NotBefore: now.Add(-time.Minute), NotAfter: now.Add(caValidity),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign, BasicConstraintsValid: true, IsCA: true, MaxPathLenZero: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return fmt.Errorf("sign the CA certificate: %w", err)
	}
	if err := writeKey(filepath.Join(dir, CAKeyFile), key); err != nil {
		return err
	}
	return writeCert(filepath.Join(dir, CACertFile), der)
}

// IssueRequest describes a certificate to issue.
type IssueRequest struct {
	Role Role
	// Name is the holder's name (the certificate's common name): a node's
	// or an operator's. It is what a node records as the responder of a
	// remote client's answer.
	Name string
	// Hosts are the host names and IP addresses the holder serves on
	// (informational: peers check the CA and the role, not the host).
	Hosts []string
	// Out is the TLS directory to write to (made 0700 if missing): the
	// role's .crt and .key, and a copy of ca.crt. Empty means the CA's.
	Out      string
	Validity time.Duration // 0 means DefaultValidity
	Now      time.Time
}

// Issue signs a certificate for req with the CA in caDir and writes it to
// req.Out. It refuses, with ErrExists, to replace the role's files there.
func Issue(caDir string, req IssueRequest) error {
	if _, err := ParseRole(string(req.Role)); err != nil {
		return err
	}
	if req.Name == "" {
		return errors.New("tlsca: the certificate needs a name: the node's or the operator's")
	}
	if req.Out == "" {
		req.Out = caDir
	}
	if req.Validity <= 0 {
		req.Validity = DefaultValidity
	}
	ca, caKey, err := loadCA(caDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(req.Out, 0o700); err != nil {
		return fmt.Errorf("create %s: %w", req.Out, err)
	}
	for _, f := range []string{KeyFile(req.Role), CertFile(req.Role)} {
		if err := absent(filepath.Join(req.Out, f)); err != nil {
			return err
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return fmt.Errorf("generate the key: %w", err)
	}
	tmpl := &x509.Certificate{SerialNumber: serial(),
		Subject:   pkix.Name{CommonName: req.Name, OrganizationalUnit: []string{string(req.Role)}},
		NotBefore: req.Now.Add(-time.Minute), NotAfter: req.Now.Add(req.Validity),
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	for _, h := range req.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("sign the %s certificate: %w", req.Role, err)
	}
	if err := copyCA(caDir, req.Out); err != nil {
		return err
	}
	if err := writeKey(filepath.Join(req.Out, KeyFile(req.Role)), key); err != nil {
		return err
	}
	return writeCert(filepath.Join(req.Out, CertFile(req.Role)), der)
}

func loadCA(dir string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	ca, err := readCert(filepath.Join(dir, CACertFile))
	if err != nil {
		return nil, nil, err
	}
	keyPEM, err := readKeyFile(filepath.Join(dir, CAKeyFile))
	if err != nil {
		return nil, nil, err
	}
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return nil, nil, fmt.Errorf("%s: no PEM key", filepath.Join(dir, CAKeyFile))
	}
	key, err := x509.ParseECPrivateKey(block.Bytes)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", filepath.Join(dir, CAKeyFile), err)
	}
	return ca, key, nil
}

// copyCA puts the CA certificate in out, unless it is there already.
func copyCA(caDir, out string) error {
	src, dst := filepath.Join(caDir, CACertFile), filepath.Join(out, CACertFile)
	if filepath.Clean(src) == filepath.Clean(dst) {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if old, err := os.ReadFile(dst); err == nil {
		if string(old) != string(data) {
			return fmt.Errorf("%w: %s holds another CA's certificate", ErrExists, dst)
		}
		return nil
	}
	return os.WriteFile(dst, data, 0o644)
}

func absent(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%w: %s (remove it first to replace it)", ErrExists, path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func writeKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := pem.Encode(f, &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

func writeCert(path string, der []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := pem.Encode(f, &pem.Block{Type: "CERTIFICATE", Bytes: der}); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

func readCert(path string) (*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%s: no PEM certificate", path)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cert, nil
}

// readKeyFile reads a private key file, refusing one other users can read.
func readKeyFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%w: %s has mode %#o: chmod 600 %s", ErrKeyExposed, path, fi.Mode().Perm(), path)
	}
	return os.ReadFile(path)
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		panic(err) // crypto/rand does not fail
	}
	return n
}

func pemEncode(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}
