package node

import (
	"context"
	"sync"
	"time"

	"github.com/holon-actors/holon-actors/persistence"
)

// retentionInterval is how often journal retention runs. It is not on any
// turn's path: a pass reads each journal's head and moves whole segments.
const retentionInterval = time.Hour

// retentionRun is the node's retention loop: started by startRetention,
// cancelled and waited for by stopRetention (before the store closes).
type retentionRun struct {
	cancel context.CancelFunc
	done   sync.WaitGroup
}

// startRetention applies config.json's retention policies to the journal
// every retentionInterval.
func (n *Node) startRetention() {
	r := &persistence.Retention{Store: n.store, Policies: n.cfg.Agents.Model.Retention, Log: SlogOf(n.cfg.Log)}
	ctx, cancel := context.WithCancel(context.Background())
	n.retention.cancel = cancel
	n.retention.done.Add(1)
	go func() {
		defer n.retention.done.Done()
		t := time.NewTicker(retentionInterval)
		defer t.Stop()
		r.Run(ctx, t.C)
	}()
}

// stopRetention ends the retention loop and waits for a pass in flight.
func (n *Node) stopRetention() {
	if n.retention.cancel != nil {
		n.retention.cancel()
		n.retention.done.Wait()
	}
}
