package main

import "context"

// sweepTrash removes the archives of agents deleted longer ago than
// --trash-retention and finishes deletions a crash cut short. A failure
// is logged: the runtime serves anyway.
func (o *owner) sweepTrash() {
	n, err := o.rt.SweepTrash(context.Background(), o.cmd.TrashRetention)
	if err != nil {
		o.log.Error().Err(err).Msg("trash sweep incomplete")
	}
	if n > 0 {
		o.log.Info().Int("archives", n).Dur("retention", o.cmd.TrashRetention).Msg("removed deleted agents' archives past the trash retention")
	}
}
