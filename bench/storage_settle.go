package bench

import (
	"context"
	"runtime"
	"sync"

	"github.com/holon-actors/holon-actors/actors"
)

// settleAll waits until each of the first agents has replayed its journal
// and answers: Activate returns once an agent's actor runs, and its replay
// goes on in it, so a listing timed right after activateAll would time the
// replays of a thousand agents (first_list_ms was 12–37 s of them).
func settleAll(ctx context.Context, rt *actors.Runtime, agents int) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	next := make(chan int) // agent numbers, closed once all are handed out
	var wg sync.WaitGroup
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				if _, err := rt.Info(ctx, agentName(i)); err != nil {
					cancel(err)
				}
			}
		})
	}
	for i := range agents {
		select {
		case next <- i:
		case <-ctx.Done():
		}
	}
	close(next)
	wg.Wait()
	return context.Cause(ctx)
}
