package node

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/holon-actors/holon-actors/persistence"
)

// previousRun reports whether a runtime has run on home before: its data
// directory exists. Called before the store is opened (which creates it).
func previousRun(home string) bool {
	_, err := os.Stat(persistence.DataDir(home))
	return err == nil
}

// noteUncleanExit logs when a previous run ended without its clean
// shutdown marker, and removes the marker for this run. It asks nothing of
// run/runtime.json, which daemon start, stop and restart remove when they
// find it stale: the warning shows whichever command restarts after a crash.
func (n *Node) noteUncleanExit(ran bool) {
	marker := filepath.Join(n.runDir(), CleanMarkerName)
	if _, err := os.Stat(marker); errors.Is(err, os.ErrNotExist) && ran {
		n.cfg.Log.Warn().Msg("the previous run did not shut down cleanly; recovering from the journal")
	}
	_ = os.Remove(marker)
}

// noteDiskReserve warns when the runtime starts below its disk reserve:
// the journal refuses writes, so agents cannot be created or take work.
func (n *Node) noteDiskReserve() {
	if full := n.store.Health().DiskFull; full != "" {
		n.cfg.Log.Warn().Str("reason", full).Msg("starting below the disk reserve: agents wait until space is freed; status reports the runtime unhealthy")
	}
}
