package remote_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	parem "github.com/asynkron/protoactor-go/remote"
	"github.com/holon-actors/holon-actors/control"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/holon-actors/holon-actors/remote"
	"github.com/holon-actors/holon-actors/remote/remotetest"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// issued makes a CA and a certificate of role in a new TLS directory.
func issued(t *testing.T, role tlsca.Role) string {
	t.Helper()
	return issuedAll(t, role)[0]
}

// issuedAll makes a CA and a TLS directory with a certificate of each of
// roles, in that order.
func issuedAll(t *testing.T, roles ...tlsca.Role) []string {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca")
	now := time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, role := range roles {
		dir := filepath.Join(t.TempDir(), "tls")
		if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: role, Name: "tester", Out: dir, Now: now}); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// noNodeChild is set in the environment of the child processes of
// TestNoNode and TestAReplyThatDoesNotAnswerTheRequestIsDropped (no node
// wanted there).
const noNodeChild = "HOLON_REMOTE_TEST_NO_NODE"

// deadAddr is a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestDialRefuses(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		opts remote.Options
		want string
	}{
		{"empty TLS directory", remote.Options{Addr: "127.0.0.1:7100", TLSDir: t.TempDir()}, "ca.crt"},
		{"a member certificate", remote.Options{Addr: "127.0.0.1:7100", TLSDir: issued(t, tlsca.RoleMember)}, "client"},
		{"wildcard listen", remote.Options{Addr: "127.0.0.1:7100", TLSDir: issued(t, tlsca.RoleClient), Listen: "0.0.0.0:0"}, "every interface"},
		{"no address", remote.Options{TLSDir: issued(t, tlsca.RoleClient)}, "no node address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := remote.Dial(ctx, tc.opts)
			if err == nil {
				c.Close()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Dial(%+v) = %v, want an error saying %q", tc.opts, err, tc.want)
			}
		})
	}
}

// TestNoNode: with no node at the address, Prompt sends the admission
// Retries more times and then says no runtime answered (ErrNoAnswer, also
// control.ErrNotRunning); Events keeps retrying until its context ends and
// yields nothing. It runs in a child process of this test binary, so that
// process has one remote endpoint: upstream's remote races with a second
// one started in the same process (ExampleDial's), on gRPC's global logger.
func TestNoNode(t *testing.T) {
	if os.Getenv(noNodeChild) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestNoNode$", "-test.v")
		cmd.Env = append(os.Environ(), noNodeChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestNoNode") {
			t.Fatalf("TestNoNode in a child process: %v\n%s", err, out)
		}
		return
	}
	const timeout = 150 * time.Millisecond
	dirs := issuedAll(t, tlsca.RoleClient, tlsca.RoleMember)
	c, err := remote.Dial(context.Background(), remote.Options{Addr: deadAddr(t), TLSDir: dirs[0],
		CallTimeout: timeout, Retries: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !strings.HasPrefix(c.Address(), "127.0.0.1:") || strings.HasSuffix(c.Address(), ":0") {
		t.Fatalf("Address() = %q, want the loopback port it bound", c.Address())
	}

	// A node (a member certificate) calling the diagnostic RPC that
	// panics in upstream's remote is refused; the client lives on.
	member, err := tlsca.Load(dirs[1], tlsca.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	p, err := remotetest.Dial(c.Address(), member.ClientConfig(tlsca.RoleClient))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := parem.NewRemotingClient(p.Conn()).ListProcesses(ctx, &parem.ListProcessesRequest{}); status.Code(err) != codes.Unimplemented {
		t.Fatalf("ListProcesses on the client's endpoint = %v, want Unimplemented", err)
	}

	start := time.Now()
	_, err = c.Prompt(context.Background(), "main", control.PromptRequest{Text: "anyone?"})
	if !errors.Is(err, remote.ErrNoAnswer) || !errors.Is(err, control.ErrNotRunning) {
		t.Fatalf("Prompt with no node = %v, want ErrNoAnswer and control.ErrNotRunning", err)
	}
	if took := time.Since(start); took < 3*timeout {
		t.Fatalf("Prompt gave up after %s, want 3 attempts of %s (2 retries)", took, timeout)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 3*timeout)
	defer cancel()
	for ev, err := range c.Events(ctx, "main", 0) {
		t.Fatalf("Events with no node yielded %+v, %v", ev, err)
	}
	if ctx.Err() == nil {
		t.Fatal("Events ended before its context")
	}
	if after, err := c.Follow(ctx, "main", 7, func(control.StreamEvent) error { return nil }); after != 7 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Follow after its context = %d, %v; want 7 and the context's error", after, err)
	}
}
