package worktree_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/holon-actors/holon-actors/tools/worktree"
)

// run runs git in dir with a fixed identity and fails the test on error.
func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// repo makes a repository with one commit: README and sub/a.txt.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	write(t, filepath.Join(dir, "README"), "hello\n")
	write(t, filepath.Join(dir, "sub", "a.txt"), "a\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func create(t *testing.T, root string) worktree.Info {
	t.Helper()
	info, err := worktree.Plan(context.Background(), root, filepath.Join(t.TempDir(), "wt", "task_1"), "holon/task_1")
	if err == nil {
		err = worktree.Make(context.Background(), info)
	}
	if err != nil {
		t.Fatalf("Plan and Make: %v", err)
	}
	return info
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func branches(t *testing.T, dir string) []string {
	return strings.Fields(run(t, dir, "branch", "--format=%(refname:short)"))
}

func TestCreateAndRemoveClean(t *testing.T) {
	dir := repo(t)
	head := run(t, dir, "rev-parse", "HEAD")
	info := create(t, dir)
	if info.BaseCommit != head || info.Branch != "holon/task_1" || info.CleanupStatus != worktree.StatusActive || info.Subdir != "" {
		t.Errorf("Create = %+v", info)
	}
	if !exists(filepath.Join(info.ExecRoot(), "sub", "a.txt")) {
		t.Fatal("the worktree does not hold the repository's files")
	}
	if got := branches(t, dir); !slices.Contains(got, "holon/task_1") {
		t.Errorf("branches = %v", got)
	}
	out := worktree.Cleanup(context.Background(), info)
	if out.CleanupStatus != worktree.StatusRemoved || out.Note != "" {
		t.Fatalf("Cleanup of a clean worktree = %+v", out)
	}
	if exists(info.Path) || slices.Contains(branches(t, dir), "holon/task_1") {
		t.Error("the clean worktree or its branch survived")
	}
	if again := worktree.Cleanup(context.Background(), info); again.CleanupStatus != worktree.StatusRemoved {
		t.Errorf("a second Cleanup = %+v, want removed again", again)
	}
}

func TestCreateFromSubdirectory(t *testing.T) {
	dir := repo(t)
	info := create(t, filepath.Join(dir, "sub"))
	if info.Subdir != "sub" || !exists(filepath.Join(info.ExecRoot(), "a.txt")) {
		t.Errorf("Create from sub = %+v", info)
	}
}

func TestCleanupRetains(t *testing.T) {
	tests := []struct {
		name    string
		work    func(t *testing.T, info worktree.Info)
		files   []string
		commits int
		note    string
	}{
		{"uncommitted change and a new file", func(t *testing.T, info worktree.Info) {
			write(t, filepath.Join(info.Path, "README"), "changed\n")
			write(t, filepath.Join(info.Path, "new", "b.txt"), "b\n")
		}, []string{"README", "new/b.txt"}, 0, "2 changed files"},
		{"a commit", func(t *testing.T, info worktree.Info) {
			write(t, filepath.Join(info.Path, "sub", "a.txt"), "a2\n")
			run(t, info.Path, "commit", "-q", "-am", "child work")
		}, []string{"sub/a.txt"}, 1, "1 commit on holon/task_1"},
		{"HEAD moved to another branch", func(t *testing.T, info worktree.Info) {
			run(t, info.Path, "checkout", "-q", "-b", "elsewhere")
		}, nil, 0, "HEAD is on elsewhere"},
		{"detached HEAD", func(t *testing.T, info worktree.Info) {
			run(t, info.Path, "checkout", "-q", "--detach")
		}, nil, 0, "HEAD is detached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := repo(t)
			info := create(t, dir)
			tt.work(t, info)
			out := worktree.Cleanup(context.Background(), info)
			if out.CleanupStatus != worktree.StatusRetained || !slices.Equal(out.ChangedFiles, tt.files) ||
				out.ChangedCount != len(tt.files) || out.Commits != tt.commits || !strings.Contains(out.Note, tt.note) {
				t.Fatalf("Cleanup = %+v, want retained with %v, %d commits, note %q", out, tt.files, tt.commits, tt.note)
			}
			if !exists(info.Path) || !slices.Contains(branches(t, dir), "holon/task_1") {
				t.Error("a retained worktree or its branch is gone")
			}
		})
	}
}

func TestCleanupAfterDirectoryRemoved(t *testing.T) {
	dir := repo(t)
	clean := create(t, dir)
	if err := os.RemoveAll(clean.Path); err != nil {
		t.Fatal(err)
	}
	if out := worktree.Cleanup(context.Background(), clean); out.CleanupStatus != worktree.StatusRemoved {
		t.Errorf("Cleanup of a vanished clean worktree = %+v, want removed", out)
	}

	dir2 := repo(t)
	worked := create(t, dir2)
	write(t, filepath.Join(worked.Path, "README"), "changed\n")
	run(t, worked.Path, "commit", "-q", "-am", "child work")
	if err := os.RemoveAll(worked.Path); err != nil {
		t.Fatal(err)
	}
	out := worktree.Cleanup(context.Background(), worked)
	if out.CleanupStatus != worktree.StatusRetained || out.Commits != 1 || !strings.Contains(out.Note, "keeps 1 commit") {
		t.Errorf("Cleanup of a vanished worktree with a commit = %+v, want its branch retained", out)
	}
}

func TestCreateRefusals(t *testing.T) {
	ctx := context.Background()
	plain := t.TempDir()
	if _, err := worktree.Plan(ctx, plain, filepath.Join(t.TempDir(), "wt"), "holon/x"); !errors.Is(err, worktree.ErrNotRepository) {
		t.Errorf("Plan outside a repository = %v, want ErrNotRepository", err)
	}
	empty := t.TempDir()
	run(t, empty, "init", "-q")
	if _, err := worktree.Plan(ctx, empty, filepath.Join(t.TempDir(), "wt"), "holon/x"); !errors.Is(err, worktree.ErrNoCommits) {
		t.Errorf("Plan in a repository without commits = %v, want ErrNoCommits", err)
	}
	dir := repo(t)
	info := create(t, dir)
	if _, err := worktree.Plan(ctx, dir, info.Path, "holon/other"); !errors.Is(err, worktree.ErrExists) {
		t.Errorf("Plan at an existing path = %v, want ErrExists", err)
	}
	if _, err := worktree.Plan(ctx, dir, filepath.Join(t.TempDir(), "wt2"), info.Branch); !errors.Is(err, worktree.ErrExists) {
		t.Errorf("Plan with an existing branch = %v, want ErrExists", err)
	}
	if _, err := worktree.Plan(ctx, filepath.Join(plain, "missing"), filepath.Join(t.TempDir(), "wt3"), "holon/y"); err == nil {
		t.Error("Plan from a missing root succeeded")
	}
}

// TestPlanThenMake: Plan makes nothing; Make makes the worktree from the
// planned commit even after HEAD moved, is a no-op once made, and makes it
// again on its branch when its directory was lost.
func TestPlanThenMake(t *testing.T) {
	ctx := context.Background()
	dir := repo(t)
	info, err := worktree.Plan(ctx, dir, filepath.Join(t.TempDir(), "wt", "task_9"), "holon/task_9")
	if err != nil {
		t.Fatal(err)
	}
	if exists(info.Path) || slices.Contains(branches(t, dir), info.Branch) {
		t.Fatal("Plan made something")
	}
	write(t, filepath.Join(dir, "later.txt"), "later\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "later")
	if err := worktree.Make(ctx, info); err != nil {
		t.Fatalf("Make: %v", err)
	}
	if exists(filepath.Join(info.Path, "later.txt")) || run(t, info.Path, "rev-parse", "HEAD") != info.BaseCommit {
		t.Error("Make did not start from the planned commit")
	}
	write(t, filepath.Join(info.Path, "work.txt"), "w\n")
	if err := worktree.Make(ctx, info); err != nil || !exists(filepath.Join(info.Path, "work.txt")) {
		t.Fatalf("Make again = %v, or it touched the worktree", err)
	}
	if err := os.RemoveAll(info.Path); err != nil {
		t.Fatal(err)
	}
	if err := worktree.Make(ctx, info); err != nil || !exists(filepath.Join(info.Path, "README")) {
		t.Fatalf("Make after its directory was lost = %v", err)
	}
	bad := info
	bad.Path, bad.Branch, bad.BaseCommit = filepath.Join(t.TempDir(), "wt"), "holon/bad", strings.Repeat("0", 40)
	if err := worktree.Make(ctx, bad); err == nil {
		t.Error("Make from a commit that does not exist succeeded")
	}
}
