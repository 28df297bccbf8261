package main

import (
	"strings"
	"testing"
)

// TestRemoteFailsOverToTheNextNode: --remote given several nodes (comma-
// separated, or the flag repeated) whose first is down: the next node
// serves the command, a read as well as a prompt. With every node down the
// command says none answered.
func TestRemoteFailsOverToTheNextNode(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, `{"steps": [{"text": "Hello."}]}`)
	// Nothing listens on ports 1 and 2. (A port freeAddr found free may be
	// taken meanwhile by a test running beside this one.)
	down, down2 := "127.0.0.1:1", "127.0.0.1:2"
	for i, nodes := range [][]string{
		{"--remote", down + "," + r.addr},
		{"--remote", down, "--remote", r.addr},
	} {
		args := append(nodes, "--remote-tls-dir", r.userTLS)
		id := []string{"first", "second"}[i]
		if code, out, errOut := client(t, r.elsewhere, append(args, "--agent", "main", "prompt", "--message-id", id, "Hi.")...); code != 0 || !strings.HasPrefix(out, "admitted "+id+" to main") {
			t.Fatalf("prompt over %v = %d %q %q", nodes, code, out, errOut)
		}
		if code, out, errOut := client(t, r.elsewhere, append(args, "--json", "agents", "list")...); code != 0 || !strings.Contains(out, `"main"`) {
			t.Fatalf("agents list over %v = %d %q %q", nodes, code, out, errOut)
		}
	}
	code, out, errOut := client(t, r.elsewhere, "--remote", down+","+down2, "--remote-tls-dir", r.userTLS, "--json", "agents", "list")
	if code != exitDown || !strings.Contains(errOut, "no runtime answered at "+down2) {
		t.Fatalf("agents list with every node down = %d %q %q, want %d saying no runtime answered", code, out, errOut, exitDown)
	}
}
