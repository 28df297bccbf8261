package guard

import (
	"context"
	"errors"
	"net"
	"sync"

	"google.golang.org/grpc/credentials"
)

// ErrTooManyConns is the handshake error of a connection over the limit
// of LimitConns; the connection is closed at once.
var ErrTooManyConns = errors.New("guard: too many connections")

// LimitConns is creds serving at most max connections at once, counted
// from the moment one is accepted (before its handshake) until it
// closes: one more is closed at once, before its handshake. Without a
// bound, any peer that reaches the port, certificate or not, can hold
// open connections until the process runs out of file descriptors, and
// with them its control socket and its journals.
func LimitConns(creds credentials.TransportCredentials, max int) credentials.TransportCredentials {
	return &limited{TransportCredentials: creds, slots: make(chan struct{}, max)}
}

// limited counts connections in slots: one token per open connection.
type limited struct {
	credentials.TransportCredentials
	slots chan struct{}
}

func (l *limited) ServerHandshake(raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		raw.Close()
		return nil, nil, ErrTooManyConns
	}
	c := &slotConn{Conn: raw, release: func() { <-l.slots }}
	conn, info, err := l.TransportCredentials.ServerHandshake(c)
	if err != nil {
		c.Close() // the server closes the raw connection, not this one
		return nil, nil, err
	}
	return conn, info, nil
}

func (l *limited) Clone() credentials.TransportCredentials {
	return &limited{TransportCredentials: l.TransportCredentials.Clone(), slots: l.slots}
}

// ClientHandshake is the inner one's: only accepted connections count.
func (l *limited) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return l.TransportCredentials.ClientHandshake(ctx, authority, raw)
}

// slotConn gives its slot back when it is first closed.
type slotConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *slotConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
