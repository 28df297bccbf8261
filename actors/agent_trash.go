package actors

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// DefaultTrashRetention is how long a deleted agent's archive stays in
// the trash by default.
const DefaultTrashRetention = 7 * 24 * time.Hour

// SweepTrash sets the trash retention (0 keeps archives until removed by
// hand) and removes the archives of agents deleted longer ago than it.
// It also finishes deletions a crash cut short: events, snapshots and
// artifacts of deleted agents still in the store go, and removes what an
// import cut short wrote. It returns how many
// archives it removed. Call it at start, before agents take work.
func (r *Runtime) SweepTrash(ctx context.Context, retention time.Duration) (int, error) {
	home := r.deps.ToolEnv.Home
	d := &r.deleted
	d.mu.Lock()
	d.retention = retention
	if err := d.load(home); err != nil {
		d.mu.Unlock()
		return 0, err
	}
	now := r.deps.Clock.Now()
	var ts []tombstone
	removed := 0
	var firstErr error
	for id, t := range d.byID {
		ts = append(ts, t)
		if retention <= 0 || t.Archive == "" || now.Sub(t.DeletedAt) < retention {
			continue
		}
		switch err := os.Remove(t.Archive); {
		case err == nil:
			removed++
		case !errors.Is(err, fs.ErrNotExist):
			firstErr = errors.Join(firstErr, fmt.Errorf("sweep trash: %w", err))
			continue
		}
		t.Archive = ""
		d.byID[id] = t
	}
	err := d.save(home)
	d.mu.Unlock()
	if left := r.purge(ctx, ts); left != "" {
		firstErr = errors.Join(firstErr, errors.New("sweep trash: "+left))
	}
	return removed, errors.Join(firstErr, err, r.sweepImports(ctx))
}

// retentionOf is the trash retention set by SweepTrash.
func (d *deletedAgents) retentionOf() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.retention
}
