package actors

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/holon-actors/holon-actors/actors/agentstate"
	"github.com/holon-actors/holon-actors/messages"
)

// adoptWorktree is the attached workspace whose repository has the
// existing linked worktree anchored at anchor (agentstate.AdoptedWorktree),
// found with `git worktree list --porcelain` on each attached anchor; ok
// is false for an anchor that is no linked worktree (its .git is not a
// file) or no worktree of an attached repository. It runs git: call it
// off the agent's actor.
func adoptWorktree(ctx context.Context, anchor string, attached []messages.WorkspaceAttached) (messages.WorkspaceAttached, bool) {
	if st, err := os.Lstat(filepath.Join(anchor, ".git")); err != nil || st.IsDir() {
		return messages.WorkspaceAttached{}, false // a main working tree (or none) has a .git directory
	}
	lists := make(map[string][]string, len(attached))
	for _, w := range attached {
		out, err := exec.CommandContext(ctx, "git", "-C", w.Anchor, "worktree", "list", "--porcelain").Output()
		if err != nil {
			continue // not a repository (any more): it has no worktrees to adopt
		}
		for _, p := range agentstate.WorktreeList(string(out)) {
			if real, err := filepath.EvalSymlinks(p); err == nil {
				p = real
			}
			lists[w.Anchor] = append(lists[w.Anchor], p)
		}
	}
	return agentstate.AdoptedWorktree(attached, anchor, lists)
}
