package cluster

import (
	"fmt"
	"net"
	"strconv"
)

// CheckListen checks a node's cluster address before anything starts:
// HOST:PORT with a specific host (ErrAnyAddress otherwise).
func CheckListen(listen string) error {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("cluster: listen address %q: %w (give HOST:PORT)", listen, err)
	}
	if _, err := strconv.Atoi(port); err != nil {
		return fmt.Errorf("cluster: listen address %q: port %q is not a number", listen, port)
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		return fmt.Errorf("%w: %q", ErrAnyAddress, listen)
	}
	return nil
}
