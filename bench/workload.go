package bench

import (
	"errors"
	"fmt"

	"github.com/holon-actors/holon-actors/actors"
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
