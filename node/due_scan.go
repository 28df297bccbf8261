package node

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/holon-actors/holon-actors/actors"
	"github.com/holon-actors/holon-actors/persistence/pgjournal/due"
)

// dueScan is the due-time scanner of a PostgreSQL journal: it wakes the
// agents whose timers come due while they are passivated, as the journal's
// due-time index finds them.
type dueScan struct {
	stop context.CancelFunc
	done chan struct{}
}

// startDueScan starts the due scanner when the journal is PostgreSQL.
func (n *Node) startDueScan() error {
	hs, ok := n.store.(homeLockedStore)
	if !ok {
		return nil
	}
	host, _ := os.Hostname()
	s, err := due.New(hs.Pool(), due.Config{
		Node: host + "/" + n.instance,
		Wake: n.wakeDue,
		Log:  n.cfg.Log.With().Str("component", "due_scan").Logger(),
	})
	if err != nil {
		return fmt.Errorf("start the due scanner: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n.due = &dueScan{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(n.due.done)
		s.Run(ctx)
	}()
	return nil
}

// wakeDue activates a due agent on this node's runtime (in a cluster,
// where the cluster places it).
func (n *Node) wakeDue(ctx context.Context, id string) error {
	if n.clustered() {
		return n.wakeDueInCluster(ctx, id)
	}
	err := n.rt.Activate(ctx, id)
	if errors.Is(err, actors.ErrAgentDeleted) {
		return fmt.Errorf("%w: %w", due.ErrNoAgent, err)
	}
	return err
}

// stopDueScan stops the scanner and waits for it.
func (n *Node) stopDueScan() {
	if n.due == nil {
		return
	}
	n.due.stop()
	<-n.due.done
}
