package actors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/holon-actors/holon-actors/actors/timers"
	"github.com/holon-actors/holon-actors/persistence"
)

// Deleting an agent: it and its private children are stopped and their
// actors retired, their journals, snapshots and artifacts are written as
// one agent archive into the trash (<home>/trash/<id>-<time>.tar.gz, which
// `agents import` restores on another runtime) and then removed from the
// store. Nothing is journaled: the journals go. The archive is kept for
// the trash retention (SweepTrash); the ledger of deleted ids stays.

// The errors of Delete.
var (
	// ErrNoAgent is returned for an agent that does not exist.
	ErrNoAgent = errors.New("no such agent")
	// ErrAgentBusy is returned by Delete without Force for an agent (or a
	// private child of it) that has work in flight.
	ErrAgentBusy = errors.New("agent is running")
	// ErrNotDeletable is returned for the default agent and for a private
	// child, which goes with its parent.
	ErrNotDeletable = errors.New("agent cannot be deleted")
)

// DeleteOptions says how to delete.
type DeleteOptions struct {
	// Force stops an agent that has work in flight (its turn is aborted,
	// its commands are stopped) instead of refusing.
	Force  bool
	Reason string
}

// DeleteResult is what a delete did.
type DeleteResult struct {
	AgentID string `json:"agent_id"`
	// Deleted lists the agent and its private children.
	Deleted []string `json:"deleted"`
	// Archive is the agent archive in the trash; RetainedUntil is when the
	// trash sweep removes it (zero: kept until removed by hand).
	Archive       string    `json:"archive,omitempty"`
	RetainedUntil time.Time `json:"retained_until,omitzero"`
	// Leftover says what could not be removed from the store or the disk
	// (the next start's sweep tries again); the agent is deleted anyway.
	Leftover string `json:"leftover,omitempty"`
}

// Delete deletes agent id and its private children (see above).
func (r *Runtime) Delete(ctx context.Context, id string, o DeleteOptions) (DeleteResult, error) {
	fam, err := r.deletable(ctx, id)
	if err != nil {
		return DeleteResult{}, err
	}
	if busy := r.busyMembers(ctx, fam); len(busy) > 0 {
		if !o.Force {
			return DeleteResult{}, fmt.Errorf("%w: %s", ErrAgentBusy, strings.Join(busy, "; "))
		}
		if err := r.stopForDelete(ctx, fam, o.Reason); err != nil {
			return DeleteResult{}, err
		}
	}
	home, members := r.deps.ToolEnv.Home, ids(fam)
	ok, err := r.deleted.begin(home, members)
	switch {
	case err != nil:
		return DeleteResult{}, err
	case !ok:
		return DeleteResult{}, fmt.Errorf("agent %s: %w: it is being deleted already", id, ErrAgentBusy)
	}
	res, ts, err := r.retireAndArchive(ctx, fam)
	if err != nil {
		_ = r.deleted.end(home, members, nil)
		return DeleteResult{}, err
	}
	if err := r.deleted.end(home, members, ts); err != nil {
		return DeleteResult{}, fmt.Errorf("delete agent %s: %w (its archive is %s; nothing was removed)", id, err, res.Archive)
	}
	for _, m := range members {
		r.wire.memory.forget(m) // its home goes: its index must not stay open
	}
	if left := r.purge(ctx, ts); left != "" {
		res.Leftover = left
	}
	return res, nil
}

// deletable checks that id names an agent that may be deleted and
// returns its family.
func (r *Runtime) deletable(ctx context.Context, id string) ([]familyMember, error) {
	if id == r.deps.DefaultAgentID {
		return nil, fmt.Errorf("agent %s: %w: it is the runtime's default agent (stop it instead)", id, ErrNotDeletable)
	}
	ok, err := r.Exists(ctx, id)
	switch {
	case err != nil:
		return nil, err
	case !ok:
		return nil, fmt.Errorf("agent %s: %w", id, ErrNoAgent)
	}
	if p := r.parentOf(id); p != "" {
		return nil, fmt.Errorf("agent %s: %w: it is a private child of %s and is deleted with it", id, ErrNotDeletable, p)
	}
	return r.family(ctx, id)
}

// busyMembers describes the members with work in flight: a turn, queued
// messages, running tasks or a model retry. Dormant ones are described by
// their snapshot and stay dormant.
func (r *Runtime) busyMembers(ctx context.Context, fam []familyMember) []string {
	var out []string
	for _, f := range fam {
		in, err := r.listInfo(ctx, f.id)
		if err != nil {
			out = append(out, fmt.Sprintf("%s does not answer (%v)", f.id, err))
			continue
		}
		var what []string
		if in.TurnInFlight {
			what = append(what, "a turn in flight")
		}
		if in.Queued > 0 {
			what = append(what, fmt.Sprintf("%d queued", in.Queued))
		}
		if in.RunningTasks > 0 {
			what = append(what, fmt.Sprintf("%d running tasks", in.RunningTasks))
		}
		if in.ModelRetry != nil {
			what = append(what, "a model retry waiting")
		}
		if len(what) > 0 {
			out = append(out, f.id+" has "+strings.Join(what, ", "))
		}
	}
	return out
}

// stopForDelete stops the family's root (which stops its children and
// every command of theirs) and waits until their commands have ended.
func (r *Runtime) stopForDelete(ctx context.Context, fam []familyMember, reason string) error {
	if reason == "" {
		reason = "deleted by the operator"
	}
	if _, err := r.Control(ctx, fam[0].id, OpStop, reason); err != nil && !errors.Is(err, ErrAgentArchived) {
		return fmt.Errorf("stop agent %s to delete it: %w", fam[0].id, err)
	}
	ctx, cancel := context.WithTimeout(ctx, r.deps.ToolEnv.stopGrace()+r.requestTimeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for _, f := range fam {
		for r.isActive(f.id) && r.commandsRunning(ctx, f.id) {
			select {
			case <-ctx.Done():
				return fmt.Errorf("stop agent %s to delete it: its commands did not end: %w", f.id, ctx.Err())
			case <-tick.C: // the commands' ends are recorded by their agent, asynchronously
			}
		}
	}
	return nil
}

// commandsRunning reports whether active agent id has a command task
// still running.
func (r *Runtime) commandsRunning(ctx context.Context, id string) bool {
	st, err := r.State(ctx, id)
	if err != nil {
		return false
	}
	for _, t := range st.OpenTasks() {
		if t.Child == nil {
			return true
		}
	}
	return false
}

// retireAndArchive stops the family's actors, writes its archive into the
// trash and returns the tombstones to record.
func (r *Runtime) retireAndArchive(ctx context.Context, fam []familyMember) (DeleteResult, []tombstone, error) {
	r.retireFamily(fam)
	now := r.deps.Clock.Now().UTC()
	res := DeleteResult{AgentID: fam[0].id, Deleted: ids(fam)}
	if home := r.deps.ToolEnv.Home; home != "" {
		res.Archive = filepath.Join(trashDir(home), fmt.Sprintf("%s-%s.tar.gz", fam[0].id, now.Format("20060102T150405.000000000Z")))
		if err := r.archiveTo(ctx, res.Archive, fam); err != nil {
			return res, nil, err
		}
		if ret := r.deleted.retentionOf(); ret > 0 {
			res.RetainedUntil = now.Add(ret)
		}
	}
	ts := make([]tombstone, 0, len(fam))
	for _, f := range fam {
		high, err := r.deps.Store.HighestSeq(ctx, f.id)
		if err != nil {
			return res, nil, fmt.Errorf("delete agent %s: %w", f.id, err)
		}
		ts = append(ts, tombstone{AgentID: f.id, HighestSeq: high, DeletedAt: now, Archive: res.Archive})
	}
	return res, ts, nil
}

// retireFamily stops the actors of the family's active members, children
// first; deleted.begin already keeps them from being activated again.
func (r *Runtime) retireFamily(fam []familyMember) {
	var pids []*actor.PID
	r.mu.Lock()
	for i := len(fam) - 1; i >= 0; i-- {
		if pid, ok := r.pids[fam[i].id]; ok {
			pids = append(pids, pid)
		}
		delete(r.pids, fam[i].id)
		delete(r.children, fam[i].id)
	}
	r.mu.Unlock()
	for _, pid := range pids {
		_ = r.sys.Root.StopFuture(pid).Wait() // a child already stopped with its parent answers at once
	}
	for _, f := range fam { // their timers, armed or retired with a passivated actor, go too
		r.sys.Root.Send(r.timers, &timers.CancelAgent{AgentID: f.id})
	}
}

// archiveTo writes the family's archive to p through a temporary file.
func (r *Runtime) archiveTo(ctx context.Context, p string, fam []familyMember) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("archive agent %s: %w", fam[0].id, err)
	}
	f, err := os.OpenFile(p+".tmp", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("archive agent %s: %w", fam[0].id, err)
	}
	err = r.writeArchive(ctx, f, fam, true)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(p+".tmp", p)
	}
	if err != nil {
		_ = os.Remove(p + ".tmp")
		return fmt.Errorf("archive agent %s: %w", fam[0].id, err)
	}
	return nil
}

// purge removes deleted agents' events, snapshots and artifacts; it
// returns what it could not remove ("" when all went).
func (r *Runtime) purge(ctx context.Context, ts []tombstone) string {
	var left []string
	for _, t := range ts {
		if err := r.deps.Store.DeleteUpTo(ctx, t.AgentID, t.HighestSeq); err != nil {
			left = append(left, fmt.Sprintf("events of %s: %v", t.AgentID, err))
		}
		if err := r.deps.Store.DeleteSnapshots(ctx, t.AgentID, persistence.LatestSnapshot()); err != nil {
			left = append(left, fmt.Sprintf("snapshots of %s: %v", t.AgentID, err))
		}
		if dir := r.artifactsDir(t.AgentID); dir != "" {
			if err := os.RemoveAll(dir); err != nil {
				left = append(left, fmt.Sprintf("artifacts of %s: %v", t.AgentID, err))
			}
		}
	}
	return strings.Join(left, "; ")
}
