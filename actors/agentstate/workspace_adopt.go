package agentstate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/holon-actors/holon-actors/messages"
)

// WorktreeList is the worktree paths of `git worktree list --porcelain`
// output: its "worktree <path>" lines, the repository's main working
// tree first.
func WorktreeList(porcelain string) []string {
	var paths []string
	for line := range strings.SplitSeq(porcelain, "\n") {
		if p, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "worktree "); ok && p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// AdoptedWorktree is the attached workspace whose repository has the
// existing git worktree anchored at anchor: worktrees are each attached
// anchor's worktree paths (WorktreeList). A worktree of an attached
// repository keeps that repository's workspace id and anchor and is used
// as an external execution root; ok is false when anchor is no other
// worktree of an attached repository (it is then a workspace of its own).
func AdoptedWorktree(attached []messages.WorkspaceAttached, anchor string, worktrees map[string][]string) (messages.WorkspaceAttached, bool) {
	for _, w := range attached {
		if w.Anchor != anchor && slices.Contains(worktrees[w.Anchor], anchor) {
			return w, true
		}
	}
	return messages.WorkspaceAttached{}, false
}

// AdoptionGuidance is what a switch into an adopted worktree tells its
// caller: the runtime uses it as it is and does not manage its
// lifecycle, and how to get a runtime-managed worktree instead. It is ""
// for any other switch.
func AdoptionGuidance(u WorkspaceUse) string {
	if u.AdoptedWorktree == "" || u.Use.Mode != messages.WorkspaceDirect {
		return ""
	}
	return fmt.Sprintf("%s is an existing git worktree of attached workspace %s: it is used as an external execution root, "+
		"and the runtime neither made it nor will clean it up. For a runtime-managed worktree, use workspace_id %q with mode \"isolated\".",
		u.AdoptedWorktree, u.Use.WorkspaceID, u.Use.WorkspaceID)
}
