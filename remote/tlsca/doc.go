// Package tlsca is the private certificate authority of remote clients and
// nodes: Init makes the CA, Issue a certificate with a role (member or
// client) in its organizational unit, and Load reads a TLS directory into
// the TLS 1.3 mutual-authentication configs of a server and of a dialer.
//
// A peer is trusted when its certificate chains to the CA; host names are
// not checked (the CA is the trust boundary, and a client's address is
// wherever it runs). RoleOf tells what the peer may do.
//
// Keys are written 0600 and Load refuses a key other users can read.
// tlsca imports only the standard library.
package tlsca
