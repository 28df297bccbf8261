package node

import "context"

// sweepTrash removes the archives of agents deleted longer ago than the
// trash retention and finishes deletions a crash cut short. A failure is
// logged: the runtime serves anyway.
func (n *Node) sweepTrash() {
	k, err := n.rt.SweepTrash(context.Background(), n.cfg.TrashRetention)
	if err != nil {
		n.cfg.Log.Error().Err(err).Msg("trash sweep incomplete")
	}
	if k > 0 {
		n.cfg.Log.Info().Int("archives", k).Dur("retention", n.cfg.TrashRetention).Msg("removed deleted agents' archives past the trash retention")
	}
}
