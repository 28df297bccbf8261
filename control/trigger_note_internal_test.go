package control

import (
	"strings"
	"testing"
)

// TestAdvertiseNote: a trigger URL says when --advertise is needed: over
// the socket only, on a wildcard or loopback listener; and says nothing
// once --advertise is given.
func TestAdvertiseNote(t *testing.T) {
	for _, c := range []struct {
		name, advertise, addr, want string
	}{
		{"advertised", "https://agents.example.com", "0.0.0.0:8080", ""},
		{"socket only", "", "", "--listen and --advertise"},
		{"wildcard", "", "0.0.0.0:8080", "cannot reach"},
		{"ipv6 wildcard", "", "[::]:8080", "cannot reach"},
		{"loopback", "", "127.0.0.1:8080", "cannot reach"},
		{"reachable", "", "192.0.2.7:8080", "if callers reach it another way"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Server{cfg: Config{Advertise: c.advertise, Info: RuntimeInfo{HTTPAddr: c.addr, SocketPath: "/run/control.sock"}}}
			got := s.advertiseNote()
			if (c.want == "") != (got == "") || !strings.Contains(got, c.want) || (got != "" && !strings.Contains(got, "--advertise")) {
				t.Fatalf("advertiseNote() = %q, want it to say %q", got, c.want)
			}
		})
	}
}
