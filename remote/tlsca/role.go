package tlsca

import (
	"crypto/x509"
	"fmt"
)

// Role is what a certificate's holder may do: its organizational unit.
type Role string

// The roles.
const (
	// RoleMember is a node: full access to the nodes it reaches.
	RoleMember Role = "member"
	// RoleClient is a remote client: it may only send the remote wire
	// messages to a node's gateway.
	RoleClient Role = "client"
)

// String returns the role as written in a certificate.
func (r Role) String() string { return string(r) }

// ParseRole returns the Role spelled s, or an error wrapping ErrBadRole.
func ParseRole(s string) (Role, error) {
	switch r := Role(s); r {
	case RoleMember, RoleClient:
		return r, nil
	}
	return "", fmt.Errorf("%w %q: use member or client", ErrBadRole, s)
}

// RoleOf returns the role of cert, or an error wrapping ErrBadRole when it
// carries no single known role.
func RoleOf(cert *x509.Certificate) (Role, error) {
	if len(cert.Subject.OrganizationalUnit) != 1 {
		return "", fmt.Errorf("%w: certificate %q has %d roles, want 1", ErrBadRole, cert.Subject.CommonName, len(cert.Subject.OrganizationalUnit))
	}
	return ParseRole(cert.Subject.OrganizationalUnit[0])
}
