package node

import (
	"context"
	"time"

	"github.com/holon-actors/holon-actors/persistence/pgjournal"
)

// takeoverTimeout bounds one takeover pass.
const takeoverTimeout = 2 * time.Minute

// takeover goes on with the work of agents a node left behind. A node
// recovers no agent at start (the cluster places them), so when it joins
// and whenever members leave, it lists the agents that wrote since they
// last settled (a turn in flight, a message queued: pgjournal's
// Unsettled) and activates each where the cluster places it now. An agent
// already running is untouched (its activation is where it is placed);
// settled agents wake through the due index.
type takeover struct {
	kick chan struct{} // buffered 1: a pass is due
	stop context.CancelFunc
	done chan struct{}
}

// startTakeover starts the takeover loop with a first pass at once.
func (n *Node) startTakeover(store *pgjournal.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	t := &takeover{kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	n.cl.takeover = t
	t.kick <- struct{}{}
	n.cl.node.Load().OnMembersLeft(func() {
		select {
		case t.kick <- struct{}{}:
		default: // a pass is due already
		}
	})
	go func() {
		defer close(t.done)
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.kick:
				n.takeoverPass(ctx, store)
			}
		}
	}()
}

// takeoverPass activates every unsettled agent through the cluster.
func (n *Node) takeoverPass(ctx context.Context, store *pgjournal.Store) {
	ctx, cancel := context.WithTimeout(ctx, takeoverTimeout)
	defer cancel()
	ids, err := store.Unsettled(ctx)
	if err != nil {
		n.cfg.Log.Warn().Err(err).Msg("takeover: list the agents with unsettled work")
		return
	}
	woken := 0
	for _, id := range ids {
		if ctx.Err() != nil {
			return
		}
		if n.rt.PlacementKey(id) != id {
			continue // a private child: its parent's activation goes on with it
		}
		if err := n.wakeDueInCluster(ctx, id); err != nil {
			n.cfg.Log.Debug().Err(err).Str("agent_id", id).Msg("takeover: agent not activated")
			continue
		}
		woken++
	}
	if woken > 0 {
		n.cfg.Log.Info().Int("agents", woken).Msg("takeover: agents with unsettled work activated where the cluster places them")
	}
}

// stopTakeover stops the loop and waits for it; a no-op when off.
func (n *Node) stopTakeover() {
	t := n.cl.takeover
	if t == nil {
		return
	}
	n.cl.takeover = nil
	t.stop()
	<-t.done
}
