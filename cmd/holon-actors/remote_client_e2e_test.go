package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// remoteRig is a runtime serving remote clients over mutual TLS, and the
// client certificate of an operator named alice. The runtime is the
// binary built without -race (plainBinary); the client processes run the
// -race one: a client runs a single remote endpoint, which upstream's races
// need two of.
type remoteRig struct {
	home, addr       string
	nodeTLS, userTLS string
	runArgs          []string
	node             *daemon
	elsewhere        string // a home with no runtime, for the remote client
}

// issueTLS makes a CA under dir and issues a member certificate into
// dir/node and a client certificate named user into dir/user.
func issueTLS(t *testing.T, dir, user string) (nodeTLS, userTLS string) {
	t.Helper()
	ca, nodeTLS, userTLS := filepath.Join(dir, "ca"), filepath.Join(dir, "node"), filepath.Join(dir, "user")
	now := time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		t.Fatal(err)
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleMember, Name: "node-1", Hosts: []string{"127.0.0.1"}, Out: nodeTLS, Now: now}); err != nil {
		t.Fatal(err)
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: user, Out: userTLS, Now: now}); err != nil {
		t.Fatal(err)
	}
	return nodeTLS, userTLS
}

func newRemoteRig(t *testing.T, script string) *remoteRig {
	t.Helper()
	r := &remoteRig{home: filepath.Join(t.TempDir(), "home"), elsewhere: filepath.Join(t.TempDir(), "elsewhere")}
	r.nodeTLS, r.userTLS = issueTLS(t, t.TempDir(), "alice")
	r.runArgs = []string{"--model", "scripted", "--script", writeScript(t, script), "--tls-dir", r.nodeTLS}
	r.start(t)
	return r
}

// start (re)starts the runtime on the same home and remote address: the
// first start listens on a port the kernel picks (a port found free, then
// given, may be taken meanwhile by a test running beside this one), and
// each restart on that one.
func (r *remoteRig) start(t *testing.T) {
	t.Helper()
	listen := r.addr
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	r.node = startNode(t, r.home, append(r.runArgs, "--remote-listen", listen)...) // without -race: see plainBinary
	r.addr = remoteAddrOf(t, r.node)
}

// remoteArgs are the global flags of a client reaching the rig remotely.
func (r *remoteRig) remoteArgs() []string {
	return []string{"--remote", r.addr, "--remote-tls-dir", r.userTLS}
}

// remote runs a client command over the cluster protocol, from a home
// with no runtime.
func (r *remoteRig) remote(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return client(t, r.elsewhere, append(r.remoteArgs(), args...)...)
}

// follower is a `tail --follow --json` process and the events it printed.
type follower struct {
	cmd    *exec.Cmd
	events chan control.StreamEvent // from the reader goroutine, closed at EOF
	seen   []control.StreamEvent
}

func startFollower(t *testing.T, home string, args ...string) *follower {
	t.Helper()
	cmd := exec.Command(binary, append(append([]string{"--home", home}, args...), "--json", "tail", "--follow")...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	f := &follower{cmd: cmd, events: make(chan control.StreamEvent, 1024)}
	go func() { // ends at the process's EOF
		defer close(f.events)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var ev control.StreamEvent
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("tail printed %q: %v", sc.Text(), err)
				continue
			}
			f.events <- ev
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("tail stderr:\n%s", errb.String())
		}
	})
	return f
}

// waitFor reads events until one of kind for message id ("": any)
// arrives.
func (f *follower) waitFor(t *testing.T, kind messages.EventType, messageID string) control.StreamEvent {
	t.Helper()
	timeout := time.After(e2eWait)
	for {
		select {
		case ev, ok := <-f.events:
			if !ok {
				t.Fatalf("tail ended before %s of %s; saw %d events", kind, messageID, len(f.seen))
			}
			f.seen = append(f.seen, ev)
			if ev.Provenance.Kind == kind && (messageID == "" || ev.Provenance.MessageID == messageID) {
				return ev
			}
		case <-timeout:
			var saw []string
			for _, ev := range f.seen {
				saw = append(saw, fmt.Sprintf("%d %s %s", ev.Provenance.EventSeq, ev.Provenance.Kind, ev.Provenance.MessageID))
			}
			t.Fatalf("no %s of %s after %s; saw:\n%s", kind, messageID, e2eWait, strings.Join(saw, "\n"))
		}
	}
}

// TestRemotePromptRespondAndTailAcrossRestart: a client process reaches a
// runtime over the cluster protocol with its client certificate only:
// its prompt is admitted once (a resend with the same message id is a
// duplicate), it lists and answers the agent's question (recorded as
// answered by the certificate's operator), its tail --follow goes on
// through a restart of the runtime with every event exactly once, in
// order, as the journal holds them, and prompt --wait prints the turn's
// result after the restart.
func TestRemotePromptRespondAndTailAcrossRestart(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, `{"steps": [{"text": "Asking.", "tool_calls": [{"name": "RequestOperatorInput",
		"arguments": {"question": "Ship it?", "response_type": "confirm"}}]}, {"text": "Shipped."}, {"text": "Second done."}]}`)
	tail := startFollower(t, r.elsewhere, append(r.remoteArgs(), "--agent", "main")...)

	if code, out, errOut := r.remote(t, "--agent", "main", "prompt", "--message-id", "p1", "Ship when I say so."); code != 0 || !strings.HasPrefix(out, "admitted p1 to main") {
		t.Fatalf("prompt over --remote = %d %q %q", code, out, errOut)
	}
	if code, out, _ := r.remote(t, "--agent", "main", "prompt", "--message-id", "p1", "Ship when I say so."); code != 0 || !strings.HasPrefix(out, "already admitted p1 to main") {
		t.Fatalf("the same prompt again over --remote = %d %q, want already admitted", code, out)
	}
	tail.waitFor(t, messages.EventSuspensionRequested, "p1")

	code, viaRemote, errOut := r.remote(t, "--json", "suspensions", "list")
	_, viaSocket, _ := client(t, r.home, "--json", "suspensions", "list")
	var list control.SuspensionList
	if code != 0 || json.Unmarshal([]byte(viaRemote), &list) != nil || len(list.Suspensions) != 1 || viaRemote != viaSocket {
		t.Fatalf("suspensions list over --remote = %d %q\n%s\nover the socket:\n%s", code, errOut, viaRemote, viaSocket)
	}
	sid := list.Suspensions[0].ID
	if code, out, errOut := r.remote(t, "respond", "main", sid, "yes"); code != 0 || !strings.Contains(out, sid) {
		t.Fatalf("respond over --remote = %d %q %q", code, out, errOut)
	}
	tail.waitFor(t, messages.EventSuspensionResumed, "")
	tail.waitFor(t, messages.EventBriefRecorded, "") // the answer's turn: "Shipped."
	_, closed, _ := client(t, r.home, "--json", "suspensions", "list", "--all", "--agent", "main")
	if !strings.Contains(closed, `"responded_by": "`) || !strings.Contains(closed, "alice") {
		t.Fatalf("the answer is not recorded as alice's:\n%s", closed)
	}

	r.node.stop()
	r.start(t)
	if code, out, errOut := r.remote(t, "--agent", "main", "prompt", "--wait", "--message-id", "p2", "And the second?"); code != 0 || strings.TrimSpace(out) != "Second done." {
		t.Fatalf("prompt --wait over --remote after the restart = %d %q %q", code, out, errOut)
	}
	tail.waitFor(t, messages.EventBriefRecorded, "p2")

	code, journal, _ := client(t, r.home, "--json", "tail", "--limit", "1000")
	if code != 0 {
		t.Fatalf("tail over the socket = %d", code)
	}
	var want []string
	for line := range strings.SplitSeq(strings.TrimSpace(journal), "\n") {
		var ev control.StreamEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Provenance.EventSeq > tail.seen[len(tail.seen)-1].Provenance.EventSeq {
			break
		}
		want = append(want, fmt.Sprintf("%d %s", ev.Provenance.EventSeq, ev.Provenance.EventID))
	}
	var got []string
	for _, ev := range tail.seen {
		got = append(got, fmt.Sprintf("%d %s", ev.Provenance.EventSeq, ev.Provenance.EventID))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tail --follow over --remote across the restart saw\n%s\nthe journal holds\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// surfaceTable is the request table the control socket and the cluster
// protocol must answer identically: the same exit code, output and error
// for reads, refusals and commands, each run once per surface against the
// same runtime (--agent main on both: the remote surface does not serve
// the runtime's default agent). Commands that change state are idempotent
// here, so the second surface sees what the first left.
var surfaceTable = [][]string{
	{"status"},
	{"--json", "status"},
	{"agents", "list"},
	{"--json", "agents", "list"},
	{"tail", "--limit", "3"},
	{"--json", "tail", "--after", "1", "--limit", "1000"},
	{"suspensions", "list"},
	{"--json", "suspensions", "list", "--all"},
	{"status", "nobody"},                          // 404
	{"status", "bad..id"},                         // 400
	{"--agent", "nobody", "prompt", "hello"},      // 404 on admission
	{"--agent", "nobody", "tail", "--limit", "1"}, // 404 on a read
	{"agents", "resume", "main"},                  // already running: the same status
	{"agents", "pause", "nobody"},
	{"respond", "main", "susp_nope", "yes"}, // 404: no such suspension
	{"suspensions", "cancel", "main", "susp_nope"},
	{"work-items", "add", "nobody", "an objective"},
	{"prompt", "--message-id", strings.Repeat("m", 129), "too long an id"}, // refused: id over 128 bytes
	{"transcript"},
	{"--json", "transcript", "--last", "1"},
	{"--agent", "nobody", "transcript"}, // 404
	{"briefs"},
	{"--json", "briefs", "--last", "1"},
	{"agents", "children", "main"},
	{"--json", "agents", "children", "main", "--all"},
	{"work-items", "list", "main"},
	{"--json", "work-items", "list", "nobody"}, // 404
	{"tasks", "list"},
	{"--json", "tasks", "list", "--all"},
	{"agents", "create", "bad id"}, // refused by the same check
	{"agents", "create", "main"},   // 409: in use
}

// defaultAgentTable is run with no --agent: the runtime's default agent is
// resolved on the node over both surfaces.
var defaultAgentTable = [][]string{
	{"status"},
	{"--json", "tail", "--after", "1", "--limit", "2"},
	{"transcript", "--last", "1"},
}

// TestSocketAndRemoteAnswerTheSameTable runs surfaceTable through both
// surfaces and compares.
func TestSocketAndRemoteAnswerTheSameTable(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, `{"steps": [{"text": "Hello."}]}`)
	if code, out, errOut := client(t, r.home, "prompt", "--wait", "--message-id", "seed", "say hello"); code != 0 {
		t.Fatalf("seed prompt = %d %q %q", code, out, errOut)
	}
	var table [][]string
	for _, args := range surfaceTable {
		table = append(table, append([]string{"--agent", "main"}, args...))
	}
	for _, args := range append(table, defaultAgentTable...) {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			sc, sout, serr := client(t, r.home, args...)
			rc, rout, rerr := r.remote(t, args...)
			if sc != rc || sout != rout || serr != rerr {
				t.Fatalf("%v\nover the socket: %d\n%s%s\nover --remote: %d\n%s%s", args, sc, sout, serr, rc, rout, rerr)
			}
		})
	}
}

// TestSocketAndRemoteAnswerWorkspacesTheSame: agents workspace
// use|list|detach and debug prompt give the same exit code, output and
// error over the socket and over --remote. Each row's before commands run
// over the socket ahead of each surface, so both start from the same
// state. The runtime is built without -race (plainBinary).
func TestSocketAndRemoteAnswerWorkspacesTheSame(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, `{"steps": [{"text": "Hello."}]}`)
	dir := t.TempDir()
	if code, out, errOut := client(t, r.home, "--agent", "main", "agents", "workspace", "use", dir); code != 0 {
		t.Fatalf("workspace use over the socket = %d %q %q", code, out, errOut)
	}
	_, out, _ := client(t, r.home, "--agent", "main", "--json", "agents", "workspace", "list")
	var v struct {
		Active struct {
			WorkspaceID string `json:"workspace_id"`
		} `json:"active"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Active.WorkspaceID == "" || v.Active.WorkspaceID == "agent_home" {
		t.Fatalf("workspace list --json = %q (%v), want %s active", out, err, dir)
	}
	ws := v.Active.WorkspaceID
	useDir, useHome := []string{"agents", "workspace", "use", dir}, []string{"agents", "workspace", "use", "--id", "agent_home"}
	for _, tc := range []struct {
		before [][]string
		args   []string
	}{
		{args: useDir},
		{args: []string{"agents", "workspace", "list"}},
		{args: []string{"--json", "agents", "workspace", "list"}},
		{args: []string{"debug", "prompt"}},
		{args: []string{"--json", "debug", "prompt"}},
		{args: []string{"agents", "workspace", "detach", ws}},                    // 409: the active one
		{args: []string{"agents", "workspace", "use", filepath.Join(dir, "no")}}, // not a directory
		{args: []string{"agents", "workspace", "use", "--id", "ws-nope"}},        // not attached
		{args: []string{"--agent", "nobody", "agents", "workspace", "list"}},     // 404
		{args: []string{"--agent", "nobody", "debug", "prompt"}},                 // 404
		{args: useHome},
		{before: [][]string{useDir, useHome}, args: []string{"agents", "workspace", "detach", ws}},
	} {
		args := append([]string{"--agent", "main"}, tc.args...)
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var res [2][3]string
			for i, run := range []func(t *testing.T, args ...string) (int, string, string){
				func(t *testing.T, args ...string) (int, string, string) { return client(t, r.home, args...) },
				r.remote,
			} {
				for _, b := range tc.before {
					if code, out, errOut := client(t, r.home, append([]string{"--agent", "main"}, b...)...); code != 0 {
						t.Fatalf("%v = %d %q %q", b, code, out, errOut)
					}
				}
				code, out, errOut := run(t, args...)
				res[i] = [3]string{fmt.Sprint(code), out, errOut}
			}
			if res[0] != res[1] {
				t.Fatalf("%v\nover the socket: %s\n%s%s\nover --remote: %s\n%s%s", args, res[0][0], res[0][1], res[0][2], res[1][0], res[1][1], res[1][2])
			}
		})
	}
}

// TestRemoteClientRefusals: connection flags that cannot work are usage
// errors that reach nothing; a certificate of another CA gets no answer
// and admits nothing; what the cluster protocol does not serve says so.
func TestRemoteClientRefusals(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, `{"steps": [{"text": "Hello."}]}`)
	_, strangerTLS := issueTLS(t, t.TempDir(), "mallory")
	openDir := filepath.Join(t.TempDir(), "open")
	if err := os.CopyFS(openDir, os.DirFS(r.userTLS)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(openDir, "client.key"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no TLS directory", []string{"--remote", r.addr, "prompt", "x"}, exitUsage, "needs --remote-tls-dir"},
		{"TLS directory without --remote", []string{"--remote-tls-dir", r.userTLS, "prompt", "x"}, exitUsage, "go with --remote"},
		{"both --url and --remote", []string{"--remote", r.addr, "--url", "http://127.0.0.1:1", "prompt", "x"}, exitUsage, "not both"},
		{"a node's certificate", []string{"--remote", r.addr, "--remote-tls-dir", r.nodeTLS, "prompt", "x"}, exitUsage, "client.key"},
		{"a key others can read", []string{"--remote", r.addr, "--remote-tls-dir", openDir, "prompt", "x"}, exitUsage, "client.key"},
		{"address without port", []string{"--remote", "127.0.0.1", "--remote-tls-dir", r.userTLS, "prompt", "x"}, exitUsage, "want HOST:PORT"},
		{"another CA's certificate", []string{"--remote", r.addr, "--remote-tls-dir", strangerTLS, "--agent", "main", "prompt", "planted"}, exitDown, "no runtime answered at " + r.addr},
		{"an agent's state", append(r.remoteArgs(), "--agent", "main", "agents", "state"), exitFailure, "not served over --remote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out, errOut := client(t, r.elsewhere, tc.args...); code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Fatalf("%v = %d %q %q, want %d saying %q", tc.args, code, out, errOut, tc.code, tc.want)
			}
		})
	}
	if code, out, _ := client(t, r.home, "--json", "tail", "--limit", "1000"); code != 0 || strings.Contains(out, `"kind":"message_admitted"`) {
		t.Fatalf("a refused client's prompt was admitted:\n%s", out)
	}
}
