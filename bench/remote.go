package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/remote"
	"github.com/holon-actors/holon-actors/remote/tlsca"
)

// RemoteConfig sets the workload of Remote.
type RemoteConfig struct {
	// Dir holds the node's home, the CA and the certificates; it must be
	// missing or empty.
	Dir string
	// Binary is the holon-actors executable that runs the node.
	Binary string
	// Clients is the number of concurrent clients on each surface.
	Clients int
	// Requests is the number of prompts on each surface, spread evenly.
	Requests int
	// Agents is how many agents each surface's clients address, round
	// robin; 0 means one per client.
	Agents int
}

// DefaultRemoteConfig is 50 clients sending 10,000 prompts on each
// surface.
func DefaultRemoteConfig(dir, binary string) RemoteConfig {
	return RemoteConfig{Dir: dir, Binary: binary, Clients: 50, Requests: 10000}
}

func (c RemoteConfig) agents() int {
	if c.Agents > 0 {
		return c.Agents
	}
	return c.Clients
}

// Validate reports the first setting that cannot run.
func (c RemoteConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("remote bench: dir is empty")
	case c.Binary == "":
		return errors.New("remote bench: no holon-actors binary to run the node")
	}
	return checkPrompts("remote", c.Clients, c.Requests, c.Agents)
}

// RemoteResult is what Remote measured: the same prompts admitted durably
// by the same node over the cluster protocol (mTLS) and over its control
// socket (HTTP).
type RemoteResult struct {
	Clients  int `json:"clients"`
	Requests int `json:"requests"` // on each surface
	Agents   int `json:"agents"`   // on each surface

	RemotePromptsPerSec float64 `json:"remote_prompts_per_sec"`
	RemoteAdmitP50Ms    float64 `json:"remote_admit_p50_ms"`
	RemoteAdmitP99Ms    float64 `json:"remote_admit_p99_ms"`
	RemoteAdmitMaxMs    float64 `json:"remote_admit_max_ms"`

	HTTPPromptsPerSec float64 `json:"http_prompts_per_sec"`
	HTTPAdmitP50Ms    float64 `json:"http_admit_p50_ms"`
	HTTPAdmitP99Ms    float64 `json:"http_admit_p99_ms"`
	HTTPAdmitMaxMs    float64 `json:"http_admit_max_ms"`

	// RemoteOverHTTPRatio is the remote p50 admit latency over the HTTP one.
	RemoteOverHTTPRatio float64 `json:"remote_over_http_ratio"`

	// CPU time per admitted prompt, of the node and of this process (the
	// clients), on each surface: where the time goes. 0 where /proc cannot
	// be read.
	RemoteNodeCPUUsPerPrompt   float64 `json:"remote_node_cpu_us_per_prompt"`
	RemoteClientCPUUsPerPrompt float64 `json:"remote_client_cpu_us_per_prompt"`
	HTTPNodeCPUUsPerPrompt     float64 `json:"http_node_cpu_us_per_prompt"`
	HTTPClientCPUUsPerPrompt   float64 `json:"http_client_cpu_us_per_prompt"`
}

// Remote starts a node (cfg.Binary run, with a private CA, paused agents
// and no model) and sends cfg.Requests prompts to it from cfg.Clients
// concurrent callers over its control socket, then as many over the
// cluster protocol from one remote client in this process. It checks
// that every acknowledged prompt is in its agent's journal exactly once.
func Remote(ctx context.Context, cfg RemoteConfig) (res RemoteResult, err error) {
	if err := cfg.Validate(); err != nil {
		return res, err
	}
	n, err := startNode(ctx, cfg)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, n.stop()) }()
	httpc := control.NewUnixClient(n.socket)
	defer httpc.Close()
	rc, err := remote.Dial(ctx, remote.Options{Addr: n.addr, TLSDir: filepath.Join(cfg.Dir, "client")})
	if err != nil {
		return res, err
	}
	defer rc.Close()
	res = RemoteResult{Clients: cfg.Clients, Requests: cfg.Requests, Agents: cfg.agents()}
	for _, s := range []struct {
		prefix string
		c      admitter
		out    [4]*float64
		cpu    [2]*float64 // node, client
	}{
		{"http", httpc, [4]*float64{&res.HTTPPromptsPerSec, &res.HTTPAdmitP50Ms, &res.HTTPAdmitP99Ms, &res.HTTPAdmitMaxMs},
			[2]*float64{&res.HTTPNodeCPUUsPerPrompt, &res.HTTPClientCPUUsPerPrompt}},
		{"remote", rc, [4]*float64{&res.RemotePromptsPerSec, &res.RemoteAdmitP50Ms, &res.RemoteAdmitP99Ms, &res.RemoteAdmitMaxMs},
			[2]*float64{&res.RemoteNodeCPUUsPerPrompt, &res.RemoteClientCPUUsPerPrompt}},
	} {
		if err := pauseAgents(ctx, httpc, s.prefix, cfg.agents()); err != nil {
			return res, err
		}
		if _, err := s.c.Prompt(ctx, s.prefix+"-warmup", control.PromptRequest{Text: "warm up"}); err != nil {
			return res, fmt.Errorf("%s warm-up prompt: %w", s.prefix, err)
		}
		pids := [2]int{n.cmd.Process.Pid, os.Getpid()}
		var cpu0 [2]time.Duration
		for i, pid := range pids {
			cpu0[i], _ = processCPU(pid) // 0 without /proc: reported as 0
		}
		elapsed, lat, acked, err := admitAll(ctx, cfg, s.c, s.prefix)
		if err != nil {
			return res, err
		}
		for i, pid := range pids {
			if cpu1, err := processCPU(pid); err == nil && cpu0[i] > 0 {
				*s.cpu[i] = float64(cpu1-cpu0[i]) / float64(time.Microsecond) / float64(cfg.Requests)
			}
		}
		p50, p99, maxL := latencySummary(lat)
		*s.out[0], *s.out[1], *s.out[2], *s.out[3] = float64(cfg.Requests)/elapsed.Seconds(), ms(p50), ms(p99), ms(maxL)
		if err := checkJournaled(ctx, httpc, s.prefix, cfg.agents(), acked); err != nil {
			return res, err
		}
	}
	if res.HTTPAdmitP50Ms > 0 {
		res.RemoteOverHTTPRatio = res.RemoteAdmitP50Ms / res.HTTPAdmitP50Ms
	}
	return res, nil
}

// pauseAgents creates the surface's agents (and its warm-up agent) and
// pauses them, so prompts only queue: no turn competes for the CPU.
func pauseAgents(ctx context.Context, c *control.Client, prefix string, n int) error {
	for i := range n + 1 {
		id := prefix + "-warmup"
		if i < n {
			id = fmt.Sprintf("%s-%04d", prefix, i)
		}
		if _, err := c.CreateAgent(ctx, id); err != nil {
			return fmt.Errorf("create %s: %w", id, err)
		}
		if _, err := c.Lifecycle(ctx, id, actors.OpPause, "bench remote: queue only"); err != nil {
			return fmt.Errorf("pause %s: %w", id, err)
		}
	}
	return nil
}

// admitAll sends cfg.Requests prompts through c from cfg.Clients
// goroutines (promptLoad).
func admitAll(ctx context.Context, cfg RemoteConfig, c admitter, prefix string) (time.Duration, []time.Duration, map[string]map[string]bool, error) {
	name := func(k int) string { return fmt.Sprintf("%s-%04d", prefix, k) }
	return promptLoad(ctx, prefix+" ", cfg.Clients, cfg.Requests, cfg.agents(), name, func() (admitter, func()) { return c, nil })
}

// checkJournaled verifies through the node's events that each
// acknowledged prompt was admitted once.
func checkJournaled(ctx context.Context, c *control.Client, prefix string, agents int, acked map[string]map[string]bool) error {
	for i := range agents {
		id := fmt.Sprintf("%s-%04d", prefix, i)
		seen := map[string]int{}
		for after := uint64(0); ; {
			page, err := c.Events(ctx, id, after, 1000)
			if err != nil {
				return err
			}
			for _, ev := range page.Events {
				if ev.Provenance.Kind == messages.EventMessageAdmitted {
					seen[ev.Provenance.MessageID]++
				}
			}
			if len(page.Events) == 0 {
				break
			}
			after = page.NextAfter
		}
		for msg := range acked[id] {
			if seen[msg] != 1 {
				return fmt.Errorf("agent %s: acknowledged %s is journaled %d times, want 1", id, msg, seen[msg])
			}
		}
		if len(seen) != len(acked[id]) {
			return fmt.Errorf("agent %s: %d prompts journaled, %d acknowledged", id, len(seen), len(acked[id]))
		}
	}
	return nil
}

// node is the runtime process under test.
type node struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once cmd is waited for
	err    error         // cmd's exit, set before exited closes
	socket string
	addr   string // its remote address
	log    string // its output
}

// startNode makes the CA and certificates under cfg.Dir, starts the node
// and waits until its control socket answers.
func startNode(ctx context.Context, cfg RemoteConfig) (*node, error) {
	ca, nodeTLS, clientTLS := filepath.Join(cfg.Dir, "ca"), filepath.Join(cfg.Dir, "node"), filepath.Join(cfg.Dir, "client")
	now := time.Now()
	if err := tlsca.Init(ca, now); err != nil {
		return nil, err
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleMember, Name: "bench-node", Hosts: []string{"127.0.0.1"}, Out: nodeTLS, Now: now}); err != nil {
		return nil, err
	}
	if err := tlsca.Issue(ca, tlsca.IssueRequest{Role: tlsca.RoleClient, Name: "bench-operator", Out: clientTLS, Now: now}); err != nil {
		return nil, err
	}
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	home := filepath.Join(cfg.Dir, "home")
	logf, err := os.Create(filepath.Join(cfg.Dir, "node.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	cmd := exec.Command(cfg.Binary, "--home", home, "run", "--remote-listen", addr, "--tls-dir", nodeTLS,
		"--shutdown-timeout", "5s", "--scrub-interval", "0")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the node: %w", err)
	}
	n := &node{cmd: cmd, exited: make(chan struct{}), socket: filepath.Join(home, "run", "control.sock"), addr: addr, log: logf.Name()}
	go func() { n.err = cmd.Wait(); close(n.exited) }() // ends with the process, which stop ends
	if err := n.ready(ctx); err != nil {
		return nil, errors.Join(err, n.stop())
	}
	return n, nil
}

// ready waits until the node's control socket answers.
func (n *node) ready(ctx context.Context) error {
	c := control.NewUnixClient(n.socket)
	defer c.Close()
	deadline := time.Now().Add(time.Minute)
	for {
		if st, err := c.RuntimeStatus(ctx); err == nil && st.PID == n.cmd.Process.Pid {
			return nil
		}
		select {
		case <-n.exited:
			out, _ := os.ReadFile(n.log)
			return fmt.Errorf("the node exited (%v):\n%s", n.err, out)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond): // polling another process
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the node's control socket did not answer within a minute (log: %s)", n.log)
		}
	}
}

// stop ends the node with SIGTERM, then SIGKILL after 30 s.
func (n *node) stop() error {
	_ = n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.exited:
		return nil
	case <-time.After(30 * time.Second):
		_ = n.cmd.Process.Kill()
		<-n.exited
		return fmt.Errorf("the node did not stop within 30 s of SIGTERM (log: %s)", n.log)
	}
}

// freeLoopbackAddr is a loopback address with a port free right now.
func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
