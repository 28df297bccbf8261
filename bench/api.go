package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
)

// APIDir is the sub-directory of APIConfig.Dir that holds the store and
// the socket.
const APIDir = "api"

// APIConfig sets the workload of API.
type APIConfig struct {
	// Dir is the parent directory; APIDir under it must be missing or hold
	// an empty store.
	Dir string
	// Clients is the number of concurrent control clients, each with its
	// own connection.
	Clients int
	// Requests is the total number of prompts, spread evenly.
	Requests int
	// Agents is how many agents the clients address, round robin; 0 means
	// one per client.
	Agents int
	Keep   bool
	Logger *slog.Logger
}

// DefaultAPIConfig is 50 clients sending 20,000 prompts to 50 agents.
func DefaultAPIConfig(dir string) APIConfig {
	return APIConfig{Dir: dir, Clients: 50, Requests: 20000}
}

func (c APIConfig) agents() int {
	if c.Agents > 0 {
		return c.Agents
	}
	return c.Clients
}

// Validate reports the first setting that cannot run.
func (c APIConfig) Validate() error {
	switch {
	case c.Dir == "":
		return errors.New("api bench: dir is empty")
	}
	return checkPrompts("api", c.Clients, c.Requests, c.Agents)
}

// APIResult is what API measured.
type APIResult struct {
	Clients  int `json:"clients"`
	Requests int `json:"requests"`
	Agents   int `json:"agents"`
	// PromptsPerSec counts prompts acknowledged (durably admitted) per
	// second of the run, through the unix socket.
	PromptsPerSec float64 `json:"prompts_per_sec"`
	Seconds       float64 `json:"seconds"`
	// Admit latencies from sending the request to reading the 202.
	AdmitP50Ms float64 `json:"admit_p50_ms"`
	AdmitP99Ms float64 `json:"admit_p99_ms"`
	AdmitMaxMs float64 `json:"admit_max_ms"`
}

// API starts a runtime and its control server on a unix socket over a
// durable store, pauses cfg.agents() agents (so prompts queue and no turn
// competes for the CPU), and sends cfg.Requests operator prompts from
// cfg.Clients concurrent clients. Afterwards it checks that every
// acknowledged prompt is in its agent's journal, exactly once.
func API(ctx context.Context, cfg APIConfig) (APIResult, error) {
	if err := cfg.Validate(); err != nil {
		return APIResult{}, err
	}
	return withControlStore(ctx, filepath.Join(cfg.Dir, APIDir), cfg.Keep, cfg.Logger,
		func(st *persistence.BadgerStore, sock string) (APIResult, error) { return apiRun(ctx, cfg, st, sock) })
}

func apiRun(ctx context.Context, cfg APIConfig, st *persistence.BadgerStore, sock string) (res APIResult, err error) {
	rt, err := newBenchRuntime(st, cfg.Logger)
	if err != nil {
		return APIResult{}, err
	}
	defer func() { err = errors.Join(err, closeRuntime(rt)) }()
	_, stop, err := serveControl(control.Config{Runtime: rt, Store: st}, sock)
	if err != nil {
		return APIResult{}, err
	}
	defer func() { err = errors.Join(err, stop()) }()
	c := control.NewUnixClient(sock)
	defer c.Close()
	for i := range cfg.agents() {
		if _, err := c.CreateAgent(ctx, agentName(i)); err != nil {
			return APIResult{}, fmt.Errorf("create %s: %w", agentName(i), err)
		}
		if _, err := c.Lifecycle(ctx, agentName(i), actors.OpPause, "bench api: queue only"); err != nil {
			return APIResult{}, err
		}
	}
	res = APIResult{Clients: cfg.Clients, Requests: cfg.Requests, Agents: cfg.agents()}
	elapsed, lat, acked, err := sendPrompts(ctx, cfg, sock)
	if err != nil {
		return APIResult{}, err
	}
	res.Seconds = elapsed.Seconds()
	res.PromptsPerSec = float64(cfg.Requests) / res.Seconds
	p50, p99, maxL := latencySummary(lat)
	res.AdmitP50Ms, res.AdmitP99Ms, res.AdmitMaxMs = ms(p50), ms(p99), ms(maxL)
	return res, checkAdmitted(ctx, st, cfg.agents(), acked)
}

// sendPrompts runs the clients, each on its own connection to the
// socket (promptLoad).
func sendPrompts(ctx context.Context, cfg APIConfig, sock string) (time.Duration, []time.Duration, map[string]map[string]bool, error) {
	return promptLoad(ctx, "", cfg.Clients, cfg.Requests, cfg.agents(), agentName, func() (admitter, func()) {
		c := control.NewUnixClient(sock)
		return c, func() { c.Close() }
	})
}

// checkAdmitted verifies each acknowledged prompt was journaled once.
func checkAdmitted(ctx context.Context, st persistence.Store, agents int, acked map[string]map[string]bool) error {
	for i := range agents {
		id := agentName(i)
		evs, err := st.Read(ctx, id, 1, ^uint64(0), 0)
		if err != nil {
			return err
		}
		seen := map[string]int{}
		for _, ev := range evs {
			if ev.Type != messages.EventMessageAdmitted {
				continue
			}
			p, err := ev.Decode()
			if err != nil {
				return err
			}
			seen[p.(messages.MessageAdmitted).Envelope.ID]++
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
