package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Deleted agents. A journal's sequence numbers are never reused, so the
// store keeps a deleted agent's highest event_seq after its events are
// gone; the runtime remembers the deletion in a ledger beside the trash
// (<home>/trash/deleted.json) and treats the id as unknown: it is not
// listed, recovered or activated again, and not created anew (ids are not
// reused, like sequence numbers).

// ErrAgentDeleted is returned for requests that would bring back an agent
// that was deleted.
var ErrAgentDeleted = errors.New("agent was deleted: its id is not reused")

// tombstone is one deleted agent in the ledger.
type tombstone struct {
	AgentID    string    `json:"agent_id"`
	HighestSeq uint64    `json:"highest_seq"`
	DeletedAt  time.Time `json:"deleted_at"`
	Archive    string    `json:"archive,omitempty"` // its archive in the trash, until the retention sweeps it
}

// deletedAgents is the runtime's memory of deleted agents. The zero value
// is ready: the ledger is read on first use.
type deletedAgents struct {
	mu      sync.Mutex
	loaded  bool
	byID    map[string]tombstone
	pending map[string]bool // being deleted now: refused already
	// retention is the trash retention (SweepTrash).
	retention time.Duration
}

// trashDir is where deleted agents' archives and the ledger live.
func trashDir(home string) string { return filepath.Join(home, "trash") }

func ledgerPath(home string) string { return filepath.Join(trashDir(home), "deleted.json") }

// load reads the ledger once; a runtime without a home keeps it in memory.
func (d *deletedAgents) load(home string) error {
	if d.loaded {
		return nil
	}
	d.byID, d.pending = map[string]tombstone{}, map[string]bool{}
	if home != "" {
		b, err := os.ReadFile(ledgerPath(home))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("read deleted agents: %w", err)
		default:
			var list []tombstone
			if err := json.Unmarshal(b, &list); err != nil {
				return fmt.Errorf("read deleted agents %s: %w", ledgerPath(home), err)
			}
			for _, t := range list {
				d.byID[t.AgentID] = t
			}
		}
	}
	d.loaded = true
	return nil
}

// has reports whether agent id is deleted or being deleted: its stream
// has nothing after the deletion's highest event_seq.
func (d *deletedAgents) has(ctx context.Context, r *Runtime, id string) bool {
	d.mu.Lock()
	if err := d.load(r.deps.ToolEnv.Home); err != nil {
		d.mu.Unlock()
		r.deps.Log.Error().Err(err).Msg("deleted agents unknown")
		return false
	}
	t, ok := d.byID[id]
	pending := d.pending[id]
	d.mu.Unlock()
	if pending || !ok {
		return pending
	}
	high, err := r.deps.Store.HighestSeq(ctx, id)
	return err == nil && high <= t.HighestSeq
}

// begin marks ids being deleted, refusing them from now on; false when
// one already is.
func (d *deletedAgents) begin(home string, ids []string) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.load(home); err != nil {
		return false, err
	}
	for _, id := range ids {
		if d.pending[id] {
			return false, nil
		}
	}
	for _, id := range ids {
		d.pending[id] = true
	}
	return true, nil
}

// end settles a deletion begun with begin: done records ts in the ledger
// (durably, before the data goes); otherwise the ids are freed again.
func (d *deletedAgents) end(home string, ids []string, ts []tombstone) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, id := range ids {
		delete(d.pending, id)
	}
	if ts == nil {
		return nil
	}
	for _, t := range ts {
		d.byID[t.AgentID] = t
	}
	return d.save(home)
}

// save writes the ledger atomically; called with mu held.
func (d *deletedAgents) save(home string) error {
	if home == "" {
		return nil
	}
	list := make([]tombstone, 0, len(d.byID))
	for _, t := range d.byID {
		list = append(list, t)
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(trashDir(home), 0o700); err != nil {
		return fmt.Errorf("write deleted agents: %w", err)
	}
	return writeFileAtomic(ledgerPath(home), b)
}

// writeFileAtomic writes b to p through a synced temporary file.
func writeFileAtomic(p string, b []byte) error {
	tmp := p + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", p, err)
	}
	return nil
}
