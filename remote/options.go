package remote

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"
)

// Options configure Dial.
type Options struct {
	// Addr is the node's remote address, HOST:PORT (its run --remote-listen,
	// or --advertise).
	Addr string
	// TLSDir holds ca.crt, client.crt and client.key, as `holon-actors ca
	// issue --role client` writes them. Required: there is no plaintext mode.
	TLSDir string
	// Listen is where this client's endpoint listens for the node's
	// answers; default 127.0.0.1:0 (any free loopback port).
	Listen string
	// Advertise is the HOST:PORT the node dials to answer, when Listen is
	// not reachable as is (a wildcard or NATed address); default: the
	// address Listen bound.
	Advertise string
	// CallTimeout bounds one request to the node; default 5s.
	CallTimeout time.Duration
	// Retries is how many more times Prompt sends an admission the node did
	// not answer, with the same message_id; default 3.
	Retries int
	// Fallback are other nodes of the same cluster (HOST:PORT each): when
	// the node in use does not answer, the client moves to the next one
	// (failover.go).
	Fallback []string
}

// Defaults of Options.
const (
	DefaultListen      = "127.0.0.1:0"
	DefaultCallTimeout = 5 * time.Second
	DefaultRetries     = 3
)

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Listen == "" {
		o.Listen = DefaultListen
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.Retries == 0 {
		o.Retries = DefaultRetries
	}
	return o
}

// Validate says what is wrong with o, if anything.
func (o Options) Validate() error {
	if o.Addr == "" {
		return errors.New("remote: no node address: give the node's HOST:PORT (its run --remote-listen)")
	}
	if err := hostPort("node address", o.Addr, false); err != nil {
		return err
	}
	if o.TLSDir == "" {
		return errors.New("remote: no TLS directory: give the directory holding ca.crt, client.crt and client.key (holon-actors ca issue --role client)")
	}
	if err := hostPort("listen address", o.Listen, true); err != nil {
		return err
	}
	if o.Advertise != "" {
		if err := hostPort("advertised address", o.Advertise, false); err != nil {
			return err
		}
		if host, _, _ := net.SplitHostPort(o.Advertise); unspecified(host) {
			return fmt.Errorf("remote: advertised address %q: give the address the node reaches this client on, not every interface", o.Advertise)
		}
	}
	for _, a := range o.Fallback {
		if err := hostPort("fallback node address", a, false); err != nil {
			return err
		}
	}
	if o.Retries < 0 {
		return fmt.Errorf("remote: retries %d: give 0 or more", o.Retries)
	}
	return nil
}

// hostPort checks a HOST:PORT; zeroPort allows port 0 (any free port).
func hostPort(what, addr string, zeroPort bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("remote: %s %q: want HOST:PORT", what, addr)
	}
	n, err := strconv.Atoi(port)
	switch {
	case err != nil || n < 0 || n > 65535:
		return fmt.Errorf("remote: %s %q: port %q is not a number from 1 to 65535", what, addr, port)
	case n == 0 && !zeroPort:
		return fmt.Errorf("remote: %s %q: give the port it is reached on, not 0", what, addr)
	case host == "" && !zeroPort:
		return fmt.Errorf("remote: %s %q: give the host too", what, addr)
	}
	return nil
}

// unspecified reports whether host is empty or a wildcard address.
func unspecified(host string) bool {
	ip := net.ParseIP(host)
	return host == "" || ip != nil && ip.IsUnspecified()
}
