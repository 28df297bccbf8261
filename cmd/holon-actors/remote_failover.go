package main

import (
	"context"
	"errors"

	"github.com/holon-actors/holon-actors/remote"
)

// firstAnswering moves a client given several nodes (--remote A,B,...)
// to the first of them that answers, asking each in turn for the runtime's
// status, so a command whose first node is down is served by the next:
// only a prompt and an event stream retry on the next node by themselves.
// One node is left to the command's own request, as before.
func firstAnswering(ctx context.Context, rc *remote.Client, nodes int) error {
	if nodes < 2 {
		return nil
	}
	var err error
	for range nodes {
		if _, err = rc.RuntimeStatus(ctx); !errors.Is(err, remote.ErrNoAnswer) {
			return nil // answered, even with a refusal: the command's own request says it
		}
	}
	return err
}
