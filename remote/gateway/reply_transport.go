package gateway

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"strings"
	"sync"

	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// What the reply book learns from remote's own connections to reply
// addresses: who holds each (the dial's handshake), when it closes, and
// which replies remote has sent on it (its stream's sends); and the probe
// that learns who holds an address remote has not dialled yet.

// dialCreds are the credentials remote dials reply addresses with: inner's
// handshake, whose certificate name the book records for the address.
type dialCreds struct {
	credentials.TransportCredentials
	book *replyBook
}

func (d *dialCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	conn, info, err := d.TransportCredentials.ClientHandshake(ctx, authority, raw)
	if err != nil {
		return nil, nil, err
	}
	tlsInfo, ok := info.(credentials.TLSInfo)
	if !ok || len(tlsInfo.State.PeerCertificates) == 0 {
		conn.Close()
		return nil, nil, errors.New("gateway: a reply address showed no certificate")
	}
	c := &bookedConn{Conn: conn, addr: authority, book: d.book}
	d.book.connected(authority, tlsInfo.State.PeerCertificates[0].Subject.CommonName, c)
	return c, info, nil
}

func (d *dialCreds) Clone() credentials.TransportCredentials {
	return &dialCreds{TransportCredentials: d.TransportCredentials.Clone(), book: d.book}
}

// bookedConn tells the book when it closes.
type bookedConn struct {
	net.Conn
	addr string
	book *replyBook
	once sync.Once
}

func (c *bookedConn) Close() error {
	c.once.Do(func() { c.book.closed(c.addr, c) })
	return c.Conn.Close()
}

// countSent is the stream interceptor of remote's dialled connections: it
// counts the replies each batch sent carries (its send returned: remote
// no longer holds them).
func (b *replyBook) countSent(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
	streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	s, err := streamer(ctx, desc, cc, method, opts...)
	if err != nil {
		return nil, err
	}
	return &countingStream{ClientStream: s, addr: cc.Target(), book: b}, nil
}

type countingStream struct {
	grpc.ClientStream
	addr string
	book *replyBook
}

func (s *countingStream) SendMsg(m any) error {
	err := s.ClientStream.SendMsg(m)
	if rm, ok := m.(*remote.RemoteMessage); ok {
		if batch := rm.GetMessageBatch(); batch != nil {
			n, size := 0, 0
			for _, env := range batch.Envelopes {
				if int(env.TypeId) < len(batch.TypeNames) && strings.HasPrefix(batch.TypeNames[env.TypeId], replyTypePrefix) {
					n++
					size += len(env.MessageData)
				}
			}
			s.book.sent(s.addr, n, size)
		}
	}
	return err
}

// probeTLS returns the certificate name a TLS handshake with addr shows,
// verified by conf.
func probeTLS(conf *tls.Config) func(ctx context.Context, addr string) (string, error) {
	return func(ctx context.Context, addr string) (string, error) {
		d := tls.Dialer{Config: conf}
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return "", err
		}
		defer c.Close()
		certs := c.(*tls.Conn).ConnectionState().PeerCertificates
		if len(certs) == 0 {
			return "", errors.New("no certificate")
		}
		return certs[0].Subject.CommonName, nil
	}
}
