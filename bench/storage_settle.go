package bench

import (
	"context"

	"github.com/holon-actors/holon-actors/actors"
)

// settleAll waits until each of the first agents has replayed its journal
// and answers: Activate returns once an agent's actor runs, and its replay
// goes on in it, so a listing timed right after activateAll would time the
// replays of a thousand agents (first_list_ms was 12–37 s of them).
func settleAll(ctx context.Context, rt *actors.Runtime, agents int) error {
	return eachAgent(ctx, agents, func(ctx context.Context, name string) error {
		_, err := rt.Info(ctx, name)
		return err
	})
}
