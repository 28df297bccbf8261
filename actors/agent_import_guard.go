package actors

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// An import that fails after it began writing (a disk error, an artifact
// the file system refuses, agents that do not recover) or that a crash
// cuts short must not leave a half-made agent behind. While it writes,
// its ids are held like ids being deleted (nothing activates them, no
// other import or delete takes them) and a marker in the trash names
// them (<home>/trash/importing-<id>.json). A failed import removes what
// it wrote; the next start's SweepTrash removes what a crashed one wrote.
// Either way the ids are recorded in the ledger of deleted agents: the
// store never lowers a journal's highest event_seq, so they are not
// reused here (import the archive on another runtime).

// importMarker is the marker of an import in progress, in the trash.
func importMarker(home, id string) string {
	return filepath.Join(trashDir(home), "importing-"+id+".json")
}

// beginImport holds ids for an import of root and writes its marker.
func (r *Runtime) beginImport(root string, ids []string) error {
	home := r.deps.ToolEnv.Home
	ok, err := r.deleted.begin(home, ids)
	switch {
	case err != nil:
		return fmt.Errorf("import agent %s: %w", root, err)
	case !ok:
		return fmt.Errorf("agent %s: %w here: it is being imported or deleted now", root, ErrAgentExists)
	}
	if home == "" {
		return nil
	}
	b, err := json.Marshal(ids)
	if err == nil {
		err = os.MkdirAll(trashDir(home), 0o700)
	}
	if err == nil {
		err = writeFileAtomic(importMarker(home, root), b)
	}
	if err != nil {
		_ = r.deleted.end(home, ids, nil)
		return fmt.Errorf("import agent %s: %w", root, err)
	}
	return nil
}

// endImport releases the ids of an import that wrote everything.
func (r *Runtime) endImport(root string, ids []string) error {
	home := r.deps.ToolEnv.Home
	if err := r.deleted.end(home, ids, nil); err != nil {
		return err
	}
	if home == "" {
		return nil
	}
	if err := os.Remove(importMarker(home, root)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("import agent %s: %w", root, err)
	}
	return nil
}

// abandonImport removes what a failed import of root wrote for the agents
// written (their actors, if recovery started them, too), records them as
// deleted and drops the marker; the rest of ids is released. It returns
// what could not be removed ("" when all went).
func (r *Runtime) abandonImport(ctx context.Context, root string, ids, written []string) string {
	fam := make([]familyMember, len(written))
	for i, id := range written {
		fam[i] = familyMember{id: id}
	}
	r.retireFamily(fam)
	home := r.deps.ToolEnv.Home
	ts, left := r.tombstonesOf(ctx, written)
	if err := r.deleted.end(home, ids, ts); err != nil {
		left = append(left, err.Error())
	}
	if p := r.purge(ctx, ts); p != "" {
		left = append(left, p)
	}
	if home != "" && len(left) == 0 {
		if err := os.Remove(importMarker(home, root)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			left = append(left, err.Error())
		}
	}
	return strings.Join(left, "; ")
}

// tombstonesOf returns the tombstones of agents ids at their highest
// event_seq now.
func (r *Runtime) tombstonesOf(ctx context.Context, ids []string) ([]tombstone, []string) {
	var ts []tombstone
	var left []string
	now := r.deps.Clock.Now().UTC()
	for _, id := range ids {
		high, err := r.deps.Store.HighestSeq(ctx, id)
		if err != nil {
			left = append(left, fmt.Sprintf("agent %s: %v", id, err))
			continue
		}
		ts = append(ts, tombstone{AgentID: id, HighestSeq: high, DeletedAt: now})
	}
	return ts, left
}

// sweepImports removes what imports cut short by a crash wrote: the
// agents their markers name that have events. Called by SweepTrash, at
// start, with nothing activated yet.
func (r *Runtime) sweepImports(ctx context.Context) error {
	home := r.deps.ToolEnv.Home
	if home == "" {
		return nil
	}
	markers, err := filepath.Glob(filepath.Join(trashDir(home), "importing-*.json"))
	if err != nil {
		return fmt.Errorf("sweep imports: %w", err)
	}
	var errs error
	for _, p := range markers {
		if err := r.sweepImport(ctx, p); err != nil {
			errs = errors.Join(errs, fmt.Errorf("sweep import %s: %w", p, err))
		}
	}
	return errs
}

func (r *Runtime) sweepImport(ctx context.Context, marker string) error {
	b, err := os.ReadFile(marker)
	if err != nil {
		return err
	}
	var ids []string
	if err := json.Unmarshal(b, &ids); err != nil {
		return err
	}
	var written []string
	for _, id := range ids {
		if ValidateAgentID(id) != nil {
			continue
		}
		if high, err := r.deps.Store.HighestSeq(ctx, id); err != nil {
			return err
		} else if high > 0 && !r.deleted.has(ctx, r, id) {
			written = append(written, id)
		}
	}
	ts, left := r.tombstonesOf(ctx, written)
	if len(left) > 0 {
		return errors.New(strings.Join(left, "; "))
	}
	r.deleted.mu.Lock()
	for _, t := range ts {
		r.deleted.byID[t.AgentID] = t
	}
	err = r.deleted.save(r.deps.ToolEnv.Home)
	r.deleted.mu.Unlock()
	if err != nil {
		return err
	}
	if p := r.purge(ctx, ts); p != "" {
		return errors.New(p)
	}
	if len(written) > 0 {
		r.deps.Log.Warn().Strs("agents", written).Msg("an import cut short was removed")
	}
	return os.Remove(marker)
}
