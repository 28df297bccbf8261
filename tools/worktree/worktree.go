// Package worktree manages the task-owned git worktrees of
// worktree-isolated delegation: a private child spawned with
// workspace_mode worktree works in its own working copy, on its own
// branch, made from its parent's repository at the parent's HEAD. When
// the supervising task ends, a worktree left exactly as it was made is
// removed with its branch; one with changes, commits or a moved HEAD is
// retained for review, and why is recorded. Nothing here ever blocks a
// task's end: a git failure is recorded as cleanup_failed.
//
// It runs the git command-line tool (git worktree has no library
// equivalent in Go; go-git does not manage linked worktrees) with
// prompts off. Its record, Info, is tools/worktree/worktreespec's (a leaf
// without git), re-exported here; worktree imports nothing else from this
// module.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/holon-actors/holon-actors/tools/worktree/worktreespec"
)

// The cleanup statuses, MaxListed and Info live in
// tools/worktree/worktreespec, a leaf without git, so an agent's pure
// state can hold a worktree's record; these names are the same.
const (
	StatusActive        = worktreespec.StatusActive
	StatusRemoved       = worktreespec.StatusRemoved
	StatusRetained      = worktreespec.StatusRetained
	StatusCleanupFailed = worktreespec.StatusCleanupFailed
	// MaxListed bounds Info.ChangedFiles.
	MaxListed = worktreespec.MaxListed
)

// Info is worktreespec.Info: a task-owned worktree, where it is, what it
// was made from, and what became of it.
type Info = worktreespec.Info

var (
	// ErrNotRepository is returned by Plan when the parent's root is
	// not inside a git working tree.
	ErrNotRepository = errors.New("worktree: not inside a git repository")
	// ErrNoCommits is returned by Plan for a repository without a
	// commit to branch from.
	ErrNoCommits = errors.New("worktree: the repository has no commit yet")
	// ErrExists is returned by Plan when path or branch already exist.
	ErrExists = errors.New("worktree: path or branch already exists")
)

// Plan checks that a worktree can be made at path on a new branch from
// the HEAD of the repository that holds root, and describes it, without
// making it: path and branch must not exist yet. Make makes it later, from
// the same commit whatever HEAD is then.
func Plan(ctx context.Context, root, path, branch string) (Info, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return Info{}, fmt.Errorf("worktree root %s: %w", root, err)
	}
	top, err := git(ctx, real, "rev-parse", "--show-toplevel")
	if err != nil {
		return Info{}, fmt.Errorf("%w: %s (%v)", ErrNotRepository, root, err)
	}
	sub, err := filepath.Rel(top, real)
	if err != nil || strings.HasPrefix(sub, "..") {
		return Info{}, fmt.Errorf("%w: %s is not within %s", ErrNotRepository, root, top)
	}
	if sub == "." {
		sub = ""
	}
	base, err := git(ctx, top, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil {
		return Info{}, fmt.Errorf("%w: %s", ErrNoCommits, top)
	}
	if _, err := os.Lstat(path); err == nil {
		return Info{}, fmt.Errorf("%w: %s", ErrExists, path)
	}
	if _, err := git(ctx, top, "rev-parse", "--verify", "--quiet", "refs/heads/"+branch); err == nil {
		return Info{}, fmt.Errorf("%w: branch %s", ErrExists, branch)
	}
	return Info{RepoRoot: top, Path: path, Branch: branch, BaseCommit: base, Subdir: sub, CleanupStatus: StatusActive}, nil
}

// Make makes the worktree info describes, on its branch from its base
// commit; one already made (its directory exists) is left as it is, so a
// recovery may call it again. Its parent directory is created (0700).
func Make(ctx context.Context, info Info) error {
	if _, err := os.Stat(info.Path); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(info.Path), 0o700); err != nil {
		return fmt.Errorf("worktree directory: %w", err)
	}
	args := []string{"worktree", "add", "--quiet", "-b", info.Branch, info.Path, info.BaseCommit}
	if _, err := git(ctx, info.RepoRoot, "rev-parse", "--verify", "--quiet", "refs/heads/"+info.Branch); err == nil {
		_, _ = git(ctx, info.RepoRoot, "worktree", "prune") // made before, its directory lost since
		args = []string{"worktree", "add", "--quiet", info.Path, info.Branch}
	}
	if _, err := git(ctx, info.RepoRoot, args...); err != nil {
		return fmt.Errorf("create worktree %s: %w", info.Path, err)
	}
	return nil
}

// Cleanup ends the worktree of a finished task: a clean one (no changes,
// no commits, HEAD still on its branch) is removed with its branch; any
// other is retained with its changed files and a note. A worktree whose
// directory is already gone counts as removed once its branch holds no
// commits. Running it again gives the same answer.
func Cleanup(ctx context.Context, in Info) Info {
	out := in
	out.ChangedFiles, out.ChangedCount, out.Commits, out.Note = nil, 0, 0, ""
	if _, err := os.Stat(in.Path); errors.Is(err, os.ErrNotExist) {
		return gone(ctx, out)
	}
	changed, err := changes(ctx, in)
	if err != nil {
		return failed(out, err)
	}
	commits, err := count(ctx, in.Path, in.BaseCommit+"..HEAD")
	if err != nil {
		return failed(out, err)
	}
	head, _ := git(ctx, in.Path, "symbolic-ref", "--short", "-q", "HEAD")
	out.Commits = commits
	out.ChangedCount = len(changed)
	out.ChangedFiles = changed[:min(len(changed), MaxListed)]
	var why []string
	if n := len(changed); n > 0 {
		why = append(why, plural(n, "changed file"))
	}
	if commits > 0 {
		why = append(why, plural(commits, "commit")+" on "+in.Branch)
	}
	switch {
	case head == "":
		why = append(why, "HEAD is detached from "+in.Branch)
	case head != in.Branch:
		why = append(why, "HEAD is on "+head+", not "+in.Branch)
	}
	if len(why) > 0 {
		out.CleanupStatus = StatusRetained
		out.Note = "retained for review: " + strings.Join(why, ", ")
		return out
	}
	if _, err := git(ctx, in.RepoRoot, "worktree", "remove", in.Path); err != nil {
		return failed(out, err)
	}
	if _, err := git(ctx, in.RepoRoot, "branch", "-D", in.Branch); err != nil {
		return failed(out, err)
	}
	out.CleanupStatus = StatusRemoved
	return out
}

// gone settles a worktree whose directory was removed by someone else.
func gone(ctx context.Context, out Info) Info {
	_, _ = git(ctx, out.RepoRoot, "worktree", "prune")
	if _, err := git(ctx, out.RepoRoot, "rev-parse", "--verify", "--quiet", "refs/heads/"+out.Branch); err != nil {
		out.CleanupStatus = StatusRemoved
		return out
	}
	commits, err := count(ctx, out.RepoRoot, out.BaseCommit+".."+out.Branch)
	if err != nil {
		return failed(out, err)
	}
	if commits > 0 {
		out.Commits, out.CleanupStatus = commits, StatusRetained
		out.Note = "the worktree directory is gone; branch " + out.Branch + " keeps " + plural(commits, "commit")
		return out
	}
	if _, err := git(ctx, out.RepoRoot, "branch", "-D", out.Branch); err != nil {
		return failed(out, err)
	}
	out.CleanupStatus = StatusRemoved
	return out
}

func failed(out Info, err error) Info {
	out.CleanupStatus, out.Note = StatusCleanupFailed, err.Error()
	return out
}

// changes lists the files that differ from BaseCommit: uncommitted
// (untracked included) and committed on the branch, each once, sorted.
func changes(ctx context.Context, in Info) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(name string) {
		if name != "" && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	committed, err := git(ctx, in.Path, "diff", "--name-only", "-z", in.BaseCommit, "HEAD")
	if err != nil {
		return nil, err
	}
	for _, name := range strings.Split(committed, "\x00") {
		add(name)
	}
	status, err := git(ctx, in.Path, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	entries := strings.Split(status, "\x00")
	for i := 0; i < len(entries); i++ {
		e := entries[i]
		if len(e) < 4 {
			continue
		}
		add(e[3:])
		if e[0] == 'R' || e[0] == 'C' { // the next entry is the source path
			i++
		}
	}
	slices.Sort(out)
	return out, nil
}

func count(ctx context.Context, dir, revs string) (int, error) {
	s, err := git(ctx, dir, "rev-list", "--count", revs)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(s)
}

// git runs git in dir and returns its trimmed output; a failure carries
// git's own message.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return strings.TrimRight(stdout.String(), "\n\x00"), nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
