package control

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/user"
	"strconv"
	"sync"
)

// InstanceEnv names the variable the runtime's owner puts in the
// environment of every command its agents run, set to Config.Instance: a
// caller that carries it is one of this runtime's tool processes even
// after it left the runtime's process tree.
const InstanceEnv = "HOLON_RUNTIME_INSTANCE"

// peer is the process at the other end of a control connection, as the
// kernel tells it.
type peer struct {
	known bool
	uid   int
	pids  []int // the processes holding the client's end
	// local: the client is a process of this host that could be one of
	// the runtime's commands, so it must be found in the process table;
	// one that cannot be found (it exited after connecting, or handed its
	// connection on and let go of it) is refused rather than trusted.
	local bool
}

// callers recognises the runtime's own tool processes among the callers
// of the control API: the processes the runtime started (its agents'
// commands and whatever they started), and those carrying the runtime's
// instance marker in their environment.
type callers struct {
	self   int    // the runtime's pid
	marker string // InstanceEnv=<instance>; "" when no instance is set
}

func newCallers(instance string) callers {
	c := callers{self: os.Getpid()}
	if instance != "" {
		c.marker = InstanceEnv + "=" + instance
	}
	return c
}

// toolProcess says why p is one of the runtime's tool processes; "" when
// it is not, or cannot be told.
func (c callers) toolProcess(p peer) string {
	found := false
	for _, pid := range p.pids {
		switch {
		case pid == c.self:
			found = true // the runtime itself
			continue
		case descendantOf(pid, c.self):
			return fmt.Sprintf("caller pid %d was started by this runtime (pid %d): it is one of its agents' commands", pid, c.self)
		case c.marker != "" && environHas(pid, c.marker):
			return fmt.Sprintf("caller pid %d carries this runtime's %s: it is one of its agents' commands", pid, InstanceEnv)
		}
		found = found || processExists(pid)
	}
	if p.local && !found && procTable {
		return fmt.Sprintf("the process at the other end (pids %v) is gone: it exited after connecting, or handed its connection on, so the runtime cannot tell it is not one of its agents' commands; keep the connecting process running until its requests are answered", p.pids)
	}
	return ""
}

// identified is a connection's caller, worked out once, on its first
// request.
type identified struct {
	peer    peer
	tool    string // why the caller is a tool process; "" when it is not
	surface surface
}

// surface is the listener a connection came in on.
type surface int

const (
	surfaceUnknown surface = iota // a handler called without a listener
	surfaceSocket                 // the unix socket: the peer's uid vouches
	surfaceTCP                    // TCP: the control token vouches
)

// operator is who acts through this connection, as the audit trail
// records it (responded_by): derived from how the caller authenticated,
// never from what it says. On the socket, the peer's user
// ("operator:alice"); on TCP, the token's holder ("operator:token").
func (id identified) operator() string {
	switch {
	case id.surface == surfaceTCP:
		return "operator:token"
	case id.surface == surfaceSocket && id.peer.known:
		return "operator:" + userName(id.peer.uid)
	}
	return "operator"
}

// userName is uid's login name, or "uid:<n>" when it has none.
func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		return u.Username
	}
	return "uid:" + strconv.Itoa(uid)
}

// connCaller sits in a connection's context and identifies its caller on
// first use, in the connection's goroutine rather than the accept loop.
type connCaller struct {
	conn    net.Conn
	surface surface
	callers callers
	once    sync.Once
	id      identified
}

type connCallerKey struct{}

// unixContext and tcpContext record a connection in its context for
// callerOf.
func (c callers) unixContext(ctx context.Context, conn net.Conn) context.Context {
	return context.WithValue(ctx, connCallerKey{}, &connCaller{conn: conn, surface: surfaceSocket, callers: c})
}

func (c callers) tcpContext(ctx context.Context, conn net.Conn) context.Context {
	return context.WithValue(ctx, connCallerKey{}, &connCaller{conn: conn, surface: surfaceTCP, callers: c})
}

// callerOf identifies r's caller; the zero value when its connection was
// not recorded (a test's handler called directly).
func callerOf(r *http.Request) identified {
	cc, ok := r.Context().Value(connCallerKey{}).(*connCaller)
	if !ok {
		return identified{}
	}
	cc.once.Do(func() {
		cc.id.peer, cc.id.surface = identify(cc.conn), cc.surface
		cc.id.tool = cc.callers.toolProcess(cc.id.peer)
	})
	return cc.id
}

// identify asks the kernel who is at the other end of conn: SO_PEERCRED
// on a unix socket; on TCP, the local process holding the client's
// socket, if there is one.
func identify(conn net.Conn) peer {
	switch c := conn.(type) {
	case *net.UnixConn:
		if pid, uid, ok := peerCred(c); ok {
			return peer{known: true, uid: uid, pids: []int{pid}, local: true}
		}
	case *net.TCPConn:
		client, ok1 := c.RemoteAddr().(*net.TCPAddr)
		server, ok2 := c.LocalAddr().(*net.TCPAddr)
		if !ok1 || !ok2 {
			return peer{}
		}
		if uid, pids, ok := tcpPeer(unmap(client.AddrPort()), unmap(server.AddrPort())); ok {
			// A socket of another user cannot be one of the runtime's
			// commands, and its holders may be unreadable to it.
			self := os.Getuid()
			return peer{known: true, uid: uid, pids: pids, local: uid == self || self == 0}
		}
		if client.IP.IsLoopback() {
			return peer{local: true} // a loopback client whose socket is gone
		}
	}
	return peer{}
}

func unmap(a netip.AddrPort) netip.AddrPort { return netip.AddrPortFrom(a.Addr().Unmap(), a.Port()) }

// toolProcessError is the 403 of a tool process on an operator route.
func toolProcessError(why string) *Error {
	return errorf(http.StatusForbidden, KindToolProcess,
		"an agent acts through its own tools, with its own authority; the operator calls the control API from a shell the runtime did not start",
		"the control API is the operator's, and %s", why)
}
