package control

import (
	"net"
	"strings"
)

// advertiseNote says when a trigger URL is not one outside callers can
// use and the runtime needs --advertise: "" when it was given.
func (s *Server) advertiseNote() string {
	switch {
	case s.cfg.Advertise != "":
		return ""
	case s.cfg.Info.HTTPAddr == "":
		return "this URL names the control socket, so only processes on this machine can call it: " +
			"start the runtime with --listen and --advertise <base URL callers reach it at> to hand out a URL others can call"
	case !reachableHost(s.cfg.Info.HTTPAddr):
		return "this URL uses the address the runtime listens on, which callers elsewhere cannot reach: " +
			"start the runtime with --advertise <base URL callers reach it at> (behind a proxy, its public URL)"
	}
	return "this URL uses the address the runtime listens on; if callers reach it another way (a proxy, a public name, https), " +
		"start the runtime with --advertise <that base URL>"
}

// reachableHost reports whether addr's host is one another machine can
// dial: not a wildcard, not loopback.
func reachableHost(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip == nil || !(ip.IsUnspecified() || ip.IsLoopback())
}
