package gateway

import "errors"

var (
	// ErrNoTLS is returned by Start without credentials: a node never
	// serves remote clients without mutual TLS.
	ErrNoTLS = errors.New("gateway: remote clients need mutual TLS")
	// ErrListen is returned by Start when the address cannot be served.
	ErrListen = errors.New("gateway: cannot listen")
)
