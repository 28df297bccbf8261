package tlsca

import "errors"

var (
	// ErrExists is returned by Init and Issue rather than overwrite a key
	// or a certificate.
	ErrExists = errors.New("tlsca: file exists")
	// ErrBadRole is returned for a role other than member or client, and
	// for a certificate carrying none.
	ErrBadRole = errors.New("tlsca: unknown role")
	// ErrKeyExposed is returned by Load for a private key other users can
	// read.
	ErrKeyExposed = errors.New("tlsca: private key readable by other users")
	// ErrOutOfValidity is returned by Load for a certificate that has
	// expired or is not valid yet.
	ErrOutOfValidity = errors.New("tlsca: certificate out of its validity")
)
