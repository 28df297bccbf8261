package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/messages/messagespb"
	"github.com/holon-actors/holon-actors/remote/gateway"
	"github.com/holon-actors/holon-actors/remote/remotepb"
	"github.com/holon-actors/holon-actors/remote/remotetest"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// plainBinary is holon-actors built WITHOUT -race, for the processes that
// run Proto.Actor remote: upstream protoactor-go has data races in its
// remote (endpoint shutdown against a writer, the global gRPC logger),
// which would fail a -race child at exit for no fault of ours.
var plainBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "holon-e2e-plain-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "holon-actors")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

// startNode is startRun with the plain binary.
func startNode(t *testing.T, home string, args ...string) *daemon {
	t.Helper()
	bin, err := plainBinary()
	if err != nil {
		t.Fatalf("build holon-actors without -race: %v", err)
	}
	return startRunOf(t, bin, home, nil, args...)
}

// remoteAddrOf reads the node's remote address from its runtime.json,
// which it writes just after its control socket answers.
func remoteAddrOf(t *testing.T, d *daemon) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		var rf runtimeFile
		b, err := os.ReadFile(filepath.Join(d.home, "run", runtimeFileName))
		if err == nil && json.Unmarshal(b, &rf) == nil && rf.PID == d.cmd.Process.Pid {
			if rf.RemoteAddr == "" {
				t.Fatalf("runtime.json %s: no remote_addr", b)
			}
			return rf.RemoteAddr
		}
		if time.Now().After(deadline) {
			t.Fatalf("no runtime.json after %s (%v):\n%s", e2eWait, err, d.output())
		}
		time.Sleep(20 * time.Millisecond) // polling a process we do not control
	}
}

// issueCerts makes a CA with the binary, a node's member directory and
// an operator's client directory.
func issueCerts(t *testing.T, home string) (node, alice string) {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca")
	node, alice = filepath.Join(t.TempDir(), "node"), filepath.Join(t.TempDir(), "alice")
	for _, args := range [][]string{
		{"ca", "init", "--dir", ca},
		{"ca", "issue", "--dir", ca, "--role", "member", "--name", "node-1", "--host", "127.0.0.1", "--out", node},
		{"ca", "issue", "--dir", ca, "--role", "client", "--name", "alice", "--out", alice},
	} {
		if code, out, errOut := client(t, home, args...); code != 0 {
			t.Fatalf("%v = %d %q %q", args, code, out, errOut)
		}
	}
	return node, alice
}

func TestCACommands(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	node, _ := issueCerts(t, home)
	for _, f := range []string{"member.key"} {
		fi, err := os.Stat(filepath.Join(node, f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, mode %v; want 0600", f, err, fi.Mode().Perm())
		}
	}
	ca := filepath.Join(home, "ca") // the default --dir
	if code, out, errOut := client(t, home, "--json", "ca", "init"); code != 0 || !strings.Contains(out, `"dir":"`+ca+`"`) {
		t.Fatalf("ca init = %d %q %q", code, out, errOut)
	}
	fi, err := os.Stat(filepath.Join(ca, "ca.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("ca.key: %v, want mode 0600", err)
	}
	before, _ := os.ReadFile(filepath.Join(ca, "ca.key"))
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"init again", []string{"ca", "init"}, exitFailure, "nothing was written"},
		{"unknown role", []string{"ca", "issue", "--role", "admin", "--name", "x"}, exitUsage, "--role"},
		{"no name", []string{"ca", "issue", "--role", "client"}, exitUsage, "--name"},
		{"issue again", []string{"ca", "issue", "--role", "member", "--name", "n", "--out", node}, exitFailure, "nothing was written"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := client(t, home, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("%v = %d %q, want %d naming %q", tc.args, code, errOut, tc.code, tc.want)
			}
		})
	}
	if after, _ := os.ReadFile(filepath.Join(ca, "ca.key")); string(after) != string(before) {
		t.Error("a refused command changed the CA key")
	}
}

func TestRunRefusesRemoteFlagsThatCannotWork(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	node, alice := issueCerts(t, home)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no TLS", []string{"--remote-listen", "0.0.0.0:0"}, "--remote-listen needs --tls-dir"},
		{"TLS without listen", []string{"--tls-dir", node}, "give --remote-listen"},
		{"a client's directory", []string{"--remote-listen", "127.0.0.1:0", "--tls-dir", alice}, "member"},
		{"no host", []string{"--remote-listen", ":7000", "--tls-dir", node}, "no host"},
	}
	if code, _, errOut := client(t, home, "once", "--remote-listen", "127.0.0.1:0", "hi"); code != exitUsage || !strings.Contains(errOut, "serves no remote clients") {
		t.Errorf("once --remote-listen = %d %q, want a usage error", code, errOut)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := client(t, home, append([]string{"run"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errOut, tc.want) {
				t.Errorf("run %v = %d %q, want a usage error naming %q", tc.args, code, errOut, tc.want)
			}
			if _, err := os.Stat(filepath.Join(home, "run", runtimeFileName)); err == nil {
				t.Error("the refused run started a runtime")
			}
		})
	}
}

// TestRemoteNodeServesClientsAndSurvivesHostilePeers drives a node
// process over its remote port: a client's prompt is admitted once and
// comes back through the events; the three inputs that crash an unguarded
// node, a plaintext peer, a peer without a certificate and a client
// sending what only members may send are refused, and the node still
// answers and stops cleanly.
func TestRemoteNodeServesClientsAndSurvivesHostilePeers(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "home")
	nodeDir, aliceDir := issueCerts(t, home)
	d := startNode(t, home, "--remote-listen", "127.0.0.1:0", "--tls-dir", nodeDir)
	addr := remoteAddrOf(t, d)
	alice, err := tlsca.Load(aliceDir, tlsca.RoleClient)
	if err != nil {
		t.Fatal(err)
	}
	gw := actor.NewPID(addr, gateway.GatewayName)
	inbox := remotetest.NewInbox(t, alice.ServerConfig(tlsca.RoleMember))
	connect := func(t *testing.T, conf *tls.Config) *remotetest.Peer {
		t.Helper()
		p, err := remotetest.Dial(addr, conf)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		if err := p.Connect(inbox.Addr); err != nil {
			t.Fatalf("Connect: %v", err)
		}
		return p
	}
	request := func(t *testing.T, m proto.Message) proto.Message {
		t.Helper()
		p := connect(t, alice.ClientConfig(tlsca.RoleMember))
		reply, err := p.Request(gw, inbox, m, e2eWait)
		if err != nil {
			t.Fatalf("%s: %v\n%s", proto.MessageName(m), err, d.output())
		}
		return reply
	}
	prompt := &remotepb.PromptRequest{AgentId: "main", Envelope: &messagespb.MessageEnvelope{Id: "remote-1",
		Body: &messagespb.Body{Type: &messagespb.Body_Text{Text: &messagespb.TextBody{Text: "hello from afar"}}}}}
	acc, ok := request(t, prompt).(*remotepb.PromptAccepted)
	if !ok || acc.EventSeq == 0 || acc.Duplicate {
		t.Fatalf("prompt = %v", acc)
	}
	if again, ok := request(t, prompt).(*remotepb.PromptAccepted); !ok || !again.Duplicate || again.EventSeq != acc.EventSeq {
		t.Fatalf("prompt again = %v, want the first admission, duplicate", again)
	}
	page, ok := request(t, &remotepb.ReadEvents{AgentId: "main", After: acc.EventSeq - 1, Limit: 1}).(*remotepb.EventsPage)
	if !ok || len(page.Events) != 1 || page.Events[0].Provenance.GetOrigin().GetOperator().GetActorId() != "operator:remote:alice" ||
		page.Events[0].Provenance.DeliverySurface != string(messages.SurfaceRemoteControlPrompt) {
		t.Fatalf("events = %v", page)
	}
	if e, ok := request(t, &remotepb.GetStatus{AgentId: "ghost"}).(*remotepb.Error); !ok || e.Code != control.KindNotFound || e.Hint == "" {
		t.Errorf("status of an unknown agent = %v, want not_found with a hint", e)
	}

	hostile := []struct {
		name string
		conf *tls.Config
		send func(p *remotetest.Peer) error
		code codes.Code
	}{
		{"unknown type name", alice.ClientConfig(tlsca.RoleMember), func(p *remotetest.Peer) error {
			b := remotetest.Batch(gw, nil, &remotepb.ListAgents{})
			b.TypeNames[0] = "holon.nope.v1.Missing"
			return p.SendBatch(b)
		}, codes.InvalidArgument},
		{"batch index out of range", alice.ClientConfig(tlsca.RoleMember), func(p *remotetest.Peer) error {
			b := remotetest.Batch(gw, nil, &remotepb.ListAgents{})
			b.Envelopes[0].Target = 5
			return p.SendBatch(b)
		}, codes.InvalidArgument},
		{"ListProcesses", alice.ClientConfig(tlsca.RoleMember), func(p *remotetest.Peer) error {
			ctx, cancel := context.WithTimeout(context.Background(), e2eWait)
			defer cancel()
			_, err := remote.NewRemotingClient(p.Conn()).ListProcesses(ctx, &remote.ListProcessesRequest{})
			return err
		}, codes.Unimplemented},
		{"client sends a system message", alice.ClientConfig(tlsca.RoleMember), func(p *remotetest.Peer) error {
			return p.SendBatch(remotetest.Batch(gw, nil, &actor.Stop{}))
		}, codes.PermissionDenied},
		{"client addresses another actor", alice.ClientConfig(tlsca.RoleMember), func(p *remotetest.Peer) error {
			return p.SendBatch(remotetest.Batch(actor.NewPID(addr, "eventstream"), nil, &remotepb.ListAgents{}))
		}, codes.PermissionDenied},
	}
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			p := connect(t, tc.conf)
			err := tc.send(p)
			if err == nil {
				err = p.StreamErr(e2eWait)
			}
			if status.Code(err) != tc.code {
				t.Errorf("got %v, want %s", err, tc.code)
			}
		})
	}
	for _, tc := range []struct {
		name string
		conf *tls.Config
	}{
		{"plaintext peer", nil},
		{"client without a certificate", &tls.Config{MinVersion: tls.VersionTLS13, InsecureSkipVerify: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := remotetest.Dial(addr, tc.conf)
			if err != nil {
				return // refused at the handshake; the node is checked below
			}
			defer p.Close()
			if err := p.Connect(inbox.Addr); err == nil {
				t.Error("the node accepted the connection")
			}
		})
	}

	// Still up: it answers, and nothing the hostile peers sent reached the
	// agent (a system Stop would have stopped the gateway or the agent).
	if list, ok := request(t, &remotepb.ListAgents{}).(*remotepb.AgentList); !ok || len(list.Agents) != 1 {
		t.Fatalf("after the hostile peers: %v\n%s", list, d.output())
	}
	select {
	case <-d.exited:
		t.Fatalf("the node exited: %v\n%s", d.err, d.output())
	case <-time.After(0):
	}
	d.stop()
}
