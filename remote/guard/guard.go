package guard

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// The headers the guard stamps on every envelope a peer sends.
const (
	HeaderPeer = "holon-peer" // the peer certificate's common name
	HeaderRole = "holon-role" // its role: member or client
)

// receiveMethod is the one RPC remote peers use: the message stream.
const receiveMethod = "/remote.Remoting/Receive"

// protoSerializer is remote's protobuf serializer id, the only one a
// batch may use.
const protoSerializer = 0

// Guard holds the gRPC interceptors of a remote server. It is safe for
// concurrent use; Bind sets the one thing that changes, once.
type Guard struct {
	log zerolog.Logger
	// target is the one actor a client-role peer may address.
	target string
	// clientTypes are the message types a client-role peer may send.
	clientTypes map[string]bool
	// self is the address targets are delivered at (Bind); nil until the
	// server's system has one.
	self atomic.Pointer[string]
}

// New is a guard that lets client-role peers send only the message types
// named clientTypes (full protobuf names), only to the actor named target;
// member-role peers have full access. With no clientTypes, client-role
// peers may send nothing.
func New(log zerolog.Logger, target string, clientTypes ...string) *Guard {
	g := &Guard{log: log, target: target, clientTypes: map[string]bool{}}
	for _, t := range clientTypes {
		g.clientTypes[t] = true
	}
	return g
}

// ServerOptions are the interceptors as options of remote's gRPC server
// (remote.WithServerOptions, next to the TLS credentials).
func (g *Guard) ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.ChainStreamInterceptor(g.stream), grpc.ChainUnaryInterceptor(g.unary)}
}

// peerOf is the verified identity of the stream's peer.
func peerOf(ctx context.Context) (name string, role tlsca.Role, err error) {
	p, ok := peer.FromContext(ctx)
	if !ok {
		return "", "", status.Error(codes.Unauthenticated, "no peer")
	}
	info, ok := p.AuthInfo.(credentials.TLSInfo)
	if !ok || len(info.State.VerifiedChains) == 0 || len(info.State.VerifiedChains[0]) == 0 {
		return "", "", status.Error(codes.Unauthenticated, "a certificate of this node's CA is required")
	}
	leaf := info.State.VerifiedChains[0][0]
	role, err = tlsca.RoleOf(leaf)
	if err != nil {
		return "", "", status.Error(codes.PermissionDenied, err.Error())
	}
	return leaf.Subject.CommonName, role, nil
}

// unary refuses every unary RPC: remote's ListProcesses and
// GetProcessDiagnostics panic upstream ("implement me").
func (g *Guard) unary(ctx context.Context, _ any, info *grpc.UnaryServerInfo, _ grpc.UnaryHandler) (any, error) {
	g.log.Warn().Str("method", info.FullMethod).Msg("remote: refused a diagnostic call")
	return nil, status.Errorf(codes.Unimplemented, "%s is not served", info.FullMethod)
}

// stream serves the message stream of an identified peer through a
// checked receiver, and turns a panic into an Internal error.
func (g *Guard) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			g.log.Error().Str("panic", fmt.Sprint(r)).Bytes("stack", debug.Stack()).Msg("remote: recovered a panic in a peer's stream")
			err = status.Error(codes.Internal, "internal error")
		}
	}()
	if info.FullMethod != receiveMethod {
		return status.Errorf(codes.Unimplemented, "%s is not served", info.FullMethod)
	}
	name, role, err := peerOf(ss.Context())
	if err != nil {
		return err
	}
	return handler(srv, &checkedStream{ServerStream: ss, g: g, name: name, role: role})
}

// checkedStream checks each message a peer sends before remote reads it.
type checkedStream struct {
	grpc.ServerStream
	g    *Guard
	name string
	role tlsca.Role
}

func (s *checkedStream) RecvMsg(m any) error {
	if err := s.ServerStream.RecvMsg(m); err != nil {
		return err
	}
	msg, ok := m.(*remote.RemoteMessage)
	if !ok {
		return status.Error(codes.InvalidArgument, "not a remote message")
	}
	batch := msg.GetMessageBatch()
	if batch == nil {
		return nil // connect and disconnect requests
	}
	if err := s.g.check(batch, s.role); err != nil {
		s.g.log.Warn().Err(err).Str("peer", s.name).Str("role", string(s.role)).Msg("remote: refused a message batch")
		return err
	}
	if err := s.g.localize(batch.Targets); err != nil {
		return err
	}
	for _, env := range batch.Envelopes {
		if env.MessageHeader == nil || env.MessageHeader.HeaderData == nil {
			env.MessageHeader = &remote.MessageHeader{HeaderData: map[string]string{}}
		}
		env.MessageHeader.HeaderData[HeaderPeer] = s.name
		env.MessageHeader.HeaderData[HeaderRole] = string(s.role)
	}
	return nil
}

// check refuses a batch remote would crash on (an unknown type name, an
// index out of range, another serializer, a nil PID) and, from a client,
// anything but the remote requests to the gateway.
func (g *Guard) check(b *remote.MessageBatch, role tlsca.Role) error {
	client := role != tlsca.RoleMember
	for _, name := range b.TypeNames {
		if _, err := protoregistry.GlobalTypes.FindMessageByName(protoreflect.FullName(name)); err != nil {
			return status.Errorf(codes.InvalidArgument, "unknown message type %q", name)
		}
		if client && !g.clientTypes[name] {
			return status.Errorf(codes.PermissionDenied, "a client may not send %s", name)
		}
	}
	for _, pids := range [][]*actor.PID{b.Targets, b.Senders} {
		for _, pid := range pids {
			if pid == nil {
				return status.Error(codes.InvalidArgument, "a nil PID")
			}
		}
	}
	for _, pid := range b.Targets {
		if client && pid.Id != g.target {
			return status.Errorf(codes.PermissionDenied, "a client may only address %s, not %q", g.target, pid.Id)
		}
	}
	for i, env := range b.Envelopes {
		switch {
		case env == nil:
			return status.Errorf(codes.InvalidArgument, "envelope %d is nil", i)
		case env.TypeId < 0 || int(env.TypeId) >= len(b.TypeNames):
			return status.Errorf(codes.InvalidArgument, "envelope %d: type index %d out of range", i, env.TypeId)
		case env.Target < 0 || int(env.Target) >= len(b.Targets):
			return status.Errorf(codes.InvalidArgument, "envelope %d: target index %d out of range", i, env.Target)
		case env.Sender < 0 || int(env.Sender) > len(b.Senders):
			return status.Errorf(codes.InvalidArgument, "envelope %d: sender index %d out of range", i, env.Sender)
		case env.SerializerId != protoSerializer:
			return status.Errorf(codes.InvalidArgument, "envelope %d: serializer %d is not served", i, env.SerializerId)
		}
	}
	return nil
}
