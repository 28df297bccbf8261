package actors

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/holon-actors/holon-actors/actors/runtimetools"
	"github.com/holon-actors/holon-actors/messages"
	"github.com/holon-actors/holon-actors/persistence"
	"github.com/holon-actors/holon-actors/tools"
	"github.com/holon-actors/holon-actors/tools/worktree"
)

// DefaultMaxActiveChildren bounds the private children an agent supervises
// at once when AgentDeps leaves MaxActiveChildren zero.
const DefaultMaxActiveChildren = runtimetools.DefaultMaxActiveChildren

// ErrAgentExists is wrapped when SpawnAgent public_named names an agent
// that already exists.
var ErrAgentExists = errors.New("agent already exists")

// spawnIO is the rest of a SpawnAgent decision (runtimetools.SpawnAgent)
// for a step goroutine: the worktree of a worktree-mode child planned
// (git), or the journal of a public agent created and its bootstrap turn
// started. It touches nothing of the agent. A private child's actor is
// started from its task_started once that is durable (startChildren).
func (a *agent) spawnIO(d runtimetools.Decision) slowDecision {
	env, id, own := a.deps.ToolEnv, a.id, a.executionRoot()
	if w := d.Worktree; w != nil {
		return func(ctx context.Context) (tools.Result, []messages.Payload) {
			if env.Home == "" {
				return spawnFailure("runtime_misconfigured", "this runtime has no home directory for worktrees", "use workspace_mode inherit"), nil
			}
			root, err := env.root(id, own)
			if err != nil {
				return spawnFailure("worktree_failed", err.Error(), "use workspace_mode inherit"), nil
			}
			wt, fail := planWorktree(ctx, root.Dir(), env.worktreePath(w.TaskID), w.Branch)
			if fail != nil {
				return *fail, nil
			}
			return w.Finish(wt)
		}
	}
	cr := d.Create
	events := a.withCreatorPolicy(cr.Events)
	store, clock, host := a.deps.Store, a.deps.Clock, a.wire.host
	return func(ctx context.Context) (tools.Result, []messages.Payload) {
		err := createStream(ctx, store, clock.Now(), cr.AgentID, events)
		if err == nil && host != nil {
			host.Forward(cr.AgentID, &kick{}) // start its bootstrap turn
		}
		return cr.Finish(errors.Is(err, ErrAgentExists), err), nil
	}
}

// spawnFailure is SpawnAgent's failure of kind.
func spawnFailure(kind, msg, hint string) tools.Result {
	return tools.Failure(runtimetools.SpawnAgentToolName, messages.ToolError, tools.ToolError{Kind: kind, Message: msg, RecoveryHint: hint})
}

// planWorktree plans the worktree at path on a new branch from the
// repository of dir; a refusal is SpawnAgent's failure. It runs git.
func planWorktree(ctx context.Context, dir, path, branch string) (worktree.Info, *tools.Result) {
	fail := func(kind, msg, hint string) (worktree.Info, *tools.Result) {
		r := spawnFailure(kind, msg, hint)
		return worktree.Info{}, &r
	}
	wt, err := worktree.Plan(ctx, dir, path, branch)
	switch {
	case errors.Is(err, worktree.ErrNotRepository):
		return fail("not_a_repository", fmt.Sprintf("your workspace %s is not inside a git repository", dir),
			"use workspace_mode inherit, or ask the operator to run the runtime with --workspace inside a git repository")
	case errors.Is(err, worktree.ErrNoCommits):
		return fail("no_commits", "the repository of your workspace has no commit to branch from", "commit first, or use workspace_mode inherit")
	case err != nil:
		return fail("worktree_failed", err.Error(), "use workspace_mode inherit, or retry")
	}
	return wt, nil
}

// worktreePath is where the worktree of task taskID lives: under the
// runtime's home (or Worktrees), outside every repository.
func (e ToolEnv) worktreePath(taskID string) string {
	dir := e.Worktrees
	if dir == "" {
		dir = filepath.Join(e.Home, "worktrees")
	}
	return filepath.Join(dir, taskID)
}

func shortCommit(c string) string { return runtimetools.ShortCommit(c) }

// createStream writes the first events of a new agent's journal, at now,
// only if it has none (ErrAgentExists otherwise).
func createStream(ctx context.Context, store persistence.Store, now time.Time, id string, payloads []messages.Payload) error {
	evs := make([]messages.Event, len(payloads))
	for i, p := range payloads {
		ev, err := messages.NewEvent(id, now, p)
		if err != nil {
			return err
		}
		evs[i] = ev
	}
	_, err := store.AppendAfter(ctx, id, 0, evs)
	if errors.Is(err, persistence.ErrSeqConflict) {
		return fmt.Errorf("%w: %s", ErrAgentExists, id)
	}
	return err
}

// delegationEnvelope is a parent's (or creator's) message to agent id
// (runtimetools.DelegationEnvelope), with a new message id.
func delegationEnvelope(id string, now time.Time, text string, refs map[string]string) messages.MessageEnvelope {
	return runtimetools.DelegationEnvelope(id, messages.NewID("msg"), now, text, refs)
}
