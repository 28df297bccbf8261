package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/holon-actors/holon-actors/cluster/pgmembers"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/internal/pgtest"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence/pgjournal"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// ClusterConfig sets the workload of Cluster.
type ClusterConfig struct {
	// Dir holds the nodes' homes, the certificates and the PostgreSQL
	// server's data; it must be missing or empty.
	Dir string
	// Binary is the holon-actors executable that runs the nodes.
	Binary string
	// Agents is how many agents the turn workload drives, each through
	// one node, round robin; Turns is the turns of each.
	Agents int
	Turns  int
	// Kills is how many times the owner of an agent is killed (SIGKILL)
	// and failover timed; the killed node is restarted each time.
	Kills int
	// PGStreams and PGEvents are the PostgreSQL journal workload (bench
	// pg): streams, and single-event appends to each.
	PGStreams int
	PGEvents  int
}

// DefaultClusterConfig is 30 agents of 20 turns, 5 kills, and bench pg's
// 100 streams of 200 events.
func DefaultClusterConfig(dir, binary string) ClusterConfig {
	return ClusterConfig{Dir: dir, Binary: binary, Agents: 30, Turns: 20, Kills: 5, PGStreams: 100, PGEvents: 200}
}

// Validate reports the first setting that cannot run.
func (c ClusterConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("cluster bench: dir is empty")
	case c.Binary == "":
		return errors.New("cluster bench: no holon-actors binary to run the nodes")
	case c.Agents < 1 || c.Turns < 1:
		return fmt.Errorf("cluster bench: %d agents of %d turns: want at least 1 of each (--agents, --turns)", c.Agents, c.Turns)
	case c.Kills < 1:
		return fmt.Errorf("cluster bench: kills is %d, want at least 1 (--kills: failover is timed on kills)", c.Kills)
	case c.PGStreams < 1 || c.PGEvents < 1:
		return fmt.Errorf("cluster bench: %d pg streams of %d events: want at least 1 of each (--pg-streams, --pg-events)", c.PGStreams, c.PGEvents)
	}
	return nil
}

// ClusterResult is what Cluster measured on three nodes on loopback over
// one PostgreSQL.
type ClusterResult struct {
	Nodes  int `json:"nodes"`
	Agents int `json:"agents"`
	Turns  int `json:"turns"` // per agent
	Kills  int `json:"kills"`

	// FailoverMs is the worst of the kills: SIGKILL of an agent's owner
	// to the first prompt to the agent accepted by a survivor.
	// FailoverRunsMs are all of them, in order.
	FailoverMs     float64   `json:"failover_ms"`
	FailoverP50Ms  float64   `json:"failover_p50_ms"`
	FailoverRunsMs []float64 `json:"failover_runs_ms"`

	// PGDurableEventsPerSec is bench pg's figure on the same server
	// (PGStreams streams of PGEvents single-event appends).
	PGDurableEventsPerSec float64 `json:"pg_durable_events_per_sec"`

	// ClusterTurnsPerSec is turns completed per second, zero-latency
	// model, agents driven through the three nodes' control sockets;
	// SingleNodeBadgerTurnsPerSec the same workload on one node over its
	// Badger journal.
	ClusterTurnsPerSec          float64 `json:"cluster_turns_per_sec"`
	SingleNodeBadgerTurnsPerSec float64 `json:"single_node_badger_turns_per_sec"`

	// Acked is every prompt a node acknowledged; LostAcked those not in
	// their agent's journal exactly once (must be 0).
	Acked     int `json:"acked"`
	LostAcked int `json:"lost_acked"`
}

// clusterNodes is the number of nodes Cluster runs.
const clusterNodes = 3

// zeroScript is the scripted model's script: every round answers "ok".
const zeroScript = `{"steps": [{"text": "ok"}], "then": "repeat"}`

// Cluster starts a PostgreSQL server and three nodes (cfg.Binary run
// --cluster-listen ..., the scripted zero-latency model) on loopback,
// and measures: bench pg on the server; turns per second through the
// three nodes; failover over cfg.Kills kills of an agent's owner; and
// that every acknowledged prompt is journaled once. Then it runs the same
// turns on one node over Badger.
func Cluster(ctx context.Context, cfg ClusterConfig) (res ClusterResult, err error) {
	if err := cfg.Validate(); err != nil {
		return res, err
	}
	res = ClusterResult{Nodes: clusterNodes, Agents: cfg.Agents, Turns: cfg.Turns, Kills: cfg.Kills}
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return res, err
	}
	srv, err := pgtest.Start()
	if err != nil {
		return res, fmt.Errorf("cluster bench: start PostgreSQL: %w", err)
	}
	defer func() { err = errors.Join(err, srv.Stop()) }()

	pgURL, err := srv.CreateDatabase("holon_bench_pg")
	if err != nil {
		return res, err
	}
	pg, err := PGJournal(ctx, PGJournalConfig{URL: pgURL, Streams: cfg.PGStreams, Events: cfg.PGEvents, Batch: 1,
		Committers: DefaultPGJournalConfig(pgURL).Committers})
	if err != nil {
		return res, err
	}
	res.PGDurableEventsPerSec = pg.PGDurableEventsPerSec

	url, err := srv.CreateDatabase("holon_bench_cluster")
	if err != nil {
		return res, err
	}
	c, err := startCluster(ctx, cfg, url)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, c.stop()) }()
	acked := map[string][]string{}
	elapsed, err := driveTurns(ctx, c.clients(), c.awaitTurns, "t", cfg.Agents, cfg.Turns, acked)
	if err != nil {
		return res, fmt.Errorf("cluster turns: %w", err)
	}
	res.ClusterTurnsPerSec = float64(cfg.Agents*cfg.Turns) / elapsed.Seconds()

	for k := range cfg.Kills {
		d, err := c.failover(ctx, fmt.Sprintf("f%d", k), acked)
		if err != nil {
			return res, fmt.Errorf("failover %d: %w", k+1, err)
		}
		res.FailoverRunsMs = append(res.FailoverRunsMs, ms(d))
	}
	sorted := slices.Sorted(slices.Values(res.FailoverRunsMs))
	res.FailoverMs, res.FailoverP50Ms = sorted[len(sorted)-1], sorted[len(sorted)/2]

	for _, ids := range acked {
		res.Acked += len(ids)
	}
	if res.LostAcked, err = c.lostAcked(ctx, acked); err != nil {
		return res, err
	}

	single, err := startSingle(ctx, cfg)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, single.stop()) }()
	sc := control.NewUnixClient(single.socket)
	defer sc.Close()
	elapsed, err = driveTurns(ctx, []*control.Client{sc}, followTurns(sc), "t", cfg.Agents, cfg.Turns, map[string][]string{})
	if err != nil {
		return res, fmt.Errorf("single node turns: %w", err)
	}
	res.SingleNodeBadgerTurnsPerSec = float64(cfg.Agents*cfg.Turns) / elapsed.Seconds()
	return res, nil
}

// benchCluster is the three node processes of Cluster.
type benchCluster struct {
	cfg    ClusterConfig
	url    string
	script string
	certs  map[string]string
	starts int // node starts so far, for fresh homes

	mu    sync.Mutex
	nodes map[string]*node
	cl    map[string]*control.Client
	pool  *pgxpool.Pool
	// store reads the journal the nodes share: turns, owners and
	// admissions are checked there.
	store *pgjournal.Store
}

// startCluster makes the CA and the member certificates and starts the
// three nodes, returning once each answers on its control socket and the
// membership table holds all three.
func startCluster(ctx context.Context, cfg ClusterConfig, url string) (*benchCluster, error) {
	script := filepath.Join(cfg.Dir, "zero-latency.json")
	if err := os.WriteFile(script, []byte(zeroScript), 0o600); err != nil {
		return nil, err
	}
	ca, now := filepath.Join(cfg.Dir, "ca"), time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		return nil, err
	}
	c := &benchCluster{cfg: cfg, url: url, script: script, certs: map[string]string{}, nodes: map[string]*node{}, cl: map[string]*control.Client{}}
	for i := range clusterNodes {
		name := fmt.Sprintf("n%d", i+1)
		c.certs[name] = filepath.Join(cfg.Dir, "certs", name)
		if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleMember, Name: name, Hosts: []string{"127.0.0.1"}, Out: c.certs[name], Now: now}); err != nil {
			return nil, err
		}
	}
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	c.pool = pool
	sc := pgjournal.DefaultConfig(url)
	sc.Committers, sc.MaxConns = 1, 4
	if c.store, err = pgjournal.Open(ctx, sc); err != nil {
		pool.Close()
		return nil, err
	}
	for i := range clusterNodes {
		if err := c.start(ctx, fmt.Sprintf("n%d", i+1)); err != nil {
			return nil, errors.Join(err, c.stop())
		}
	}
	if err := c.awaitMembers(ctx); err != nil {
		return nil, errors.Join(err, c.stop())
	}
	return c, nil
}

// start starts node name in a fresh home and waits until it answers.
func (c *benchCluster) start(ctx context.Context, name string) error {
	c.starts++
	addr, err := freeLoopbackAddr()
	if err != nil {
		return err
	}
	home := filepath.Join(c.cfg.Dir, fmt.Sprintf("%s-%d", name, c.starts))
	n, err := startProcess(ctx, c.cfg.Binary, home, filepath.Join(c.cfg.Dir, fmt.Sprintf("%s-%d.log", name, c.starts)),
		"--journal", c.url, "--cluster-listen", addr, "--node-name", name, "--cluster-certs", c.certs[name],
		"--model", "scripted", "--script", c.script)
	if err != nil {
		return fmt.Errorf("node %s: %w", name, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nodes[name] = n
	c.cl[name] = control.NewUnixClient(n.socket)
	return nil
}

// awaitMembers waits until the membership table holds all the nodes.
func (c *benchCluster) awaitMembers(ctx context.Context) error {
	reg, err := pgmembers.Open(ctx, c.pool, "holon", time.Second)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(time.Minute)
	for {
		ms, err := reg.Alive(ctx)
		if err == nil && len(ms) == clusterNodes {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the cluster has %d members after a minute, want %d (%v)", len(ms), clusterNodes, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond): // polling other processes
		}
	}
}

// clients are the nodes' control clients, in name order.
func (c *benchCluster) clients() []*control.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*control.Client
	for i := range clusterNodes {
		out = append(out, c.cl[fmt.Sprintf("n%d", i+1)])
	}
	return out
}

// failover prompts agent once, finds its owner, kills the owner with
// SIGKILL and times until a survivor accepts the agent's next prompt;
// then it restarts the killed node.
func (c *benchCluster) failover(ctx context.Context, agent string, acked map[string][]string) (time.Duration, error) {
	first := c.clients()[0]
	if err := createAgent(ctx, first, agent); err != nil {
		return 0, err
	}
	if err := prompt(ctx, first, agent, agent+"-1", time.Minute); err != nil {
		return 0, err
	}
	acked[agent] = append(acked[agent], agent+"-1")
	owner, err := c.ownerOf(ctx, agent)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	victim := c.nodes[owner]
	var survivor *control.Client
	for name, cl := range c.cl {
		if name != owner {
			survivor = cl
			break
		}
	}
	c.mu.Unlock()
	if victim == nil || survivor == nil {
		return 0, fmt.Errorf("agent %s is active on %q, not one of the nodes", agent, owner)
	}
	killed := time.Now()
	if err := victim.cmd.Process.Kill(); err != nil {
		return 0, err
	}
	if err := prompt(ctx, survivor, agent, agent+"-2", time.Minute); err != nil {
		return 0, fmt.Errorf("after killing %s: %w", owner, err)
	}
	took := time.Since(killed)
	acked[agent] = append(acked[agent], agent+"-2")
	<-victim.exited
	c.mu.Lock()
	c.cl[owner].Close()
	c.mu.Unlock()
	if err := c.start(ctx, owner); err != nil {
		return 0, err
	}
	return took, c.awaitMembers(ctx)
}

// stop stops every node and closes the membership pool.
func (c *benchCluster) stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for name, n := range c.nodes {
		c.cl[name].Close()
		select {
		case <-n.exited:
			continue
		default:
		}
		errs = append(errs, n.stop())
	}
	if c.pool != nil {
		c.pool.Close()
	}
	if c.store != nil {
		errs = append(errs, c.store.Close())
	}
	return errors.Join(errs...)
}

// startSingle starts one node over its Badger journal, with the same
// model.
func startSingle(ctx context.Context, cfg ClusterConfig) (*node, error) {
	return startProcess(ctx, cfg.Binary, filepath.Join(cfg.Dir, "single"), filepath.Join(cfg.Dir, "single.log"),
		"--model", "scripted", "--script", filepath.Join(cfg.Dir, "zero-latency.json"))
}

// startProcess starts cfg.Binary run in home with args and waits until
// its control socket answers.
func startProcess(ctx context.Context, binary, home, logPath string, args ...string) (*node, error) {
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(binary, append([]string{"--home", home, "run", "--shutdown-timeout", "5s", "--scrub-interval", "0"}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", binary, err)
	}
	n := &node{cmd: cmd, exited: make(chan struct{}), socket: filepath.Join(home, "run", "control.sock"), log: logPath}
	go func() { n.err = cmd.Wait(); close(n.exited) }() // ends with the process, which stop ends
	if err := n.ready(ctx); err != nil {
		return nil, errors.Join(err, n.stop())
	}
	return n, nil
}

// prompt sends message id to agent through c until it is accepted (the
// same id each time: admission is idempotent by it), for at most within.
func prompt(ctx context.Context, c *control.Client, agent, id string, within time.Duration) error {
	return retry(ctx, within, func() error {
		if _, err := c.Prompt(ctx, agent, control.PromptRequest{Text: "hello " + id, MessageID: id}); err != nil {
			return fmt.Errorf("prompt %s to %s: %w", id, agent, err)
		}
		return nil
	})
}

// createAgent creates agent through c, again while the node answers
// that it is not ready (it has not joined yet); one that exists is fine.
func createAgent(ctx context.Context, c *control.Client, agent string) error {
	return retry(ctx, time.Minute, func() error {
		_, err := c.CreateAgent(ctx, agent)
		var ce *control.Error
		if errors.As(err, &ce) && ce.Kind == control.KindConflict {
			return nil
		}
		if err != nil {
			return fmt.Errorf("create %s: %w", agent, err)
		}
		return nil
	})
}

// retry calls f until it succeeds, for at most within: the cluster is
// joining, or moving an agent off a dead node.
func retry(ctx context.Context, within time.Duration, f func() error) error {
	deadline := time.Now().Add(within)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond): // asking other processes again
		}
	}
}

// turnWaiter returns once agent has ended n turns.
type turnWaiter func(ctx context.Context, agent string, n int) error

// driveTurns runs turns turns on each of agents agents (prefix-0000...),
// agent i through clients[i%len(clients)]: it prompts, waits (wait) for
// the turn to end, and prompts again. It records each acknowledged prompt
// in acked and returns the time they all took.
func driveTurns(ctx context.Context, clients []*control.Client, wait turnWaiter, prefix string, agents, turns int, acked map[string][]string) (time.Duration, error) {
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		first error
	)
	start := time.Now()
	for i := range agents {
		agent := fmt.Sprintf("%s-%04d", prefix, i)
		c := clients[i%len(clients)]
		wg.Go(func() {
			ids, err := agentTurns(ctx, c, wait, agent, turns)
			mu.Lock()
			defer mu.Unlock()
			acked[agent] = append(acked[agent], ids...)
			if err != nil && first == nil {
				first = err
			}
		})
	}
	wg.Wait()
	return time.Since(start), first
}

// agentTurns runs one agent's turns (driveTurns).
func agentTurns(ctx context.Context, c *control.Client, wait turnWaiter, agent string, turns int) ([]string, error) {
	if err := createAgent(ctx, c, agent); err != nil {
		return nil, err
	}
	var ids []string
	for t := range turns {
		id := fmt.Sprintf("%s-%d", agent, t+1)
		if err := prompt(ctx, c, agent, id, time.Minute); err != nil {
			return ids, err
		}
		ids = append(ids, id)
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		err := wait(wctx, agent, t+1)
		cancel()
		if err != nil {
			return ids, fmt.Errorf("agent %s: turn %d: %w", agent, t+1, err)
		}
	}
	return ids, nil
}

// awaitTurns waits on the shared journal until agent has ended n turns.
func (c *benchCluster) awaitTurns(ctx context.Context, agent string, n int) error {
	sub := c.store.Subscribe(agent)
	defer sub.Close()
	ended, next := 0, uint64(1)
	for {
		evs, err := c.store.Read(ctx, agent, next, ^uint64(0), 0)
		if err != nil {
			return err
		}
		for _, ev := range evs {
			if ev.Type == messages.EventTurnTerminal {
				ended++
			}
			next = ev.Seq + 1
		}
		if ended >= n {
			return nil
		}
		select {
		case <-sub.C:
		case <-ctx.Done():
			return fmt.Errorf("%d turns ended, waiting for %d: %w", ended, n, ctx.Err())
		}
	}
}

// followTurns waits on c's event stream of the agent (a single node).
func followTurns(c *control.Client) turnWaiter {
	return func(ctx context.Context, agent string, n int) error {
		ended := 0
		_, err := c.Follow(ctx, agent, 0, func(ev control.StreamEvent) error {
			if ev.Provenance.Kind == messages.EventTurnTerminal {
				if ended++; ended >= n {
					return control.ErrStop
				}
			}
			return nil
		})
		return err
	}
}

// ownerOf is the node of agent's latest agent_activated event.
func (c *benchCluster) ownerOf(ctx context.Context, agent string) (string, error) {
	evs, err := c.store.Read(ctx, agent, 1, ^uint64(0), 0)
	if err != nil {
		return "", err
	}
	owner := ""
	for _, ev := range evs {
		if ev.Type != messages.EventAgentActivated {
			continue
		}
		p, err := ev.Decode()
		if err != nil {
			return "", fmt.Errorf("agent %s: %w", agent, err)
		}
		owner = p.(messages.AgentActivated).Node
	}
	if owner == "" {
		return "", fmt.Errorf("agent %s was never activated", agent)
	}
	return owner, nil
}

// lostAcked counts the acknowledged prompts that are not in their agent's
// journal exactly once.
func (c *benchCluster) lostAcked(ctx context.Context, acked map[string][]string) (int, error) {
	lost := 0
	for agent, ids := range acked {
		evs, err := c.store.Read(ctx, agent, 1, ^uint64(0), 0)
		if err != nil {
			return 0, err
		}
		seen := map[string]int{}
		for _, ev := range evs {
			if ev.Type != messages.EventMessageAdmitted {
				continue
			}
			p, err := ev.Decode()
			if err != nil {
				return 0, fmt.Errorf("agent %s: %w", agent, err)
			}
			seen[p.(messages.MessageAdmitted).Envelope.ID]++
		}
		for _, id := range ids {
			if seen[id] != 1 {
				lost++
			}
		}
	}
	return lost, nil
}
