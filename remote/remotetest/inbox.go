package remotetest

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Delivery is one message sent to the inbox: To is the target actor id,
// From the sender's PID (nil: none).
type Delivery struct {
	To   string
	From *actor.PID
	Msg  proto.Message
}

// Inbox is a Remoting server standing in for a client's listener: it
// answers connect requests and hands over every message it is sent.
type Inbox struct {
	remote.UnimplementedRemotingServer
	// Addr is where the inbox listens: the address of its PIDs.
	Addr string

	// hold, when not nil, holds every stream after its connect response
	// until it is closed (release of NewHeldInbox).
	hold chan struct{}

	mu      sync.Mutex
	waiting map[string]chan Delivery // by target id; guarded by mu
	got     map[string]Delivery      // arrived before anyone waited; guarded by mu
}

// NewInbox serves an inbox on a loopback port with tlsConf (nil:
// plaintext) until the test ends.
func NewInbox(t testing.TB, tlsConf *tls.Config) *Inbox {
	t.Helper()
	return newInbox(t, tlsConf, nil)
}

// NewHeldInbox is an inbox that reads nothing after a connect request
// until release is called (or the node closes the connection): a client
// endpoint that does not read its replies. Its flow-control windows are
// gRPC's smallest (64 KiB, never grown), so a node's sends to it stall
// soon.
func NewHeldInbox(t testing.TB, tlsConf *tls.Config) (in *Inbox, release func()) {
	t.Helper()
	hold := make(chan struct{})
	var once sync.Once
	in = newInbox(t, tlsConf, hold, grpc.InitialWindowSize(64<<10), grpc.InitialConnWindowSize(64<<10))
	release = func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	return in, release
}

// NewInboxOn is NewInbox serving on l, which it closes when the test
// ends: a test that starts a Proto.Actor remote in its own process starts
// it before any gRPC server (remote's Start writes gRPC's global logger, a
// race with a server already running), with l's address already known.
func NewInboxOn(t testing.TB, l net.Listener, tlsConf *tls.Config) *Inbox {
	t.Helper()
	return serveInbox(t, l, tlsConf, nil)
}

func newInbox(t testing.TB, tlsConf *tls.Config, hold chan struct{}, opts ...grpc.ServerOption) *Inbox {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveInbox(t, l, tlsConf, hold, opts...)
}

func serveInbox(t testing.TB, l net.Listener, tlsConf *tls.Config, hold chan struct{}, opts ...grpc.ServerOption) *Inbox {
	if tlsConf != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(tlsConf)))
	}
	s := grpc.NewServer(opts...)
	in := &Inbox{Addr: l.Addr().String(), hold: hold, waiting: map[string]chan Delivery{}, got: map[string]Delivery{}}
	remote.RegisterRemotingServer(s, in)
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Serve(l) }()
	t.Cleanup(func() { s.Stop(); <-done })
	return in
}

// Receive serves one node's stream.
func (in *Inbox) Receive(stream remote.Remoting_ReceiveServer) error {
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch m := msg.MessageType.(type) {
		case *remote.RemoteMessage_ConnectRequest:
			if err := stream.Send(&remote.RemoteMessage{MessageType: &remote.RemoteMessage_ConnectResponse{
				ConnectResponse: &remote.ConnectResponse{MemberId: "inbox"}}}); err != nil {
				return err
			}
			if in.hold != nil {
				select {
				case <-in.hold:
				case <-stream.Context().Done():
					return stream.Context().Err()
				}
			}
		case *remote.RemoteMessage_MessageBatch:
			in.deliver(m.MessageBatch)
		}
	}
}

func (in *Inbox) deliver(b *remote.MessageBatch) {
	for _, env := range b.Envelopes {
		mt, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(b.TypeNames[env.TypeId]))
		if err != nil {
			continue
		}
		m := mt.New().Interface()
		if proto.Unmarshal(env.MessageData, m) != nil {
			continue
		}
		d := Delivery{To: b.Targets[env.Target].Id, Msg: m}
		if env.Sender > 0 && int(env.Sender) <= len(b.Senders) {
			d.From = b.Senders[env.Sender-1]
		}
		in.mu.Lock()
		if c, ok := in.waiting[d.To]; ok {
			delete(in.waiting, d.To)
			c <- d
		} else {
			in.got[d.To] = d
		}
		in.mu.Unlock()
	}
}

// Wait returns the message sent to actor id to, or an error after
// timeout.
func (in *Inbox) Wait(to string, timeout time.Duration) (proto.Message, error) {
	d, err := in.WaitDelivery(to, timeout)
	return d.Msg, err
}

// WaitDelivery returns the delivery to actor id to, or an error after
// timeout.
func (in *Inbox) WaitDelivery(to string, timeout time.Duration) (Delivery, error) {
	in.mu.Lock()
	if d, ok := in.got[to]; ok {
		delete(in.got, to)
		in.mu.Unlock()
		return d, nil
	}
	c := make(chan Delivery, 1)
	in.waiting[to] = c
	in.mu.Unlock()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case d := <-c:
		return d, nil
	case <-t.C:
		in.mu.Lock()
		delete(in.waiting, to)
		in.mu.Unlock()
		return Delivery{}, fmt.Errorf("no message for %s within %v", to, timeout)
	}
}
