// Package worktreespec is the record of a task-owned git worktree (Info)
// and its cleanup statuses. It runs no git, so an agent's pure state can
// hold the record without taking in os/exec; package worktree, which
// makes and removes the worktrees, re-exports each name.
//
// worktreespec imports nothing from this module.
package worktreespec

import "path/filepath"

// Cleanup statuses of a worktree.
const (
	StatusActive        = "active"         // the child works in it
	StatusRemoved       = "removed"        // it was clean: the worktree and its branch are gone
	StatusRetained      = "retained"       // it has work to review; see Note
	StatusCleanupFailed = "cleanup_failed" // git failed; see Note
)

// MaxListed bounds Info.ChangedFiles; ChangedCount has the whole count.
const MaxListed = 50

// Info is a task-owned worktree: where it is, what it was made from, and
// what became of it.
type Info struct {
	RepoRoot   string `json:"repo_root"`        // the working tree it was made from
	Path       string `json:"path"`             // the worktree
	Branch     string `json:"branch"`           // made for it, from BaseCommit
	BaseCommit string `json:"base_commit"`      // the parent's HEAD when it was made
	Subdir     string `json:"subdir,omitempty"` // the parent's root within RepoRoot: the child works there too
	// CleanupStatus is one of the Status* constants.
	CleanupStatus string   `json:"cleanup_status"`
	ChangedFiles  []string `json:"changed_files,omitempty"` // uncommitted, or committed on Branch; up to MaxListed
	ChangedCount  int      `json:"changed_count,omitempty"`
	Commits       int      `json:"commits,omitempty"` // on Branch since BaseCommit
	Note          string   `json:"note,omitempty"`    // why it was retained, or how cleanup failed
}

// ExecRoot is where the child works: the worktree, at the subdirectory
// its parent worked in.
func (i Info) ExecRoot() string { return filepath.Join(i.Path, i.Subdir) }
