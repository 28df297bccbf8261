package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/control"
)

// count is one numeric setting of a workload, named as its error says it.
type count struct {
	name string
	n    int
}

// checkWorkload reports the first setting of a bench's workload that
// cannot run: an empty dir, or a count below 1 ("turns bench: agents is 0,
// want at least 1").
func checkWorkload(bench, dir string, counts ...count) error {
	if dir == "" {
		return errors.New(bench + " bench: dir is empty")
	}
	for _, c := range counts {
		if c.n < 1 {
			return fmt.Errorf("%s bench: %s is %d, want at least 1", bench, c.name, c.n)
		}
	}
	return nil
}

// checkPrompts checks a prompt load: clients sending requests prompts in
// all to agents agents (0: one per client), which queue without a turn
// running, so an agent's share must fit its queue.
func checkPrompts(bench string, clients, requests, agents int) error {
	n := agents
	if n == 0 {
		n = clients
	}
	switch {
	case clients < 1:
		return fmt.Errorf("%s bench: clients is %d, want at least 1", bench, clients)
	case requests < clients:
		return fmt.Errorf("%s bench: requests is %d, want at least one per client (%d)", bench, requests, clients)
	case agents < 0:
		return fmt.Errorf("%s bench: agents is %d, want 0 (one per client) or more", bench, agents)
	case (requests+n-1)/n > actors.DefaultQueueLimit:
		return fmt.Errorf("%s bench: %d prompts per agent exceed the queue limit %d: add agents", bench, (requests+n-1)/n, actors.DefaultQueueLimit)
	}
	return nil
}

// admitter admits one prompt: the HTTP or the remote client.
type admitter interface {
	Prompt(ctx context.Context, id string, req control.PromptRequest) (control.PromptResponse, error)
}

// promptLoad sends requests prompts from clients goroutines released at
// once: client i's prompt j goes to agent name((i+j*clients)%agents)
// through the admitter open gives that client (close, when not nil, is
// called when it is done). It returns the wall time, every admit's
// latency, the acknowledged message ids per agent, and the first failure
// (label names the surface in it), after which that client stops.
func promptLoad(ctx context.Context, label string, clients, requests, agents int, name func(int) string,
	open func() (c admitter, close func())) (time.Duration, []time.Duration, map[string]map[string]bool, error) {
	var (
		mu    sync.Mutex
		lat   = make([]time.Duration, 0, requests)
		acked = map[string]map[string]bool{}
		first error
		wg    sync.WaitGroup
	)
	start := make(chan struct{}) // closed to release every client at once
	for i := range clients {
		n := requests / clients
		if i < requests%clients {
			n++
		}
		wg.Go(func() {
			c, done := open()
			if done != nil {
				defer done()
			}
			<-start
			for j := range n {
				agent := name((i + j*clients) % agents)
				t0 := time.Now()
				r, err := c.Prompt(ctx, agent, control.PromptRequest{Text: fmt.Sprintf("client %d prompt %d", i, j)})
				d := time.Since(t0)
				mu.Lock()
				if err != nil && first == nil {
					first = fmt.Errorf("%sclient %d prompt %d to %s: %w", label, i, j, agent, err)
				}
				if err == nil {
					lat = append(lat, d)
					if acked[agent] == nil {
						acked[agent] = map[string]bool{}
					}
					acked[agent][r.MessageID] = true
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	return time.Since(began), lat, acked, first
}
