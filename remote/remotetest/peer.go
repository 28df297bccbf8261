package remotetest

import (
	"context"
	"crypto/tls"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/proto"
)

// Peer is a raw message stream to a node's remote.
type Peer struct {
	conn   *grpc.ClientConn
	Stream remote.Remoting_ReceiveClient
	cancel context.CancelFunc
	n      atomic.Int64
}

// Dial opens the message stream to addr with tlsConf (nil: plaintext).
// With TLS the handshake happens on the first send or receive.
func Dial(addr string, tlsConf *tls.Config) (*Peer, error) {
	creds := insecure.NewCredentials()
	if tlsConf != nil {
		creds = credentials.NewTLS(tlsConf)
	}
	// passthrough: the address is dialled as given, as grpc.Dial did.
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(creds))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := remote.NewRemotingClient(conn).Receive(ctx)
	if err != nil {
		cancel()
		conn.Close()
		return nil, err
	}
	return &Peer{conn: conn, Stream: stream, cancel: cancel}, nil
}

// Conn is the peer's connection, for unary calls.
func (p *Peer) Conn() *grpc.ClientConn { return p.conn }

// Close ends the stream and the connection.
func (p *Peer) Close() {
	p.cancel()
	p.conn.Close()
}

// Connect sends remote's connect request and waits for the response.
func (p *Peer) Connect(address string) error {
	err := p.Stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectRequest{
		ConnectRequest: &remote.ConnectRequest{ConnectionType: &remote.ConnectRequest_ServerConnection{
			ServerConnection: &remote.ServerConnection{SystemId: "remotetest", Address: address}}}}})
	if err != nil {
		return err
	}
	msg, err := p.Stream.Recv()
	if err != nil {
		return err
	}
	if msg.GetConnectResponse() == nil {
		return fmt.Errorf("want a connect response, got %v", msg)
	}
	return nil
}

// SendBatch sends one message batch.
func (p *Peer) SendBatch(b *remote.MessageBatch) error {
	return p.Stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_MessageBatch{MessageBatch: b}})
}

// Batch is a well-formed batch of m from sender (nil: none) to target.
func Batch(target, sender *actor.PID, m proto.Message) *remote.MessageBatch {
	data, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	b := &remote.MessageBatch{TypeNames: []string{string(proto.MessageName(m))}, Targets: []*actor.PID{target},
		Envelopes: []*remote.MessageEnvelope{{TypeId: 0, MessageData: data, Target: 0}}}
	if sender != nil {
		b.Senders = []*actor.PID{sender}
		b.Envelopes[0].Sender = 1
	}
	return b
}

// Request sends m to target with a fresh sender at the inbox and waits
// for the reply there.
func (p *Peer) Request(target *actor.PID, in *Inbox, m proto.Message, timeout time.Duration) (proto.Message, error) {
	id := fmt.Sprintf("reply-%d", p.n.Add(1))
	if err := p.SendBatch(Batch(target, actor.NewPID(in.Addr, id), m)); err != nil {
		return nil, err
	}
	return in.Wait(id, timeout)
}

// StreamErr waits for the node to end the stream and returns why (what
// the node sends meanwhile is skipped), or an error when the stream is
// still open after timeout.
func (p *Peer) StreamErr(timeout time.Duration) error {
	got := make(chan error, 1)
	go func() {
		for {
			if _, err := p.Stream.Recv(); err != nil {
				got <- err
				return
			}
		}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-got:
		return err
	case <-t.C:
		p.cancel()
		return fmt.Errorf("the stream stayed open for %v", timeout)
	}
}
