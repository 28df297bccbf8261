package gateway_test

import (
	"context"
	"crypto/tls"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"github.com/rs/zerolog"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/remote/guard"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/remotetest"
	"github.com/holon-actors/holon-actors/remote/tlsca"
	"github.com/holon-actors/holon-actors/testkit"
)

// wait bounds every reply a test waits for.
const wait = 10 * time.Second

// creds is a CA with a member (the node), clients "alice" and "bob", and
// a client of another CA.
type creds struct {
	member, alice, bob, stranger *tlsca.Credentials
}

func newCreds(t testing.TB) creds {
	t.Helper()
	now := time.Now()
	issue := func(caDir string, role tlsca.Role, name string) *tlsca.Credentials {
		out := filepath.Join(t.TempDir(), name)
		if err := tlsca.Issue(caDir, tlsca.IssueRequest{Role: role, Name: name, Out: out, Now: now}); err != nil {
			t.Fatal(err)
		}
		c, err := tlsca.Load(out, role)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ca, other := filepath.Join(t.TempDir(), "ca"), filepath.Join(t.TempDir(), "other")
	for _, d := range []string{ca, other} {
		if err := tlsca.Init(d, now); err != nil {
			t.Fatal(err)
		}
	}
	return creds{member: issue(ca, tlsca.RoleMember, "node-1"), alice: issue(ca, tlsca.RoleClient, "alice"),
		bob: issue(ca, tlsca.RoleClient, "bob"), stranger: issue(other, tlsca.RoleClient, "mallory")}
}

// rig is a harness runtime served by a node on loopback.
type rig struct {
	h    *testkit.Harness
	node *gateway.Node
	c    creds
	gw   *actor.PID
}

func newRig(t testing.TB, steps ...testkit.Step) *rig {
	t.Helper()
	h := testkit.New(t, steps...)
	if _, err := h.Runtime.Info(context.Background(), "main"); err != nil {
		t.Fatal(err)
	}
	c := newCreds(t)
	node, err := gateway.Start(gateway.Config{Listen: "127.0.0.1:0", TLS: c.member, Log: zerolog.Nop(),
		Operator: control.Operator{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := node.Stop(); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return &rig{h: h, node: node, c: c, gw: actor.NewPID(node.Addr(), gateway.GatewayName)}
}

// client is a connected peer with cert and an inbox for its replies,
// which accepts the node's member certificate.
func (r *rig) client(t testing.TB, cert *tlsca.Credentials) (*remotetest.Peer, *remotetest.Inbox) {
	t.Helper()
	in := remotetest.NewInbox(t, cert.ServerConfig(tlsca.RoleMember))
	p, err := remotetest.Dial(r.node.Addr(), cert.ClientConfig(tlsca.RoleMember))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if err := p.Connect(in.Addr); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	return p, in
}

func (r *rig) request(t testing.TB, p *remotetest.Peer, in *remotetest.Inbox, m proto.Message) proto.Message {
	t.Helper()
	reply, err := p.Request(r.gw, in, m, wait)
	if err != nil {
		t.Fatalf("%s: %v", proto.MessageName(m), err)
	}
	return reply
}

func textPrompt(agent, id, text string) *remotepb.PromptRequest {
	return &remotepb.PromptRequest{AgentId: agent, Envelope: &messagespb.MessageEnvelope{Id: id,
		Body: &messagespb.Body{Type: &messagespb.Body_Text{Text: &messagespb.TextBody{Text: text}}}}}
}

func TestClientPromptIsAdmittedOnceAsItsCertificatesOperator(t *testing.T) {
	r := newRig(t, testkit.Reply("ok"))
	p, in := r.client(t, r.c.alice)
	// A header naming someone else is replaced by the certificate's name.
	b := remotetest.Batch(r.gw, actor.NewPID(in.Addr, "first"), textPrompt("main", "m-1", "hello"))
	b.Envelopes[0].MessageHeader = &remote.MessageHeader{HeaderData: map[string]string{guard.HeaderPeer: "root", guard.HeaderRole: "member"}}
	if err := p.SendBatch(b); err != nil {
		t.Fatal(err)
	}
	reply, err := in.Wait("first", wait)
	if err != nil {
		t.Fatal(err)
	}
	acc, ok := reply.(*remotepb.PromptAccepted)
	if !ok || acc.EventSeq == 0 || acc.Duplicate || acc.MessageId != "m-1" {
		t.Fatalf("reply = %v, want PromptAccepted", reply)
	}
	again, ok := r.request(t, p, in, textPrompt("main", "m-1", "hello")).(*remotepb.PromptAccepted)
	if !ok || !again.Duplicate || again.EventSeq != acc.EventSeq {
		t.Fatalf("again = %v, want the first admission, duplicate", again)
	}
	page, ok := r.request(t, p, in, &remotepb.ReadEvents{AgentId: "main", After: acc.EventSeq - 1, Limit: 1}).(*remotepb.EventsPage)
	if !ok || len(page.Events) != 1 {
		t.Fatalf("ReadEvents = %v", page)
	}
	pv := page.Events[0].Provenance
	if pv.EventSeq != acc.EventSeq || pv.Kind != string(messages.EventMessageAdmitted) || !pv.Replayed ||
		pv.DeliverySurface != string(messages.SurfaceRemoteControlPrompt) || pv.AuthorityClass != string(messages.AuthorityOperatorInstruction) ||
		pv.Origin.GetOperator().GetActorId() != "operator:remote:alice" || page.Events[0].Presentation.GetTitle() == "" {
		t.Errorf("admitted event provenance = %v, presentation %v", pv, page.Events[0].Presentation)
	}
	st, ok := r.request(t, p, in, &remotepb.GetStatus{AgentId: "main"}).(*remotepb.AgentStatus)
	if !ok || st.AgentId != "main" || st.Status == "" || !strings.Contains(string(st.StatusJson), `"agent_id":"main"`) {
		t.Errorf("GetStatus = %v", st)
	}
	lc, ok := r.request(t, p, in, &remotepb.Lifecycle{AgentId: "main", Op: "pause"}).(*remotepb.LifecycleResult)
	if !ok || lc.Status != string(messages.StatusPaused) {
		t.Errorf("pause = %v", lc)
	}
	wi, ok := r.request(t, p, in, &remotepb.AddWorkItem{AgentId: "main", Objective: "Tidy the notes"}).(*remotepb.WorkItemAdded)
	if !ok || wi.WorkItemId == "" {
		t.Errorf("AddWorkItem = %v", wi)
	}
}

func TestRefusedRequestsAnswerTheHTTPErrorAndChangeNothing(t *testing.T) {
	r := newRig(t)
	p, in := r.client(t, r.c.alice)
	before := len(r.h.Events("main"))
	withOrigin := textPrompt("main", "", "hi")
	withOrigin.Envelope.Origin = &messagespb.Origin{Kind: &messagespb.Origin_System{System: &messagespb.SystemOrigin{Subsystem: "x"}}}
	urgent := textPrompt("main", "", "hi")
	urgent.Envelope.Priority = "urgent"
	tests := []struct {
		name   string
		req    proto.Message
		code   string
		status uint32
		inMsg  string
	}{
		{"unknown agent", textPrompt("ghost", "", "hi"), control.KindNotFound, 404, `no agent "ghost"`},
		{"node-owned field", withOrigin, control.KindInvalid, 422, "envelope.origin"},
		{"bad priority", urgent, control.KindInvalid, 422, "priority"},
		{"no envelope", &remotepb.PromptRequest{AgentId: "main"}, control.KindInvalid, 422, "envelope"},
		{"unknown op", &remotepb.Lifecycle{AgentId: "main", Op: "explode"}, control.KindBadRequest, 400, "explode"},
		{"answer not JSON", &remotepb.RespondSuspension{AgentId: "main", SuspensionId: "s", Value: []byte("yes")}, control.KindBadRequest, 400, "not JSON"},
		{"workspace request not JSON", &remotepb.UseWorkspace{AgentId: "main", RequestJson: []byte("/src/shop")}, control.KindBadRequest, 400, "not JSON"},
		{"workspaces of no agent", &remotepb.GetWorkspaces{}, control.KindInvalid, 422, "agent_id is empty"},
		{"detach for no agent", &remotepb.DetachWorkspace{WorkspaceId: "shop"}, control.KindInvalid, 422, "agent_id is empty"},
		{"prompt debug of no agent", &remotepb.GetPromptDebug{}, control.KindInvalid, 422, "agent_id is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := r.request(t, p, in, tc.req).(*remotepb.Error)
			if !ok || e.Code != tc.code || e.HttpStatus != tc.status || !strings.Contains(e.Message, tc.inMsg) || e.Hint == "" {
				t.Errorf("reply = %v, want %s (%d) naming %q with a hint", e, tc.code, tc.status, tc.inMsg)
			}
		})
	}
	if after := len(r.h.Events("main")); after != before {
		t.Errorf("the refusals journaled %d events", after-before)
	}
}

// alive checks the node still answers a client.
func (r *rig) alive(t *testing.T) {
	t.Helper()
	p, in := r.client(t, r.c.alice)
	if _, ok := r.request(t, p, in, &remotepb.ListAgents{}).(*remotepb.AgentList); !ok {
		t.Fatal("the node no longer answers")
	}
}

func TestGuardRefusesWhatWouldCrashOrOverreach(t *testing.T) {
	r := newRig(t)
	good := func() *remote.MessageBatch {
		return remotetest.Batch(r.gw, actor.NewPID("127.0.0.1:1", "x"), &remotepb.ListAgents{})
	}
	tests := []struct {
		name  string
		cert  *tlsca.Credentials
		batch func() *remote.MessageBatch
		code  codes.Code
	}{
		{"unknown type name", r.c.member, func() *remote.MessageBatch {
			b := good()
			b.TypeNames[0] = "holon.nope.v1.Missing"
			return b
		}, codes.InvalidArgument},
		{"target index out of range", r.c.member, func() *remote.MessageBatch {
			b := good()
			b.Envelopes[0].Target = 7
			return b
		}, codes.InvalidArgument},
		{"sender index out of range", r.c.member, func() *remote.MessageBatch {
			b := good()
			b.Envelopes[0].Sender = 9
			return b
		}, codes.InvalidArgument},
		{"type index out of range", r.c.member, func() *remote.MessageBatch {
			b := good()
			b.Envelopes[0].TypeId = -1
			return b
		}, codes.InvalidArgument},
		{"json serializer", r.c.member, func() *remote.MessageBatch {
			b := good()
			b.Envelopes[0].SerializerId = 1
			return b
		}, codes.InvalidArgument},
		{"client sends a system message", r.c.alice, func() *remote.MessageBatch {
			return remotetest.Batch(r.gw, nil, &actor.Stop{})
		}, codes.PermissionDenied},
		{"client sends another type", r.c.alice, func() *remote.MessageBatch {
			return remotetest.Batch(r.gw, nil, wrapperspb.String("hi"))
		}, codes.PermissionDenied},
		{"client addresses another actor", r.c.alice, func() *remote.MessageBatch {
			return remotetest.Batch(actor.NewPID(r.node.Addr(), "eventstream"), nil, &remotepb.ListAgents{})
		}, codes.PermissionDenied},
		{"client sends a reply type", r.c.alice, func() *remote.MessageBatch {
			return remotetest.Batch(r.gw, nil, &remotepb.PromptAccepted{})
		}, codes.PermissionDenied},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := remotetest.Dial(r.node.Addr(), tc.cert.ClientConfig(tlsca.RoleMember))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if err := p.Connect("127.0.0.1:1"); err != nil {
				t.Fatal(err)
			}
			if err := p.SendBatch(tc.batch()); err != nil {
				t.Fatal(err)
			}
			if err := p.StreamErr(wait); status.Code(err) != tc.code {
				t.Errorf("stream ended with %v, want %s", err, tc.code)
			}
			r.alive(t)
		})
	}
}

func TestMemberMayAddressAnyActor(t *testing.T) {
	r := newRig(t)
	p, in := r.client(t, r.c.member)
	// Refused from a client (above); from a member it is delivered (to
	// nobody, here), and the stream goes on.
	if err := p.SendBatch(remotetest.Batch(actor.NewPID(r.node.Addr(), "nobody"), nil, wrapperspb.String("hi"))); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.request(t, p, in, &remotepb.ListAgents{}).(*remotepb.AgentList); !ok {
		t.Fatal("the member's stream was refused")
	}
}

func TestConnectionsWithoutAValidCertificateAreRefused(t *testing.T) {
	r := newRig(t)
	noCert := &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true}
	tests := []struct {
		name string
		conf *tls.Config
	}{
		{"plaintext", nil},
		{"no client certificate", noCert},
		{"another CA's client", r.c.stranger.ClientConfig(tlsca.RoleMember)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := remotetest.Dial(r.node.Addr(), tc.conf)
			if err != nil {
				return // refused at once
			}
			defer p.Close()
			if err := p.Connect("127.0.0.1:1"); err == nil {
				t.Fatal("the node accepted the connection")
			}
			r.alive(t)
		})
	}
}

func TestDiagnosticCallsAreRefused(t *testing.T) {
	r := newRig(t)
	p, err := remotetest.Dial(r.node.Addr(), r.c.member.ClientConfig(tlsca.RoleMember))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := remote.NewRemotingClient(p.Conn())
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if _, err := c.ListProcesses(ctx, &remote.ListProcessesRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("ListProcesses = %v, want Unimplemented", err)
	}
	if _, err := c.GetProcessDiagnostics(ctx, &remote.GetProcessDiagnosticsRequest{}); status.Code(err) != codes.Unimplemented {
		t.Errorf("GetProcessDiagnostics = %v, want Unimplemented", err)
	}
	r.alive(t)
}

func TestStartRefusesWithoutTLSOrAHost(t *testing.T) {
	c := newCreds(t)
	tests := []struct {
		name string
		cfg  gateway.Config
		want string
	}{
		{"no TLS", gateway.Config{Listen: "127.0.0.1:0"}, "mutual TLS"},
		{"client certificate", gateway.Config{Listen: "127.0.0.1:0", TLS: c.alice}, "member certificate"},
		{"no host", gateway.Config{Listen: ":7000", TLS: c.member}, "no host"},
		{"not host:port", gateway.Config{Listen: "localhost", TLS: c.member}, "HOST:PORT"},
		{"bad advertise", gateway.Config{Listen: "127.0.0.1:0", Advertise: "x", TLS: c.member}, "advertised"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := gateway.Start(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Start = %v, want an error with %q", err, tc.want)
			}
		})
	}
}

// TestStopDoesNotWaitOnPeersHoldingStreams: a peer that keeps its stream
// open after the node asked it to disconnect does not hold the node's
// shutdown for remote's own 10 s.
func TestStopDoesNotWaitOnPeersHoldingStreams(t *testing.T) {
	h := testkit.New(t)
	c := newCreds(t)
	node, err := gateway.Start(gateway.Config{Listen: "127.0.0.1:0", TLS: c.member, Log: zerolog.Nop(),
		Operator: control.Operator{Runtime: h.Runtime, Store: h.Store(), Clock: h.Clock}})
	if err != nil {
		t.Fatal(err)
	}
	in := remotetest.NewInbox(t, c.alice.ServerConfig(tlsca.RoleMember))
	p, err := remotetest.Dial(node.Addr(), c.alice.ClientConfig(tlsca.RoleMember))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Connect(in.Addr); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Request(actor.NewPID(node.Addr(), gateway.GatewayName), in, &remotepb.ListAgents{}, wait); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := node.Stop(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Stop took %v with a peer holding its stream; want about a second", took)
	}
}

// BenchmarkRoundTrip measures a client's request through the gateway and
// back, over loopback with mutual TLS: a status read of an idle agent,
// and a prompt admitted (durable in the journal; run it with
// -benchtime=300x, under the agent's queue limit; the agent works off the
// prompts meanwhile).
func BenchmarkRoundTrip(b *testing.B) {
	r := newRig(b)
	p, in := r.client(b, r.c.alice)
	b.Run("status", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := r.request(b, p, in, &remotepb.GetStatus{AgentId: "main"}).(*remotepb.AgentStatus); !ok {
				b.Fatal("status refused")
			}
		}
	})
	b.Run("prompt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := r.request(b, p, in, textPrompt("main", "", "hi")).(*remotepb.PromptAccepted); !ok {
				b.Fatal("prompt refused")
			}
		}
	})
}
