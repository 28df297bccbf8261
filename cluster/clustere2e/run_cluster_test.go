package clustere2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/internal/proctest"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/remote"
	"github.com/holon-actors/holon-actors/remote/tlsca/tlscatest"
)

// The nodes are the holon-actors binary built WITHOUT -race: Proto.Actor's
// remote has data races when several members talk (upstream
// protoactor-go); this test process keeps the race detector.

// wait bounds every wait on another process.
const wait = 60 * time.Second

// node is holon-actors, built without -race (see above).
var node = proctest.New("../../cmd/holon-actors", "holon-actors")

// clientCerts is the remote client's name, and keys its certificate
// directory among the members'.
const clientCerts = "operator"

// runNode is one `holon-actors run --cluster-listen` process.
type runNode struct {
	name   string
	home   string
	cmd    *exec.Cmd
	log    string
	http   *http.Client
	exited chan struct{}
	err    error
}

// cluster is the nodes of one test and what they share.
type cluster struct {
	t      *testing.T
	db     string
	certs  map[string]string
	script string
	nodes  map[string]*runNode
}

func newCluster(t *testing.T, names ...string) *cluster {
	t.Helper()
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"then": "echo"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return &cluster{t: t, db: pgtest.StartT(t).NewDatabase(t), certs: tlscatest.Members(t, clientCerts, names...), script: script,
		nodes: map[string]*runNode{}}
}

// start starts node name (again, on the same home, after a stop) and
// waits until its control socket answers.
func (c *cluster) start(name string) *runNode {
	t := c.t
	t.Helper()
	var home string
	if old := c.nodes[name]; old != nil {
		home = old.home
	} else {
		// Short: the control socket's path must fit a sockaddr_un.
		dir, err := os.MkdirTemp("", "hce2e-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.RemoveAll(dir) })
		home = filepath.Join(dir, name)
	}
	logf, err := os.CreateTemp(t.TempDir(), name+"-*.log")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node.Path(t), "--home", home, "run", "--model", "scripted", "--script", c.script,
		"--journal", c.db, "--cluster-listen", "127.0.0.1:0", "--node-name", name, "--cluster-certs", c.certs[name],
		"--cluster-lease", "2s", "--shutdown-timeout", "5s", "--remote-listen", "127.0.0.1:0", "--tls-dir", c.certs[name],
		"--public-ingress")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(home, "run", "control.sock")
	n := &runNode{name: name, home: home, cmd: cmd, log: logf.Name(), exited: make(chan struct{}),
		http: &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}}}
	go func() { n.err = cmd.Wait(); close(n.exited) }()
	c.nodes[name] = n
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-n.exited
		if t.Failed() {
			b, _ := os.ReadFile(n.log)
			if len(b) > 6000 {
				b = b[len(b)-6000:]
			}
			t.Logf("node %s logged:\n%s", name, b)
		}
	})
	deadline := time.Now().Add(wait)
	for {
		if status, _ := n.call(http.MethodGet, "/control/runtime/status", nil, nil); status == http.StatusOK && n.joined() {
			return n
		}
		select {
		case <-n.exited:
			b, _ := os.ReadFile(n.log)
			t.Fatalf("node %s exited early (%v):\n%s", name, n.err, b)
		case <-time.After(50 * time.Millisecond): // polling another process
		}
		if time.Now().After(deadline) {
			t.Fatalf("node %s not ready within %s", name, wait)
		}
	}
}

// remoteAddr is the address the node serves remote clients at.
func (n *runNode) remoteAddr(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(n.home, "run", "runtime.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rf struct {
		RemoteAddr string `json:"remote_addr"`
	}
	if err := json.Unmarshal(b, &rf); err != nil || rf.RemoteAddr == "" {
		t.Fatalf("node %s's runtime.json names no remote address: %s", n.name, b)
	}
	return rf.RemoteAddr
}

// joined reports whether the node logged that it joined its cluster.
func (n *runNode) joined() bool {
	b, _ := os.ReadFile(n.log)
	return bytes.Contains(b, []byte("joined the cluster"))
}

// call sends a control API request; it answers the status and decodes a
// JSON body into out (when not nil). The status is 0 when the node did
// not answer.
func (n *runNode) call(method, path string, body, out any) (int, http.Header) {
	return n.callWith(method, path, body, out, nil)
}

// callWith is call with headers of the caller's set on the request.
func (n *runNode) callWith(method, path string, body, out any, headers map[string]string) (int, http.Header) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, method, "http://holon"+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := n.http.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil {
		_ = json.Unmarshal(b, out)
	}
	if res.StatusCode >= 300 {
		if e, ok := out.(*apiError); ok {
			e.raw = string(b)
		}
	}
	return res.StatusCode, res.Header
}

type apiError struct{ raw string }

type accepted struct {
	AgentID   string `json:"agent_id"`
	MessageID string `json:"message_id"`
	EventSeq  uint64 `json:"event_seq"`
	Duplicate bool   `json:"duplicate"`
}

// prompt sends prompt msgID to agent through n until it is accepted (the
// same id each time: admission is idempotent by it) and returns the node
// that admitted it.
func (c *cluster) prompt(n *runNode, agent, msgID string) string {
	c.t.Helper()
	deadline := time.Now().Add(wait)
	var last string
	for time.Now().Before(deadline) {
		var a accepted
		status, h := n.call(http.MethodPost, "/control/agents/"+agent+"/prompt",
			map[string]string{"text": "hello " + msgID, "message_id": msgID}, &a)
		if status == http.StatusAccepted && a.MessageID == msgID {
			return h.Get("X-Holon-Node")
		}
		last = fmt.Sprintf("status %d %+v", status, a)
		time.Sleep(100 * time.Millisecond) // retry period while the cluster moves the agent
	}
	c.t.Fatalf("prompt %s to %s through %s not accepted within %s: %s", msgID, agent, n.name, wait, last)
	return ""
}

// ingressTwice creates an agent and delivers one webhook message to it
// twice through a node it is not on, its delivery id in a header only (as
// GitHub sends it): the request is served at the agent's node, and the
// second delivery is the first's duplicate, admitted once.
func (c *cluster) ingressTwice(nodes ...*runNode) {
	c.t.Helper()
	owner := c.create(nodes[0], "hook")
	var via *runNode
	for _, n := range nodes {
		if n.name != owner {
			via = n
		}
	}
	body := map[string]string{"source": "github", "event": "push", "text": "a push"}
	header := map[string]string{"X-GitHub-Delivery": "delivery-1"}
	var first, second accepted
	s1, h1 := via.callWith(http.MethodPost, "/ingress/agents/hook/messages", body, &first, header)
	s2, _ := via.callWith(http.MethodPost, "/ingress/agents/hook/messages", body, &second, header)
	if s1 != http.StatusAccepted || s2 != http.StatusAccepted {
		c.t.Fatalf("webhook deliveries through %s: status %d and %d, want 202 both", via.name, s1, s2)
	}
	if got := h1.Get("X-Holon-Node"); got != owner {
		c.t.Errorf("delivery through %s served on %q, want the agent's node %s", via.name, got, owner)
	}
	if second.MessageID != first.MessageID || !second.Duplicate {
		c.t.Errorf("second delivery = %+v, first %+v; want the same message, a duplicate", second, first)
	}
	if n := c.facts("hook").admitted[first.MessageID]; n != 1 {
		c.t.Errorf("delivery admitted %d times, want once", n)
	}
}

// create makes agent through n; it answers the node the agent is on.
func (c *cluster) create(n *runNode, agent string) string {
	c.t.Helper()
	var e apiError
	status, h := n.call(http.MethodPost, "/control/agents", map[string]string{"agent_id": agent}, &e)
	if status != http.StatusCreated && status != http.StatusOK {
		c.t.Fatalf("create %s through %s = %d %s", agent, n.name, status, e.raw)
	}
	return h.Get("X-Holon-Node")
}

// journal reads agent's events from the shared journal.
func (c *cluster) journal(agent string) []messages.Event {
	c.t.Helper()
	ctx := context.Background()
	store, err := pgjournal.Open(ctx, pgjournal.DefaultConfig(c.db))
	if err != nil {
		c.t.Fatal(err)
	}
	defer store.Close()
	evs, err := store.Read(ctx, agent, 1, ^uint64(0), 0)
	if err != nil {
		c.t.Fatal(err)
	}
	return evs
}

// facts counts, in an agent's events, each admitted message id and each
// answered prompt ("echo: hello ID" briefs), and lists the nodes it was
// activated on.
type facts struct {
	admitted map[string]int
	answered map[string]int
	fired    []time.Time
	nodes    []string
}

func (c *cluster) facts(agent string) facts {
	f := facts{admitted: map[string]int{}, answered: map[string]int{}}
	for _, ev := range c.journal(agent) {
		p, err := ev.Decode()
		if err != nil {
			c.t.Fatalf("%s event %d: %v", agent, ev.Seq, err)
		}
		switch p := p.(type) {
		case messages.MessageAdmitted:
			f.admitted[p.Envelope.ID]++
		case messages.BriefRecorded:
			if rest, ok := strings.CutPrefix(p.Brief.Text, "echo: hello "); ok {
				f.answered[rest]++
			}
		case messages.TimerFired:
			f.fired = append(f.fired, ev.At)
		case messages.AgentActivated:
			f.nodes = append(f.nodes, p.Node)
		}
	}
	return f
}

// awaitAnswered waits until agent answered every prompt of ids.
func (c *cluster) awaitAnswered(agent string, ids ...string) facts {
	c.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		f := c.facts(agent)
		missing := ""
		for _, id := range ids {
			if f.answered[id] == 0 {
				missing = id
			}
		}
		if missing == "" {
			return f
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("agent %s did not answer %s within %s (answered %v, activated on %v)", agent, missing, wait, f.answered, f.nodes)
		}
		time.Sleep(100 * time.Millisecond) // polling the journal other processes write
	}
}

// awaitMembers waits until n's runtime status names itself and sees want
// members.
func (c *cluster) awaitMembers(n *runNode, want int) {
	c.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		var st struct {
			Cluster *struct {
				Node    string   `json:"node"`
				Members []string `json:"members"`
			} `json:"cluster"`
		}
		status, _ := n.call(http.MethodGet, "/control/runtime/status", nil, &st)
		if status == http.StatusOK && st.Cluster != nil && st.Cluster.Node == n.name && len(st.Cluster.Members) == want {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("node %s: runtime status %d cluster %+v; want itself and %d members", n.name, status, st.Cluster, want)
		}
		time.Sleep(100 * time.Millisecond) // polling another process
	}
}

// admitBehind journals an operator prompt of agent as its node would
// have admitted it (fenced at the journal's highest seq), without the
// node's activation knowing: what a node that dies right after
// acknowledging a prompt leaves behind.
func (c *cluster) admitBehind(agent, msgID string) {
	c.t.Helper()
	ctx := context.Background()
	store, err := pgjournal.Open(ctx, pgjournal.DefaultConfig(c.db))
	if err != nil {
		c.t.Fatal(err)
	}
	defer store.Close()
	env := messages.MessageEnvelope{
		ID: msgID, AgentID: agent, CreatedAt: time.Now(), Kind: messages.KindOperatorPrompt,
		Origin: messages.OperatorOrigin("control"), Priority: messages.PriorityNormal, Body: messages.TextBody("hello " + msgID),
		DeliverySurface: messages.SurfaceHTTPControlPrompt, AdmissionContext: messages.AdmissionControlAuthenticated}
	env.Normalize()
	env.AuthorityClass = messages.DeriveAuthority(env.Origin.Kind, env.DeliverySurface, env.AdmissionContext)
	ev, err := messages.NewEvent(agent, time.Now(), messages.MessageAdmitted{Envelope: env})
	if err != nil {
		c.t.Fatal(err)
	}
	high, err := store.HighestSeq(ctx, agent)
	if err != nil {
		c.t.Fatal(err)
	}
	if _, err := store.AppendAfter(ctx, agent, high, []messages.Event{ev}); err != nil {
		c.t.Fatalf("journal %s behind %s's back: %v", msgID, agent, err)
	}
}

// TestRunClusterKillOwner runs three `holon-actors run` nodes: twenty
// agents prompted through different nodes' control sockets; kill -9 the
// owner of some; every acknowledged prompt is answered exactly once on
// the survivors, nothing admitted twice, and a prompt the killed node
// journaled but did not run is run by a survivor without any request; a
// sleeping agent (a timer) of the killed node wakes on time on a survivor.
func TestRunClusterKillOwner(t *testing.T) {
	names := []string{"n1", "n2", "n3"}
	c := newCluster(t, names...)
	for _, name := range names {
		c.start(name)
	}
	order := []*runNode{c.nodes["n1"], c.nodes["n2"], c.nodes["n3"]}
	for _, n := range order {
		c.awaitMembers(n, 3)
	}

	const agents = 20
	owner := map[string]string{}
	for i := range agents {
		agent := fmt.Sprintf("a%02d", i)
		c.create(order[i%3], agent)
		owner[agent] = c.prompt(order[(i+1)%3], agent, agent+"-1")
	}
	// The sleeper's timer comes due after its owner is killed.
	c.create(order[0], "sleeper")
	victim := c.nodes[c.prompt(order[1], "sleeper", "sleeper-1")]
	if victim == nil {
		t.Fatalf("the prompt to sleeper came back from no known node")
	}
	c.awaitAnswered("sleeper", "sleeper-1")
	// The sleeper's external trigger, delivered through every node, wakes
	// it where it is (its node, about to be killed), once a delivery.
	triggerID, token := c.triggerEverywhere("sleeper", victim.name, order)
	due := time.Now().Add(12 * time.Second)
	var e apiError
	if status, _ := victim.call(http.MethodPost, "/control/agents/sleeper/timers",
		map[string]string{"message": "wake up", "at": due.UTC().Format(time.RFC3339Nano)}, &e); status >= 300 {
		t.Fatalf("create the sleeper's timer = %d %s", status, e.raw)
	}
	onVictim := 0
	for i := range agents {
		agent := fmt.Sprintf("a%02d", i)
		c.awaitAnswered(agent, agent+"-1")
		if owner[agent] == victim.name {
			onVictim++
		}
	}
	if onVictim == 0 {
		t.Fatalf("no agent is placed on %s (owners %v): nothing to fail over", victim.name, owner)
	}
	// Operations: any node lists every agent of the shared journal, and an
	// agent's status, asked anywhere, names the node it is active on.
	var list struct {
		Agents []struct {
			ID string `json:"agent_id"`
		} `json:"agents"`
	}
	if status, _ := order[2].call(http.MethodGet, "/agents/list", nil, &list); status != http.StatusOK || len(list.Agents) != agents+2 {
		t.Errorf("agents list on n3 = %d, %d agents; want %d (the twenty, sleeper and main)", status, len(list.Agents), agents+2)
	}
	for _, n := range order {
		var sum struct {
			Node string `json:"node"`
		}
		if status, _ := n.call(http.MethodGet, "/agents/sleeper/status", nil, &sum); status != http.StatusOK || sum.Node != victim.name {
			t.Errorf("sleeper's status through %s = %d, node %q; want %s", n.name, status, sum.Node, victim.name)
		}
	}
	// A remote client of the victim, told of the others, follows an
	// agent's events across the kill.
	var fallback []string
	for _, n := range order {
		if n != victim {
			fallback = append(fallback, n.remoteAddr(t))
		}
	}
	rc, err := remote.Dial(context.Background(), remote.Options{Addr: victim.remoteAddr(t), Fallback: fallback,
		TLSDir: c.certs[clientCerts], CallTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	followed := "a00"
	var seen []uint64
	seenMu := sync.Mutex{}
	followCtx, stopFollow := context.WithCancel(context.Background())
	followDone := make(chan error, 1)
	go func() {
		_, err := rc.Follow(followCtx, followed, 0, func(ev control.StreamEvent) error {
			seenMu.Lock()
			defer seenMu.Unlock()
			seen = append(seen, ev.Provenance.EventSeq)
			return nil
		})
		followDone <- err
	}()
	defer func() { stopFollow(); <-followDone }()

	// A prompt the victim acknowledged and journaled but did not get to
	// run before it died: the survivors go on with it by themselves.
	var orphans []string
	for i := range agents {
		agent := fmt.Sprintf("a%02d", i)
		if owner[agent] == victim.name {
			c.admitBehind(agent, agent+"-orphan")
			orphans = append(orphans, agent)
		}
	}
	// Settled agents publish their header, which the due index reads;
	// kill the sleeper's node well before its timer is due.
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-victim.exited
	killed := time.Now()
	if !killed.Before(due) {
		t.Fatalf("the setup outlasted the sleeper's timer (killed %s after it was due): nothing left to wake elsewhere", killed.Sub(due))
	}
	var survivors []*runNode
	for _, n := range order {
		if n != victim {
			survivors = append(survivors, n)
		}
	}

	for _, n := range survivors {
		c.awaitMembers(n, 2)
	}
	for _, agent := range orphans { // no request reaches them meanwhile
		c.awaitAnswered(agent, agent+"-orphan")
	}
	// The remote client moves to a survivor: a prompt through it is
	// admitted where the agent now runs.
	moved := orphans[0]
	if res, err := rc.Prompt(context.Background(), moved, control.PromptRequest{Text: "hello " + moved + "-remote", MessageID: moved + "-remote"}); err != nil || res.MessageID != moved+"-remote" {
		t.Fatalf("remote prompt to %s after the kill = %+v, %v", moved, res, err)
	}
	c.awaitAnswered(moved, moved+"-remote")
	if rc.Node() == victim.remoteAddr(t) {
		t.Errorf("the remote client still uses the killed node %s", rc.Node())
	}
	for i := range agents {
		agent := fmt.Sprintf("a%02d", i)
		got := c.prompt(survivors[i%2], agent, agent+"-2")
		if got == victim.name || got == "" {
			t.Errorf("%s's second prompt was admitted on %q", agent, got)
		}
	}
	for i := range agents {
		agent := fmt.Sprintf("a%02d", i)
		f := c.awaitAnswered(agent, agent+"-1", agent+"-2")
		ids := []string{agent + "-1", agent + "-2"}
		if owner[agent] == victim.name {
			ids = append(ids, agent+"-orphan")
		}
		for _, id := range ids {
			if f.admitted[id] != 1 || f.answered[id] != 1 {
				t.Errorf("%s: prompt %s admitted %d times, answered %d times; want once each", agent, id, f.admitted[id], f.answered[id])
			}
		}
		if owner[agent] == victim.name && f.nodes[len(f.nodes)-1] == victim.name {
			t.Errorf("%s still last activated on the killed node: %v", agent, f.nodes)
		}
	}

	// The followed stream has every event of the agent once, in order,
	// across the move to another node.
	high := uint64(len(c.journal(followed)))
	for deadline := time.Now().Add(wait); ; {
		seenMu.Lock()
		n := len(seen)
		seenMu.Unlock()
		if uint64(n) >= high {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the remote client saw %d of %s's %d events within %s", n, followed, high, wait)
		}
		time.Sleep(100 * time.Millisecond) // polling the follower
	}
	seenMu.Lock()
	for i, seq := range seen {
		if seq != uint64(i+1) {
			t.Errorf("the remote client's event %d of %s has seq %d: the stream has a gap or a repeat", i+1, followed, seq)
			break
		}
	}
	seenMu.Unlock()

	deadline := due.Add(wait)
	for {
		f := c.facts("sleeper")
		if len(f.fired) > 0 {
			late := f.fired[0].Sub(due)
			t.Logf("sleeper: killed %s before due, fired %s after due on %v", due.Sub(killed).Round(time.Millisecond), late.Round(time.Millisecond), f.nodes)
			if len(f.fired) != 1 {
				t.Errorf("the sleeper's timer fired %d times, want once", len(f.fired))
			}
			if late < 0 || late > 10*time.Second {
				t.Errorf("the sleeper's timer fired %s after its due time; want within 10s", late)
			}
			if f.nodes[len(f.nodes)-1] == victim.name {
				t.Errorf("the sleeper woke on the killed node: %v", f.nodes)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sleeper's timer did not fire within %s of its due time (activated on %v)", wait, f.nodes)
		}
		time.Sleep(100 * time.Millisecond) // polling the journal other processes write
	}

	// The trigger outlived its node: delivered through a survivor, it
	// wakes the sleeper where it now runs; a delivery the killed node
	// admitted is still a duplicate.
	before := c.wakeHints("sleeper", triggerID)
	if status, res, served := c.deliver(survivors[0], token, "d-after"); status != http.StatusAccepted || res.Duplicate || served == victim.name || served == "" {
		t.Errorf("delivery through %s after the kill = %d %+v served on %q; want 202 on a survivor", survivors[0].name, status, res, served)
	}
	if status, res, _ := c.deliver(survivors[1], token, "d-"+victim.name); status != http.StatusAccepted || !res.Duplicate {
		t.Errorf("a delivery the killed node admitted, repeated through %s = %d %+v; want a duplicate", survivors[1].name, status, res)
	}
	if n := c.wakeHints("sleeper", triggerID); n != before+1 {
		t.Errorf("%d wake hints from the trigger after the kill's delivery, %d before; want one more", n, before)
	}
}

// TestRunClusterRollingRestart stops each of three nodes gracefully
// (SIGTERM) in turn, prompts every agent through the others while it is
// down, and starts it again on its home: the stopped node exits 0, and
// every acknowledged prompt is admitted and answered exactly once. Then a
// node frozen (SIGSTOP) past its lease and resumed exits non-zero.
func TestRunClusterRollingRestart(t *testing.T) {
	names := []string{"n1", "n2", "n3"}
	c := newCluster(t, names...)
	for _, name := range names {
		c.start(name)
	}
	for _, name := range names {
		c.awaitMembers(c.nodes[name], 3)
	}
	c.ingressTwice(c.nodes["n1"], c.nodes["n2"], c.nodes["n3"])
	const agents = 6
	var sent []string
	promptAll := func(round int, through []*runNode) {
		for i := range agents {
			agent := fmt.Sprintf("r%02d", i)
			id := fmt.Sprintf("%s-%d", agent, round)
			if round == 0 {
				c.create(through[i%len(through)], agent)
			}
			c.prompt(through[(i+1)%len(through)], agent, id)
			sent = append(sent, id)
		}
	}
	promptAll(0, []*runNode{c.nodes["n1"], c.nodes["n2"], c.nodes["n3"]})
	for round, name := range names {
		n := c.nodes[name]
		if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-n.exited:
		case <-time.After(wait):
			t.Fatalf("node %s did not stop within %s of SIGTERM", name, wait)
		}
		if n.err != nil {
			b, _ := os.ReadFile(n.log)
			t.Fatalf("node %s stopped with %v:\n%s", name, n.err, b)
		}
		var others []*runNode
		for _, o := range names {
			if o != name {
				others = append(others, c.nodes[o])
			}
		}
		for _, o := range others {
			c.awaitMembers(o, 2)
		}
		promptAll(round+1, others)
		c.start(name)
		for _, o := range names {
			c.awaitMembers(c.nodes[o], 3)
		}
	}
	promptAll(len(names)+1, []*runNode{c.nodes["n3"], c.nodes["n1"], c.nodes["n2"]})
	for i := range agents {
		agent := fmt.Sprintf("r%02d", i)
		var ids []string
		for _, id := range sent {
			if strings.HasPrefix(id, agent+"-") {
				ids = append(ids, id)
			}
		}
		f := c.awaitAnswered(agent, ids...)
		for _, id := range ids {
			if f.admitted[id] != 1 || f.answered[id] != 1 {
				t.Errorf("%s: prompt %s admitted %d times, answered %d times; want once each", agent, id, f.admitted[id], f.answered[id])
			}
		}
	}

	// A node frozen past its lease is dropped; resumed, it finds it lost
	// its membership and exits non-zero.
	frozen := c.nodes["n2"]
	if err := frozen.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	c.awaitMembers(c.nodes["n1"], 2)
	c.awaitMembers(c.nodes["n3"], 2)
	if err := frozen.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-frozen.exited:
	case <-time.After(wait):
		t.Fatalf("node n2 did not stop within %s of resuming after it lost its membership", wait)
	}
	var exit *exec.ExitError
	if !errors.As(frozen.err, &exit) || exit.ExitCode() == 0 {
		t.Errorf("node n2 exited with %v after it lost its membership; want a non-zero status", frozen.err)
	}
	if b, _ := os.ReadFile(frozen.log); !bytes.Contains(b, []byte("lost its cluster membership")) {
		t.Errorf("node n2 did not say it lost its membership:\n%s", b)
	}
}
