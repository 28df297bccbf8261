package guard

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	_ "google.golang.org/protobuf/types/known/wrapperspb" // registers the google.protobuf.StringValue the batches name

	"github.com/holon-actors/holon-actors/remote/tlsca"
)

func TestCheck(t *testing.T) {
	g := New(zerolog.Nop(), "gw", "google.protobuf.StringValue")
	none := New(zerolog.Nop(), "gw") // a client may send nothing
	batch := func(mut func(b *remote.MessageBatch)) *remote.MessageBatch {
		b := &remote.MessageBatch{TypeNames: []string{"google.protobuf.StringValue"},
			Targets: []*actor.PID{actor.NewPID("node:1", "gw")}, Senders: []*actor.PID{actor.NewPID("client:1", "f1")},
			Envelopes: []*remote.MessageEnvelope{{TypeId: 0, Target: 0, Sender: 1}}}
		if mut != nil {
			mut(b)
		}
		return b
	}
	tests := []struct {
		name string
		g    *Guard
		role tlsca.Role
		b    *remote.MessageBatch
		want codes.Code
	}{
		{"client, allowed", g, tlsca.RoleClient, batch(nil), codes.OK},
		{"member, allowed", g, tlsca.RoleMember, batch(nil), codes.OK},
		{"client, no types allowed", none, tlsca.RoleClient, batch(nil), codes.PermissionDenied},
		{"member, other actor", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Targets[0].Id = "eventstream" }), codes.OK},
		{"client, other actor", g, tlsca.RoleClient, batch(func(b *remote.MessageBatch) { b.Targets[0].Id = "eventstream" }), codes.PermissionDenied},
		{"client, system message", g, tlsca.RoleClient, batch(func(b *remote.MessageBatch) { b.TypeNames[0] = "actor.Stop" }), codes.PermissionDenied},
		{"member, system message", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.TypeNames[0] = "actor.Stop" }), codes.OK},
		{"unknown type", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.TypeNames[0] = "x.Missing" }), codes.InvalidArgument},
		{"type index", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].TypeId = 1 }), codes.InvalidArgument},
		{"negative type index", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].TypeId = -1 }), codes.InvalidArgument},
		{"target index", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].Target = 1 }), codes.InvalidArgument},
		{"sender index", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].Sender = 2 }), codes.InvalidArgument},
		{"no sender", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].Sender = 0 }), codes.OK},
		{"nil target", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Targets[0] = nil }), codes.InvalidArgument},
		{"nil sender", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Senders[0] = nil }), codes.InvalidArgument},
		{"nil envelope", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0] = nil }), codes.InvalidArgument},
		{"json serializer", g, tlsca.RoleMember, batch(func(b *remote.MessageBatch) { b.Envelopes[0].SerializerId = 1 }), codes.InvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := status.Code(tc.g.check(tc.b, tc.role)); got != tc.want {
				t.Errorf("check = %s, want %s", got, tc.want)
			}
		})
	}
}
